"""Token ids (mtalign.TokenIds) score exactly as the same ids written as text.

The independent side is each metric's text path on the ids joined by spaces with a
whitespace tokenizer (tercom's own for TER, which splits the same way), and for BLEU
sacrebleu 2.6.0 itself. Random batches cover pads, empty sequences, ids at and above 2^31
(uint32, int64: numbered instead of used as they are), negative ids, several references,
every way in (padded, offsets, a list of arrays) and threads 1 and 2, inline and on the pool.
"""

from __future__ import annotations

import os

import mtalign
import numpy as np
import pytest
import sacrebleu
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mtalign import ConfigError, InputError, TokenIds

MAX_EXAMPLES = int(os.environ.get("MTALIGN_HYPOTHESIS_EXAMPLES", "60"))
SETTINGS = settings(max_examples=MAX_EXAMPLES, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

WS = "whitespace"
ROUGE_VARIANTS = ["rouge1", "rouge2", "rougeL", "rougeW-1.2", "rougeS4", "rougeSU4", "rougeLsum"]

#: Every word-level metric, most used first, as (name, metric). Each scores text with a
#: tokenizer that splits at spaces and leaves digits alone.
METRICS = [
    ("bleu", mtalign.Bleu()),
    ("bleu-ws-eff", mtalign.Bleu(tokenize=WS, effective_order=True)),
    ("bleu-none", mtalign.Bleu(tokenize=WS, smooth="none")),
    ("bleu-floor", mtalign.Bleu(tokenize=WS, smooth="floor")),
    ("bleu-add-k", mtalign.Bleu(tokenize=WS, smooth="add-k")),
    ("bleu-add1", mtalign.Bleu(tokenize=WS, smooth="add1")),
    ("bleu-method3", mtalign.Bleu(tokenize=WS, smooth="method3")),
    ("bleu-method7", mtalign.Bleu(tokenize=WS, smooth="method7", max_order=3)),
    ("rouge", mtalign.Rouge(ROUGE_VARIANTS, tokenize=WS)),
    ("rouge-default", mtalign.Rouge(["rouge1", "rougeL"])),
    ("wer", mtalign.Wer(tokenize=WS)),
    ("per", mtalign.Per(tokenize=WS)),
    ("ter", mtalign.Ter()),
    ("gtm", mtalign.Gtm(tokenize=WS)),
    ("ribes", mtalign.Ribes(tokenize=WS)),
    ("dcs-word", mtalign.Dcs(level="word", tokenize=WS)),
    ("meteor-exact", mtalign.Meteor(stages=["exact"])),
    ("nist", mtalign.Nist(tokenize=WS)),
]
MOST_USED = ["bleu", "rouge", "wer", "ter"]
#: rouge-score's tokenizer drops "-" ("-5" is the word "5"): non-negative ids only.
NON_NEGATIVE = {"rouge-default"}

DTYPES = [np.int32, np.int64, np.uint16, np.uint32]


def texts(seqs: list[np.ndarray]) -> list[str]:
    return [" ".join(str(int(x)) for x in s) for s in seqs]


def make_batch(rng: np.random.Generator, n: int, dtype: type, alphabet: int, max_len: int,
               max_refs: int, big: bool, negative: bool = True, around: int | None = None
               ) -> tuple[list[np.ndarray], list[list[np.ndarray]]]:
    """n hypotheses and 1..max_refs references each, ids over a small alphabet (so there
    are matches), shifted to 2^31 and above when ``big`` (uint32 / int64), or to straddle
    ``around`` (2^15: BLEU's packed keys; 2^21: ids used as they are) where the dtype holds
    it, or negative for int32 / int64 now and then."""
    info = np.iinfo(dtype)
    base = 0
    if around is not None and info.max >= around + alphabet:
        base = around - alphabet // 2
    elif big and info.max >= 2**32 - 1:
        base = 2**31 if dtype == np.uint32 else 2**40
    elif negative and info.min < 0 and rng.random() < 0.3:
        base = -alphabet // 2

    def seq() -> np.ndarray:
        length = int(rng.integers(0, max_len + 1))
        return (rng.integers(0, alphabet, size=length) + base).astype(dtype)

    hyps = [seq() for _ in range(n)]
    refs = [[seq() for _ in range(int(rng.integers(1, max_refs + 1)))] for _ in range(n)]
    return hyps, refs


def hyp_input(hyps: list[np.ndarray], way: str, dtype: type, pad: int) -> object:
    """The hypotheses as one of the ways in."""
    if way == "list":
        return hyps
    lengths = [len(h) for h in hyps]
    if way == "offsets":
        offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
        flat = np.concatenate(hyps) if hyps else np.zeros(0, dtype=dtype)
        return TokenIds.from_offsets(flat.astype(dtype), offsets)
    width = max(lengths, default=0) + 2
    padded = np.full((len(hyps), width), pad, dtype=dtype)
    for i, h in enumerate(hyps):
        padded[i, :len(h)] = h
    if way == "pad_id":
        return TokenIds.from_padded(padded, pad_id=pad)
    return TokenIds.from_padded(padded, lengths=np.array(lengths))


def ref_input(refs: list[list[np.ndarray]]) -> object:
    """One reference each: a TokenIds; several: a list of lists of arrays."""
    if all(len(r) == 1 for r in refs):
        return TokenIds([r[0] for r in refs])
    return refs


def check_same(metric: mtalign.Metric, hyps: list[np.ndarray], refs: list[list[np.ndarray]],
               way: str, dtype: type, threads: int) -> None:
    # The pad id is one the hypotheses never use (below or above every id).
    used = np.concatenate(hyps) if hyps and any(len(h) for h in hyps) else np.zeros(1, dtype)
    info = np.iinfo(dtype)
    pad = int(used.max()) + 1 if int(used.max()) < info.max else int(used.min()) - 1
    ids_h, ids_r = hyp_input(hyps, way, dtype, pad), ref_input(refs)
    text_h, text_r = texts(hyps), [texts(r) for r in refs]
    got = metric.statistics(ids_h, ids_r, threads=threads)
    want = metric.statistics(text_h, text_r, threads=threads)
    np.testing.assert_array_equal(got, want)
    if hyps:
        assert float(metric.corpus_score(ids_h, ids_r, threads=threads)) == \
            float(metric.corpus_score(text_h, text_r, threads=threads))


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(0, 8),
       dtype=st.sampled_from(DTYPES), big=st.booleans(),
       way=st.sampled_from(["list", "offsets", "pad_id", "lengths"]),
       max_refs=st.sampled_from([1, 1, 3]), alphabet=st.sampled_from([2, 5, 40]),
       threads=st.sampled_from([1, 2]), name=st.sampled_from([m for m, _ in METRICS]),
       around=st.sampled_from([None, None, 2**15, 2**21]))
def test_ids_score_as_their_text(seed: int, n: int, dtype: type, big: bool, way: str,
                                 max_refs: int, alphabet: int, threads: int,
                                 name: str, around: int | None) -> None:
    metric = dict(METRICS)[name]
    rng = np.random.default_rng(seed)
    hyps, refs = make_batch(rng, n, dtype, alphabet, 12, max_refs, big, name not in NON_NEGATIVE,
                            around)
    check_same(metric, hyps, refs, way, dtype, threads)


@pytest.mark.parametrize("name", [m for m, _ in METRICS])
@pytest.mark.parametrize("threads", [1, 2])
def test_ids_on_the_pool_score_as_their_text(name: str, threads: int) -> None:
    """Batches past the inline bound (64 pairs), long enough for the bit-parallel kernels'
    64-token words, with small and big ids."""
    metric = dict(METRICS)[name]
    kinds = [(np.int32, False, None), (np.uint32, True, None), (np.int64, True, None),
             (np.uint16, False, 2**15), (np.int64, False, 2**21)]
    for k, (dtype, big, around) in enumerate(kinds):
        rng = np.random.default_rng(1000 * k + threads)
        hyps, refs = make_batch(rng, 150, dtype, 30, 90, 2, big, name not in NON_NEGATIVE,
                                around)
        check_same(metric, hyps, refs, ["offsets", "pad_id", "list"][k % 3], dtype, threads)


@pytest.mark.parametrize("name", MOST_USED)
def test_sentence_score_of_arrays_is_the_text_score(name: str) -> None:
    metric = dict(METRICS)[name]
    h = np.array([4, 8, 15, 16, 23, 42], dtype=np.int64)
    r1, r2 = np.array([4, 8, 15, 16, 42]), np.array([8, 15, 16, 23, 4, 42, 7])
    cases = [([r1], ["4 8 15 16 42"]), ([r1, r2], texts([r1, r2])), (r2, texts([r2])[0])]
    for refs, text_refs in cases:
        got, want = metric.sentence_score(h, refs), metric.sentence_score(texts([h])[0], text_refs)
        assert float(got) == float(want)
        assert "tok:ids" in got.signature.split("|")


def test_bleu_of_ids_is_sacrebleu_on_the_joined_ids() -> None:
    """sacrebleu 2.6.0 on space-joined ids (its 13a tokenizer leaves digits and spaces
    alone): sentence BLEU (exp smoothing) per pair and corpus BLEU."""
    rng = np.random.default_rng(7)
    hyps, refs = make_batch(rng, 100, np.int32, 50, 40, 1, False)
    ids_refs = TokenIds([r[0] for r in refs])
    sentence = mtalign.Bleu(smooth="exp", effective_order=True)  # sacrebleu.sentence_bleu's
    want = [sacrebleu.sentence_bleu(h, [r[0]]).score
            for h, r in zip(texts(hyps), [texts(r) for r in refs], strict=True)]
    np.testing.assert_array_equal(sentence.batch_score(hyps, ids_refs, threads=2), want)
    corpus = sacrebleu.corpus_bleu(texts(hyps), [texts([r[0] for r in refs])])
    assert mtalign.Bleu(smooth="exp").corpus_score(hyps, ids_refs).score == corpus.score


@pytest.mark.parametrize("metric, needle", [
    (mtalign.Chrf(), "Chrf reads characters"),
    (mtalign.Chrf(word_order=2), "Chrf reads characters"),
    (mtalign.Dcs(), "Dcs(level='char')"),
    (mtalign.Rouge("rougeL", stem=True), "stem"),
    (mtalign.Meteor(), "stages=['exact']"),
    (mtalign.Ter(normalized=True), "normalized"),
    (mtalign.Sia(), "Sia does not take token ids"),
])
def test_metrics_that_read_characters_or_words_refuse_ids(metric: mtalign.Metric,
                                                          needle: str) -> None:
    h, r = [np.array([1, 2, 3])], [np.array([1, 2])]
    with pytest.raises(ConfigError, match=needle.replace("(", r"\(").replace(")", r"\)")
                       .replace("[", r"\[").replace("]", r"\]")):
        metric.corpus_score(h, r)
    with pytest.raises(ConfigError):
        metric.sentence_score(h[0], r)


def test_torch_like_objects_are_read_through_their_protocols() -> None:
    """Objects with only ``__array__`` or only ``__dlpack__`` (a CPU tensor's protocols),
    read without importing any array library."""

    class ArrayOnly:
        def __init__(self, a: np.ndarray) -> None:
            self.a = a

        def __array__(self, dtype: object = None, copy: object = None) -> np.ndarray:
            return self.a

    class DlpackOnly:
        def __init__(self, a: np.ndarray) -> None:
            self.a = a

        def __dlpack__(self, **kwargs: object) -> object:
            return self.a.__dlpack__(**kwargs)

        def __dlpack_device__(self) -> tuple[int, int]:
            return self.a.__dlpack_device__()

    h = np.array([[1, 2, 3, 0], [4, 5, 0, 0]], dtype=np.int64)
    r = [np.array([1, 2, 3]), np.array([4, 6])]
    want = mtalign.Bleu().batch_score(["1 2 3", "4 5"], ["1 2 3", "4 6"])
    for wrap in (ArrayOnly, DlpackOnly):
        got = mtalign.Bleu().batch_score(TokenIds.from_padded(wrap(h), pad_id=0),
                                         [wrap(x) for x in r])
        np.testing.assert_array_equal(got, want)
        got = mtalign.Bleu().batch_score([wrap(h[0, :3]), wrap(h[1, :2])], [wrap(x) for x in r])
        np.testing.assert_array_equal(got, want)


def test_torch_tensors_when_installed() -> None:
    torch = pytest.importorskip("torch")
    h = torch.tensor([[1, 2, 3, 0], [4, 5, 0, 0]])
    r = TokenIds([torch.tensor([1, 2, 3]), torch.tensor([4, 6])])
    got = mtalign.Rouge("rougeL").batch_score(TokenIds.from_padded(h, pad_id=0), r)
    want = mtalign.Rouge("rougeL").batch_score(["1 2 3", "4 5"], ["1 2 3", "4 6"])
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("make, needle", [
    (lambda: mtalign.Bleu().batch_score(np.zeros((2, 3), np.int64), [[1], [2]]),
     "hyps is a 2-D array"),
    (lambda: TokenIds.from_padded(np.zeros((2, 3), np.int64)), "pad_id or lengths"),
    (lambda: TokenIds([np.array([1, 2]), np.array([1.0, 2.0])]),
     r"seqs\[1\] has dtype float64"),
    (lambda: mtalign.Bleu().batch_score([np.array([1, 2])], [np.array([1.5])]),
     r"refs\[0\] has dtype float64"),
    (lambda: mtalign.Bleu().batch_score([np.array([1, 2])], [[np.array([1]), np.array([.5])]]),
     r"refs\[0\]\[1\] has dtype float64"),
    (lambda: TokenIds.from_padded(np.zeros((3, 4), np.int32), lengths=[1, -2, 0]),
     r"lengths\[1\] is negative \(-2\)"),
    (lambda: TokenIds.from_padded(np.zeros((3, 4), np.int32), lengths=[1, 2, 5]),
     r"lengths\[2\] is 5, beyond the row's 4 ids"),
    (lambda: TokenIds.from_offsets(np.arange(5), [0, 3, 2, 5]),
     r"offsets must not decrease: offsets\[2\] = 2 < offsets\[1\] = 3 \(sequence 1\)"),
    (lambda: TokenIds.from_offsets(np.arange(5), [0, 3, 6]), r"offsets\[2\] = 6 is beyond"),
    (lambda: TokenIds.from_offsets(np.arange(5.0), [0, 3]), "flat has dtype float64"),
    (lambda: mtalign.Bleu().batch_score([np.array([1])], [np.array([1]), np.array([2])]),
     "hyps has 1 items but refs has 2"),
    (lambda: mtalign.Bleu().batch_score([np.array([1])], [[]]), r"refs\[0\] is empty"),
    (lambda: mtalign.Bleu().sentence_score(np.array([[1]]), [np.array([1])]),
     "hyp must be a 1-D array"),
    # Ids as Python lists read as tokens that are not text: the error says where ids go.
    (lambda: mtalign.Bleu().pairwise([[1, 2, 3], [1, 2]]),
     r"hyps\[0\]\[0\] is not a str \(got int; token ids go in as NumPy integer arrays or "
     r"mtalign\.TokenIds\)"),
    (lambda: mtalign.Rouge("rougeL").batch_score(["a b"], [1]),
     r"refs\[0\] must be a str or a list of str \(got int; token ids go in as NumPy"),
])
def test_bad_id_input_is_an_input_error_naming_the_item(make: object, needle: str) -> None:
    with pytest.raises(InputError, match=needle):
        make()  # type: ignore[operator]


def test_the_native_reader_refuses_sequences_outside_the_buffer() -> None:
    """The core checks what it reads, whoever calls it (a refusal, never a bad read)."""
    core = mtalign.Bleu()._core
    data = np.arange(4, dtype=np.int32)
    ok = (data, np.array([0], np.int64), np.array([4], np.int64))
    with pytest.raises(InputError, match=r"hyps\[0\] \(ids 2\.\.6\) lies outside"):
        core.score_ids((data, np.array([2], np.int64), np.array([4], np.int64)), ok)
    with pytest.raises(InputError, match=r"refs\[0\] has a negative length"):
        core.score_ids(ok, (data, np.array([0], np.int64), np.array([-1], np.int64)))
    with pytest.raises(InputError, match="token ids must be a 1-D array of integers"):
        core.score_ids((data.astype(float), *ok[1:]), ok)


def test_token_ids_views_and_repr() -> None:
    t = TokenIds.from_padded(np.array([[3, 4, 9], [9, 9, 9]], dtype=np.uint16), pad_id=9)
    assert [s.tolist() for s in t] == [[3, 4], []]
    assert t.dtype == np.uint16 and t.lengths.tolist() == [2, 0]
    assert repr(t) == "TokenIds(2 sequences, 2 ids, uint16)"
    assert not t[0].flags.writeable


def test_groups_of_samples_score_as_their_text() -> None:
    """GRPO-style groups (k samples of one prompt): pairwise matrices and MBR."""
    group = TokenIds.from_padded(np.array([[1, 2, 3, 4, 0], [1, 2, 3, 5, 6], [7, 2, 3, 4, 0]]),
                                 pad_id=0)
    text = ["1 2 3 4", "1 2 3 5 6", "7 2 3 4"]
    for metric in (mtalign.Bleu(tokenize=WS), mtalign.Rouge("rougeL", tokenize=WS),
                   mtalign.Wer(tokenize=WS)):
        np.testing.assert_array_equal(metric.pairwise(group), metric.pairwise(text))
        [got] = metric.pairwise_blocks([(group, None)])
        np.testing.assert_array_equal(got, metric.pairwise(text))
        assert mtalign.mbr(metric, group).best == mtalign.mbr(metric, text).best


SEP = 99


def texts_with_lines(seqs: list[np.ndarray]) -> list[str]:
    """The ids joined by spaces, a line break where the separator id stands."""
    return [" ".join("\n" if int(x) == SEP else str(int(x)) for x in s) for s in seqs]


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 8), dtype=st.sampled_from(DTYPES),
       big=st.booleans(), on=st.sampled_from(["hyps", "refs", "both"]),
       name=st.sampled_from(["rouge", "bleu", "wer", "gtm"]))
def test_a_line_separator_id_is_a_line_break(seed: int, n: int, dtype: type, big: bool,
                                             on: str, name: str) -> None:
    """rougeLsum splits at the separator id as at "\\n" (empty lines dropped); every other
    variant and metric treats it as the whitespace it stands for."""
    metric = dict(METRICS)[name]
    rng = np.random.default_rng(seed)
    hyps, refs = make_batch(rng, n, dtype, 5, 14, 1, big, negative=False)
    sep_at = [rng.random(len(s)) < 0.25 for s in hyps]
    hyps = [np.where(m, SEP, s).astype(dtype) for s, m in zip(hyps, sep_at, strict=True)]
    refs = [[np.where(rng.random(len(r[0])) < 0.25, SEP, r[0]).astype(dtype)] for r in refs]
    ids_h, ids_r = TokenIds(hyps), TokenIds([r[0] for r in refs])
    if on in ("hyps", "both"):
        ids_h = ids_h.with_line_sep(SEP)
    if on in ("refs", "both"):
        ids_r = ids_r.with_line_sep(SEP)
    got = metric.statistics(ids_h, ids_r)
    want = metric.statistics(texts_with_lines(hyps), texts_with_lines([r[0] for r in refs]))
    np.testing.assert_array_equal(got, want)


def test_two_line_separators_are_refused() -> None:
    h = TokenIds([np.array([1, 2])]).with_line_sep(5)
    r = TokenIds([np.array([1, 2])]).with_line_sep(6)
    with pytest.raises(InputError, match="different line separators"):
        mtalign.Rouge("rougeLsum").batch_score(h, r)


def test_signatures_of_ids_say_token_ids() -> None:
    """A result scored from ids names no text tokenizer and no case (ids have none); every
    other field is the metric's."""
    h, r = np.array([4, 8, 15, 16]), np.array([4, 8, 15, 23])
    bleu = mtalign.Bleu()
    assert bleu.sentence_score(h, [r]).signature == \
        "nrefs:1|eff:yes|tok:ids|smooth:exp|order:4|ref_len:closest|version:0.1.0"
    assert bleu.corpus_score([h], [[r, r]], n_bootstrap=10).signature == \
        "nrefs:2|bs:10|seed:12345|eff:no|tok:ids|smooth:exp|order:4|ref_len:closest|version:0.1.0"
    assert mtalign.Rouge("rougeL").corpus_score(TokenIds([h]), TokenIds([r])).signature == \
        "nrefs:1|tok:ids|stem:no|multi_ref:max|jk:no|beta:1|compat:paper|version:0.1.0"
    assert mtalign.Ter().sentence_score(h, r).signature == \
        "nrefs:1|tok:ids|norm:no|punct:yes|asian:no|version:0.1.0"
    # Text keeps its tokenizer's name.
    assert "tok:13a" in bleu.corpus_score(["4 8"], ["4 8"]).signature


@pytest.mark.parametrize("name", ["bleu-ws-eff", "rouge", "wer", "ter", "gtm", "nist"])
def test_pairwise_matrices_of_ids_are_those_of_their_text(name: str) -> None:
    """pairwise (with and without pseudo-references, a reference set among them),
    pairwise_blocks and MBR over ids straddling 2^15 and above 2^31 equal the text
    path's, past the inline bound (12 x 12 pairs)."""
    metric = dict(METRICS)[name]
    rng = np.random.default_rng(5)
    for dtype, big, around in [(np.uint16, False, 2**15), (np.int64, True, None)]:
        hyps, refs = make_batch(rng, 12, dtype, 6, 20, 1, big, False, around)
        pseudo: list = [r[0] for r in refs[:-1]] + [[refs[-1][0], hyps[0]]]
        text_pseudo: list = texts(pseudo[:-1]) + [texts(pseudo[-1])]
        group = TokenIds(hyps)
        np.testing.assert_array_equal(metric.pairwise(group), metric.pairwise(texts(hyps)))
        np.testing.assert_array_equal(metric.pairwise(hyps, pseudo),
                                      metric.pairwise(texts(hyps), text_pseudo))
        got = metric.pairwise_blocks([(group, None), (hyps[:3], pseudo[:5]),
                                      (TokenIds(hyps[5:]), TokenIds(pseudo[:2]))])
        want = metric.pairwise_blocks([(texts(hyps), None), (texts(hyps[:3]), text_pseudo[:5]),
                                       (texts(hyps[5:]), text_pseudo[:2])])
        for g, w in zip(got, want, strict=True):
            np.testing.assert_array_equal(g, w)
        assert mtalign.mbr(metric, group).best == mtalign.mbr(metric, texts(hyps)).best
