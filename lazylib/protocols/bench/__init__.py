"""Part VI, the bench: the protocol, its command line, budget, checks, methods, results, statistics, claims
and the user-table runs.

Run it as ``python -m lazylib.protocols.bench --full`` (or ``lazylib bench``)."""
