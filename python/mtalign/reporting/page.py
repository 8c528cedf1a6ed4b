"""The HTML of ``mtalign report``: one self-contained page (inline CSS, inline SVG, a few
lines of inline script to sort a table; nothing fetched), readable offline and printable.

Every number the page shows is also in its cell's ``data-v`` attribute at full precision,
so that tests (and scripts) read the page as data.

>>> print(num(52.7412345, 2), num(float("nan"), 2))
52.74 –
>>> scatter([1.0, 2.0], [0.5, 0.7], ["A", "B"], "bleu", "human").startswith("<svg")
True
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from mtalign import tables
from mtalign._mtalign import __version__
from mtalign.reporting.analysis import Buckets, Marked, NgramDiff, ReportData

CSS = """
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0 auto;
max-width:1200px;padding:0 24px 48px;color:#1d2433;background:#fff}
h1{font-size:26px;margin:24px 0 4px}h2{font-size:20px;margin:32px 0 8px;
border-bottom:2px solid #e3e7ee;padding-bottom:4px}h3{font-size:16px;margin:20px 0 6px}
p.note,.note{color:#5a6478;font-size:13px}
table{border-collapse:collapse;margin:8px 0 12px;font-size:13.5px}
th,td{padding:3px 8px;border-bottom:1px solid #e3e7ee;text-align:left;vertical-align:top}
th{background:#f4f6fa;font-weight:600;white-space:nowrap}td:first-child{white-space:nowrap}
td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
td.best{font-weight:700}td.sig{color:#b3261e}td.weak{color:#8a93a6}
table.sortable th{cursor:pointer}table.sortable th:hover{background:#e6ebf5}
.seg{border:1px solid #e3e7ee;border-radius:6px;padding:8px 12px;margin:10px 0;
break-inside:avoid}
.seg .lab{display:inline-block;min-width:110px;color:#5a6478;font-size:12.5px}
.seg p{margin:3px 0}
mark{background:#cdebd3;color:inherit;padding:0 1px;border-radius:2px}
mark.shift,span.sub.shift{outline:1px dashed #1a56c4}
span.sub{background:#fbe3c6;border-radius:2px}
del{background:#f8d0cd;text-decoration:line-through;text-decoration-color:#b3261e}
ins{background:#dfe8fb;text-decoration:none;border-radius:2px}
.legend span,.legend mark,.legend del,.legend ins{margin-right:10px}
.plots{display:flex;flex-wrap:wrap;gap:18px}
figure{margin:0}figcaption{font-size:13px;color:#5a6478;text-align:center}
code{font-size:12.5px;background:#f4f6fa;padding:1px 4px;border-radius:3px;
word-break:break-all}
.wide{overflow-x:auto}
td.t{max-width:30ch;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
td.t:hover{white-space:normal;overflow:visible}
@media print{.wide{overflow:visible}body{max-width:none}}
"""

SCRIPT = """
document.querySelectorAll("table.sortable").forEach(function (t) {
  t.querySelectorAll("th").forEach(function (th, i) {
    th.addEventListener("click", function () {
      var dir = th.dataset.dir === "desc" ? 1 : -1, rows = Array.from(t.tBodies[0].rows);
      th.dataset.dir = dir > 0 ? "asc" : "desc";
      rows.sort(function (x, y) {
        var a = x.cells[i].dataset.v, b = y.cells[i].dataset.v;
        if (a !== undefined && b !== undefined) return dir * (parseFloat(a) - parseFloat(b));
        return dir * x.cells[i].textContent.localeCompare(y.cells[i].textContent);
      });
      rows.forEach(function (r) { t.tBodies[0].appendChild(r); });
    });
  });
});
"""


def esc(text: Any) -> str:
    """Text (or a number) escaped for HTML."""
    return html.escape(str(text), quote=True)


def num(value: float, digits: int) -> str:
    """A number as shown: ``digits`` decimals, an en dash for NaN."""
    return "–" if value is None or math.isnan(value) else f"{value:.{digits}f}"


def cell(value: float, digits: int, cls: str = "n", **data: Any) -> str:
    """A numeric ``<td>``: the rounded number shown, the exact one in ``data-v``."""
    attrs = "".join(f' data-{k}="{esc(v)}"' for k, v in data.items())
    v = "nan" if value is None or math.isnan(value) else repr(float(value))
    return f'<td class="{cls}" data-v="{v}"{attrs}>{num(value, digits)}</td>'


def _digits(name: str) -> int:
    return tables.decimals(name)


def _header(name: str) -> str:
    return f"{esc(name)} <span class=note>{esc(tables.metric_note(name))}</span>"


# -- sections ------------------------------------------------------------------------------

def systems_section(d: ReportData) -> list[str]:
    """The systems table: every metric's corpus score, 95% interval, p-value against the
    best system and significance cluster; the human score with --human."""
    first = d.tables[0]
    has_ci = first.low is not None
    test = d.settings.get("test", "bs")
    out = ["<h2 id=systems>Systems</h2>", '<div class=wide><table id="systems-table">',
           "<thead><tr><th rowspan=2>system</th>"]
    if d.human is not None:
        out.append("<th rowspan=2>human</th>")
    span = 4 if has_ci else 2
    out += [f"<th colspan={span}>{_header(t.name)}</th>" for t in d.tables]
    out.append("</tr><tr>")
    for _ in d.tables:
        out.append("<th>score</th>" + ("<th>95% CI</th>" if has_ci else "")
                   + "<th>p vs best</th>" + ("<th>rank</th>" if has_ci else ""))
    out.append("</tr></thead><tbody>")
    human = None if d.human is None else np.nanmean(d.human, axis=1)
    for i in first.order():
        name = d.names[i]
        row = [f'<tr data-system="{esc(name)}"><td>{esc(name)}</td>']
        if human is not None:
            row.append(cell(float(human[i]), 3, system=name, field="human"))
        for t in d.tables:
            dig, attrs = _digits(t.name), {"system": name, "metric": t.name}
            row.append(cell(float(t.scores[i]), dig, "n best" if i == t.best else "n",
                            field="score", **attrs))
            if has_ci and t.low is not None and t.high is not None:
                row.append(f'<td class=n data-field="ci" data-low="{float(t.low[i])!r}" '
                           f'data-high="{float(t.high[i])!r}" data-system="{esc(name)}" '
                           f'data-metric="{esc(t.name)}">[{num(t.low[i], dig)}, '
                           f'{num(t.high[i], dig)}]</td>')
            p = float(t.p_values[i])
            row.append(cell(p, 4, "n sig" if p < 0.05 else "n", field="p", **attrs))
            if has_ci and t.ranks is not None:
                row.append(cell(t.ranks[i], 0, field="rank", **attrs))
        out.append("".join(row) + "</tr>")
    out.append("</tbody></table></div>")
    what = ("paired bootstrap resampling (Koehn 2004)" if test == "bs"
            else "approximate randomization (Riezler & Maxwell 2005)")
    notes = [f"Systems sorted by {esc(first.name)}; the best score of each metric in bold. "
             f"<b>p vs best</b>: p-value of the difference to the best system by that metric, "
             f"{what}, as sacrebleu's --paired-{test} (red: p &lt; 0.05)."]
    if has_ci:
        notes.append(f"<b>95% CI</b>: bootstrap interval of the corpus score "
                     f"({d.settings['n_bootstrap']} resamples of the segments, as sacrebleu's "
                     f"--confidence). <b>rank</b>: significance clusters: systems sorted by "
                     f"the metric, a new rank begins at a system significantly different "
                     f"(paired bootstrap p &lt; 0.05 on the same resamples) from a member of "
                     f"the current rank, as WMT's tables.")
    if d.human is not None:
        notes.append("<b>human</b>: the mean human score of the system's judged segments.")
    return out + [f"<p class=note>{' '.join(notes)}</p>"]


def scatter(xs: Sequence[float], ys: Sequence[float], labels: Sequence[str], xlabel: str,
            ylabel: str, width: int = 340, height: int = 250) -> str:
    """An inline SVG scatter plot, each point named (label and tooltip)."""
    left, right, top, bottom = 48, 16, 12, 40
    w, h = width - left - right, height - top - bottom

    def scale(v: Sequence[float]) -> tuple[float, float]:
        lo, hi = float(min(v)), float(max(v))
        pad = (hi - lo) * 0.08 or max(abs(lo) * 0.05, 0.5)
        return lo - pad, hi + pad

    (x0, x1), (y0, y1) = scale(xs), scale(ys)
    px = [left + (x - x0) / (x1 - x0) * w for x in xs]
    py = [top + h - (y - y0) / (y1 - y0) * h for y in ys]
    out = [f'<svg width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" role="img" aria-label="{esc(xlabel)} against '
           f'{esc(ylabel)}" font-size="11" font-family="system-ui,sans-serif">',
           f'<rect x="{left}" y="{top}" width="{w}" height="{h}" fill="#fafbfd" '
           f'stroke="#c9d0dc"/>']
    for v, lab in ((x0 + (x1 - x0) * 0.08 / 1.16, "start"), (x1 - (x1 - x0) * 0.08 / 1.16,
                                                             "end")):
        x = left + (v - x0) / (x1 - x0) * w
        out.append(f'<text x="{x:.1f}" y="{top + h + 14}" text-anchor="{lab}" '
                   f'fill="#5a6478">{v:.4g}</text>')
    for v in (y0 + (y1 - y0) * 0.08 / 1.16, y1 - (y1 - y0) * 0.08 / 1.16):
        y = top + h - (v - y0) / (y1 - y0) * h
        out.append(f'<text x="{left - 4}" y="{y + 4:.1f}" text-anchor="end" '
                   f'fill="#5a6478">{v:.3g}</text>')
    out.append(f'<text x="{left + w / 2:.1f}" y="{height - 6}" text-anchor="middle">'
               f'{esc(xlabel)}</text>')
    out.append(f'<text transform="translate(12 {top + h / 2:.1f}) rotate(-90)" '
               f'text-anchor="middle">{esc(ylabel)}</text>')
    placed: list[tuple[float, float, float]] = []  # (left, right, baseline) of each label
    for x, y, name in zip(px, py, labels, strict=True):
        anchor = "end" if x > left + w * 0.7 else "start"
        dx = -6 if anchor == "end" else 6
        size = 6.4 * len(name)  # about 6.4 px per character at 11 px
        x0 = x + dx - size if anchor == "end" else x + dx
        ty = _free_line(placed, x0, x0 + size, y - 5)
        placed.append((x0, x0 + size, ty))
        out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="4" fill="#1a56c4">'
                   f'<title>{esc(name)}</title></circle>'
                   f'<text x="{x + dx:.1f}" y="{ty:.1f}" text-anchor="{anchor}" '
                   f'fill="#1d2433">{esc(name)}</text>')
    return "".join(out) + "</svg>"


def _free_line(placed: list[tuple[float, float, float]], x0: float, x1: float,
               y: float) -> float:
    """The baseline nearest ``y`` (steps of 11 px, up then down) where a label spanning
    ``x0``-``x1`` overlaps none placed so far.

    >>> _free_line([(0, 50, 20)], 10, 40, 22), _free_line([(0, 50, 20)], 60, 90, 20)
    (33, 20)
    """
    for k in range(12):
        for cand in ((y + 11 * (k // 2 + 1), y - 11 * (k // 2 + 1)) if k else (y,)):
            if all(x1 <= a or x0 >= b or abs(cand - ty) >= 11 for a, b, ty in placed):
                return cand
    return y


def human_section(d: ReportData) -> list[str]:
    """Each metric's system-level correlation with the human scores, and a scatter plot."""
    if d.human is None:
        return []
    human = np.nanmean(d.human, axis=1)
    out = ["<h2 id=human>Agreement with human scores</h2>",
           "<table id=correlations><thead><tr><th>metric</th><th>Pearson r</th>"
           "<th>95% CI</th><th>systems</th></tr></thead><tbody>"]
    for t in d.tables:
        c = t.correlation
        if c is None:
            continue
        out.append(f'<tr><td>{esc(t.name)}</td>{cell(c.value, 3, metric=t.name, field="r")}'
                   f"<td class=n>[{num(c.ci[0], 3)}, {num(c.ci[1], 3)}]</td>"
                   f"<td class=n>{c.n}</td></tr>")
    out.append("</tbody></table>")
    out.append("<p class=note>System level, the WMT way: a system's metric score is its corpus "
               "score (error rates negated for r); the interval resamples segments and "
               "re-scores each resample's corpus.</p><div class=plots>")
    for t in d.tables:
        r = "" if t.correlation is None else f" (r = {num(t.correlation.value, 3)})"
        out.append(f"<figure>{scatter(t.scores.tolist(), human.tolist(), d.names, t.name, 'human')}"
                   f"<figcaption>{esc(t.name)}{r}</figcaption></figure>")
    return out + ["</div>"]


def _bucket_table(b: Buckets, names: list[str], table_id: str, count_label: str,
                  digits: int) -> list[str]:
    out = [f'<div class=wide><table id="{table_id}"><thead><tr><th>bucket</th>'
           f"<th>{esc(count_label)}</th>",
           *(f"<th>{esc(n)}</th>" for n in names), "</tr></thead><tbody>"]
    for k, label in enumerate(b.labels):
        vals = [row[k] for row in b.values]
        top = max(vals) if vals and min(vals) < max(vals) else math.nan
        cells = "".join(cell(v, digits, "n best" if v == top else "n",
                             system=names[s]) for s, v in enumerate(vals))
        out.append(f'<tr data-bucket="{esc(label)}"><td>{esc(label)}</td>'
                   f'<td class=n data-v="{b.counts[k]}" data-field="count">{b.counts[k]}</td>'
                   f"{cells}</tr>")
    return out + ["</tbody></table></div>"]


def _ngram_table(rows: list[NgramDiff], a: str, b: str, table_id: str) -> list[str]:
    out = [f'<table id="{table_id}"><thead><tr><th>n-gram</th><th>{esc(a)}</th>'
           f"<th>{esc(b)}</th></tr></thead><tbody>"]
    out += [f"<tr><td>{esc(r.ngram)}</td><td class=n data-v={r.a}>{r.a}</td>"
            f"<td class=n data-v={r.b}>{r.b}</td></tr>" for r in rows]
    return out + ["</tbody></table>"]


def buckets_section(d: ReportData) -> list[str]:
    """compare-mt's analyses: score by reference length, word F-measure by frequency, and
    the n-grams one system of the pair gets right more often."""
    seg = d.tables[d.segment_metric]
    out = ["<h2 id=buckets>Buckets</h2>"]
    if d.length is not None:
        out += [f"<h3>Mean sentence {esc(seg.name)} by reference length</h3>",
                *_bucket_table(d.length, d.names, "length-buckets", "segments",
                               _digits(seg.name)),
                "<p class=note>Reference length: words (sacrebleu's 13a tokens) of the first "
                "reference. Best system of each bucket in bold.</p>"]
    if d.frequency is not None:
        out += ["<h3>Word F-measure by frequency</h3>",
                *_bucket_table(d.frequency, d.names, "frequency-buckets", "reference words",
                               3),
                f"<p class=note>A word's bucket is its count in {esc(d.frequency_source)}; "
                f"per bucket, matched words (per segment, the smaller of the word's counts in "
                f"hypothesis and first reference) over hypothesis words (precision) and over "
                f"reference words (recall), and their F-measure, as compare-mt.</p>"]
    if d.pair is not None and (d.ngram_a or d.ngram_b):
        a, b = (d.names[i] for i in d.pair)
        out += [f"<h3>n-grams {esc(a)} gets right more often than {esc(b)}, and the reverse</h3>",
                "<div class=plots><div>", *_ngram_table(d.ngram_a, a, b, "ngrams-a"),
                "</div><div>", *_ngram_table(d.ngram_b, a, b, "ngrams-b"), "</div></div>",
                f"<p class=note>Counts: how many times each system produced the n-gram "
                f"(orders 1-{d.settings['ngram_order']}) where the first reference has it "
                f"(clipped by the reference's count, summed over segments); ranked by "
                f"(a + 1) / (a + b + 2), as compare-mt.</p>"]
    return out


def _hyp_html(m: Marked) -> str:
    parts = []
    for w, op, shifted in m.words:
        cls = ' class="shift"' if shifted else ""
        if op == "match":
            parts.append(f"<mark{cls}>{esc(w)}</mark>")
        elif op == "sub":
            parts.append(f'<span class="sub{" shift" if shifted else ""}">{esc(w)}</span>')
        else:
            parts.append(f"<del{cls}>{esc(w)}</del>")
    if m.missing:
        parts.append(" <span class=note>missing:</span> "
                     + " ".join(f"<ins>{esc(w)}</ins>" for w in m.missing))
    return " ".join(parts)


def _edits(m: Marked, n_refs: int) -> str:
    e = m.explanation
    against = f" against reference {e.ref_index + 1}" if n_refs > 1 else ""
    return (f"TER {e.score:.1f}{against}: {len(e.shifts)} shift{'s' * (len(e.shifts) != 1)}, "
            f"{e.substitutions} sub, {e.insertions} ins, {e.deletions} del")


def segments_section(d: ReportData, src: list[str] | None, refs: list[list[str]],
                     systems: list[list[str]]) -> list[str]:
    """The segments where the two systems of the pair differ most, drawn with TER's edits."""
    if d.pair is None or not d.examples:
        return []
    seg = d.tables[d.segment_metric]
    a, b = d.pair
    out = [f"<h2 id=segments>Where {esc(d.names[a])} and {esc(d.names[b])} differ most</h2>",
           f"<p class=legend>By sentence {esc(seg.name)}. TER's alignment with the closest "
           f"reference: <mark>match</mark><span class=sub>substituted</span>"
           f"<del>deleted</del><ins>missing</ins><mark class=shift>shifted</mark>"
           f"(words as TER compares them, case aside).</p>"]
    for title, lines in d.examples:
        out.append(f"<h3>{esc(title)}</h3>")
        for i in lines:
            scores = " · ".join(
                f"{esc(t.name)} {num(t.sentence[a, i], _digits(t.name))} / "
                f"{num(t.sentence[b, i], _digits(t.name))}" for t in d.tables)
            out.append(f'<div class=seg data-line="{i + 1}"><p><span class=lab>line</span>'
                       f"{i + 1} · sentence scores of {esc(d.names[a])} / "
                       f"{esc(d.names[b])}: {scores}</p>")
            if src is not None:
                out.append(f"<p><span class=lab>source</span>{esc(src[i])}</p>")
            for k, r in enumerate(refs[i]):
                label = "reference" + (f" {k + 1}" if len(refs[i]) > 1 else "")
                out.append(f"<p><span class=lab>{label}</span>{esc(r)}</p>")
            for s in (a, b):
                m = d.marked[s, i]
                out.append(f'<p class=hyp data-system="{esc(d.names[s])}" data-line="{i + 1}">'
                           f"<span class=lab>{esc(d.names[s])}</span>{_hyp_html(m)}"
                           f' <span class=note data-ref="{m.explanation.ref_index}">'
                           f"({esc(_edits(m, len(refs[i])))})</span></p>")
            out.append("</div>")
    return out


def table_section(d: ReportData, refs: list[list[str]], systems: list[list[str]]) -> list[str]:
    """Every segment (up to --max-segments) with each system's sentence score; sortable."""
    seg = d.tables[d.segment_metric]
    dig = _digits(seg.name)
    a, b = d.pair if d.pair is not None else (None, None)
    heads = ["line", "ref words"]
    if a is not None and b is not None:
        heads += [f"{d.names[a]} − {d.names[b]}", "reference", d.names[a], d.names[b]]
    else:
        heads += ["reference"]
    out = [f"<h2 id=table>Every segment: sentence {esc(seg.name)}</h2>",
           "<p class=note>Click a column's header to sort by it; point at a text to read "
           "all of it.</p>",
           '<div class=wide><table id="segment-table" class=sortable><thead><tr>',
           *(f"<th>{esc(h)}</th>" for h in heads),
           *(f"<th>{esc(n)}</th>" for n in d.names), "</tr></thead><tbody>"]
    for i in d.shown_segments:
        n_words = len(refs[i][0].split())
        row = [f'<tr data-line="{i + 1}"><td class=n data-v="{i + 1}">{i + 1}</td>'
               f"<td class=n data-v={n_words}>{n_words}</td>"]
        if a is not None and b is not None:
            row.append(cell(float(seg.better(a, b)[i]), dig, field="diff"))
            row.append(f"<td class=t>{esc(refs[i][0])}</td><td class=t>{esc(systems[a][i])}"
                       f"</td><td class=t>{esc(systems[b][i])}</td>")
        else:
            row.append(f"<td class=t>{esc(refs[i][0])}</td>")
        row += [cell(float(seg.sentence[s, i]), dig, system=d.names[s])
                for s in range(len(d.names))]
        out.append("".join(row) + "</tr>")
    out.append("</tbody></table></div>")
    rest = d.n_segments - len(d.shown_segments)
    if rest:
        shown = set(d.shown_segments)
        others = [i for i in range(d.n_segments) if i not in shown]
        means = ", ".join(f"{esc(n)} {num(float(np.mean(seg.sentence[s, others])), dig)}"
                          for s, n in enumerate(d.names))
        out.append(f'<p class=note id="segments-left-out" data-count="{rest}">{rest} more '
                   f"segments are not listed (--max-segments {len(d.shown_segments)}: the "
                   f"listed ones are those where the pair differs most); their mean sentence "
                   f"{esc(seg.name)}: {means}.</p>")
    return out


def signatures_section(d: ReportData) -> list[str]:
    """Every metric's and test's signature, and the settings: the page as a record."""
    out = ["<h2 id=signatures>Signatures</h2><table id=signatures-table><tbody>"]
    for t in d.tables:
        out.append(f'<tr><td>{esc(t.name)}</td><td><code data-metric="{esc(t.name)}">'
                   f"{esc(t.signature)}</code></td></tr>")
    t0 = d.tables[0]
    out.append(f"<tr><td>paired test</td><td><code data-test>{esc(t0.test_signature)}"
               f"</code></td></tr>")
    settings = "|".join(f"{k}:{v}" for k, v in d.settings.items())
    out.append(f"<tr><td>report</td><td><code>{esc(settings)}|version:{__version__}</code>"
               f"</td></tr></tbody></table>")
    return out


def render(d: ReportData, systems: list[list[str]], refs: list[list[str]],
           src: list[str] | None, title: str) -> str:
    """The whole page."""
    n_refs = d.n_refs
    summary = (f"{d.n_segments} segments, {n_refs} reference{'s' * (n_refs != 1)}, "
               f"{len(d.names)} systems; metrics: {', '.join(t.name for t in d.tables)}.")
    nav = " · ".join(f'<a href="#{k}">{v}</a>' for k, v in (
        ("systems", "systems"), ("human", "human scores"), ("buckets", "buckets"),
        ("segments", "segments"), ("table", "every segment"), ("signatures", "signatures"))
        if k != "human" or d.human is not None)
    body = [f"<h1>{esc(title)}</h1>", f"<p>{esc(summary)}</p>", f"<p class=note>{nav}</p>",
            *systems_section(d), *human_section(d), *buckets_section(d),
            *segments_section(d, src, refs, systems), *table_section(d, refs, systems),
            *signatures_section(d),
            f"<p class=note>Made by mtalign {esc(__version__)} (<code>mtalign report</code>)."
            f"</p>"]
    return ("<!DOCTYPE html>\n<html lang=en><head><meta charset=utf-8>"
            f'<meta name=viewport content="width=device-width, initial-scale=1">'
            f"<title>{esc(title)}</title><style>{CSS}</style></head><body>\n"
            + "\n".join(body) + f"\n<script>{SCRIPT}</script></body></html>\n")
