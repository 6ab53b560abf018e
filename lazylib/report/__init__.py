"""Reader tools for the book: what turns the library's numbers into the pages a reader sees.

- :mod:`~lazylib.report.verdicts`: the verdict rules of every claim, judged under every seed, tie rule and
  reading, with the one fidelity band of a published number from :mod:`~lazylib.report.bands`;
- :mod:`~lazylib.report.scorecard`: every chapter's published numbers beside ours and its judged claims, read
  back by the scorecard appendix, the front page and the Part pages, with the book's files in
  :mod:`~lazylib.report.book_files`, the summaries and headline in :mod:`~lazylib.report.headline` and the
  scorecard page's HTML in :mod:`~lazylib.report.scorecard_html`; each record's id, function and inputs'
  fingerprint, and the check that recomputes its number, in :mod:`~lazylib.report.trace`;
- :mod:`~lazylib.report.reproduction`: each Part's reproduction report from the same records (claim by claim,
  number by number, the readings), with the typed notes of :mod:`~lazylib.report.part_notes`;
- :mod:`~lazylib.report.display`: tables that fit the page;
- :mod:`~lazylib.report.plotting`: the book's figure style;
- :mod:`~lazylib.report.robustness`: the input policy of every metric, found by probing it.

Nothing in :mod:`lazylib` outside this package imports it.
"""
