"""Feature weights learnt from training data: WOM's leave-one-out update rule (Payne & Edwards 1998, Eq. 7),
mean difference weighting and information gain (Howe & Cardie), with the distances of their tables
(:class:`FeatureDifference`, :class:`MDW`: set-valued features included) and a feature-by-feature path for
set-valued data kept as a cross-check (:mod:`lazylib.weighting.sets`).

VDM value weights are computed by :func:`lazylib.metrics.value_weights`.
"""

from lazylib.weighting.feature_difference import FeatureDifference
from lazylib.weighting.infogain import IGWeighted, equal_width_bins, information_gain
from lazylib.weighting.kinds import set_difference
from lazylib.weighting.mdw import (
    MDW,
    MDWMVDM,
    MDWResult,
    hoeffding_pairs,
    mdw_components,
    mdw_weights,
    mean_difference,
)
from lazylib.weighting.sampling import sampled_mean_difference
from lazylib.weighting.wom import LearnedWOM, WOMWeights, wom_weights

__all__ = [
    "FeatureDifference",
    "IGWeighted",
    "LearnedWOM",
    "MDW",
    "MDWMVDM",
    "MDWResult",
    "WOMWeights",
    "equal_width_bins",
    "hoeffding_pairs",
    "information_gain",
    "mdw_components",
    "mdw_weights",
    "mean_difference",
    "sampled_mean_difference",
    "set_difference",
    "wom_weights",
]
