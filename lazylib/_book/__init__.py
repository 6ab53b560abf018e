"""The book build's Sphinx extensions (loaded through ``_config.yml``'s ``extra_extensions``): MathJax served
offline and no whole-book figure numbers (:mod:`lazylib._book.offline_html`), every chapter executed once per
CI run (:mod:`lazylib._book.execute_once`), and each executed page's "Run this chapter" note and executed notebook
(:mod:`lazylib._book.notebooks`). :mod:`lazylib._book.times` writes the time table of ``benchmarks/README.md``
(``make times``).
Not part of lazylib's public API; nothing in lazylib imports them."""
