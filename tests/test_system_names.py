"""One way to name systems (issue 30, item 5): ``mtalign.io.system_names`` and every command
that names systems (score, compare, correlate) through it, with ``--names`` to set them.

Oracle: the system names of the MQM file shipped with mtalign (its ``system`` column), which
the shipped hypothesis files must match as they are.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from mtalign import InputError
from mtalign.cli import main
from mtalign.io import system_names

DATA = Path(__file__).resolve().parents[1] / "python" / "mtalign" / "data"
HYPS = sorted(str(p) for p in DATA.glob("ende_mqm_sample.hyp.*.de"))
REFS = [str(DATA / "ende_mqm_sample.ref.A.de"), str(DATA / "ende_mqm_sample.ref.C.de")]


def mqm_systems() -> list[str]:
    with open(DATA / "ende_mqm_sample.mqm.tsv", encoding="utf-8", newline="") as f:
        return sorted({r["system"] for r in csv.DictReader(f, delimiter="\t")})


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_shipped_files_are_named_as_the_shipped_mqm_file_names_them() -> None:
    assert len(HYPS) == 8
    assert sorted(system_names(HYPS)) == mqm_systems()
    assert system_names(HYPS)[HYPS.index(str(DATA / "ende_mqm_sample.hyp.Online-W.de"))] == \
        "Online-W"


@pytest.mark.parametrize("paths,names", [
    (["sysA.de", "sysB.de"], ["sysA", "sysB"]),              # suffix only
    (["out/sysA.de", "other/sysB.de"], ["sysA", "sysB"]),    # folders are not the name
    (["hyp.Online-W.de", "hyp.Online-B.de"], ["Online-W", "Online-B"]),  # '-' is no cut
    (["run_1.txt", "run_2.txt"], ["1", "2"]),                # '_' is a separator
    (["a/hyp.de", "b/hyp.de"], ["a", "b"]),                  # same file names: the folders
    (["newstest2021.en-de.hyp.de"], ["newstest2021.en-de.hyp"]),  # one file: its stem
    (["hyp"], ["hyp"]),
])
def test_common_prefix_and_suffix_cut_at_separators(paths: list[str],
                                                    names: list[str]) -> None:
    assert system_names(paths) == names


def test_names_set_them_and_must_match_the_files() -> None:
    assert system_names(["x.de", "y.de"], ["X", "Y"]) == ["X", "Y"]
    with pytest.raises(InputError, match="--names gives 1 names for 2 system files"):
        system_names(["x.de", "y.de"], ["X"])
    with pytest.raises(InputError, match="x.de is given twice: give --names"):
        system_names(["x.de", "x.de"])
    with pytest.raises(InputError, match="both named 'A'"):
        system_names(["x.de", "y.de"], ["A", "A"])


def test_score_compare_and_correlate_name_systems_alike(capsys) -> None:
    names = system_names(HYPS)
    code, out, err = run(capsys, "score", "-r", *REFS, "-i", *HYPS, "-m", "bleu", "-f", "json")
    assert code == 0, err
    assert [json.loads(line)["system"] for line in out.strip().splitlines()] == names
    code, out, err = run(capsys, "score", "-r", *REFS, "-i", *HYPS, "-m", "bleu", "-f", "tsv")
    assert code == 0, err
    assert [r.split("\t")[0] for r in out.strip().splitlines()[1:]] == names
    code, out, err = run(capsys, "compare", "-r", *REFS, "-i", *HYPS[:3], "-m", "chrf",
                         "-f", "json", "--n-samples", "20")
    assert code == 0, err
    lines = [json.loads(line) for line in out.splitlines()]  # one per system, baseline first
    assert [r["system"] for r in lines] == names[:3]
    assert {r["baseline"] for r in lines} == {names[0]}
    code, out, err = run(capsys, "correlate", "--human", DATA / "ende_mqm_sample.mqm.tsv",
                         "-r", *REFS, "-i", *HYPS, "-m", "chrf", "-f", "json",
                         "--n-bootstrap", "10")
    assert code == 0, err
    (line,) = out.splitlines()  # one object per metric
    assert json.loads(line)["systems"] == names


def test_names_option_on_the_command_line(capsys) -> None:
    code, out, err = run(capsys, "score", "-r", *REFS, "-i", *HYPS[:2], "--names", "P", "Q",
                         "-m", "chrf", "-f", "tsv")
    assert code == 0, err
    assert [r.split("\t")[:2] for r in out.strip().splitlines()[1:]] == \
        [["P", "corpus"], ["Q", "corpus"]]
    for cmd in (["score"], ["compare"],
                ["correlate", "--human", str(DATA / "ende_mqm_sample.mqm.tsv")]):
        code, out, err = run(capsys, *cmd, "-r", *REFS, "-i", *HYPS[:2], "--names", "P",
                             "-m", "chrf")
        assert code == 2 and out == "", cmd
        assert err == "mtalign: error: --names gives 1 names for 2 system files\n", cmd
    # Renamed systems that the human file does not know: nothing to correlate, said so.
    code, _, err = run(capsys, "correlate", "--human", DATA / "ende_mqm_sample.mqm.tsv",
                       "-r", *REFS, "-i", *HYPS[:2], "--names", "P", "Q", "-m", "chrf")
    assert code == 2 and "fewer than 2 systems" in err
