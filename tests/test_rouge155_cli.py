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


def _long_config(root: Path, words: int) -> Path:
    """Evaluation 1: one short pair; evaluation 2: a peer of ``words`` words against a model
    of ``words + 1``."""
    text = " ".join(f"w{k}" for k in range(words))
    for name, body in (("peers/1.A", "a b c"), ("models/1.M", "a b d"), ("peers/2.A", text),
                       ("models/2.M", "x " + text)):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(body + "\n", encoding="utf-8")
    evals = "".join(
        f'<EVAL ID="{i}"><PEER-ROOT>{root / "peers"}</PEER-ROOT><MODEL-ROOT>{root / "models"}'
        f'</MODEL-ROOT><INPUT-FORMAT TYPE="SPL"></INPUT-FORMAT><PEERS><P ID="A">{i}.A</P>'
        f'</PEERS><MODELS><M ID="M">{i}.M</M></MODELS></EVAL>\n' for i in (1, 2))
    config = root / "conf.xml"
    config.write_text(f'<ROUGE_EVAL version="1.5.5">\n{evals}</ROUGE_EVAL>\n', encoding="utf-8")
    return config


def test_size_limit_names_the_evaluation_and_files_and_max_words_sets_it(tmp_path, rouge_home,
                                                                          capsys):
    """ROUGE's size limit in ``mtalign rouge155``: the refusal names the evaluation, the peer
    and the model file and this command's ``--max-words`` (it named ``hyps[1]``/
    ``refs[1][0]`` and an option the command did not have); ``--max-words N`` / ``0`` lift
    it, and the report is then ROUGE-1.5.5's own."""
    config = _long_config(tmp_path, 60)
    flags = ["-a", "-w", "1.2", "-2", "4", "-U"]
    assert cli.main(["rouge155", *flags, "--max-words", "59", str(config)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        f"mtalign: error: {config}: evaluation 2: peer A's file {tmp_path}/peers/2.A and model "
        f"file {tmp_path}/models/2.M have 60 × 61 words, over ROUGE's limit of max_words² = "
        f"3481 word pairs for --max-words 59 (the time of ROUGE-W and ROUGE-S and ROUGE-SU "
        f"grows with the product of the lengths); split the texts (into sentences, or sections "
        f"scored apart) or raise the limit with mtalign rouge155 --max-words N (0 for none)\n")
    want = oracle.run_config(config, flags, rouge_home)
    for limit in ("61", "0"):
        assert cli.main(["rouge155", *flags, "--max-words", limit, str(config)]) == 0
        assert capsys.readouterr().out.splitlines() == want.splitlines()
    for bad in ("-1", "x"):
        assert cli.main(["rouge155", "-a", f"--max-words={bad}", str(config)]) == 2
        assert capsys.readouterr().err == (f"mtalign: error: rouge155: --max-words expects a "
                                           f"whole number >= 0, got {bad!r}\n")
    # The default limit (50,000 words a side) applies without the option.
    big = _long_config(tmp_path / "big", 50_000)
    assert cli.main(["rouge155", "-a", "-w", "1.2", str(big)]) == 2
    assert capsys.readouterr().err.startswith(
        f"mtalign: error: {big}: evaluation 2: peer A's file {tmp_path}/big/peers/2.A and model "
        f"file {tmp_path}/big/models/2.M have 50000 × 50001 words")
    assert cli.main(["rouge155", "-h"]) == 0
    assert "--max-words N" in capsys.readouterr().out
