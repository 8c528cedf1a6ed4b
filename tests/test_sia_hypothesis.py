"""Property tests: SIA's fast kernel equals the paper's O(M²N²) programme (the Rust one and the
pure-Python twin) on random small inputs, exact and stochastic, over all rounds (so with
blocked positions), for both decays."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from twins import sia as sia_twin

MAX_EXAMPLES = int(os.environ.get("MTALIGN_HYPOTHESIS_EXAMPLES", "250"))
SETTINGS = settings(max_examples=MAX_EXAMPLES, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
WORDS = ["a", "b", "c", "d", "e"]
sentence = st.lists(st.sampled_from(WORDS), min_size=0, max_size=12)
references = st.lists(st.lists(st.sampled_from(WORDS), min_size=0, max_size=12),
                      min_size=1, max_size=3)
values = st.sampled_from([0.1, 0.25, 0.5, 0.75, 1.0, 1 / 3])
tables = st.dictionaries(st.tuples(st.sampled_from(WORDS), st.sampled_from(WORDS)), values,
                         max_size=8)
alphas = st.sampled_from([0.3, 0.5, 0.8, 1.0])


@SETTINGS
@given(mt=sentence, refs=references, table=tables, alpha=alphas,
       decay=st.sampled_from(["figure", "geometric"]), stochastic=st.booleans())
def test_fast_equals_naive(mtalign, mt, refs, table, alpha, decay, stochastic):
    pairs = [(a, b, v) for (a, b), v in table.items() if a != b]
    sim = mtalign.WordSimilarity.from_pairs(pairs) if stochastic else None
    sia = mtalign.Sia(alpha=alpha, decay=decay, similarity=sim)
    fast = sia.explain(mt, refs)
    naive = sia._explain(mt, refs, naive=True)
    assert fast == naive
    weight = sia_twin.table_weight({(a, b): v for a, b, v in pairs}) if stochastic \
        else sia_twin.exact
    twin = sia_twin.sia(mt, refs, alpha, weight, decay)
    assert fast.score == pytest.approx(twin, abs=1e-12)
    assert sia.batch_score([mt], [refs])[0] == fast.score
