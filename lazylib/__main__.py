"""``python -m lazylib``: the command line of :mod:`lazylib.cli`."""

from lazylib.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
