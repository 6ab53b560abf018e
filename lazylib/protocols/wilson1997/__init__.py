"""Part IV, Wilson & Martinez (1997): the protocol, its marks, the facts its rules read, its claims."""
