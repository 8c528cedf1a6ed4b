"""``mtalign score`` and ``mtalign demo``: corpus and sentence scores of hypothesis files.

>>> import argparse
>>> sub = argparse.ArgumentParser().add_subparsers()
>>> add_commands(sub)
>>> sorted(sub.choices)
['demo', 'score']
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sys
import tempfile
import warnings
from typing import Any

import numpy as np

from mtalign import registry, tables
from mtalign._mtalign import __version__
from mtalign.cli.common import (
    CliError,
    add_progress_options,
    bootstrap,
    count,
    positive_int,
    progress_bar,
)
from mtalign.cli.metric_options import add_metric_options
from mtalign.errors import InputError, MtalignError
from mtalign.io import LineStream, system_names
from mtalign.metrics.partial import combine, corpus_result, from_statistics
from mtalign.metrics.results import PRF_SUFFIXES, SCORE, Score, Scores

DEFAULT_METRICS = ["rouge1", "rouge2", "rougeL", "rougeW-1.2", "rougeS4", "rougeSU4"]
FIELDS = ("precision", "recall", "fmeasure", "score")
CHUNK_LINES = 20_000
_SHORT = {"precision": "P", "recall": "R", "fmeasure": "F", "score": ""}


def _fields(name: str, columns: tuple[str, ...]) -> list[tuple[str, str]]:
    """(output field, :class:`~mtalign.Scores` column) of the metric name ``name`` among a
    metric's ``score_columns()``: one number per sentence is ``score``; a column named
    ``name`` (DCS's ``cs0``) is that name's ``score``; else the name's P, R and F columns
    (ROUGE's ``rougeL_P``, ``rougeL_R``, ``rougeL_F``) are its precision, recall, fmeasure.

    >>> _fields("cs0", ("cs0", "cs1", "cs2", "dcs")), _fields("bleu", ("score",))
    ([('score', 'cs0')], [('score', 'score')])
    >>> [c for _, c in _fields("rougeL", ("rougeL_P", "rougeL_R", "rougeL_F"))]
    ['rougeL_P', 'rougeL_R', 'rougeL_F']
    """
    if columns == (SCORE,):
        return [("score", SCORE)]
    if name in columns:
        return [("score", name)]
    out = [(field, name + suffix) for field, suffix in zip(Score._fields, PRF_SUFFIXES,
                                                          strict=True)
           if name + suffix in columns]
    if not out:
        raise ValueError(f"no column of {name!r} among {columns}")
    return out


def _headline(metric: Any, variant: str | None) -> tuple[str, str]:
    """The (field, column) of the number ``metric`` ranks by (``variant``; None: its first):
    ROUGE's F-measure, another metric's score.

    >>> from mtalign import Rouge
    >>> _headline(Rouge("rougeL"), None)
    ('fmeasure', 'rougeL_F')
    """
    column = metric.scalar_column(variant)
    fields = _fields(variant or metric.scalar_names()[0], metric.score_columns())
    return next((f, c) for f, c in fields if c == column)


class _Family:
    """One metric object of ``mtalign score`` and what it has summed so far, per system."""

    def __init__(self, fam: registry.Family, metric: Any, names: list[str], n_sys: int,
                 sentence_level: bool = False):
        self.fam, self.metric, self.names = fam, metric, names
        self.sentence_level = sentence_level
        self.key = names[0] if fam.per_name else fam.name
        columns = metric.score_columns()
        #: name -> (output field, Scores column) of each number printed for it
        self.fields = {name: _fields(name, columns) for name in names}
        self.totals = [combine([]) for _ in range(n_sys)]
        # NIST (aggregation None: rows weighted over the whole batch): the files are one
        # chunk; its results are kept.
        self.batch = getattr(metric, "aggregation", None) not in ("sum", "mean")
        self.results: list[Any] = [None] * n_sys

    def score_chunk(self, hyps: list[list[str]], refs: list[list[str]],
                    threads: int | None) -> list[dict[str, tuple[tuple[str, ...], np.ndarray]]]:
        """Scores one chunk of every system in one native call (each reference text is
        tokenized once for all systems); adds each system's statistics to its total and
        returns each system's sentence columns."""
        n_sys, k = len(hyps), len(refs)
        metric = self.metric
        if self.batch:
            self.results, each = [], []
            for s, h in enumerate(hyps):
                try:
                    self.results.append(metric.corpus_score(h, refs, threads=threads))
                    # Sentence rows are the metric's sentence scores (batch_score: NIST weighs
                    # a sentence by its own references, nltk's sentence_nist), not the corpus
                    # result's per-sentence shares under the corpus weights.
                    each.append(metric.batch_score(h, refs, threads=threads)
                                if self.sentence_level else self.results[-1].per_sentence)
                except MtalignError as e:  # numbered as in one batch of every system
                    raise _renumbered(e, s * k) from None
            return [self.sentences(e) for e in each]
        arr, nh, nr, _ = metric._run([h for sys in hyps for h in sys], refs * n_sys, threads)
        stats = metric._stats(arr)
        empty_hyps = [0] * n_sys
        if nh:  # rare: which systems' hypotheses vanished (scored again, one at a time)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                empty_hyps = [metric._run(h, refs, threads)[1] for h in hyps]
        out = []
        for s in range(n_sys):
            rows = stats[s * k:(s + 1) * k]
            # Each distinct reference text is one native text whatever the number of systems
            # scored with it, so the chunk's count of vanished references is every system's.
            self.totals[s] += from_statistics(metric, rows, empty_hyps[s], nr, refs)
            out.append(self.sentences(metric._sentences(arr[s * k:(s + 1) * k])))
        return out

    def sentences(self, scores: Scores) -> dict[str, tuple[tuple[str, ...], np.ndarray]]:
        """Name -> (output fields, (n, fields) array) of the sentences' scores."""
        table, columns = scores.table, scores.columns
        return {name: (tuple(f for f, _ in fields),
                       table[:, [columns.index(c) for _, c in fields]])
                for name, fields in self.fields.items()}

    def corpus(self, s: int) -> tuple[dict[str, dict[str, float]], str, int, int]:
        """System ``s``'s corpus fields per name, signature and vanished-text counts."""
        if self.batch:
            res = self.results[s] or self.metric.corpus_score([], [])
        else:
            res = corpus_result(self.metric, self.totals[s])
        figures = res.column_scores
        scores = {name: {f: figures[c] for f, c in fields}
                  for name, fields in self.fields.items()}
        return scores, res.signature, res.n_empty_hyps, res.n_empty_refs


def _open(paths: list[str]) -> list[LineStream]:
    if sum(p == "-" for p in paths) > 1:
        raise CliError("standard input (-) can be only one of the input files")
    streams: list[LineStream] = []
    try:
        for p in paths:
            streams.append(LineStream(p))
    except BaseException:
        for st in streams:
            st.close()
        raise
    return streams


_ITEM = re.compile(r"\b(hyps|refs)\[(\d+)\](?:\[(\d+)\])?")


def _renumbered(e: MtalignError, offset: int) -> MtalignError:
    """The same error with its first ``hyps[i]``/``refs[i]`` numbered ``i + offset``."""
    return type(e)(_ITEM.sub(lambda m: m.group(0).replace(f"[{m.group(2)}]",
                                                          f"[{int(m.group(2)) + offset}]", 1),
                             str(e), count=1))


def _located(e: MtalignError, streams: list[LineStream], n_sys: int, k: int,
             first: int) -> MtalignError:
    """The same error with the first ``hyps[i]``/``refs[i][j]`` of a chunk's batch (every
    system's ``k`` lines one after the other, each against its references) named by file and
    line (``first``: the lines before the chunk)."""
    def where(m: re.Match[str]) -> str:
        i = int(m.group(2))
        if m.group(1) == "hyps" and i < n_sys * k:
            return f"{streams[i // k].name} line {first + i % k + 1}"
        if m.group(1) == "refs" and m.group(3) is not None and i < n_sys * k:
            return f"{streams[n_sys + int(m.group(3))].name} line {first + i % k + 1}"
        return m.group(0)
    return type(e)(_ITEM.sub(where, str(e), count=2))


def _check_aligned(streams: list[LineStream], chunks: list[list[str]]) -> None:
    """Refuses files of different lengths, naming both and their line counts."""
    shortest = min(len(c) for c in chunks)
    if all(len(c) == shortest for c in chunks):
        return
    counts = [st.lines if len(c) == shortest else st.count_rest()
              for st, c in zip(streams, chunks, strict=True)]
    short, other = counts.index(min(counts)), counts.index(max(counts))
    raise InputError(f"{streams[short].name} has {counts[short]} lines but "
                     f"{streams[other].name} has {counts[other]}; files must be aligned "
                     f"line by line")


class _Rows:
    """Where one system's sentence rows go: straight to stdout, or a spool file printed
    after the corpus scores (several systems, or the text format)."""

    def __init__(self, direct: bool) -> None:
        self.file: Any = sys.stdout if direct else tempfile.TemporaryFile("w+", encoding="utf-8")
        self.direct = direct
        self.count = 0

    def write(self, lines: list[str], sep: str = "\n") -> None:
        if not lines:
            return
        if sep != "\n" and self.count:
            self.file.write(sep)
        self.file.write(sep.join(lines) if sep != "\n" else "\n".join(lines) + "\n")
        self.count += len(lines)

    def copy_to(self, out: Any) -> None:
        if self.direct:
            return
        self.file.seek(0)
        shutil.copyfileobj(self.file, out)
        self.file.close()


def _tsv_fields(families: list[_Family]) -> list[tuple[str, str]]:
    """(metric name, field) of each score column of the TSV, in order."""
    return [(name, field) for f in families
            for name, fields in f.fields.items()
            for field, _ in fields]


def _tsv_header(families: list[_Family]) -> str:
    """One TSV for every use (``correlate --scores`` reads it): ``system``, ``line`` (a
    segment's number, or ``corpus`` on a system's corpus row), one column per score."""
    return "\t".join(["system", "line"] + [f"{name}_{_SHORT[c]}" if _SHORT[c] else name
                                          for name, c in _tsv_fields(families)])


def _tsv_rows(cols: list[dict[str, tuple[tuple[str, ...], np.ndarray]]], first: int,
              system: str) -> list[str]:
    arrays = [arr for fam in cols for _, arr in fam.values()]
    if not arrays:
        return []
    table = np.hstack(arrays).tolist()
    return [f"{system}\t{first + i + 1}\t" + "\t".join(map(repr, row))
            for i, row in enumerate(table)]


def _tsv_corpus_rows(families: list[_Family], systems: list[str],
                     outs: list[dict[str, Any]]) -> list[str]:
    """Each system's corpus scores as a row of the TSV (``line`` = ``corpus``)."""
    fields = _tsv_fields(families)
    return [f"{name}\tcorpus\t" + "\t".join(repr(out["scores"][m][c]) for m, c in fields)
            for name, out in zip(systems, outs, strict=True)]


def _json_rows(cols: list[dict[str, tuple[tuple[str, ...], np.ndarray]]]) -> list[str]:
    per_name = [(name, fields, arr.tolist()) for fam in cols
                for name, (fields, arr) in fam.items()]
    n = len(per_name[0][2]) if per_name else 0
    return [json.dumps({name: dict(zip(fields, rows[i], strict=True))
                        for name, fields, rows in per_name}, ensure_ascii=False)
            for i in range(n)]


def cmd_score(args: argparse.Namespace) -> int:
    paths: list[str] = list(args.input)
    options = registry.MetricOptions.from_args(args)
    families = [_Family(fam, metric, names, len(paths), args.sentence_level)
                for fam, metric, names in registry.group_metrics(args.metrics, options)]
    whole = any(f.batch for f in families)
    # NIST's weights count every reference of the corpus: then the files are one chunk.
    chunk_lines = sys.maxsize if whole else args.chunk_lines
    if chunk_lines < 1:
        raise CliError(f"--chunk-lines must be >= 1 (got {chunk_lines})")
    streams = _open(paths + list(args.refs))
    try:
        systems = system_names(paths, args.names)
        return _score_streams(args, systems, families, streams, chunk_lines)
    finally:
        for st in streams:
            st.close()


def _score_streams(args: argparse.Namespace, systems: list[str], families: list[_Family],
                   streams: list[LineStream], chunk_lines: int) -> int:
    n_sys, fmt, level = len(systems), args.format, args.sentence_level
    direct = n_sys == 1 and fmt != "text"
    sinks = [_Rows(direct) for _ in systems] if level else []
    header = _tsv_header(families) if level and fmt != "json" else ""
    # MTALIGN_PROGRESS_DELAY: seconds before the bar appears (default 2; tests set 0).
    delay = float(os.environ.get("MTALIGN_PROGRESS_DELAY", "2"))
    lead = streams[0]
    unit = "MiB of " + lead.name if lead.size else "lines"
    progress = None if args.quiet else progress_bar(args, f"mtalign score ({unit})", delay)
    n = 0
    while True:
        chunks = [st.chunk(chunk_lines) for st in streams]
        _check_aligned(streams, chunks)
        k = len(chunks[0])
        if k == 0:
            break
        hyps = chunks[:n_sys]
        refs = [list(row) for row in zip(*chunks[n_sys:], strict=True)]
        try:
            per_fam = [f.score_chunk(hyps, refs, args.threads) for f in families]
        except MtalignError as e:
            raise _located(e, streams, n_sys, k, n) from None
        if n == 0 and level and direct:  # the first chunk is scored: output can start
            _start_direct(fmt, systems[0], header)
        for s, sink in enumerate(sinks):
            cols = [fam_cols[s] for fam_cols in per_fam]
            if fmt == "json":
                sink.write(_json_rows(cols), sep=",")
            else:
                sink.write(_tsv_rows(cols, n, systems[s]))
        n += k
        if progress is not None:
            if lead.size:
                progress(lead.bytes >> 20, lead.size >> 20)
            else:
                progress(n, n)  # the length of a stream is not known
    if progress is not None:
        progress.close()
    if n == 0:
        raise InputError(f"{lead.name} is empty (no lines): nothing to score")

    outs = []
    for s in range(n_sys):
        scores: dict[str, dict[str, float]] = {}
        signatures: dict[str, str] = {}
        counts = {"n_sentences": n, "n_empty_hyps": 0, "n_empty_refs": 0}
        for f in families:
            sc, sig, nh, nr = f.corpus(s)
            scores.update(sc)
            signatures[f.key] = sig
            counts["n_empty_hyps"] = max(counts["n_empty_hyps"], nh)
            counts["n_empty_refs"] = max(counts["n_empty_refs"], nr)
        out: dict[str, Any] = {"scores": scores, **counts}
        if len(signatures) == 1:
            out["signature"] = next(iter(signatures.values()))
        if level:
            signatures.update(_sentence_signatures(families, len(streams) - n_sys))
        out["signatures"] = signatures
        outs.append(out)
    _print_results(args, systems, families, outs, sinks)
    return 0


def _start_direct(fmt: str, system: str, header: str) -> None:
    """The start of one system's streamed sentence rows: the opening of its JSON line (its
    sentences come first), or the TSV header. Written once the first chunk is scored, so an
    input refused up front (empty files, files that do not line up, a pair over a size limit
    in the first chunk) prints nothing on stdout."""
    if fmt == "json":
        sys.stdout.write(json.dumps({"system": system}, ensure_ascii=False)[:-1]
                         + ', "sentences": [')
    else:
        print(header)


def _sentence_signatures(families: list[_Family], n_refs: int) -> dict[str, str]:
    """``"<name> sentences"`` -> the signature of the sentence rows, for the families whose
    sentence scores differ in definition from their corpus score (BLEU: sentence_bleu's
    effective order)."""
    out = {}
    for f in families:
        sentences = f.metric.at_sentence_level().signature(n_refs)
        if sentences != f.metric.signature(n_refs):
            out[f"{f.key} sentences"] = sentences
    return out


def _print_results(args: argparse.Namespace, systems: list[str], families: list[_Family],
                   outs: list[dict[str, Any]], sinks: list[_Rows]) -> None:
    fmt, level, n_sys = args.format, args.sentence_level, len(systems)
    write = sys.stdout.write
    if fmt == "json":  # JSON Lines: one object per system, whatever their number
        spools: list[_Rows | None] = list(sinks) if sinks else [None] * n_sys
        for name, out, sink in zip(systems, outs, spools, strict=True):
            head = json.dumps({"system": name}, ensure_ascii=False)[:-1]
            rest = json.dumps(out, ensure_ascii=False)[1:]
            if sink is None:
                print(f"{head}, {rest}")
            elif sink.direct:  # the head and the rows are out already
                write("], " + rest + "\n")
            else:
                write(head + ', "sentences": [')
                sink.copy_to(sys.stdout)
                write("], " + rest + "\n")
        return
    if fmt == "tsv":  # the segment rows (with --sentence-level), then the corpus rows
        if not (level and sinks[0].direct):
            print(_tsv_header(families))
        for sink in sinks:
            sink.copy_to(sys.stdout)
        print("\n".join(_tsv_corpus_rows(families, systems, outs)))
        return
    report = _format_text(systems[0], outs[0]) if n_sys == 1 else _format_table(systems, outs)
    print("\n".join(report))
    if level:
        print("\n" + "\n".join(_sentence_table(families, sinks, n_sys > 1)))
    print("\n".join(tables.signature_lines(outs[0]["signatures"])))


def _format_text(name: str, out: dict) -> list[str]:
    """One system: a row per metric (name, direction, scale) with its fields."""
    used = [f for f in FIELDS if any(f in v for v in out["scores"].values())]
    values = [tables.Column(_SHORT[f] or f) for f in used]
    rows = [[tables.metric_header(k), *(f"{vals[f]:.4f}" if f in vals else "" for f in used)]
            for k, vals in out["scores"].items()]
    return tables.wrap(f"# {name}") + tables.table([tables.label("metric")], values, rows)


def _format_table(systems: list[str], outs: list[dict]) -> list[str]:
    """Systems × metrics: ROUGE's F-measure, every other metric's score."""
    names = list(outs[0]["scores"])
    rouge = [m for m in names if "fmeasure" in outs[0]["scores"][m]]
    columns = [tables.metric_column(m, "F" if m in rouge else "") for m in names]
    rows = [[name, *(f"{out['scores'][m].get('fmeasure', out['scores'][m].get('score')):.4f}"
                     for m in names)] for name, out in zip(systems, outs, strict=True)]
    lines = tables.table([tables.label("system")], columns, rows)
    if rouge:
        lines.append("(ROUGE: F-measure; precision and recall in -f json and -f tsv)")
    return lines


def _sentence_table(families: list[_Family], sinks: list[_Rows], by_system: bool) -> list[str]:
    """The sentence scores (spooled as TSV rows) as a text table."""
    columns = [tables.metric_column(name, _SHORT[field]) for name, field in _tsv_fields(families)]
    keys = ([tables.label("system")] if by_system else []) + [tables.Column("line")]

    def rows() -> Any:
        for sink in sinks:
            sink.file.seek(0)
            for line in sink.file:
                cells = line.rstrip("\n").split("\t")  # system, line, scores
                yield cells[2 - len(keys):2] + [f"{float(v):.4f}" for v in cells[2:]]

    lines = tables.table(keys, columns, rows)
    for sink in sinks:
        sink.file.close()
    return ["# sentence scores"] + lines


def _say(*parts: str | list[str]) -> None:
    """Prints paragraphs wrapped to 80 columns and tables (lists of lines) as they are."""
    for part in parts:
        lines = part if isinstance(part, list) else [
            w for para in part.split("\n") for w in tables.wrap(para, indent="")]
        print("\n".join(lines))


def _interval(ci: tuple[float, float]) -> str:
    """A 95% interval in two decimals: ``[-0.11, 0.75]``."""
    return f"[{ci[0]:.2f}, {ci[1]:.2f}]"


#: The metrics ``mtalign demo`` compares (registry names).
DEMO_METRICS = ["bleu", "chrf", "chrf++", "ter", "rougeL", "rougeSU4", "wer", "ribes"]


def cmd_demo(args: argparse.Namespace) -> int:
    from mtalign import meta
    from mtalign.cli.report import check_writable
    from mtalign.demo import load_mqm_sample
    from mtalign.ranking import orange

    if args.report is not None:
        check_writable(args.report)  # before the tour, not after it
    systems, refs, mqm = load_mqm_sample()
    names = list(systems)
    n_boot = bootstrap(args.n_bootstrap)
    _say(f"mtalign {__version__} demo: WMT21 newstest2021 en-de, {len(refs)} segments, "
         f"{len(refs[0])} references (A, C), {len(systems)} systems rated by MQM.\n")
    metrics = {m: registry.make_metric(m) for m in DEMO_METRICS}
    human = np.stack([mqm[s] for s in names])
    # 1. The metric table: corpus scores, and the MQM average for comparison.
    seg: dict[str, np.ndarray] = {}
    for m, (metric, variant) in metrics.items():
        seg[m] = np.stack([metric.scalar_scores(systems[s], refs, variant, args.threads)
                           for s in names])
    shown = {m: _headline(metric, variant) for m, (metric, variant) in metrics.items()}

    def corpus(m: str, metric: Any, hyps: list[str]) -> float:
        # ROUGE: the F-measure, on its 0-1 scale
        return metric.corpus_score(hyps, refs, args.threads).column_scores[shown[m][1]]

    table = {m: [corpus(m, metric, systems[s]) for s in names]
             for m, (metric, _) in metrics.items()}
    columns = [tables.Column("MQM", "↑ ≤0")]
    columns += [tables.metric_column(m, _SHORT[shown[m][0]]) for m in metrics]
    cells = [[s, f"{np.nanmean(human[i]):.3f}",
              *(f"{table[m][i]:.{tables.decimals(m)}f}" for m in metrics)]
             for i, s in enumerate(names)]
    _say("Corpus scores (ROUGE: F-measure) and the mean MQM score (minus the weighted errors "
         "per segment: 0 = no error).", tables.table([tables.label("system")], columns, cells))
    # 2. The metrics ranked by correlation with MQM (sentence scores; error rates negated).
    intervals = (f"95% bootstrap CI over segments, {n_boot} resamples" if n_boot
                 else "no intervals: --n-bootstrap 0")
    corr_title = (f"\nCorrelation with MQM (Pearson r; {intervals}; error rates negated; "
                  f"system level = corpus scores, as WMT) and ORANGE, best system-level r "
                  f"first.")
    rows = []
    for m, (metric, variant) in metrics.items():
        sign = 1.0 if metric.higher_is_better else -1.0
        corpus_scores = meta.system_scores(metric, systems, refs, variant=variant,
                                           threads=args.threads)
        sys_c = meta.correlate(corpus_scores if sign > 0 else -corpus_scores, human,
                               level="system", n_bootstrap=n_boot)
        seg_c = meta.correlate(sign * seg[m], human, level="segment", n_bootstrap=n_boot)
        res = orange(metric, [[systems[s][i] for s in names] for i in range(len(refs))],
                     refs, variant=variant, n_bootstrap=args.n_bootstrap, threads=args.threads)
        rows.append((m, sys_c, seg_c, res))
    rows.sort(key=lambda r: -r[1].value)
    r_note, o_note = f"↑ {tables.CORRELATION_SCALE}", f"↓ {tables.ORANGE_SCALE}"
    ci = [tables.Column("95% CI")] if n_boot else []  # none without resamples
    columns = [tables.Column("sys r", r_note), *ci, tables.Column("seg r", r_note), *ci,
               tables.Column("ORANGE", o_note), *ci]
    cells = [[m, f"{sys_c.value:.3f}", *([_interval(sys_c.ci)] if n_boot else []),
              f"{seg_c.value:.3f}", *([_interval(seg_c.ci)] if n_boot else []),
              f"{res.orange:.3f}", *([_interval(res.ci)] if n_boot else [])]
             for m, sys_c, seg_c, res in rows]
    _say(corr_title, tables.table([tables.label("metric")], columns, cells))
    n_sys = len(names)
    chance = (n_sys + 2) / 2 / (n_sys + 1)
    lo, hi = min(r[3].orange for r in rows), max(r[3].orange for r in rows)
    below = ": every metric ranks most of these outputs above a human reference" \
        if lo > chance else ""
    _say(f"\nORANGE (Lin & Och 2004), on its 0-1 scale: the rank of the references' mean "
         f"score among the {n_sys} system outputs' scores, divided by {n_sys + 1} (the list "
         f"length + 1) and averaged over segments; lower is better: "
         f"{1 / (n_sys + 1):.3f} = the references always ranked first, "
         f"{chance:.3f} = no better than chance, 1 = always last ({lo:.2f} to {hi:.2f} "
         f"here{below}).",
         f"With {n_sys} systems the system-level intervals are wide: read them before the "
         f"ranks." if n_boot else f"With {n_sys} systems a system-level r moves a lot with "
         f"one system: rerun with --n-bootstrap 1000 for its interval before reading ranks.",
         "data: an extract of WMT21 (research use) with MQM scores (Apache-2.0); see "
         "mtalign/data/README.md")
    if args.report is not None:
        _demo_report(args, systems, refs, mqm, n_boot)
    return 0


#: Where ``mtalign demo`` writes its report without ``--report``.
DEMO_REPORT = "mtalign-demo-report.html"


def _demo_report(args: argparse.Namespace, systems: dict[str, list[str]],
                 refs: list[list[str]], mqm: dict[str, np.ndarray], n_boot: int | None) -> None:
    """The sample's ``mtalign report`` page (with its source and MQM scores), named."""
    from mtalign.cli.report import write_page
    from mtalign.demo import load_mqm_source
    from mtalign.reporting import report

    page = report(systems, refs, src=load_mqm_source(), human=mqm, n_bootstrap=n_boot,
                  threads=args.threads, title="mtalign demo: WMT21 en-de (MQM sample)")
    write_page(args.report, page)
    _say(f"\nReport: wrote {args.report}, one HTML page comparing the 8 systems (scores with "
         f"intervals and significance, MQM scatter, buckets, the segments where the two "
         f"best differ); open it in a browser. Make one for your systems with mtalign "
         f"report.")


def add_commands(sub: argparse._SubParsersAction) -> None:
    """Adds ``score`` and ``demo`` to the ``mtalign`` subcommands."""
    s = sub.add_parser("score", help="score hypothesis files against reference files",
                       description="Score one or more systems' outputs (-i SYS1 SYS2 ...) "
                                   "against one or more reference files (UTF-8, one segment "
                                   "per line, aligned; - reads standard input; gzip, xz and "
                                   "bzip2 files are read as they are). Files are read in "
                                   "chunks, so memory does not grow with their length "
                                   "(except with nist, whose weights count every reference: "
                                   "then the files are read whole). Every system is scored "
                                   "in the same native calls, so each reference is tokenized "
                                   "once. Prints JSON Lines by default: one object per "
                                   "system, also for one system.")
    s.add_argument("-r", "--refs", nargs="+", required=True, metavar="REF",
                   help="reference file(s); several files = several references per segment")
    s.add_argument("-i", "--input", nargs="+", required=True, metavar="HYP",
                   help="hypothesis file(s): one per system, all scored against the same "
                        "references")
    s.add_argument("--names", nargs="+", metavar="NAME",
                   help="the systems' names, one per -i file, in order (default: the file "
                        "names without the part all share, e.g. ende.hyp.Online-W.de -> "
                        "Online-W)")
    s.add_argument("-m", "--metrics", nargs="+", default=DEFAULT_METRICS, metavar="METRIC",
                   help=f"metric names ({registry.names_help()}) (default: "
                        f"{' '.join(DEFAULT_METRICS)})")
    add_metric_options(s)
    s.add_argument("-f", "--format", default="json", choices=("json", "text", "tsv"),
                   help="output format: json = JSON Lines, one object per system (also for "
                        "one system) with keys system, scores, n_sentences, n_empty_hyps, "
                        "n_empty_refs, signatures (and sentences with --sentence-level); "
                        "text = tables of at most 80 columns, each metric with its direction "
                        "(↑ higher / ↓ lower is better) and scale; tsv = columns system, line, "
                        "one per score; a system's corpus scores on its row with line "
                        "'corpus': what correlate --scores reads (default: %(default)s)")
    s.add_argument("--sentence-level", action="store_true",
                   help="also print the scores of every segment (one row per system and "
                        "segment)")
    s.add_argument("--threads", type=positive_int, default=None, metavar="N",
                   help="threads (default: all cores, or MTALIGN_NUM_THREADS)")
    s.add_argument("--chunk-lines", type=positive_int, default=CHUNK_LINES, metavar="N",
                   help="segments read and scored at a time (default: %(default)s)")
    add_progress_options(s)
    s.set_defaults(func=cmd_score)

    d = sub.add_parser("demo", help="judge metrics against MQM on the WMT21 en-de sample "
                                    "shipped with mtalign: scores, correlations, ORANGE",
                       description="A tour of mtalign on data shipped inside the package: "
                                   "eight systems of WMT21 news en-de with two references "
                                   "and MQM human scores. Prints each system's corpus scores "
                                   "under several metrics, then ranks the metrics by how "
                                   "well they agree with MQM (Pearson correlation at system "
                                   "and segment level, and ORANGE), each with a bootstrap "
                                   "95% confidence interval, and ends by writing the "
                                   "sample's HTML report (as mtalign report makes it) and "
                                   "naming the file. Takes a few seconds.")
    d.add_argument("--threads", type=positive_int, default=None, metavar="N",
                   help="threads (default: all cores)")
    d.add_argument("--n-bootstrap", type=count, default=1000, metavar="N",
                   help="bootstrap resamples of the intervals (default: %(default)s; "
                        "0 = no intervals)")
    g = d.add_mutually_exclusive_group()
    g.add_argument("--report", default=DEMO_REPORT, metavar="HTML",
                   help="where to write the sample's HTML report (default: %(default)s in "
                        "the current directory)")
    g.add_argument("--no-report", dest="report", action="store_const", const=None,
                   help="write no report")
    d.set_defaults(func=cmd_demo)
