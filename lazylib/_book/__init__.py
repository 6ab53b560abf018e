"""The book build's Sphinx extensions (loaded through ``_config.yml``'s ``extra_extensions``): MathJax served
offline and no whole-book figure numbers (:mod:`lazylib._book.offline_html`), and every chapter executed once per
CI run (:mod:`lazylib._book.execute_once`). Not part of lazylib's public API; nothing in lazylib imports them."""
