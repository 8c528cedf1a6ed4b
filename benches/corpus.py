"""The benchmark corpora: real English (hypothesis, reference) pairs from ``shared/data``.

mtalign tokenizes (and interns) each distinct text once per call, so a corpus that repeats
texts measures that deduplication as much as the metric. Three corpora, all deterministic:

* :func:`distinct_pairs` (the headline): every distinct system output of every English-target
  set, each used **once** as a hypothesis, against a human reference of its segment. Every
  pair is distinct and no text is a hypothesis twice; the references repeat (one reference is
  shared by all the systems of its segment) and the header says by how much.
* :func:`distinct_texts_pairs` (strict): no text occurs twice anywhere in the corpus, as
  hypothesis or reference. The distinct texts of a segment are paired with each other: each
  reference with one system output, then the remaining system outputs two by two (as minimum
  Bayes risk decoding compares outputs with each other).
* :func:`repeated_pairs`: the corpus the benchmarks used before: every system output of
  WMT21 de-en and TED zh-en against each of their references, cycled to ``n`` pairs. Texts
  repeat (each output twice, each reference ~15 times, the whole base ~2 times at 100k):
  labelled "repeated text (measures deduplication)".

English-target sets read (those missing from ``data_dir`` are skipped and named):
``wmt21_deen_news``, ``wmt21_zhen_news``, ``wmt21_jaen_news``, ``ted21_zhen_mqm`` (one file
per system in ``hyp/``, ``ref.*.en``) and ``moses_nbest_fren`` (100-best lists, one reference
per sentence). Empty (whitespace-only) texts are left out of the distinct corpora.

``python benches/corpus.py`` prints the three corpora's headers.
"""

from __future__ import annotations

import random
import re
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import read_lines  # noqa: E402

REPO_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATA_DIR = REPO_ROOT.parent / "shared" / "data"

#: Every English-target set of shared/data: system outputs in hyp/*.en, references ref.*.en.
SYSTEM_SETS = ("wmt21_deen_news", "wmt21_zhen_news", "wmt21_jaen_news", "ted21_zhen_mqm")
NBEST_SET = "moses_nbest_fren"
ENGLISH_SETS = (*SYSTEM_SETS, NBEST_SET)
#: The sets of the repeated-text corpus (the benchmarks' corpus before issue 12).
REPEATED_SETS = ("wmt21_deen_news", "ted21_zhen_mqm")

SEED = 20260  # the distinct corpus is shuffled once with this seed (same order every run)
DEFAULT_PAIRS = 100_000

REPEATED_LABEL = "repeated text (measures deduplication)"
DISTINCT_LABEL = "distinct hypotheses (no hypothesis text repeats)"
STRICT_LABEL = "distinct texts (no text repeats anywhere)"

_WORD = re.compile(r"[^\W_]+")


def words(text: str) -> int:
    """Number of words (runs of letters/digits) in ``text``."""
    return len(_WORD.findall(text))


@dataclass
class Segment:
    """One source segment: its references and its system outputs (in file order)."""

    dataset: str
    index: int
    refs: list[str]
    outputs: list[str]


@dataclass
class Corpus:
    """Aligned hypotheses and references, with where they came from."""

    name: str  # "distinct", "strict" or "repeated"
    label: str
    hyps: list[str]
    refs: list[str]
    requested: int | None = None  # the n asked for (None: as large as the data allows)
    available: int | None = None  # pairs the data gives under this corpus's rule
    sources: dict[str, int] = field(default_factory=dict)  # dataset -> pairs taken from it
    notes: list[str] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.hyps)

    @property
    def pairs(self) -> list[tuple[str, str]]:
        return list(zip(self.hyps, self.refs, strict=True))

    def stats(self) -> dict[str, float | int]:
        """Sizes: pairs, distinct hypotheses/references/texts, reuse of references, words."""
        n = len(self.hyps)
        hyp_counts = Counter(self.hyps)
        ref_counts = Counter(self.refs)
        distinct_texts = len(set(hyp_counts) | set(ref_counts))
        return {
            "pairs": n,
            "distinct_pairs": len(set(zip(self.hyps, self.refs, strict=True))),
            "distinct_hyps": len(hyp_counts),
            "max_hyp_uses": max(hyp_counts.values(), default=0),
            "distinct_refs": len(ref_counts),
            "max_ref_uses": max(ref_counts.values(), default=0),
            "mean_ref_uses": n / max(1, len(ref_counts)),
            "distinct_texts": distinct_texts,
            "texts_both_roles": len(set(hyp_counts) & set(ref_counts)),
            "text_slots": 2 * n,
            "mean_words_hyp": sum(map(words, self.hyps)) / max(1, n),
            "mean_words_ref": sum(map(words, self.refs)) / max(1, n),
        }

    def describe(self) -> list[str]:
        """Header lines saying exactly what the corpus holds and what repeats."""
        s = self.stats()
        n = s["pairs"]
        head = f"{self.name} corpus, {self.label}: {n:,} pairs"
        if self.requested is not None and self.available is not None:
            if self.available < self.requested and self.name != "repeated":
                head += (
                    f" (asked for {self.requested:,}; the data holds only "
                    f"{self.available:,} under this rule)"
                )
            elif self.available > n and self.name != "repeated":
                head += f" (of {self.available:,} the data holds under this rule)"
        lines = [head]
        lines.append(
            f"  hypotheses: {s['distinct_hyps']:,} distinct texts"
            + (
                " (none repeats)"
                if s["max_hyp_uses"] <= 1
                else f" (each used {n / s['distinct_hyps']:.2f} times on average, "
                f"at most {s['max_hyp_uses']})"
            )
        )
        lines.append(
            f"  references: {s['distinct_refs']:,} distinct texts"
            + (
                " (none repeats)"
                if s["max_ref_uses"] <= 1
                else f", each the reference of {s['mean_ref_uses']:.2f} pairs on average "
                f"(at most {s['max_ref_uses']})"
            )
        )
        lines.append(
            f"  distinct texts in one call: {s['distinct_texts']:,} of {s['text_slots']:,} "
            f"text slots ({s['distinct_texts'] / max(1, s['text_slots']):.1%}); "
            f"{s['distinct_pairs']:,} distinct pairs; "
            f"{s['texts_both_roles']:,} texts are both a hypothesis and a reference"
        )
        lines.append(
            f"  mean words/segment: hyp {s['mean_words_hyp']:.1f}, ref {s['mean_words_ref']:.1f}"
        )
        if self.sources:
            lines.append(
                "  from: " + ", ".join(f"{k} {v:,}" for k, v in self.sources.items())
            )
        lines += [f"  {note}" for note in self.notes]
        return lines

    def subset(self, k: int) -> Corpus:
        """``k`` evenly spaced pairs (all of them when k <= 0 or k >= len)."""
        idx = subset_indices(len(self), k)
        return self._take(idx, f"evenly spaced subset of {len(idx):,}")

    def head(self, k: int) -> Corpus:
        """The first ``k`` pairs (the distinct corpus is shuffled, so they are a fair mix)."""
        return self._take(list(range(min(k, len(self)))), f"first {min(k, len(self)):,}")

    def filter_words(self, lo: int, hi: int) -> Corpus:
        """The pairs whose hypothesis and reference both have ``lo``..``hi`` words."""
        idx = [
            i
            for i, (h, r) in enumerate(zip(self.hyps, self.refs, strict=True))
            if lo <= words(h) <= hi and lo <= words(r) <= hi
        ]
        return self._take(idx, f"pairs with {lo}-{hi} words on both sides")

    def _take(self, idx: list[int], what: str) -> Corpus:
        return Corpus(
            name=self.name,
            label=self.label,
            hyps=[self.hyps[i] for i in idx],
            refs=[self.refs[i] for i in idx],
            requested=None,
            available=None,
            sources={},
            notes=[*self.notes, f"{what} of the {len(self):,}-pair {self.name} corpus"],
        )


def subset_indices(n: int, k: int) -> list[int]:
    """k evenly spaced indices in range(n) (all of them when k <= 0 or k >= n)."""
    if k <= 0 or k >= n:
        return list(range(n))
    return [i * n // k for i in range(k)]


# --------------------------------------------------------------------------------------------
# Reading the data


def _system_set(folder: Path) -> list[Segment]:
    refs = [read_lines(p) for p in sorted(folder.glob("ref.*.en"))]
    systems = [read_lines(p) for p in sorted((folder / "hyp").glob("*.en"))]
    if not refs or not systems:
        raise SystemExit(f"error: no ref.*.en or hyp/*.en in {folder} (see --data-dir)")
    n = len(refs[0])
    for lines in (*refs, *systems):
        if len(lines) != n:
            raise SystemExit(f"error: files of {folder} differ in line count")
    return [
        Segment(folder.name, i, [r[i] for r in refs], [s[i] for s in systems]) for i in range(n)
    ]


def _nbest_set(folder: Path) -> list[Segment]:
    refs = read_lines(folder / "ref.en")
    outputs: dict[int, list[str]] = {}
    for line in read_lines(folder / "nbest.txt"):
        parts = line.split(" ||| ")
        if len(parts) >= 2:
            outputs.setdefault(int(parts[0]), []).append(parts[1].strip())
    return [Segment(folder.name, i, [refs[i]], outputs.get(i, [])) for i in range(len(refs))]


def load_segments(data_dir: Path, sets: tuple[str, ...] = ENGLISH_SETS) -> tuple[
    list[Segment], list[str]
]:
    """Segments of every set in ``sets`` found in ``data_dir``, and the names of those missing."""
    segments: list[Segment] = []
    missing = []
    for name in sets:
        folder = Path(data_dir) / name
        if not folder.is_dir():
            missing.append(name)
            continue
        segments += _nbest_set(folder) if name == NBEST_SET else _system_set(folder)
    if not segments:
        raise SystemExit(f"error: none of {', '.join(sets)} in {data_dir} (see --data-dir)")
    return segments, missing


def _missing_note(missing: list[str]) -> list[str]:
    return [f"not in the data dir, skipped: {', '.join(missing)}"] if missing else []


# --------------------------------------------------------------------------------------------
# The corpora


def _corpus(name: str, label: str, pairs: list[tuple[str, str, str]], requested: int | None,
            available: int, notes: list[str]) -> Corpus:
    """A corpus of (hypothesis, reference, dataset) pairs."""
    return Corpus(
        name=name,
        label=label,
        hyps=[p[0] for p in pairs],
        refs=[p[1] for p in pairs],
        requested=requested,
        available=available,
        sources=dict(Counter(p[2] for p in pairs)),
        notes=notes,
    )


def _shuffled(name: str, label: str, pairs: list[tuple[str, str, str]], n: int | None,
              notes: list[str]) -> Corpus:
    """:func:`_corpus` of ``pairs`` shuffled with the fixed seed, the first ``n`` kept (all
    with None)."""
    available = len(pairs)
    random.Random(SEED).shuffle(pairs)
    if n is not None:
        pairs = pairs[:n]
    return _corpus(name, label, pairs, n, available, notes)


def distinct_pairs(data_dir: Path = DEFAULT_DATA_DIR, n: int = DEFAULT_PAIRS) -> Corpus:
    """Up to ``n`` (hypothesis, reference) pairs in which no text is a hypothesis twice.

    Every distinct non-empty system output of every English-target set is used once as a
    hypothesis (the first system producing it keeps it), paired with a reference of its
    segment (sets with two references alternate between them by system and segment). All
    pairs are shuffled with a fixed seed and the first ``n`` kept, so any prefix mixes the
    sets. References repeat: one reference serves every system of its segment.
    """
    segments, missing = load_segments(data_dir)
    seen: set[str] = set()
    pairs: list[tuple[str, str, str]] = []
    for seg in segments:
        for k, out in enumerate(seg.outputs):
            if not out.strip() or out in seen:
                continue
            seen.add(out)
            pairs.append((out, seg.refs[(k + seg.index) % len(seg.refs)], seg.dataset))
    note = ("every distinct system output is a hypothesis once, against a human reference of "
            "its segment (shuffled, fixed seed)")
    return _shuffled("distinct", DISTINCT_LABEL, pairs, n, [note, *_missing_note(missing)])


def distinct_texts_pairs(data_dir: Path = DEFAULT_DATA_DIR, n: int | None = None) -> Corpus:
    """Pairs in which no text occurs twice anywhere (as hypothesis or reference).

    Per segment, its texts not used yet (references first, then system outputs, each
    distinct text once) are paired: each reference with the next system output (output as
    hypothesis), then the remaining outputs two by two (the first as hypothesis, the second
    as its pseudo-reference), then leftover references with each other. A text left unpaired
    may still pair in a later segment. Shuffled with a fixed seed; ``n`` keeps a prefix.
    """
    segments, missing = load_segments(data_dir)
    used: set[str] = set()
    pairs: list[tuple[str, str, str]] = []
    for seg in segments:
        local: set[str] = set()

        def fresh(texts: list[str], local: set[str] = local) -> list[str]:
            out = []
            for t in texts:
                if t.strip() and t not in used and t not in local:
                    local.add(t)
                    out.append(t)
            return out

        refs = fresh(seg.refs)
        outs = fresh(seg.outputs)
        made: list[tuple[str, str]] = []
        while refs and outs:
            made.append((outs.pop(0), refs.pop(0)))
        while len(outs) >= 2:
            made.append((outs.pop(0), outs.pop(0)))
        while len(refs) >= 2:
            made.append((refs.pop(0), refs.pop(0)))
        for h, r in made:
            used.add(h)
            used.add(r)
            pairs.append((h, r, seg.dataset))
    note = ("per segment: each reference with one system output, then system outputs with "
            "each other (shuffled, fixed seed)")
    return _shuffled("strict", STRICT_LABEL, pairs, n, [note, *_missing_note(missing)])


def repeated_pairs(data_dir: Path = DEFAULT_DATA_DIR, n: int = DEFAULT_PAIRS) -> Corpus:
    """The benchmarks' former corpus: every system output of WMT21 de-en and TED zh-en
    against each of their references (51,754 real pairs), cycled to exactly ``n`` pairs."""
    segments, missing = load_segments(data_dir, REPEATED_SETS)
    base: list[tuple[str, str, str]] = []
    by_set: dict[str, list[Segment]] = {}
    for seg in segments:
        by_set.setdefault(seg.dataset, []).append(seg)
    for name, segs in by_set.items():
        n_sys = len(segs[0].outputs)
        n_ref = len(segs[0].refs)
        # system-major, then reference, then segment (the old order)
        for k in range(n_sys):
            for j in range(n_ref):
                base.extend((s.outputs[k], s.refs[j], name) for s in segs)
    n_base = len(base)
    pairs = [base[i % n_base] for i in range(n)]
    what = (
        f"cycled {n / max(1, n_base):.2f} times"
        if n > n_base
        else f"the first {n:,} of them (not cycled: ask for more than {n_base:,})"
    )
    notes = [
        f"{n_base:,} real pairs (every system output against each reference, system by "
        f"system), {what}",
        *_missing_note(missing),
    ]
    return _corpus("repeated", REPEATED_LABEL, pairs, n, n_base, notes)


CORPORA = ("distinct", "strict", "repeated")


def build(name: str, data_dir: Path, n: int) -> Corpus:
    """The corpus called ``name`` (one of :data:`CORPORA`) with at most ``n`` pairs
    (exactly ``n`` for ``repeated``)."""
    if name == "distinct":
        return distinct_pairs(data_dir, n)
    if name == "strict":
        return distinct_texts_pairs(data_dir, n)
    if name == "repeated":
        return repeated_pairs(data_dir, n)
    raise ValueError(f"unknown corpus {name!r} (choose from: {', '.join(CORPORA)})")


def main() -> None:
    import argparse

    ap = argparse.ArgumentParser(description="Print the benchmark corpora's headers.")
    ap.add_argument("--data-dir", type=Path, default=DEFAULT_DATA_DIR)
    ap.add_argument("--pairs", type=int, default=DEFAULT_PAIRS)
    args = ap.parse_args()
    for name in CORPORA:
        corpus = build(name, args.data_dir, args.pairs)
        print("\n".join(corpus.describe()))
        short = corpus.filter_words(10, 20)
        print(f"  pairs with 10-20 words on both sides: {len(short):,}\n")


if __name__ == "__main__":
    main()
