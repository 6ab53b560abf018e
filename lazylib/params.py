"""scikit-learn style parameters for every estimator and metric of lazylib.

>>> from lazylib.metrics import HVDM
>>> HVDM(normalization="N1").set_params(unseen="uniform").get_params()["unseen"]
'uniform'
"""

from __future__ import annotations

import inspect


class Params:
    """Parameters in the style of scikit-learn: the constructor's keywords, stored under their own names."""

    def get_params(self, deep: bool = False) -> dict:
        """Constructor parameters (``deep`` accepted for compatibility and ignored)."""
        return {n: getattr(self, n) for n in self._init_names()}

    def set_params(self, **params):
        """Set constructor parameters by name; unknown names raise ValueError. They take effect at the next
        ``fit`` (fitted state is kept until then)."""
        names = self._init_names()
        unknown = sorted(set(params) - set(names))
        if unknown:
            raise ValueError(f"{type(self).__name__} has no parameter(s) {unknown}; valid: {names}")
        for name, value in params.items():
            setattr(self, name, value)
        return self

    @classmethod
    def _init_names(cls) -> list[str]:
        return [p for p in inspect.signature(cls.__init__).parameters if p not in ("self", "args", "kwargs")]
