"""Feature weights learnt from training data: WOM's leave-one-out update rule (Payne & Edwards 1998, Eq. 7),
mean difference weighting and information gain (Howe & Cardie), and a k-NN path for set-valued features.

VDM value weights are computed by :func:`lazylib.metrics.value_weights`.
"""

from lazylib.weighting.mdw import (
    MDW,
    MDWMVDM,
    FeatureDifference,
    IGWeighted,
    MDWResult,
    equal_width_bins,
    information_gain,
    mdw_components,
    mdw_weights,
    mean_difference,
    set_difference,
)
from lazylib.weighting.wom import LearnedWOM, WOMWeights, wom_weights

__all__ = ["FeatureDifference", "IGWeighted", "LearnedWOM", "MDW", "MDWMVDM", "MDWResult", "WOMWeights",
           "equal_width_bins", "information_gain", "mdw_components", "mdw_weights", "mean_difference",
           "set_difference", "wom_weights"]
