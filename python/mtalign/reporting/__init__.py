"""``mtalign.report``: one self-contained HTML page that compares systems.

The page has the systems' corpus scores with 95% bootstrap intervals, paired significance
against the best system and significance clusters; with human scores, each metric's
system-level correlation and a scatter plot; compare-mt's buckets (sentence score by
reference length, word F-measure by frequency, n-grams one system gets right more often);
the segments where two systems differ most, with TER's edits marked; a sortable table of
every segment; and the signatures of every metric and test. :mod:`.analysis` computes,
:mod:`.page` draws (inline CSS and SVG, a few lines of inline script, nothing fetched).

>>> import mtalign
>>> page = mtalign.report({"A": ["the cat sat", "a dog"], "B": ["cat the sat", "the dog"]},
...                       ["the cat sat", "a dog"], n_bootstrap=20)
>>> page.startswith("<!DOCTYPE html>"), "http://" in page, "https://" in page
(True, False, False)
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from mtalign import registry
from mtalign.errors import ConfigError, InputError
from mtalign.reporting import analysis, page
from mtalign.reporting.analysis import ReportData

#: The metrics of a report without ``metrics=`` / ``-m``.
DEFAULT_METRICS = ("bleu", "chrf", "ter")


def _reference_lists(refs: Sequence[Any], n: int | None) -> list[list[str]]:
    out = []
    for i, r in enumerate(refs):
        rr = [r] if isinstance(r, str) else list(r)
        if not rr or not all(isinstance(x, str) for x in rr):
            raise InputError(f"reference {i + 1}: expected a str or a list of str")
        out.append(rr)
    if not out:
        raise InputError("no references: nothing to report")
    if n is not None and len(out) != n:
        raise InputError(f"{len(out)} references but the systems have {n} segments")
    return out


def _check(systems: Mapping[str, Sequence[str]], n: int, metrics: Sequence[str],
           segment_metric: str | None, pair: Sequence[str] | None, examples: int,
           max_segments: int, test: str, src: Sequence[str] | None) -> None:
    for name, hyps in systems.items():
        if len(hyps) != n:
            raise InputError(f"system {name!r} has {len(hyps)} segments but there are {n} "
                             f"references")
    if not metrics:
        raise ConfigError("give at least one metric")
    if segment_metric is not None and segment_metric not in metrics:
        raise ConfigError(f"the segment metric {segment_metric!r} is not one of the metrics "
                          f"({', '.join(metrics)})")
    if pair is not None:
        if len(pair) != 2 or pair[0] == pair[1]:
            raise ConfigError("pair: give two different systems")
        for s in pair:
            if s not in systems:
                raise InputError(f"pair: no system named {s!r} (systems: "
                                 f"{', '.join(systems)})")
    if examples < 0 or max_segments < 1:
        raise ConfigError("examples must be >= 0 and max_segments >= 1")
    if test not in ("bs", "ar"):
        raise ConfigError(f"unknown test {test!r} (choose from: bs, ar)")
    if src is not None and len(src) != n:
        raise InputError(f"the source has {len(src)} lines but there are {n} references")


def report(systems: Mapping[str, Sequence[str]], refs: Sequence[Any], *,
           src: Sequence[str] | None = None, metrics: Sequence[str] = DEFAULT_METRICS,
           human: Mapping[str, Any] | None = None, test: str = "bs",
           n_samples: int | None = None, n_bootstrap: int | None = 1000, seed: int = 12345,
           pair: Sequence[str] | None = None, segment_metric: str | None = None,
           examples: int = 5, max_segments: int = 1000,
           freq_corpus: Sequence[str] | None = None, ngram_order: int = 4,
           options: registry.MetricOptions | None = None, threads: int | None = None,
           path: str | os.PathLike[str] | None = None, title: str = "mtalign report",
           progress: Callable[[int, int], None] | None = None) -> str:
    """One self-contained HTML page comparing ``systems``; written to ``path`` when given.

    Args:
        systems: ``{name: hypotheses}``, every system aligned with ``refs``.
        refs: ``refs[i]``: the reference (str) or references (list of str) of segment i.
        src: the source segments, shown with the examples.
        metrics: registry names, as on the command line (``bleu``, ``chrf``, ``ter``, ...).
        human: ``{system: score}`` or ``{system: segment scores}`` (NaN: not judged): adds
            each metric's system-level correlation (corpus scores, as WMT) and a scatter.
        test: the paired test against the best system, ``"bs"`` (paired bootstrap) or
            ``"ar"`` (approximate randomization); ``n_samples``: its resamples/trials.
        n_bootstrap: resamples of the 95% intervals and the clusters (None or 0: none).
        pair: the two systems whose differences are shown (default: the two best by the
            first metric); ``segment_metric``: the metric comparing segments (default: the
            first).
        examples: segments shown per direction; ``max_segments``: rows of the segment table
            (beyond it, the segments where the pair differs least are summarised).
        freq_corpus: the lines whose word counts make the frequency buckets (default: the
            references).
        ngram_order: the longest n-grams compared.
        options: metric options (tokenizer, case, ...) as on the command line.
        progress: called with (done, total) after each step.

    Returns:
        The HTML text.
    """
    names = [str(s) for s in systems]
    if not names:
        raise InputError("systems must be a non-empty {name: hypotheses} dict")
    ref_lists = _reference_lists(refs, None)
    n = len(ref_lists)
    metrics = list(metrics)
    _check(systems, n, metrics, segment_metric, pair, examples, max_segments, test, src)
    hyps = [list(systems[s]) for s in systems]
    n_boot = n_bootstrap or None
    steps = len(metrics) * (2 if human is not None else 1) + 2
    done = 0

    def step() -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress(done, steps)

    human_m = None if human is None else analysis.human_matrix(human, names, n)
    tables = []
    for m in metrics:
        tables.append(analysis.score_metric(m, hyps, ref_lists, options=options, test=test,
                                            n_samples=n_samples, n_bootstrap=n_boot,
                                            seed=seed, threads=threads))
        step()
        if human_m is not None:
            tables[-1].correlation = analysis.correlate_human(tables[-1], human_m, n_boot,
                                                              seed)
            step()
    seg_i = metrics.index(segment_metric) if segment_metric is not None else 0
    order = tables[0].order()
    pair_i = None
    if pair is not None:
        pair_i = (names.index(pair[0]), names.index(pair[1]))
    elif len(names) > 1:
        pair_i = (order[0], order[1])
    settings: dict[str, Any] = {"test": test, "n_bootstrap": n_boot or 0, "seed": seed,
                                "segment_metric": metrics[seg_i], "examples": examples,
                                "max_segments": max_segments, "ngram_order": ngram_order}
    data = ReportData(names, n, max(len(r) for r in ref_lists), tables, human_m, pair_i,
                      seg_i, settings=settings)
    _buckets(data, hyps, ref_lists, freq_corpus, ngram_order)
    step()
    _segments(data, hyps, ref_lists, examples, max_segments)
    step()
    text = page.render(data, hyps, ref_lists, None if src is None else list(src), title)
    if path is not None:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    return text


def _buckets(d: ReportData, hyps: list[list[str]], refs: list[list[str]],
             freq_corpus: Sequence[str] | None, ngram_order: int) -> None:
    ref_words = [analysis.words(r[0]) for r in refs]
    hyp_words = [[analysis.words(h) for h in sys] for sys in hyps]
    d.length = analysis.by_length(d.tables[d.segment_metric].sentence, ref_words)
    freq: Counter[str] = Counter()
    if freq_corpus is None:
        for r in refs:
            for text in r:
                freq.update(analysis.words(text))
    else:
        d.frequency_source = "the frequency corpus (--freq-corpus)"
        for line in freq_corpus:
            freq.update(analysis.words(line))
    d.frequency = analysis.by_frequency(hyp_words, ref_words, freq)
    if d.pair is not None:
        a, b = d.pair
        d.ngram_a, d.ngram_b = analysis.ngram_differences(hyp_words[a], hyp_words[b],
                                                          ref_words, ngram_order)


def _segments(d: ReportData, hyps: list[list[str]], refs: list[list[str]], examples: int,
              max_segments: int) -> None:
    seg = d.tables[d.segment_metric]
    n = d.n_segments
    if d.pair is None:
        d.shown_segments = list(range(min(n, max_segments)))
        return
    a, b = d.pair
    better = seg.better(a, b)
    top_a, top_b = analysis.biggest_differences(better, examples)
    d.examples = [(f"{d.names[a]} better", top_a), (f"{d.names[b]} better", top_b)]
    ter = registry.make_metric("ter")[0]
    for i in top_a + top_b:
        for s in (a, b):
            d.marked[s, i] = analysis.mark_hypothesis(ter, hyps[s][i], refs[i])
    if n <= max_segments:
        d.shown_segments = list(range(n))
    else:
        keep = np.argsort(-np.abs(better), kind="stable")[:max_segments]
        d.shown_segments = sorted(int(i) for i in keep)


__all__ = ["DEFAULT_METRICS", "report"]
