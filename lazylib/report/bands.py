"""The one fidelity band of a published number (:func:`prediction_band`): the prediction interval for one new run of
our protocol (or the average of r new runs), on the logit scale of a bounded quantity (:data:`PERCENT`), widened by
half a unit of the last digit the paper printed; its definition in words (:func:`band_definition`) and the typed
note of a number outside it (:func:`reading_note`). The verdict rules of the claims are in
:mod:`lazylib.report.verdicts`, which also offers these names to the chapters.

>>> band = prediction_band([68.2, 67.9, 68.4, 68.1, 67.8], digits=1)
>>> band.contains(68.0), band.n
(True, 5)
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
from scipy import special, stats

from lazylib._validation import Boolean, Integer, Real, check
from lazylib.column_stats import from_units, in_units, safe_exponents

#: The confidence level of every prediction band.
LEVEL = 0.95


def rounding(digits: int) -> float:
    """Half a unit of the last printed digit: ``digits`` decimals printed (1 for "68.0", 0 for "68")."""
    return 0.5 * 10.0 ** (-check("digits", digits, DIGITS))


#: The decimals a published number prints: a whole number from 0.
DIGITS = Integer(low=0)
#: A prediction level: strictly between 0 and 1.
LEVELS = Real(low=0, high=1, open_low=True, open_high=True)
#: How many runs a published number averages: a whole number from 1 (one run).
AVERAGED = Integer(low=1)


def _check_band_parameters(digits, level, deterministic, averaged) -> tuple[int, float, bool, int]:
    """The parameters of a band checked (each named with its value and what is allowed) and converted."""
    return (
        check("digits", digits, DIGITS),
        check("level", level, LEVELS),
        check("deterministic", deterministic, Boolean()),
        check("averaged", averaged, AVERAGED),
    )


#: The bounds of a percentage (an accuracy, a share): a band of such a quantity is computed on the logit scale.
PERCENT = (0.0, 100.0)


def _printed(averaged: int) -> str:
    return "one run" if averaged == 1 else f"the average of {averaged} runs"


def band_definition(
    n: int,
    digits: int,
    *,
    level: float = LEVEL,
    deterministic: bool = False,
    averaged: int = 1,
    bounds: tuple[float, float] | None = None,
) -> str:
    """The one-line definition of a band, to show with every table of bands (``n`` runs, the other parameters as
    for :func:`prediction_band`)."""
    n = check("n", n, Integer(low=1))
    digits, level, deterministic, averaged = _check_band_parameters(digits, level, deterministic, averaged)
    half = f"{rounding(digits):g}"
    if deterministic:
        return (
            f"deterministic protocol (one run, a fixed split or a worked example): our value ± {half}, half a "
            "unit of the published last digit"
            + (f", kept within [{bounds[0]:g}, {bounds[1]:g}]" if bounds is not None else "")
        )
    what = "one new run" if averaged == 1 else f"the average of {averaged} new runs"
    scale = ""
    if bounds is not None:
        scale = (
            f", computed on the logit scale of the bounded range [{bounds[0]:g}, {bounds[1]:g}] (runs at a bound "
            f"moved in by {half}) so that it never crosses a bound"
        )
    return (
        f"{level:.0%} prediction interval for {what} from {n} independent runs "
        f"(mean ± t·sd·√({'1' if averaged == 1 else f'1/{averaged}'} + 1/{n})){scale}, widened by ± {half}, half a "
        "unit of the published last digit"
    )


@dataclass(frozen=True)
class Band:
    """Where one run (or the average of ``averaged`` runs) of our protocol would fall, widened by the rounding.

    Attributes
    ----------
    low, high : float
        The band's ends (rounding included).
    centre : float
        The mean of our runs (the reproduced value).
    n : int
        The number of runs.
    sd : float
        Their standard deviation (ddof 1; 0 for a deterministic protocol).
    deterministic : bool
        True when the protocol has one possible run (a fixed split, a worked example).
    digits : int
        Decimals the published value prints.
    level : float
        The prediction level.
    averaged : int
        How the published number was made: 1 for one run, r for the average of r runs.
    bounds : tuple of float or None
        The range the quantity cannot leave (``(0, 100)`` for a percentage), or None.
    crossed : bool
        True when the band on the linear scale would have crossed a bound (the bound changed this band).
    """

    low: float
    high: float
    centre: float
    n: int
    sd: float
    deterministic: bool
    digits: int
    level: float = LEVEL
    averaged: int = 1
    bounds: tuple[float, float] | None = None
    crossed: bool = False

    @property
    def definition(self) -> str:
        """One line saying how the band was computed (shown with every table of bands)."""
        return band_definition(
            self.n,
            self.digits,
            level=self.level,
            deterministic=self.deterministic,
            averaged=self.averaged,
            bounds=self.bounds,
        )

    @property
    def half_width(self) -> float:
        """Half the band's width (rounding included)."""
        return (self.high - self.low) / 2

    def contains(self, value) -> bool:
        """Whether ``value`` lies inside the band."""
        return bool(self.low <= float(value) <= self.high)


def _check_bounds(bounds, values) -> tuple[float, float] | None:
    if bounds is None:
        return None
    try:
        low, high = (float(b) for b in bounds)
    except (TypeError, ValueError):
        raise ValueError(f"bounds must be a pair (low, high) of numbers, got {bounds!r}") from None
    if not low < high:
        raise ValueError(f"bounds must satisfy low < high, got {bounds!r}")
    if ((values < low) | (values > high)).any():
        raise ValueError(f"a run lies outside the bounds [{low:g}, {high:g}]: {values.min():g} to {values.max():g}")
    return low, high


def prediction_band(
    runs,
    *,
    digits: int,
    level: float = LEVEL,
    deterministic: bool = False,
    averaged: int = 1,
    bounds: tuple[float, float] | None = None,
) -> Band:
    """The fidelity band of a published number: where one new run (or the average of r) of our protocol would fall.

    Parameters
    ----------
    runs : array-like of float
        The values of independent repetitions of our protocol (one per fold seed, generator seed...): at least
        two, and by the book's rule at least 10 where a run costs seconds, at least 5 elsewhere. With
        ``deterministic=True``, exactly one value.
    digits : int
        The decimals the published value prints (1 for "68.0"): the band is widened by half a unit of it.
    level : float, default 0.95
        The prediction level.
    deterministic : bool, default False
        The protocol has one possible run (a fixed published split, a worked example): the band is the value
        widened by the rounding only.
    averaged : int, default 1
        How the paper made its number: 1 when it printed one run, r when it printed the average of r runs (each
        like one of ``runs``); the band is then the prediction interval for the average of r new runs.
    bounds : (float, float), optional
        The range the quantity cannot leave, e.g. :data:`PERCENT` for an accuracy or a share. The interval is then
        computed on the logit scale of that range and mapped back, so it never crosses a bound; a run lying on a
        bound is first moved in by half a unit of the printed digit (the logit of a bound is infinite). The
        rounding widening is clipped at the bounds.

    Returns
    -------
    Band
        ``mean ± t_{(1+level)/2, n-1} · sd · sqrt(1/averaged + 1/n) ± rounding`` (on the logit scale when
        ``bounds`` is given).

    Notes
    -----
    A published number is one run of the paper's protocol, or the average of a stated number of runs, not a mean
    of infinitely many, so the band is a prediction interval for what the paper printed (not a confidence
    interval for our mean, which shrinks with more runs of ours). The runs are assumed roughly normal (on the
    logit scale for a bounded quantity); with few runs the t quantile widens the band accordingly. ``crossed``
    says whether the interval on the linear scale would have crossed a bound.

    Examples
    --------
    >>> b = prediction_band([80.0, 81.0, 82.0], digits=2)
    >>> round(b.low, 3), round(b.high, 3)
    (76.027, 85.973)
    >>> prediction_band([0.38], digits=2, deterministic=True).high
    0.385
    >>> b = prediction_band([96.0, 100.0, 98.0, 100.0], digits=1, bounds=PERCENT)
    >>> b.high <= 100.0, b.crossed
    (True, True)
    >>> a = prediction_band([80.0, 81.0, 82.0], digits=2, averaged=10)
    >>> round(a.low, 3), round(a.high, 3)
    (78.163, 83.837)
    """
    values = np.asarray(runs, dtype=float).ravel()
    if not np.isfinite(values).all():
        raise ValueError("prediction_band needs finite run values (a NaN or inf was given)")
    digits, level, deterministic, averaged = _check_band_parameters(digits, level, deterministic, averaged)
    half = rounding(digits)
    bounds = _check_bounds(bounds, values)
    lo, hi = bounds if bounds is not None else (-math.inf, math.inf)
    if deterministic:
        if len(values) != 1:
            raise ValueError(f"a deterministic protocol has one run, got {len(values)} values")
        v = float(values[0])
        return Band(max(v - half, lo), min(v + half, hi), v, 1, 0.0, True, int(digits), level, averaged, bounds)
    if len(values) < 2:
        raise ValueError(
            f"prediction_band needs at least two independent runs, got {len(values)} (pass "
            "deterministic=True for a protocol with one possible run)"
        )
    n = len(values)
    quantile = float(stats.t.ppf((1 + level) / 2, n - 1)) * math.sqrt(1 / averaged + 1 / n)
    centre, sd, linear = _linear_band(values, quantile)
    if bounds is None:
        return Band(linear[0] - half, linear[1] + half, centre, n, sd, False, int(digits), level, averaged)
    width = hi - lo
    if not math.isfinite(width):
        raise ValueError(f"bounds {bounds!r} span more than the largest float: rescale the runs and the bounds")
    shares = (np.clip(values, lo + half, hi - half) - lo) / width
    logits = np.log(shares) - np.log1p(-shares)
    z_mean, z_sd = float(logits.mean()), _sd(logits)
    ends = [lo + width * float(special.expit(z_mean + sign * quantile * z_sd)) for sign in (-1, 1)]
    if z_sd == 0.0:  # equal runs: no spread to predict from, the band is our value widened by the rounding
        ends = [centre, centre]
    crossed = bool(linear[0] - half < lo or linear[1] + half > hi)
    low, high = max(min(ends[0], centre) - half, lo), min(max(ends[1], centre) + half, hi)
    return Band(low, high, centre, n, sd, False, int(digits), level, averaged, bounds, crossed)


def _linear_band(values: np.ndarray, quantile: float) -> tuple[float, float, tuple[float, float]]:
    """``(centre, sd, (centre - quantile sd, centre + quantile sd))`` of the runs, computed in a power-of-two unit
    (exact) when they lie beyond :data:`lazylib.column_stats.SAFE_RANGE`, so runs near 1.7e308 neither overflow
    their sum nor their spread; a ValueError when the band itself lies beyond the largest float."""
    e = int(safe_exponents(np.abs(values).max()))
    u = in_units(values, e)
    centre, sd = float(u.mean()), _sd(u)
    ends = from_units(np.array([centre - quantile * sd, centre + quantile * sd]), e)
    if not np.isfinite(ends).all():
        raise ValueError(
            f"the band of runs {values.min():.3g} to {values.max():.3g} reaches beyond the largest float "
            f"({ends[0]:.3g} to {ends[1]:.3g}): rescale the runs (divide them by a power of ten)"
        )
    return float(from_units(centre, e)), float(from_units(sd, e)), (float(ends[0]), float(ends[1]))


def _sd(values: np.ndarray) -> float:
    """The standard deviation (ddof 1), 0 when the runs are equal up to rounding error."""
    sd = float(values.std(ddof=1))
    return 0.0 if sd <= 1e-12 * max(1.0, abs(float(values.mean()))) else sd


def reading_note(
    published,
    readings: Mapping,
    *,
    digits: int,
    words: str = "",
    averaged: int = 1,
    bounds: tuple[float, float] | None = None,
    deterministic: bool = False,
) -> tuple[str, str]:
    """The typed note of a published number outside its band, from the alternative readings the book computed.

    Parameters
    ----------
    published : float
        The printed value.
    readings : mapping
        Reading name -> the runs of our protocol under that reading (as for :func:`prediction_band`). Empty when
        no reading was computed.
    digits : int
        As for :func:`prediction_band`: each reading's band is computed as the primary one is.
    words : str, default ""
        What the chapter says besides the readings (the reading it took, what remains unknown).
    averaged : int, default 1
        As for :func:`prediction_band`.
    bounds : (float, float), optional
        As for :func:`prediction_band`.
    deterministic : bool, default False
        As for :func:`prediction_band`.

    Returns
    -------
    (note, note_kind)
        ``"explained"`` with the readings whose band holds the published value named first, ``"tested"`` with
        every reading's mean when none does, ``"untested"`` (``words`` alone) when no reading was computed.

    Examples
    --------
    >>> note, kind = reading_note(70.0, {"ties all": [69.8, 70.1, 70.3], "ties first": [65.0, 65.2, 64.9]}, digits=1)
    >>> kind
    'explained'
    >>> print(note)
    explained: inside the band under ties all (mean 70.07); readings computed: ties all 70.07, ties first 65.03
    >>> reading_note(80.0, {"ties first": [65.0, 65.2, 64.9]}, digits=1, words="unexplained")
    ('unexplained; readings computed, none holds it: ties first 65.03', 'tested')
    """
    digits, _, deterministic, averaged = _check_band_parameters(digits, LEVEL, deterministic, averaged)
    published = float(published)
    if not math.isfinite(published):
        raise ValueError(f"reading_note needs a finite published value, got {published}: no reading can hold it")
    means, holding = {}, []
    for name, runs in readings.items():
        values = np.asarray(runs, dtype=float).ravel()
        band = prediction_band(values, digits=digits, averaged=averaged, bounds=bounds, deterministic=deterministic)
        means[name] = band.centre
        if band.contains(published):
            holding.append(name)
    listed = ", ".join(f"{name} {mean:.{max(int(digits), 2)}f}" for name, mean in means.items())
    words = str(words).strip()
    if holding:
        named = ", ".join(f"{name} (mean {means[name]:.{max(int(digits), 2)}f})" for name in holding)
        note = f"explained: inside the band under {named}; readings computed: {listed}"
        return (f"{words}; {note}" if words else note), "explained"
    if means:
        note = f"readings computed, none holds it: {listed}"
        return (f"{words}; {note}" if words else note), "tested"
    if not words:
        raise ValueError("reading_note needs the readings computed or the words of the note")
    return words, "untested"
