"""``python -m lazylib``: the command line of :mod:`lazylib.cli`."""

from lazylib.cli import main

raise SystemExit(main())
