"""``mtalign report`` (and ``mtalign.report``): the page read back as data with html.parser,
its numbers checked against sacrebleu 2.6.0 (corpus and sentence BLEU, chrF, TER; its 13a
tokenizer for the buckets), scipy (the human correlation) and the library's own paired test,
bootstrap and ``Ter.explain``; buckets and n-gram counts against a direct computation here;
self-containment; and, with Debian's chromium, a real rendering (scripts/setup_chromium.sh).

The data is the WMT21 en-de MQM sample shipped with mtalign (mtalign/data)."""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import sacrebleu
from mtalign import Bleu, Chrf, Ter, paired_test
from mtalign.cli import main
from mtalign.demo import load_mqm_sample, load_mqm_source
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
from scipy.stats import pearsonr

DATA = Path(__import__("mtalign").__file__).parent / "data"
SYSTEMS, REFS, MQM = load_mqm_sample()
NAMES = list(SYSTEMS)
REF_COLUMNS = [[r[k] for r in REFS] for k in range(2)]
N_BOOT = 200
VOID = {"meta", "br", "img", "input", "link", "hr", "col", "area", "base", "source", "wbr",
        "circle", "rect"}


class Page(HTMLParser):
    """Every element of a page: tag, attributes, text (its own and its children's)."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[dict[str, Any]] = []
        self.stack: list[dict[str, Any]] = []
        self.feed(text)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        el = {"tag": tag, "attrs": dict(attrs), "text": [], "parents": list(self.stack)}
        self.elements.append(el)
        if tag not in VOID:
            self.stack.append(el)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.append({"tag": tag, "attrs": dict(attrs), "text": [],
                              "parents": list(self.stack)})

    def handle_endtag(self, tag: str) -> None:
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i]["tag"] == tag:
                del self.stack[i:]
                return

    def handle_data(self, data: str) -> None:
        for el in self.stack:
            el["text"].append(data)

    def find(self, tag: str | None = None, **attrs: Any) -> list[dict[str, Any]]:
        want = {k.replace("_", "-"): str(v) for k, v in attrs.items()}
        return [e for e in self.elements if (tag is None or e["tag"] == tag)
                and all(e["attrs"].get(k) == v for k, v in want.items())]

    def inside(self, el: dict[str, Any], tag: str, **attrs: Any) -> list[dict[str, Any]]:
        """Elements with ``el`` among their parents."""
        return [e for e in self.find(tag, **attrs) if any(p is el for p in e["parents"])]


def text(el: dict[str, Any]) -> str:
    return "".join(el["text"]).strip()


def value(page: Page, **attrs: Any) -> float:
    (el,) = page.find("td", **attrs)
    return float(el["attrs"]["data-v"])


@functools.cache
def peer_score(metric: str, system: str) -> float:
    """sacrebleu's corpus score of a system (TER is slow there: computed once)."""
    peer = {"bleu": sacrebleu.corpus_bleu, "chrf": sacrebleu.corpus_chrf,
            "ter": sacrebleu.corpus_ter}[metric]
    return float(peer(SYSTEMS[system], REF_COLUMNS).score)


def words(s: str) -> list[str]:
    return Tokenizer13a()(s).split()


def _sample_args(*extra: str) -> list[str]:
    return ["report", "-q", "-r", str(DATA / "ende_mqm_sample.ref.A.de"),
            str(DATA / "ende_mqm_sample.ref.C.de"), "-i",
            *(str(DATA / f"ende_mqm_sample.hyp.{s}.de") for s in NAMES),
            "--src", str(DATA / "ende_mqm_sample.src.en"), *extra]


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Page]:
    out = tmp_path_factory.mktemp("report") / "report.html"
    assert main(_sample_args("--human", str(DATA / "ende_mqm_sample.mqm.tsv"),
                             "--n-bootstrap", str(N_BOOT), "-o", str(out))) == 0
    html = out.read_text(encoding="utf-8")
    return html, Page(html)


@pytest.mark.parametrize("metric", ["bleu", "chrf", "ter"])
def test_corpus_scores_are_sacrebleus(sample: tuple[str, Page], metric: str) -> None:
    _, page = sample
    for s in NAMES:
        expected = peer_score(metric, s)
        (cell,) = page.find("td", data_system=s, data_metric=metric, data_field="score")
        assert float(cell["attrs"]["data-v"]) == pytest.approx(expected, abs=1e-9)
        assert text(cell) == f"{expected:.2f}"


def test_rows_are_sorted_by_the_first_metric(sample: tuple[str, Page]) -> None:
    _, page = sample
    rows = [e["attrs"]["data-system"] for e in page.find("tr") if "data-system" in e["attrs"]]
    assert rows == sorted(NAMES, key=lambda s: -peer_score("bleu", s))


@pytest.mark.parametrize("metric", ["bleu", "chrf", "ter"])
def test_intervals_and_signatures_are_the_librarys(sample: tuple[str, Page], metric: str) -> None:
    _, page = sample
    m = {"bleu": Bleu(), "chrf": Chrf(), "ter": Ter()}[metric]
    for s in NAMES:
        res = m.corpus_score(SYSTEMS[s], REFS, n_bootstrap=N_BOOT)
        (ci,) = page.find("td", data_system=s, data_metric=metric, data_field="ci")
        assert float(ci["attrs"]["data-low"]) == pytest.approx(res.confidence.low, abs=1e-9)
        assert float(ci["attrs"]["data-high"]) == pytest.approx(res.confidence.high, abs=1e-9)
    (sig,) = page.find("code", data_metric=metric)
    assert text(sig) == res.signature and f"bs:{N_BOOT}" in text(sig)


def _best(metric: Any) -> str:
    sign = 1 if metric.higher_is_better else -1
    return max(NAMES, key=lambda s: sign * float(metric.corpus_score(SYSTEMS[s], REFS)))


@pytest.mark.parametrize("metric", ["bleu", "chrf", "ter"])
def test_p_values_against_the_best_are_paired_tests(sample: tuple[str, Page],
                                                    metric: str) -> None:
    _, page = sample
    m = {"bleu": Bleu(), "chrf": Chrf(), "ter": Ter()}[metric]
    best = _best(m)
    others = {s: SYSTEMS[s] for s in NAMES if s != best}
    res = paired_test(m, SYSTEMS[best], others, REFS, kind="bs", n_samples=1000, seed=12345)
    assert np.isnan(value(page, data_system=best, data_metric=metric, data_field="p"))
    for s in others:
        assert value(page, data_system=s, data_metric=metric, data_field="p") == \
            pytest.approx(res[s].p_value, abs=1e-12)


@pytest.mark.parametrize("metric", ["bleu", "ter"])
def test_clusters_from_pairwise_paired_bootstrap(sample: tuple[str, Page], metric: str) -> None:
    """Sorted best first, a new rank where a system is significantly different (p <= 0.05,
    the library's paired bootstrap on the report's resamples) from one of the current rank."""
    _, page = sample
    m = {"bleu": Bleu(), "ter": Ter()}[metric]
    sign = 1 if m.higher_is_better else -1
    order = sorted(NAMES, key=lambda s: -sign * float(m.corpus_score(SYSTEMS[s], REFS)))
    ranks, rank, cluster = {}, 1, []
    for s in order:
        if cluster:
            p = [paired_test(m, SYSTEMS[c], {s: SYSTEMS[s]}, REFS, n_samples=N_BOOT,
                             seed=12345)[s].p_value for c in cluster]
            if min(p) <= 0.05:
                rank, cluster = rank + 1, []
        cluster.append(s)
        ranks[s] = rank
    shown = {s: int(value(page, data_system=s, data_metric=metric, data_field="rank"))
             for s in NAMES}
    assert shown == ranks
    assert len(set(ranks.values())) > 1  # the sample separates some systems


@pytest.mark.parametrize("metric", ["bleu", "ter"])
def test_human_correlation_is_scipys_on_sacrebleus_scores(sample: tuple[str, Page],
                                                          metric: str) -> None:
    """System level the WMT way: corpus scores (TER negated) against the mean MQM."""
    _, page = sample
    x = [peer_score(metric, s) for s in NAMES]
    x = x if metric == "bleu" else [-v for v in x]
    y = [float(np.nanmean(MQM[s])) for s in NAMES]
    assert value(page, data_metric=metric, data_field="r") == \
        pytest.approx(pearsonr(x, y)[0], abs=1e-9)
    for s, h in zip(NAMES, y, strict=True):
        assert value(page, data_system=s, data_field="human") == pytest.approx(h, abs=1e-12)
    # one scatter per metric, one point per system, nothing but inline SVG
    svgs = page.find("svg")
    assert len(svgs) == 3
    assert len(page.inside(svgs[0], "circle")) == len(NAMES)


def test_self_contained(sample: tuple[str, Page]) -> None:
    html, page = sample
    for el in page.elements:
        for k in ("src", "href", "xlink:href", "action", "data"):
            v = el["attrs"].get(k)
            if v is not None:
                assert not v.lower().startswith(("http:", "https:", "//")), (el["tag"], v)
    assert not page.find("link") and not page.find("img") and not page.find("iframe")
    assert all("src" not in e["attrs"] for e in page.find("script"))
    assert "http://" not in html and "https://" not in html
    assert "@import" not in html and "url(" not in html


def test_length_buckets(sample: tuple[str, Page]) -> None:
    """Segments per reference-length bucket (13a words of the first reference) and each
    system's mean sentence BLEU there, computed here with sacrebleu."""
    _, page = sample
    cut = [10, 20, 30, 40, 50]
    labels = ["<10", "10-19", "20-29", "30-39", "40-49", "≥50"]
    bucket = [labels[sum(len(words(r)) >= c for c in cut)] for r in REF_COLUMNS[0]]
    (table,) = page.find("table", id="length-buckets")
    rows = page.inside(table, "tr")[1:]
    assert [r["attrs"]["data-bucket"] for r in rows] == [b for b in labels if b in bucket]
    for row in rows:
        b = row["attrs"]["data-bucket"]
        members = [i for i, x in enumerate(bucket) if x == b]
        (count,) = page.inside(row, "td", data_field="count")
        assert int(count["attrs"]["data-v"]) == len(members)
        for s in NAMES:
            (cell,) = page.inside(row, "td", data_system=s)
            expected = np.mean([sacrebleu.sentence_bleu(SYSTEMS[s][i], REFS[i]).score
                                for i in members])
            assert float(cell["attrs"]["data-v"]) == pytest.approx(expected, abs=1e-9)


def test_frequency_buckets(sample: tuple[str, Page]) -> None:
    """Word F-measure per frequency bucket (counts in both references), computed here."""
    _, page = sample
    freq = Counter(w for col in REF_COLUMNS for r in col for w in words(r))

    def bucket(w: str) -> str:
        c = freq[w]
        return ("0" if c == 0 else str(c) if c < 5 else "5-9" if c < 10 else "10-99"
                if c < 100 else "100-999" if c < 1000 else "≥1000")

    refs = [Counter(words(r)) for r in REF_COLUMNS[0]]
    ref_total: Counter[str] = Counter()
    for rc in refs:
        for w, c in rc.items():
            ref_total[bucket(w)] += c
    (table,) = page.find("table", id="frequency-buckets")
    rows = {r["attrs"]["data-bucket"]: r for r in page.inside(table, "tr")[1:]}
    assert {b for b in rows if b != "0"} == set(ref_total)
    for b, row in rows.items():
        (count,) = page.inside(row, "td", data_field="count")
        assert int(count["attrs"]["data-v"]) == ref_total[b]
    for s in NAMES[:3]:
        hyp_total: Counter[str] = Counter()
        matched: Counter[str] = Counter()
        for h, rc in zip(SYSTEMS[s], refs, strict=True):
            for w, c in Counter(words(h)).items():
                hyp_total[bucket(w)] += c
                matched[bucket(w)] += min(c, rc[w])
        for b, row in rows.items():
            p = matched[b] / hyp_total[b] if hyp_total[b] else 0
            r = matched[b] / ref_total[b] if ref_total[b] else 0
            f = 2 * p * r / (p + r) if p + r else 0
            (cell,) = page.inside(row, "td", data_system=s)
            assert float(cell["attrs"]["data-v"]) == pytest.approx(f, abs=1e-12)


def _pair() -> tuple[str, str]:
    a, b = sorted(NAMES, key=lambda s: -peer_score("bleu", s))[:2]
    return a, b


def test_ngram_counts(sample: tuple[str, Page]) -> None:
    """Each listed n-gram's matches per system (clipped by the first reference), counted
    here; the first table favours the first system of the pair, the second the other."""
    _, page = sample
    a, b = _pair()

    def matches(system: str, gram: tuple[str, ...]) -> int:
        n, total = len(gram), 0
        for h, r in zip(SYSTEMS[system], REF_COLUMNS[0], strict=True):
            hw, rw = words(h), words(r)
            ch = Counter(tuple(hw[i:i + n]) for i in range(len(hw) - n + 1))
            cr = Counter(tuple(rw[i:i + n]) for i in range(len(rw) - n + 1))
            total += min(ch[gram], cr[gram])
        return total

    for table_id, favoured in (("ngrams-a", 0), ("ngrams-b", 1)):
        (table,) = page.find("table", id=table_id)
        rows = page.inside(table, "tr")[1:]
        assert len(rows) == 10
        shares = []
        for row in rows:
            gram_cell, ca, cb = page.inside(row, "td")
            gram = tuple(text(gram_cell).split(" "))
            counts = (int(ca["attrs"]["data-v"]), int(cb["attrs"]["data-v"]))
            assert counts == (matches(a, gram), matches(b, gram)), gram
            shares.append((counts[favoured] + 1) / (sum(counts) + 2))
        assert shares == sorted(shares, reverse=True) and shares[0] > 0.5


def test_examples_are_the_biggest_differences_marked_as_ter_explains(
        sample: tuple[str, Page]) -> None:
    _, page = sample
    a, b = _pair()
    diff = np.array([sacrebleu.sentence_bleu(SYSTEMS[a][i], REFS[i]).score
                     - sacrebleu.sentence_bleu(SYSTEMS[b][i], REFS[i]).score
                     for i in range(len(REFS))])
    shown = [int(e["attrs"]["data-line"]) - 1 for e in page.find("div")
             if "data-line" in e["attrs"]]
    assert shown[:5] == list(np.argsort(-diff, kind="stable")[:5])
    assert shown[5:] == list(np.argsort(diff, kind="stable")[:5])
    ter = Ter()
    hyps = [e for e in page.find("p") if "hyp" in e["attrs"].get("class", "")]
    assert len(hyps) == 20
    for p in hyps:
        s, i = p["attrs"]["data-system"], int(p["attrs"]["data-line"]) - 1
        e = ter.explain(SYSTEMS[s][i], REFS[i])
        got = {tag: Counter(text(x).lower() for x in page.inside(p, tag))
               for tag in ("mark", "del", "ins")}
        got["sub"] = Counter(text(x).lower() for x in page.inside(p, "span")
                             if "sub" in x["attrs"].get("class", "").split())
        want = {op: Counter(h if op != "ins" else r for o, h, r in e.alignment if o == op)
                for op in ("match", "del", "ins", "sub")}
        assert got["mark"] == want["match"] and got["del"] == want["del"]
        assert got["ins"] == want["ins"] and got["sub"] == want["sub"]
        shifted = sum(len(x.moved) for x in e.shifts)
        marked = [x for x in page.inside(p, "mark") + page.inside(p, "span") +
                  page.inside(p, "del") if "shift" in x["attrs"].get("class", "").split()]
        assert len(marked) <= shifted and (shifted == 0) == (not marked)
        (note,) = [x for x in page.inside(p, "span") if "data-ref" in x["attrs"]]
        assert f"TER {e.score:.1f}" in text(note)


def test_segment_table_has_every_segment(sample: tuple[str, Page]) -> None:
    _, page = sample
    (table,) = page.find("table", id="segment-table")
    rows = [r for r in page.inside(table, "tr") if "data-line" in r["attrs"]]
    assert [int(r["attrs"]["data-line"]) for r in rows] == list(range(1, len(REFS) + 1))
    assert "sortable" in table["attrs"]["class"] and not page.find(id="segments-left-out")


def test_the_python_function_makes_the_same_page(sample: tuple[str, Page],
                                                 tmp_path: Path) -> None:
    import mtalign

    html, _ = sample
    out = mtalign.report(SYSTEMS, REFS, src=load_mqm_source(), human=MQM, n_bootstrap=N_BOOT,
                         path=tmp_path / "r.html")
    assert out == html == (tmp_path / "r.html").read_text(encoding="utf-8")


def test_options_ar_pair_cap(tmp_path: Path) -> None:
    """--test ar (p-values of the library's approximate randomization), --pair,
    --segment-metric, --max-segments (the rest summarised, not dropped)."""
    out = tmp_path / "r.html"
    a, b = "UEdin", "Online-W"
    assert main(_sample_args("-m", "chrf", "bleu", "--test", "ar", "--n-samples", "300",
                             "--n-bootstrap", "0", "--pair", a, b, "--segment-metric", "bleu",
                             "--max-segments", "20", "-o", str(out))) == 0
    page = Page(out.read_text(encoding="utf-8"))
    best = _best(Chrf())
    res = paired_test(Chrf(), SYSTEMS[best], {s: SYSTEMS[s] for s in NAMES if s != best},
                      REFS, kind="ar", n_samples=300)
    for s in NAMES:
        if s != best:
            assert value(page, data_system=s, data_metric="chrf", data_field="p") == \
                pytest.approx(res[s].p_value, abs=1e-12)
    assert not page.find("td", data_field="ci") and not page.find("td", data_field="rank")
    (table,) = page.find("table", id="segment-table")
    rows = [r for r in page.inside(table, "tr") if "data-line" in r["attrs"]]
    diff = np.array([sacrebleu.sentence_bleu(SYSTEMS[a][i], REFS[i]).score
                     - sacrebleu.sentence_bleu(SYSTEMS[b][i], REFS[i]).score
                     for i in range(len(REFS))])
    keep = sorted(np.argsort(-np.abs(diff), kind="stable")[:20] + 1)
    assert [int(r["attrs"]["data-line"]) for r in rows] == keep
    (note,) = page.find(id="segments-left-out")
    assert note["attrs"]["data-count"] == str(len(REFS) - 20)
    hyps = {p["attrs"]["data-system"] for p in page.find("p") if "data-system" in p["attrs"]}
    assert hyps == {a, b}


def test_twenty_systems_stay_small(tmp_path: Path) -> None:
    """20 systems x 1,000 segments: under 10 MB, the rows past --max-segments summarised."""
    n = 1000
    refs = [REFS[i % len(REFS)] for i in range(n)]
    systems = {f"sys{k}": [SYSTEMS[NAMES[(k + i) % len(NAMES)]][i % len(REFS)]
                           for i in range(n)] for k in range(20)}
    import mtalign

    html = mtalign.report(systems, refs, n_bootstrap=100, max_segments=500)
    assert len(html.encode()) < 10_000_000
    page = Page(html)
    (note,) = page.find(id="segments-left-out")
    assert note["attrs"]["data-count"] == "500"


@pytest.mark.parametrize("args,message", [
    (["--pair", "UEdin", "nobody"], "--pair: no system named 'nobody'"),
    (["--segment-metric", "chrf", "-m", "bleu"], "--segment-metric chrf is not one of -m"),
    (["-m", "nonsense"], "unknown metric 'nonsense'"),
    (["--src", str(DATA / "deen_sample.src.de")], "deen_sample.src.de has 300 lines"),
    (["--human", str(DATA / "ende_mqm_sample.ref.A.de")], "no score column"),
])
def test_errors_are_one_line(args: list[str], message: str, tmp_path: Path,
                             capsys: pytest.CaptureFixture[str]) -> None:
    assert main(_sample_args(*args, "-o", str(tmp_path / "r.html"))) == 2
    err = capsys.readouterr().err
    assert err.startswith("mtalign: error: ") and err.count("\n") == 1 and message in err, err
    assert not (tmp_path / "r.html").exists()


def test_unwritable_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(_sample_args("-o", str(tmp_path / "missing" / "r.html"))) == 2
    assert main(_sample_args("-o", str(tmp_path))) == 2
    errs = capsys.readouterr().err.splitlines()
    assert len(errs) == 2 and "cannot write" in errs[0] and "is a directory" in errs[1]


def test_human_file_must_score_every_system(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    tsv = tmp_path / "h.tsv"
    tsv.write_text("system\tscore\nUEdin\t1\n", encoding="utf-8")
    assert main(_sample_args("--human", str(tsv), "-o", str(tmp_path / "r.html"))) == 2
    assert "has no scores for system" in capsys.readouterr().err


def test_demo_writes_its_report_and_names_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["demo", "--n-bootstrap", "20"]) == 0
    out = capsys.readouterr().out
    assert "Report: wrote mtalign-demo-report.html" in out
    assert max(len(line) for line in out.splitlines()) <= 80
    page = Page((tmp_path / "mtalign-demo-report.html").read_text(encoding="utf-8"))
    assert len(page.find("svg")) == 3  # with the MQM scatters


def _chromium() -> str:
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if exe is None:
        if os.environ.get("CI") == "true":
            pytest.fail("chromium is missing: scripts/setup_chromium.sh installs it")
        pytest.skip("chromium is not installed (bash scripts/setup_chromium.sh)")
    return exe


def _headless(exe: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([exe, "--headless", "--no-sandbox", "--disable-gpu",
                           "--hide-scrollbars", "--no-first-run", *args],
                          capture_output=True, text=True, timeout=120)


def test_renders_in_chromium(sample: tuple[str, Page], tmp_path: Path) -> None:
    """The page laid out by a real browser at desktop width: its height (measured in the
    browser) in a plausible range, and a screenshot of all of it that is not blank."""
    image = pytest.importorskip("PIL.Image")
    exe = _chromium()
    html, _ = sample
    probe = tmp_path / "probe.html"
    probe.write_text(html.replace("</body>", "<script>document.body.dataset.height = "
                                  "document.documentElement.scrollHeight;</script></body>"),
                     encoding="utf-8")
    dom = _headless(exe, "--window-size=1280,1000", "--dump-dom", probe.as_uri()).stdout
    body = [e for e in Page(dom).find("body") if "data-height" in e["attrs"]]
    assert body, dom[:300]
    height = int(body[0]["attrs"]["data-height"])
    assert 3000 < height < 20000, height
    shot = tmp_path / "shot.png"
    page = tmp_path / "page.html"
    page.write_text(html, encoding="utf-8")
    _headless(exe, f"--window-size=1280,{height}", f"--screenshot={shot}", page.as_uri())
    with image.open(shot) as im:
        assert im.size == (1280, height)
        gray = np.asarray(im.convert("L"), dtype=np.float64)
    # ink in every tenth of the page (text, tables, plots), on a white background
    for part in np.array_split(gray, 10):
        assert (part < 200).mean() > 0.002
    assert (gray > 245).mean() > 0.6


def test_frequency_corpus_and_one_system(tmp_path: Path) -> None:
    """--freq-corpus sets each word's bucket (counted here); one system: no pair, no
    examples, no p-value, every segment listed."""
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("die die der\n" * 5, encoding="utf-8")
    out = tmp_path / "r.html"
    assert main(["report", "-q", "-r", str(DATA / "ende_mqm_sample.ref.A.de"), "-i",
                 str(DATA / "ende_mqm_sample.hyp.UEdin.de"), "--names", "UEdin",
                 "--freq-corpus", str(corpus),
                 "--n-bootstrap", "50", "-o", str(out)]) == 0
    page = Page(out.read_text(encoding="utf-8"))
    ref = Counter(w for r in REF_COLUMNS[0] for w in words(r))
    expected = {"0": sum(c for w, c in ref.items() if w not in ("die", "der")),
                "5-9": ref["der"], "10-99": ref["die"]}
    (table,) = page.find("table", id="frequency-buckets")
    got = {r["attrs"]["data-bucket"]: int(page.inside(r, "td", data_field="count")[0]
                                          ["attrs"]["data-v"])
           for r in page.inside(table, "tr")[1:]}
    assert got == expected
    assert np.isnan(value(page, data_system="UEdin", data_metric="bleu", data_field="p"))
    assert not page.find("table", id="ngrams-a") and not page.find("p", data_system="UEdin")
    (seg,) = page.find("table", id="segment-table")
    assert len([r for r in page.inside(seg, "tr") if "data-line" in r["attrs"]]) == len(REFS)
