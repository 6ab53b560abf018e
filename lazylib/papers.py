"""The registry of the book's Parts: the five papers and the bench, typed in once.

Everything that lists the Parts reads :data:`PARTS`: the README's and the front page's tables (rendered by
:func:`readme_table` and :func:`intro_table`; ``tests/unit/test_papers.py`` checks both files hold them), the
scorecard appendix, :mod:`lazylib.protocols`, :data:`lazylib.papers.PAPER_DATASETS`, ``CITATION.cff`` (checked
by a test), and each chapter's scorecard record (:meth:`lazylib.report.scorecard.Chapter.here` finds its Part
from the chapter's folder). A paper's ``key`` is its one spelling in the code (protocol module, paper tests,
records); ``citation`` is its key in ``book/references.bib``.

>>> from lazylib.papers import part_of
>>> part_of("howe_cardie_mdw").part, part_of("howe_cardie_mdw").key
('V', 'howe_cardie')
>>> print(readme_table().splitlines()[2])
| I | Payne & Edwards (1998), *Implicit Feature Selection with the Value Difference Metric* | `book/payne1998_vdm/` |
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Paper:
    """One Part of the book: a paper, or the bench that compares them all (``citation`` None).

    Parameters
    ----------
    key : str
        The one spelling in the code: protocol module, ``tests/papers/test_<key>.py``, scorecard records.
    part : str
        The Part's Roman numeral.
    citation : str or None
        The key in ``book/references.bib`` (None: not a paper).
    label : str
        How the book names it in short ("Payne & Edwards (1998)").
    title : str
        The paper's title (for the bench, what the Part does).
    folder : str
        The Part's folder under ``book/``.
    protocol : str or None
        Its package in :mod:`lazylib.protocols` (None: the public API alone runs it).
    datasets : tuple of str
        The vendored data sets the paper's experiments name.
    subject : str
        What the README adds after the title, in parentheses ("" for nothing).
    question : str
        The question the Part asks (the front page's table).
    """

    key: str
    part: str
    citation: str | None
    label: str
    title: str
    folder: str
    protocol: str | None
    datasets: tuple[str, ...]
    subject: str
    question: str

    @property
    def heading(self) -> str:
        """The Part's name in headings: the paper's short name, or for the bench its label and what it does."""
        return self.label if self.citation else f"{self.label}: {self.title}"


#: The Parts, in the book's order.
PARTS: tuple[Paper, ...] = (
    Paper(
        key="payne1998",
        part="I",
        citation="payne1998",
        label="Payne & Edwards (1998)",
        title="Implicit Feature Selection with the Value Difference Metric",
        folder="payne1998_vdm",
        protocol="payne1998",
        datasets=(
            "breast-cancer",
            "lung-cancer",
            "lymphography",
            "primary-tumor",
            "promoters",
            "tic-tac-toe",
            "house-votes-84",
            "zoo",
        ),
        subject="",
        question="Do the value weights inside Stanfill and Waltz's VDM act as an implicit feature selector?",
    ),
    Paper(
        key="payne2000",
        part="II",
        citation="payne2000",
        label="Payne & Edwards (2000)",
        title="Dimensionality Reduction through Sub-Space Mapping for Nearest Neighbour Algorithms",
        folder="payne2000_subspace",
        protocol="payne2000",
        datasets=(
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
        subject="",
        question="Can correspondence analysis map instances into a smaller space where 1-NN works better?",
    ),
    Paper(
        key="guvenir1998",
        part="III",
        citation="guvenir1998",
        label="Güvenir (1998)",
        title="A Classification Learning Algorithm Robust to Irrelevant Features",
        folder="guvenir1998_vfi5",
        protocol="guvenir1998",
        datasets=(),  # the paper does not name its six UCI data sets
        subject="VFI5",
        question="Is voting on per-feature intervals (VFI5) immune to irrelevant features, unlike k-NN?",
    ),
    Paper(
        key="wilson1997",
        part="IV",
        citation="wilson1997",
        label="Wilson & Martinez (1997)",
        title="Improved Heterogeneous Distance Functions",
        folder="wilson1997_hdf",
        protocol="wilson1997",
        # 48 data sets, whose list did not survive in our copy of the paper: the two its text names
        datasets=("iris", "hypothyroid"),
        subject="HVDM, IVDM, WVDM",
        question="Which heterogeneous distance (HEOM, HVDM, DVDM, IVDM, WVDM) handles mixed data best?",
    ),
    Paper(
        key="howe_cardie",
        part="V",
        citation="howecardie",
        label="Howe & Cardie",
        title="Weighting Unusual Feature Types",
        folder="howe_cardie_mdw",
        protocol="howe_cardie",
        datasets=("soybean-large", "lymphography", "promoters", "ionosphere"),
        subject="mean difference weighting",
        question="Can one weighting scheme (mean difference weighting) calibrate and weight any kind of feature?",
    ),
    Paper(
        key="bench",
        part="VI",
        citation=None,
        label="Beyond the papers",
        title="every method of the five on one bench, ranked with the field's statistics",
        folder="bench",
        protocol="bench",
        datasets=(),
        subject="",
        question="Which of these methods should one use on which kind of data, and how sure is that?",
    ),
)

#: The five papers (the Parts with a citation).
PAPERS: tuple[Paper, ...] = tuple(p for p in PARTS if p.citation)
#: Paper key -> the vendored data sets its experiments name.
PAPER_DATASETS: dict[str, tuple[str, ...]] = {p.key: p.datasets for p in PAPERS}


def part_of(name: str) -> Paper:
    """The Part whose key, Roman numeral or book folder is ``name``.

    Parameters
    ----------
    name : str
        A key (``"wilson1997"``), a numeral (``"IV"``) or a folder (``"wilson1997_hdf"``).

    Returns
    -------
    Paper
        Its registry entry.

    Raises
    ------
    ValueError
        For a name that is none of these (listing the folders).
    """
    for paper in PARTS:
        if name in (paper.key, paper.part, paper.folder):
            return paper
    raise ValueError(f"no Part named {name!r}: the Parts are {[p.folder for p in PARTS]} (lazylib.papers.PARTS)")


def readme_table() -> str:
    """The README's table of Parts (Markdown)."""
    rows = ["| Part | Paper | book folder |", "|---|---|---|"]
    for p in PARTS:
        if p.citation:
            paper = f"{p.label}, *{p.title}*" + (f" ({p.subject})" if p.subject else "")
        else:
            paper = p.heading
        rows.append(f"| {p.part} | {paper} | `book/{p.folder}/` |")
    return "\n".join(rows)


def intro_table() -> str:
    """The front page's table of Parts (MyST Markdown, the papers cited from ``book/references.bib``)."""
    rows = ["| Part | Paper | Question it asks |", "|---|---|---|"]
    for p in PARTS:
        source = f"{{cite:t}}`{p.citation}`" if p.citation else f"all {_count(len(PAPERS))}, on one bench"
        rows.append(f"| {p.part} | {source} | {p.question} |")
    return "\n".join(rows)


def _count(n: int) -> str:
    words = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
    return words[n] if n < len(words) else str(n)


if __name__ == "__main__":  # python -m lazylib.papers: the two tables, to paste after editing PARTS
    print(readme_table(), intro_table(), sep="\n\n")
