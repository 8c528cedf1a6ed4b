"""Meta-evaluation: judge metrics against people (correlations, significance, clusters).

The vocabulary and the reference numbers are those of google-research/mt-metrics-eval
(correlations by level and grouping, tie calibration, PERM-BOTH, significance clusters);
everything is vectorized with NumPy.

>>> from mtalign import meta
>>> round(meta.correlate([1, 2, 3, 5], [1, 3, 2, 4], level="system").value, 4)
0.8315
"""

from mtalign.meta.clusters import Clusters, Ranked, assign_ranks, clusters
from mtalign.meta.correlation import Correlation, correlate
from mtalign.meta.pairwise import pairwise_accuracy, spa
from mtalign.meta.permutation import SigResult, bootstrap_test, pairs_test, perm_test
from mtalign.meta.systems import SYSTEM_SCORES, SystemScores, system_scores
from mtalign.meta.ties import calibrate
from mtalign.meta.williams import WilliamsResult, williams, williams_test
from mtalign.meta.wmt import wmt_average, wmt_weights

__all__ = ["SYSTEM_SCORES", "Clusters", "Correlation", "Ranked", "SigResult",
           "SystemScores", "WilliamsResult", "assign_ranks", "bootstrap_test", "calibrate",
           "clusters", "correlate", "pairs_test", "pairwise_accuracy", "perm_test", "spa",
           "system_scores", "williams", "williams_test", "wmt_average", "wmt_weights"]
