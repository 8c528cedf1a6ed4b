"""``mtalign score -m bleus4 nist wer per ribes ...``: the CLI equals the API and sacrebleu."""

from __future__ import annotations

import json

import pytest
import wmt_data
from mtalign.cli import main

sacrebleu = pytest.importorskip("sacrebleu")


@pytest.fixture()
def files(tmp_path):
    data = wmt_data.load("wmt21_deen_news")
    paths = {}
    for name, lines in [("hyp", data["hyps"]["Online-A"][:200]),
                        ("refA", data["refs"]["A"][:200]), ("refB", data["refs"]["B"][:200])]:
        p = tmp_path / name
        p.write_text("\n".join(lines) + "\n", encoding="utf-8")
        paths[name] = str(p)
    return paths, data


def run(args, capsys):
    assert main(args) == 0
    return json.loads(capsys.readouterr().out)


def test_baselines_in_cli_equal_api_and_sacrebleu(mtalign, files, capsys):
    paths, data = files
    out = run(["score", "-r", paths["refA"], paths["refB"], "-i", paths["hyp"], "-m", "bleu",
               "bleus4", "bleus2", "nist", "wer", "per", "ribes", "rougeL", "--sentence-level"],
              capsys)
    hyps = data["hyps"]["Online-A"][:200]
    refs = [[a, b] for a, b in zip(data["refs"]["A"][:200], data["refs"]["B"][:200],
                                   strict=True)]
    want = sacrebleu.corpus_bleu(hyps, [data["refs"]["A"][:200], data["refs"]["B"][:200]])
    assert out["scores"]["bleu"]["score"] == want.score
    assert out["scores"]["bleus2"]["score"] == mtalign.Bleu.bleus(2).corpus_score(hyps,
                                                                                 refs).score
    for name, cls in [("nist", mtalign.Nist), ("wer", mtalign.Wer), ("per", mtalign.Per),
                      ("ribes", mtalign.Ribes)]:
        want_score = cls().corpus_score(hyps, refs).score
        if name == "ribes":  # a mean of sentence scores: summed per chunk (fsum), to rounding
            assert abs(out["scores"][name]["score"] - want_score) <= 1e-12
        else:  # sums of counts: exact
            assert out["scores"][name]["score"] == want_score
        assert out["signatures"][name].startswith("nrefs:2|case:mixed|tok:13a")
    sent = mtalign.Bleu.bleus(4).batch_score(hyps, refs)
    assert [s["bleus4"]["score"] for s in out["sentences"]] == sent.tolist()
    # bleu at sentence level: sacrebleu's sentence_bleu (effective order)
    assert [s["bleu"]["score"] for s in out["sentences"]] == [
        sacrebleu.sentence_bleu(h, r).score for h, r in zip(hyps, refs, strict=True)]
    assert "rougeL" in out["scores"]


def test_unknown_baseline_is_a_clean_error(files, capsys):
    paths, _ = files
    assert main(["score", "-r", paths["refA"], "-i", paths["hyp"], "-m", "bleu13"]) == 2
    assert "max_order" in capsys.readouterr().err
    assert main(["score", "-r", paths["refA"], "-i", paths["hyp"], "-m", "bleuq"]) == 2
    assert "bleus<N>" in capsys.readouterr().err
