"""Part V, Howe & Cardie (1997): the protocol, its readings, its claims and the method's claims."""
