"""``mtalign rouge155 config.xml``: the same report as ROUGE-1.5.5 on the same configuration.

Configurations with two systems (one missing from an evaluation), 1-3 models per evaluation,
SPL and SEE input, one-sentence and multi-sentence texts; the script's standard output and
mtalign's must be identical, byte for byte, for several option sets (averages, confidence
intervals, per-evaluation lines with ``-d``, ``-f B``, ``-m``, ``-s``, ``-l``, ``-b``, ``-u``,
``-U``, ``-x``, ``-w``, ``-2``).
"""

from __future__ import annotations

import html
import io
import random
from pathlib import Path

import pytest
import rouge155_oracle as oracle
from mtalign import cli
from mtalign.cli import rouge155 as rouge155_cli
from test_rouge155_oracle import random_cases


@pytest.fixture(scope="module")
def rouge_home(tmp_path_factory):
    try:
        return oracle.home(tmp_path_factory.mktemp("rouge155_cli_home"))
    except oracle.OracleUnavailable as e:
        pytest.fail(str(e), pytrace=False)


def _see(sentences: list[str]) -> str:
    body = "".join(f'<a name="{i}">[{i}]</a> <a href="#{i}" id={i}>{html.escape(s, False)}</a>\n'
                   for i, s in enumerate(sentences, 1))
    head = '<html>\n<head>\n<title>x</title>\n</head>\n<body bgcolor="white">\n'
    return f"{head}{body}</body>\n</html>\n"


def _isi(sentences: list[str]) -> str:
    body = "".join(f'<S SNTNO="{i}">{html.escape(s, False)}</S>\n'
                   for i, s in enumerate(sentences, 1))
    return f'<DOC>\n<TEXT>\n{body}</TEXT>\n</DOC>\n'


def _render(fmt: str, sentences: list[str]) -> str:
    if fmt == "SEE":
        return _see(sentences)
    if fmt == "ISI":
        return _isi(sentences)
    return "".join(s + "\n" for s in sentences)


def write_config(root: Path, seed: int, n_evals: int, fmt: str, sentences: int,
                 numeric_ids: bool) -> Path:
    rng = random.Random(seed)
    cases = random_cases(seed, n_evals * 2 * sentences)
    pool = [c for c in cases if len(c[0].split()) <= 60]
    (root / "peers").mkdir(parents=True, exist_ok=True)
    (root / "models").mkdir(exist_ok=True)
    evals = []
    for k in range(n_evals):
        eid = str(k + 1) if numeric_ids else f"d{rng.randint(100, 999)}{'abc'[k % 3]}{k}"
        picked = [rng.choice(pool) for _ in range(rng.randint(1, sentences))]
        n_models = rng.randint(1, 3)
        shuffled = []
        for hyp, _ in picked:  # system B: system A's words, partly shuffled
            words = hyp.split()
            i = rng.randint(0, len(words))
            shuffled.append(" ".join(words[i:] + words[:i]))
        texts = {"A": [h for h, _ in picked], "B": shuffled}
        peers = []
        for system in ("A", "B"):
            if system == "B" and k == 2:
                continue  # system B has no output for this evaluation
            name = f"{eid}.{system}.txt"
            sents = texts[system]
            text = _render(fmt, sents)
            (root / "peers" / name).write_text(text, encoding="utf-8")
            peers.append(f'<P ID="{system}">{name}</P>')
        models = []
        for j in range(n_models):
            sents = [refs[j % len(refs)] for _, refs in picked]
            name = f"{eid}.M{j}.txt"
            text = _render(fmt, sents)
            (root / "models" / name).write_text(text, encoding="utf-8")
            models.append(f'<M ID="{j}">{name}</M>')
        evals.append(f'<EVAL ID="{eid}">\n<PEER-ROOT>{root / "peers"}</PEER-ROOT>\n'
                     f'<MODEL-ROOT>{root / "models"}</MODEL-ROOT>\n'
                     f'<INPUT-FORMAT TYPE="{fmt}">\n</INPUT-FORMAT>\n'
                     f'<PEERS>\n{"".join(peers)}\n</PEERS>\n<MODELS>\n{"".join(models)}\n'
                     f'</MODELS>\n</EVAL>')
    config = root / "config.xml"
    config.write_text('<ROUGE-EVAL version="1.0">\n' + "\n".join(evals) + "\n</ROUGE-EVAL>\n",
                      encoding="utf-8")
    return config


CASES = [
    ("SPL", 1, True, ["-a", "-n", "2", "-w", "1.2", "-2", "4", "-U", "-c", "95", "-r", "1000",
                      "-d"]),
    ("SPL", 1, False, ["-a", "-m", "-s", "-f", "B", "-n", "1", "-2", "-1", "-u", "-l", "20",
                       "-d"]),
    ("SPL", 3, True, ["-a", "-b", "150", "-n", "3", "-x", "-2", "0", "-U", "-c", "90", "-r",
                      "200", "-d"]),
    ("SEE", 3, True, ["-a", "-m", "-n", "2", "-x", "-2", "4", "-l", "30", "-f", "B"]),
    # Summary-level ROUGE-L and ROUGE-W over multi-sentence texts.
    ("SPL", 4, True, ["-a", "-n", "1", "-w", "1.2", "-d"]),
    ("SPL", 4, False, ["-a", "-m", "-s", "-f", "B", "-w", "2", "-l", "25", "-d"]),
    ("SEE", 3, True, ["-a", "-w", "1.5", "-b", "120", "-c", "80", "-r", "300"]),
    ("ISI", 3, True, ["-a", "-n", "2", "-w", "1.2", "-2", "4", "-U", "-p", "0.3", "-d"]),
]


@pytest.mark.parametrize("fmt, sentences, numeric_ids, flags", CASES,
                         ids=["spl-all", "spl-fB-m-s-l", "spl-multi-b", "see-multi-l",
                              "spl-multi-LW", "spl-multi-LW-fB-m-s-l", "see-multi-LW-b",
                              "isi-multi-p"])
def test_report_equals_rouge155(tmp_path, rouge_home, fmt, sentences, numeric_ids, flags):
    config = write_config(tmp_path, 11 + len(flags), 30, fmt, sentences, numeric_ids)
    want = oracle.run_config(config, flags, rouge_home)
    out = io.StringIO()
    assert rouge155_cli.run([*flags, str(config)], out=out) == 0
    got = out.getvalue()
    assert got.count("Average_R") >= 4
    assert got.splitlines() == want.splitlines()
    # Real overlap: system A's ROUGE-1 F is well above 0.
    first_f = next(line for line in got.splitlines() if "Average_F" in line)
    assert float(first_f.split()[3]) > 0.2


def test_cli_entry_point_and_errors(tmp_path, rouge_home, capsys):
    config = write_config(tmp_path, 5, 6, "SPL", 1, True)
    flags = ["-a", "-n", "1", "-2", "-1", "-U"]
    assert cli.main(["rouge155", *flags, str(config)]) == 0
    assert capsys.readouterr().out.splitlines() == \
        oracle.run_config(config, flags, rouge_home).splitlines()
    # One system, by ID, as ROUGE-1.5.5 takes it.
    assert cli.main(["rouge155", "-n", "1", str(config), "B"]) == 0
    assert all(line.startswith(("B ", "---")) for line in capsys.readouterr().out.splitlines())
    assert cli.main(["rouge155", "-a", "-l", "5", "-b", "5", str(config)]) == 2
    capsys.readouterr()
    assert cli.main(["rouge155", "-a", "-x", str(config)]) == 0  # nothing to compute
    assert capsys.readouterr().out == oracle.run_config(config, ["-a", "-x"], rouge_home) == ""
    assert cli.main(["rouge155", "-h"]) == 0
    assert "config.xml" in capsys.readouterr().out


@pytest.mark.parametrize("best", [False, True])
def test_summary_lcs_on_one_sentence_equals_the_native_kernels(mtalign, best):
    """With one sentence per text, the summary-level LCS is ROUGE-1.5.5's sentence LCS, which
    ``Rouge(compat="rouge155")`` computes natively: the two must agree (L and W quirks)."""
    from mtalign.cli.rouge155 import _summary_pr

    cases = [c for c in random_cases(3, 120) if len(c[0].split()) < 80]
    opts = {"l": 0, "b": 0, "s": False}
    r = mtalign.Rouge(["rougeL", "rougeW-1.2"], compat="rouge155",
                      multi_ref="best" if best else "average")
    out = r.batch_score([h for h, _ in cases], [refs for _, refs in cases])
    for i, (hyp, refs) in enumerate(cases):
        enc = [hyp.encode()], [[x.encode()] for x in refs]
        for var, weight in (("rougeL", None), ("rougeW-1.2", 1.2)):
            p, rr = _summary_pr(enc[0], enc[1], opts, False, best, weight)
            assert (p, rr) == pytest.approx(tuple(out[var][i, :2]), abs=1e-12), (i, var)
