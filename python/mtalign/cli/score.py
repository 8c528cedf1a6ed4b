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

from mtalign import __version__, registry
from mtalign.cli.common import CliError
from mtalign.errors import InputError, MtalignError
from mtalign.io import LineStream
from mtalign.metrics.dcs import Dcs
from mtalign.metrics.partial import combine, corpus_result, from_statistics
from mtalign.metrics.results import DCS_FIELDS, DcsResult, RougeResult, Score
from mtalign.metrics.rouge import Rouge

DEFAULT_METRICS = ["rouge1", "rouge2", "rougeL", "rougeW-1.2", "rougeS4", "rougeSU4"]
FIELDS = ("precision", "recall", "fmeasure", "score")
CHUNK_LINES = 20_000
_SHORT = {"precision": "P", "recall": "R", "fmeasure": "F", "score": ""}


class _Family:
    """One metric object of ``mtalign score`` and what it has summed so far, per system."""

    def __init__(self, fam: registry.Family, metric: Any, names: list[str], n_sys: int):
        self.fam, self.metric, self.names = fam, metric, names
        self.key = names[0] if fam.per_name else fam.name
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
            self.results = []
            for s, h in enumerate(hyps):
                try:
                    self.results.append(metric.corpus_score(h, refs, threads=threads))
                except MtalignError as e:  # numbered as in one batch of every system
                    raise _renumbered(e, s * k) from None
            return [{self.names[0]: (("score",), r.per_sentence.reshape(-1, 1))}
                    for r in self.results]
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
            out.append(self.sentences(arr[s * k:(s + 1) * k]))
        return out

    def sentences(self, arr: np.ndarray) -> dict[str, tuple[tuple[str, ...], np.ndarray]]:
        """Name -> (column names, (n, columns) array) of native rows."""
        metric, n = self.metric, arr.shape[0]
        if isinstance(metric, Rouge):
            variants = metric.scalar_names()
            per_variant = arr.reshape(n, len(variants), 3)
            return {name: (Score._fields, per_variant[:, variants.index(name), :])
                    for name in self.names}
        if isinstance(metric, Dcs):
            rows = arr.reshape(n, len(DCS_FIELDS))
            return {name: (("score",), rows[:, DCS_FIELDS.index(name)].reshape(-1, 1))
                    for name in self.names}
        (name,) = self.names
        return {name: (("score",), np.asarray(metric._sentence_values(arr, 0)).reshape(-1, 1))}

    def corpus(self, s: int) -> tuple[dict[str, dict[str, float]], str, int, int]:
        """System ``s``'s corpus fields per name, signature and vanished-text counts."""
        if self.batch:
            res = self.results[s] or self.metric.corpus_score([], [])
        else:
            res = corpus_result(self.metric, self.totals[s])
        if isinstance(res, RougeResult):
            scores = {name: res[name]._asdict() for name in self.names}
        elif isinstance(res, DcsResult):
            scores = {name: {"score": res.scores[DCS_FIELDS.index(name)]}
                      for name in self.names}
        else:
            scores = {self.names[0]: {"score": res.score}}
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


def _tsv_header(families: list[_Family], system_column: bool) -> str:
    header = (["system"] if system_column else []) + ["line"]
    for f in families:
        fields = Score._fields if isinstance(f.metric, Rouge) else ("score",)
        for name in f.names:
            header += [f"{name}_{_SHORT[c]}" if _SHORT[c] else name for c in fields]
    return "\t".join(header)


def _tsv_rows(cols: list[dict[str, tuple[tuple[str, ...], np.ndarray]]], first: int,
              system: str | None) -> list[str]:
    arrays = [arr for fam in cols for _, arr in fam.values()]
    if not arrays:
        return []
    table = np.hstack(arrays).tolist()
    lead = "" if system is None else system + "\t"
    return [lead + str(first + i + 1) + "\t" + "\t".join(map(repr, row))
            for i, row in enumerate(table)]


def _json_rows(cols: list[dict[str, tuple[tuple[str, ...], np.ndarray]]]) -> list[str]:
    per_name = [(name, fields, arr.tolist()) for fam in cols
                for name, (fields, arr) in fam.items()]
    n = len(per_name[0][2]) if per_name else 0
    return [json.dumps({name: dict(zip(fields, rows[i], strict=True))
                        for name, fields, rows in per_name}, ensure_ascii=False)
            for i in range(n)]


def cmd_score(args: argparse.Namespace) -> int:
    systems: list[str] = list(args.input)
    options = registry.MetricOptions.from_args(args)
    families = [_Family(fam, metric, names, len(systems))
                for fam, metric, names in registry.group_metrics(args.metrics, options)]
    whole = any(f.batch for f in families)
    # NIST's weights count every reference of the corpus: then the files are one chunk.
    chunk_lines = sys.maxsize if whole else args.chunk_lines
    if chunk_lines < 1:
        raise CliError(f"--chunk-lines must be >= 1 (got {chunk_lines})")
    streams = _open(systems + list(args.refs))
    try:
        return _score_streams(args, systems, families, streams, chunk_lines)
    finally:
        for st in streams:
            st.close()


def _score_streams(args: argparse.Namespace, systems: list[str], families: list[_Family],
                   streams: list[LineStream], chunk_lines: int) -> int:
    n_sys, fmt, level = len(systems), args.format, args.sentence_level
    direct = n_sys == 1 and fmt != "text"
    sinks = [_Rows(direct) for _ in systems] if level else []
    if level and fmt == "json" and direct:
        sys.stdout.write('{\n "sentences": [\n')
    if level and fmt != "json":
        header = _tsv_header(families, n_sys > 1)
        if direct:
            print(header)
    from mtalign._progress import Progress

    # MTALIGN_PROGRESS_DELAY: seconds before the bar appears (default 2; tests set 0).
    delay = float(os.environ.get("MTALIGN_PROGRESS_DELAY", "2"))
    lead = streams[0]
    unit = "MiB of " + lead.name if lead.size else "lines"
    progress = None if args.quiet else Progress(f"mtalign score ({unit})", delay=delay)
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
        for s, sink in enumerate(sinks):
            cols = [fam_cols[s] for fam_cols in per_fam]
            if fmt == "json":
                sink.write(_json_rows(cols), sep=",\n" if sink.direct else ",")
            else:
                sink.write(_tsv_rows(cols, n, systems[s] if n_sys > 1 else None))
        n += k
        if progress is not None:
            if lead.size:
                progress(lead.bytes >> 20, lead.size >> 20)
            else:
                progress(n, n)  # the length of a stream is not known
    if progress is not None:
        progress.close()

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
        out["signatures"] = signatures
        outs.append(out)
    _print_results(args, systems, families, outs, sinks)
    return 0


def _print_results(args: argparse.Namespace, systems: list[str], families: list[_Family],
                   outs: list[dict[str, Any]], sinks: list[_Rows]) -> None:
    fmt, level, n_sys = args.format, args.sentence_level, len(systems)
    write = sys.stdout.write
    if fmt == "json":
        spools: list[_Rows | None] = list(sinks) if sinks else [None] * n_sys
        for name, out, sink in zip(systems, outs, spools, strict=True):
            if n_sys > 1:
                out = {"system": name, **out}
            if sink is None:
                print(json.dumps(out, indent=1 if n_sys == 1 else None, ensure_ascii=False))
                continue
            rest = json.dumps(out, indent=1 if n_sys == 1 else None, ensure_ascii=False)
            if sink.direct:  # the rows are out already
                write("\n ],\n" + rest[2:] + "\n")
            else:
                write('{"sentences": [')
                sink.copy_to(sys.stdout)
                write("], " + rest[1:] + "\n")
        return
    if fmt == "tsv":
        if level:
            if n_sys > 1:
                print(_tsv_header(families, True))
            for sink in sinks:
                sink.copy_to(sys.stdout)
            return
        rows = ["system\tmetric\tfield\tvalue" if n_sys > 1 else "metric\tfield\tvalue"]
        for name, out in zip(systems, outs, strict=True):
            lead = f"{name}\t" if n_sys > 1 else ""
            for k, vals in out["scores"].items():
                rows += [f"{lead}{k}\t{f}\t{v!r}" for f, v in vals.items()]
        print("\n".join(rows))
        return
    print(_format_text(systems[0], outs[0]) if n_sys == 1 else _format_table(systems, outs))
    if level:
        print(_tsv_header(families, n_sys > 1))
        for sink in sinks:
            sink.copy_to(sys.stdout)


def _format_text(name: str, out: dict) -> str:
    lines = [f"# {name}"]
    width = max([len("metric")] + [len(k) for k in out["scores"]])
    used = [f for f in FIELDS if any(f in v for v in out["scores"].values())]
    lines.append(f"{'metric':<{width}}  " + "  ".join(f"{f:>9}" for f in used))
    for k, vals in out["scores"].items():
        cells = [f"{vals[f]:9.4f}" if f in vals else " " * 9 for f in used]
        lines.append(f"{k:<{width}}  " + "  ".join(cells))
    for family, sig in out["signatures"].items():
        lines.append(f"signature ({family}): {sig}")
    return "\n".join(lines)


def _format_table(systems: list[str], outs: list[dict]) -> str:
    """Systems × metrics: ROUGE's F-measure, every other metric's score."""
    names = list(outs[0]["scores"])
    width = max(len("system"), *(len(s) for s in systems))
    cols = [max(9, len(m)) for m in names]
    lines = [f"{'system':<{width}}  " + "  ".join(f"{m:>{w}}" for m, w in
                                                   zip(names, cols, strict=True))]
    for name, out in zip(systems, outs, strict=True):
        cells = []
        for m, w in zip(names, cols, strict=True):
            v = out["scores"][m]
            cells.append(f"{v.get('fmeasure', v.get('score', float('nan'))):{w}.4f}")
        lines.append(f"{name:<{width}}  " + "  ".join(cells))
    lines.append("(ROUGE: F-measure)")
    for family, sig in outs[0]["signatures"].items():
        lines.append(f"signature ({family}): {sig}")
    return "\n".join(lines)


#: The metrics ``mtalign demo`` compares (registry names).
DEMO_METRICS = ["bleu", "chrf", "chrf++", "ter", "rougeL", "rougeSU4", "wer", "ribes"]


def cmd_demo(args: argparse.Namespace) -> int:
    from mtalign import meta
    from mtalign.demo import load_mqm_sample
    from mtalign.ranking import orange

    systems, refs, mqm = load_mqm_sample()
    names = list(systems)
    n_boot = args.n_bootstrap
    print(f"mtalign {__version__} demo: WMT21 newstest2021 en-de, {len(refs)} segments, "
          f"{len(refs[0])} references (A, C), {len(systems)} systems rated by MQM\n")
    metrics = {m: registry.make_metric(m) for m in DEMO_METRICS}
    human = np.stack([mqm[s] for s in names])
    # 1. The metric table: corpus scores, and the MQM average for comparison.
    width = max(len(s) for s in names)
    header = f"{'system':<{width}}  {'MQM':>7}  " + "  ".join(f"{m:>8}" for m in metrics)
    print(header)
    print("-" * len(header))
    seg: dict[str, np.ndarray] = {}
    for m, (metric, variant) in metrics.items():
        seg[m] = np.stack([metric.scalar_scores(systems[s], refs, variant, args.threads)
                           for s in names])
    def corpus(metric: Any, variant: str | None, hyps: list[str]) -> float:
        res = metric.corpus_score(hyps, refs, args.threads)
        if isinstance(res, RougeResult):  # F, in percent like the others
            return 100.0 * res[variant or res.variants[0]].fmeasure
        return float(res)

    table = {m: [corpus(metric, variant, systems[s]) for s in names]
             for m, (metric, variant) in metrics.items()}
    for i, s in enumerate(names):
        cells = "  ".join(f"{table[m][i]:8.2f}" for m in metrics)
        print(f"{s:<{width}}  {np.nanmean(human[i]):7.3f}  {cells}")
    # 2. The metrics ranked by correlation with MQM (sentence scores; error rates negated).
    print(f"\nCorrelation with MQM (Pearson, 95% bootstrap CI over segments, {n_boot} "
          f"resamples; error rates negated; system level = mean sentence scores)")
    rows = []
    for m, (metric, variant) in metrics.items():
        sign = 1.0 if metric.higher_is_better else -1.0
        sys_c = meta.correlate(sign * seg[m], human, level="system", n_bootstrap=n_boot)
        seg_c = meta.correlate(sign * seg[m], human, level="segment", n_bootstrap=n_boot)
        res = orange(metric, [[systems[s][i] for s in names] for i in range(len(refs))],
                     refs, variant=variant, n_bootstrap=n_boot, threads=args.threads)
        rows.append((m, sys_c, seg_c, res))
    rows.sort(key=lambda r: -r[1].value)
    print(f"{'rank':>4}  {'metric':<9} {'system r':>8} {'[95% CI]':>17}  {'segment r':>9} "
          f"{'[95% CI]':>17}  {'ORANGE':>7} {'[95% CI]':>17}")
    for k, (m, sys_c, seg_c, res) in enumerate(rows, 1):
        print(f"{k:>4}  {m:<9} {sys_c.value:8.3f} [{sys_c.ci[0]:6.3f}, {sys_c.ci[1]:6.3f}]  "
              f"{seg_c.value:9.3f} [{seg_c.ci[0]:6.3f}, {seg_c.ci[1]:6.3f}]  "
              f"{res.orange:7.3f} [{res.ci[0]:6.3f}, {res.ci[1]:6.3f}]")
    print("\nORANGE: the mean rank of the references among the 8 system outputs, as a share "
          "of 9 places (lower is better;\nreferences always above every output give 1/9 = "
          "0.111). Ranked by system-level r.")
    print("With 8 systems the system-level intervals are wide: read them before the ranks.")
    print("data: an extract of WMT21 (research use) with MQM scores (Apache-2.0); see "
          "mtalign/data/README.md")
    return 0


def add_commands(sub: argparse._SubParsersAction) -> None:
    """Adds ``score`` and ``demo`` to the ``mtalign`` subcommands."""
    s = sub.add_parser("score", help="score hypothesis files against reference files",
                       description="Score one or more systems' outputs (-i SYS1 SYS2 ...) "
                                   "against one or more reference files (UTF-8, one segment "
                                   "per line, aligned; - reads standard input). Files are read "
                                   "in chunks, so memory does not grow with their length "
                                   "(except with nist, whose weights count every reference: "
                                   "then the files are read whole). Every system is scored "
                                   "in the same native calls, so each reference is tokenized "
                                   "once. Prints JSON by default (one object per system when "
                                   "there are several).")
    s.add_argument("-r", "--refs", nargs="+", required=True, metavar="REF",
                   help="reference file(s); several files = several references per segment")
    s.add_argument("-i", "--input", nargs="+", required=True, metavar="HYP",
                   help="hypothesis file(s): one per system, all scored against the same "
                        "references")
    s.add_argument("-m", "--metrics", nargs="+", default=DEFAULT_METRICS, metavar="METRIC",
                   help=f"metric names ({registry.names_help()}) (default: %(default)s)")
    registry.add_metric_options(s)
    s.add_argument("-f", "--format", default="json", choices=("json", "text", "tsv"),
                   help="output format: json (one object per system), text (a systems × "
                        "metrics table), tsv (default: %(default)s)")
    s.add_argument("--sentence-level", action="store_true",
                   help="also print the scores of every segment (one row per system and "
                        "segment)")
    s.add_argument("--threads", type=int, default=None,
                   help="threads (default: all cores, or MTALIGN_NUM_THREADS)")
    s.add_argument("--chunk-lines", type=int, default=CHUNK_LINES, metavar="N",
                   help="segments read and scored at a time (default: %(default)s)")
    s.add_argument("-q", "--quiet", action="store_true",
                   help="no progress bar (it is drawn on stderr only when stderr is a "
                        "terminal and the run takes more than 2 s)")
    s.set_defaults(func=cmd_score)

    d = sub.add_parser("demo", help="judge metrics against MQM on the WMT21 en-de sample "
                                    "shipped with mtalign: scores, correlations, ORANGE")
    d.add_argument("--threads", type=int, default=None, help="threads (default: all cores)")
    d.add_argument("--n-bootstrap", type=int, default=1000,
                   help="bootstrap resamples of the intervals (default: %(default)s)")
    d.set_defaults(func=cmd_demo)
