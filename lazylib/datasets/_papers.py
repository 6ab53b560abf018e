"""Which of the five papers uses which vendored data set (as the papers themselves name them)."""

from __future__ import annotations

#: Paper key (the bibliography key of ``book/references.bib``) -> vendored data sets it names.
#: Wilson & Martinez (1997) ran 48 data sets whose list did not survive in our copy of the paper: only the
#: two it names in the text are listed. Guvenir (1998) does not name its six UCI data sets.
PAPER_DATASETS: dict[str, tuple[str, ...]] = {
    "payne1998": (
        "breast-cancer",
        "lung-cancer",
        "lymphography",
        "primary-tumor",
        "promoters",
        "tic-tac-toe",
        "house-votes-84",
        "zoo",
    ),
    "payne2000": (
        "liver-disorders",
        "ionosphere",
        "pima-indians-diabetes",
        "sonar",
        "breast-cancer-wisconsin",
        "wdbc",
        "wpbc",
        "balance-scale",
        "glass",
        "iris",
        "wine",
    ),
    "guvenir1998": (),
    "wilson1997": ("iris", "hypothyroid"),
    "howecardie": ("soybean-large", "lymphography", "promoters", "ionosphere"),
}


def papers_using(name: str) -> list[str]:
    """Paper keys whose experiments name the data set ``name`` (one of :func:`lazylib.datasets.list_datasets`).

    Raises
    ------
    UnknownDatasetError
        For a name that is not vendored (the message suggests close ones).
    """
    from lazylib._validation import suggest
    from lazylib.datasets._loader import UnknownDatasetError, list_datasets

    names = list_datasets()
    if name not in names:
        raise UnknownDatasetError(f"no data set named {name!r}{suggest(name, names)} (see list_datasets())")
    return [paper for paper, names in PAPER_DATASETS.items() if name in names]
