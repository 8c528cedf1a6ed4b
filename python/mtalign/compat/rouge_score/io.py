"""``rouge_score.io``: score files of records and write a CSV, as rouge-score's ``io``.

``compute_scores_and_write_to_csv(target_filepattern, prediction_filepattern,
output_filename, scorer, aggregator, delimiter="\\n")`` globs both patterns, pairs the files
in sorted order, splits each file into records at ``delimiter`` (a file should end with one;
otherwise its last record is kept and a warning is logged), scores record i of the
prediction file against record i of the target file and writes either one CSV row per
record (``id,<type>-P,<type>-R,<type>-F,...``, types sorted) or, with an aggregator, the
intervals (``score_type,low,mid,high`` with rows ``<type>-R``, ``-P``, ``-F``), numbers
written with ``%f``.

>>> import tempfile, pathlib
>>> from mtalign.compat.rouge_score import io, rouge_scorer
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> _ = (d / "t.txt").write_text("a b c\\nx y\\n"); _ = (d / "p.txt").write_text("a b\\nx\\n")
>>> io.compute_scores_and_write_to_csv(str(d / "t.txt"), str(d / "p.txt"), str(d / "o.csv"),
...                                    rouge_scorer.RougeScorer(["rouge1"]), None)
>>> print((d / "o.csv").read_text(), end="")
id,rouge1-P,rouge1-R,rouge1-F
0,1.000000,0.666667,0.800000
1,1.000000,0.500000,0.666667
"""

from __future__ import annotations

import glob
import logging
from itertools import zip_longest
from typing import Any

__all__ = ["compute_scores_and_write_to_csv"]

_log = logging.getLogger(__name__)


def _records(path: str, delimiter: str) -> list[str]:
    with open(path) as fh:
        records = fh.read().split(delimiter)
    if records[-1]:
        _log.warning("Expected delimiter at end of file %s", path)
    else:
        records.pop()
    return records


def _scores(targets: list[str], predictions: list[str], scorer: Any,
            delimiter: str) -> list[dict[str, Any]]:
    out = []
    for t_path, p_path in zip(sorted(targets), sorted(predictions), strict=True):
        pairs = zip_longest(_records(t_path, delimiter), _records(p_path, delimiter))
        for target, prediction in pairs:
            if target is None or prediction is None:
                raise ValueError("Must have equal number of lines across target and "
                                 f"prediction files. Mismatch between files: {t_path}, "
                                 f"{p_path}.")
            out.append(scorer.score(target, prediction))
    return out


def compute_scores_and_write_to_csv(target_filepattern: str, prediction_filepattern: str,
                                    output_filename: str, scorer: Any, aggregator: Any,
                                    delimiter: str = "\n") -> None:
    """Scores matching records of the target and prediction files; writes a CSV."""
    targets = glob.glob(target_filepattern)
    predictions = glob.glob(prediction_filepattern)
    if not targets or len(targets) != len(predictions):
        raise ValueError("Must have equal and positive number of target and prediction "
                         f"files. Found: {len(targets)} target files ({target_filepattern}), "
                         f"{len(predictions)} prediction files ({prediction_filepattern}).")
    scores = _scores(targets, predictions, scorer, delimiter)
    if aggregator is not None:
        for s in scores:
            aggregator.add_scores(s)
        with open(output_filename, "w") as fh:
            fh.write("score_type,low,mid,high\n")
            for score_type, agg in sorted(aggregator.aggregate().items()):
                for tag, field in (("R", "recall"), ("P", "precision"), ("F", "fmeasure")):
                    lo, mid, hi = (getattr(b, field) for b in (agg.low, agg.mid, agg.high))
                    fh.write(f"{score_type}-{tag},{lo:f},{mid:f},{hi:f}\n")
        return
    if not scores:
        _log.warning("No scores to write")
        return
    types = sorted(scores[0])
    with open(output_filename, "w") as fh:
        fh.write("id" + "".join(f",{t}-P,{t}-R,{t}-F" for t in types) + "\n")
        for i, s in enumerate(scores):
            fh.write(str(i) + "".join(
                f",{s[t].precision:f},{s[t].recall:f},{s[t].fmeasure:f}" for t in types) + "\n")
