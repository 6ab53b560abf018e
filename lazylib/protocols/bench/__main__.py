"""The command ``python -m lazylib.protocols.bench``: runs :func:`lazylib.protocols.bench.cli.main`."""

from lazylib.protocols.bench.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
