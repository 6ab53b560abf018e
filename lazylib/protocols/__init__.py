"""What only one Part of the book runs: each paper's experiment protocol, one module per paper.

The estimators, metrics and weightings these protocols use are reusable and live in the rest of :mod:`lazylib`;
a protocol module holds the paper-specific part: how folds, sweeps and repetitions are run, how the paper chooses
its parameters, and how its tables are marked.

=================  =====================================================  ==============================
module             paper                                                  Part (book folder)
=================  =====================================================  ==============================
``payne1998``      Payne & Edwards (1998), VDM and value weights          I (``book/payne1998_vdm``)
``payne2000``      Payne & Edwards (2000), sub-space mapping              II (``book/payne2000_subspace``)
``guvenir1998``    Guvenir (1998), VFI5 and irrelevant features           III (``book/guvenir1998_vfi5``)
``wilson1997``     Wilson & Martinez (1997), heterogeneous distances      IV (``book/wilson1997_hdf``)
``howe_cardie``    Howe & Cardie, mean difference weighting               V (``book/howe_cardie_mdw``)
``bench``          all five: every method on one bench, ranked            VI (``book/bench``)
=================  =====================================================  ==============================

Each protocol module holds its Part's claims as a table of :class:`lazylib.report.verdicts.Claim` rows, judged
and recorded by :meth:`lazylib.report.scorecard.Chapter.judge` (Part I's Table 2 claims so far; Part VI's claim
table predates the shared type).
"""
