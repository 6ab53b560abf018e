"""Part II, Payne & Edwards (2000): the protocol, its claims and the claims about its figures."""
