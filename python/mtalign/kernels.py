"""The raw kernels on sequences of ints (token ids), for people building their own metrics.

Any Python ints work as symbols; only equality matters.

>>> from mtalign import kernels
>>> kernels.lcs_length([1, 2, 3, 4], [1, 5, 3, 4])
3
>>> kernels.wlcs([1, 2, 3, 4, 5, 6, 7], [1, 2, 3, 4, 8, 9, 10], 2.0)
16.0
>>> kernels.ngram_overlap([1, 1, 1, 2], [1, 2, 3, 4, 1, 5], 1)
(3, 4, 6)
>>> kernels.skip_bigram_overlap([1, 5, 3, 4], [1, 2, 3, 4])
(3, 6, 6)
>>> [round(v, 4) for v in kernels.dcs([1, 2, 3, 4, 5], [5, 1, 2, 6, 4])]  # reference first
[0.6, 0.4899, 0.2828, 0.5657]
>>> kernels.edit_distance([1, 2, 3, 4], [1, 3, 4, 5])  # word-level Levenshtein (WER)
2
"""

from mtalign._mtalign import (
    dcs,
    edit_distance,
    lcs_length,
    lcs_length_dp,
    ngram_overlap,
    skip_bigram_overlap,
    wlcs,
)

__all__ = ["dcs", "edit_distance", "lcs_length", "lcs_length_dp", "ngram_overlap",
           "skip_bigram_overlap", "wlcs"]
