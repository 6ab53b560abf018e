"""Part I, Payne & Edwards (1998): the protocol, the facts its rules read, and its claims."""
