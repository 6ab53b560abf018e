"""The stored full run's guard: read only by the code that wrote it, or by code declared to give its numbers.

Part VI ranks a run too long to repeat at every build, stored in ``benchmarks/full_run/`` with the
:func:`~lazylib.report.book_files.inputs_fingerprint` of the code that made it (``full_run.json``).
:func:`lazylib.protocols.bench.results.load_full_run` calls :func:`check_artifact` on it: when the current code's
fingerprint differs, the stored rows are used only if that fingerprint is declared, in ``same_numbers.json``
beside the artifact, to give the same numbers, with who declared it, when and why (the evidence: Part VI's page
``book/bench/02_ranking.md`` re-executes the book's data sets and requires every row to equal the artifact's bit
for bit). Otherwise it fails, naming the command that regenerates the run and the one that declares:
``python -m lazylib.protocols.bench.guard --verify --by NAME`` re-executes that subset and declares the
current fingerprint only when every row is equal (``--why TEXT`` instead of ``--verify`` declares on other
evidence). A declaration names the artifact's fingerprint, so a regenerated run starts with none.

>>> import json, tempfile
>>> from pathlib import Path
>>> folder = Path(tempfile.mkdtemp())
>>> check_artifact({"inputs_fingerprint": "aaa"}, folder, current="aaa")
'written by the current code (inputs fingerprint aaa)'
>>> _ = declare(folder, by="A. Reviewer", why="Part VI 02 found every row equal", artifact="aaa", current="bbb")
>>> check_artifact({"inputs_fingerprint": "aaa"}, folder, current="bbb")[:47]
'inputs fingerprint bbb declared by A. Reviewer '
"""

from __future__ import annotations

import datetime
import json
import os
from pathlib import Path

#: Beside the artifact: the fingerprints declared to give the artifact's numbers.
DECLARATIONS = "same_numbers.json"

#: The command that regenerates the stored full run (about an hour on two cores, resumable).
REGENERATE = "python -m lazylib.protocols.bench --full --n-jobs 2 --results DIR --artifact benchmarks/full_run"

#: The fields every declaration has.
FIELDS = ("fingerprint", "by", "date", "why")


class StaleArtifact(RuntimeError):
    """The stored full run was written by other code than the current one, and no declaration covers it."""


def _current() -> str:
    from lazylib.report.book_files import inputs_fingerprint

    return inputs_fingerprint()


def declarations(folder: str | os.PathLike, artifact: str | None = None) -> list[dict]:
    """The declarations of :data:`DECLARATIONS` in ``folder`` (empty when there is no such file).

    Parameters
    ----------
    folder : path
        The artifact's folder.
    artifact : str, optional
        The artifact's fingerprint: the declarations are refused when they were made for another artifact.

    Returns
    -------
    list of dict
        One per declared fingerprint, with the fields :data:`FIELDS`.

    Raises
    ------
    ValueError
        A damaged file, a declaration without one of :data:`FIELDS` (or with an empty one), or declarations
        made for another artifact than ``artifact``.
    """
    path = Path(folder) / DECLARATIONS
    if not path.is_file():
        return []
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as err:
        raise ValueError(f"{path} is not JSON ({err}): fix it or delete it and declare again") from None
    entries = data.get("declared") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        raise ValueError(f"{path} needs an object with 'artifact' and a list 'declared'")
    for entry in entries:
        missing = [f for f in FIELDS if not (isinstance(entry, dict) and str(entry.get(f, "")).strip())]
        if missing:
            raise ValueError(f"{path}: a declaration lacks {missing}: each says which fingerprint, who, when and why")
    if artifact is not None and data.get("artifact") != artifact:
        raise ValueError(
            f"{path} declares fingerprints for the artifact {data.get('artifact')}, but the stored run is {artifact}: "
            "a regenerated run starts with no declaration (delete the file)"
        )
    return entries


def check_artifact(run: dict, folder: str | os.PathLike, *, current: str | None = None) -> str:
    """Whether the stored run may be read by the current code: how, in words, or :class:`StaleArtifact`.

    Parameters
    ----------
    run : dict
        The artifact's ``full_run.json`` (its ``inputs_fingerprint``).
    folder : path
        The artifact's folder (where :data:`DECLARATIONS` lies).
    current : str, optional
        The current code's fingerprint; default :func:`~lazylib.report.book_files.inputs_fingerprint`.

    Returns
    -------
    str
        "written by the current code ..." or the declaration that covers the current fingerprint.

    Raises
    ------
    StaleArtifact
        When the fingerprints differ and no declaration names the current one (the message gives both commands).
    ValueError
        When ``run`` records no fingerprint.
    """
    stored = run.get("inputs_fingerprint") if isinstance(run, dict) else None
    if not stored:
        raise ValueError(f"the stored run in {folder} records no inputs_fingerprint: regenerate it ({REGENERATE})")
    current = current if current is not None else _current()
    if current == stored:
        return f"written by the current code (inputs fingerprint {stored[:12]})"
    for entry in declarations(folder, stored):
        if entry["fingerprint"] == current:
            return (
                f"inputs fingerprint {current[:12]} declared by {entry['by']} on {entry['date']} to give the "
                f"numbers of the stored run ({stored[:12]}): {entry['why']}"
            )
    raise StaleArtifact(
        f"the stored full run in {folder} was written by other code (inputs fingerprint {stored[:12]}, now "
        f"{current[:12]}) and no declaration says the changes move no number. Regenerate it ({REGENERATE}; about an "
        "hour on two cores), or declare that the changes move no number: python -m lazylib.protocols.bench.guard "
        "--verify --by NAME re-executes the book's subset (a few minutes) and declares only when every row equals "
        "the stored one bit for bit"
    )


def declare(
    folder: str | os.PathLike,
    *,
    by: str,
    why: str,
    artifact: str | None = None,
    current: str | None = None,
) -> dict:
    """Declare that the current code's fingerprint gives the stored run's numbers: append it to :data:`DECLARATIONS`.

    Parameters
    ----------
    folder : path
        The artifact's folder.
    by, why : str
        Who declares, and the evidence (name the check that found the rows equal, and where it ran).
    artifact, current : str, optional
        The artifact's fingerprint (default: its ``full_run.json``'s) and the one declared (default: the
        current code's).

    Returns
    -------
    dict
        The declaration written (or the one already there for this fingerprint).

    Raises
    ------
    ValueError
        An empty ``by`` or ``why``, or no artifact's fingerprint to declare against.
    """
    if not str(by).strip() or not str(why).strip():
        raise ValueError("a declaration needs who makes it (by=...) and why the numbers are the same (why=...)")
    folder = Path(folder)
    if artifact is None:
        meta = folder / "full_run.json"
        artifact = json.loads(meta.read_text()).get("inputs_fingerprint") if meta.is_file() else None
    if not artifact:
        raise ValueError(f"no stored run with an inputs_fingerprint in {folder} to declare against")
    entries = declarations(folder, artifact)
    current = current if current is not None else _current()
    for entry in entries:
        if entry["fingerprint"] == current:
            return entry
    entry = {"fingerprint": current, "by": str(by).strip(), "date": datetime.date.today().isoformat(), "why": why}
    data = {"artifact": artifact, "declared": [*entries, entry]}
    tmp = folder / f".{DECLARATIONS}.{os.getpid()}.tmp"  # written whole, then renamed: never half a file
    tmp.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    tmp.replace(folder / DECLARATIONS)
    return entry


def _verify(folder: Path, by: str, n_jobs: int) -> dict:
    """Re-execute the book's subset (:data:`lazylib.protocols.bench.protocol.BOOK`, Part VI 02's check), compare it with
    the stored rows, and declare the current fingerprint only when every row is equal bit for bit."""
    from lazylib.protocols.bench import protocol as bench
    from lazylib.protocols.bench import results as bench_results

    fingerprint = _current()  # the code verified is the code that starts, not whatever the files hold at the end
    full = bench_results.read_run(folder / "full_run.csv.gz")
    subset = bench.run(bench.BOOK, n_jobs=n_jobs, cache_dir=bench.default_cache_dir())
    now = _current()
    if now != fingerprint:
        raise RuntimeError(
            f"lazylib's files changed while the subset re-executed (fingerprint {fingerprint[:12]} at the start, "
            f"{now[:12]} now): nothing declared; run the check again once the code is final"
        )
    differing = bench_results.differing_rows(subset, full)
    if len(differing):
        raise StaleArtifact(
            f"{len(differing)} of {len(subset)} re-executed rows differ from the stored run's: regenerate it "
            f"({REGENERATE})\n{differing.head(20)}"
        )
    why = (
        f"the current code re-executed the book's {subset['dataset'].nunique()} data sets "
        f"(lazylib.protocols.bench.protocol.BOOK, {len(subset):,} rows) and every row equals the stored run's bit for "
        "bit "
        "(bench_results.differing_rows, the check of book/bench/02_ranking.md; "
        "python -m lazylib.protocols.bench.guard --verify)"
    )
    return declare(folder, by=by, why=why, current=fingerprint)


def main(argv: list[str] | None = None) -> int:
    """``python -m lazylib.protocols.bench.guard [--verify] --by NAME [--why TEXT] [--artifact FOLDER]``: declare
    the current code's fingerprint (``--verify``: only after re-executing the book's subset and finding every row
    equal); with no option, say whether the stored run may be read."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m lazylib.protocols.bench.guard", description=main.__doc__)
    parser.add_argument("--artifact", default="benchmarks/full_run", help="the stored run's folder")
    parser.add_argument("--by", help="who declares")
    parser.add_argument("--why", help="the evidence that the numbers are the same (without --verify)")
    parser.add_argument("--verify", action="store_true", help="re-execute the book's subset, declare if all equal")
    parser.add_argument("--n-jobs", type=int, default=2, help="processes for --verify")
    args = parser.parse_args(argv)
    folder = Path(args.artifact)
    if args.verify:
        print(json.dumps(_verify(folder, args.by or "", args.n_jobs), indent=1))
    elif args.by or args.why:
        print(json.dumps(declare(folder, by=args.by or "", why=args.why or ""), indent=1))
    else:
        print(check_artifact(json.loads((folder / "full_run.json").read_text()), folder))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
