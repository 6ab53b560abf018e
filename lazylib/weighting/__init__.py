"""Attribute weights learnt from training data: WOM's leave-one-out update rule (Payne & Edwards 1998, Eq. 7).

VDM value weights are computed by :func:`lazylib.metrics.value_weights`.
"""

from lazylib.weighting.wom import LearnedWOM, WOMWeights, wom_weights

__all__ = ["LearnedWOM", "WOMWeights", "wom_weights"]
