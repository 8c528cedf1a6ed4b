"""``mtalign sacrebleu -t TESTSET -l LANGPAIR`` (``--echo``, scoring) against the ``sacrebleu``
2.6.0 command, both pointed at the same cache ($SACREBLEU): a folder the test lays out as
sacrebleu 2.6.0 does for ``wmt21`` and ``wmt21/AC`` (the WMT21 XML under ``raw/test/``, a
stand-in for the downloaded tarball so that sacrebleu does not fetch it; sacrebleu then
extracts the text files itself), the XML written from the shipped WMT21 en-de sample
(python/mtalign/data/ende_mqm_sample.*). stdout must be the same bytes (our signature's
version field written back as 2.6.0). mtalign is run once before sacrebleu extracted the
text files (it reads the XML) and once after (it reads the text files)."""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from mtalign.compat.sacrebleu import __version__ as SHIM_VERSION
from mtalign.compat.sacrebleu.cli import main as shim_main

SACREBLEU = shutil.which("sacrebleu")
pytestmark = pytest.mark.skipif(SACREBLEU is None, reason="the sacrebleu command is needed")
DATA = Path(__file__).resolve().parent.parent / "python" / "mtalign" / "data"
SYSTEMS = ("Online-W", "UEdin")


def _sample(name: str) -> list[str]:
    return (DATA / f"ende_mqm_sample.{name}").read_text(encoding="utf-8").splitlines()


def write_wmt21_cache(cache: Path, test_set: str) -> None:
    """sacrebleu's cache of ``test_set`` (a WMT21 en-de set) as sacrebleu leaves it after
    downloading: ``raw/<name>.test.tgz`` and the tarball's ``test/newstest2021.en-de.xml``.
    Documents of 10 segments, origlang alternating; segment 4 has no reference (sacrebleu
    skips it), segment 5 has extra whitespace (sacrebleu cleans it)."""
    src, ref_a, ref_c = _sample("src.en"), _sample("ref.A.de"), _sample("ref.C.de")
    parts = [("src", {"lang": "en"}, src), ("ref", {"lang": "de", "translator": "A"}, ref_a),
             ("ref", {"lang": "de", "translator": "C"}, ref_c)]
    parts += [("hyp", {"language": "de", "system": n}, _sample(f"hyp.{n}.de")) for n in SYSTEMS]
    root = ET.Element("dataset", id="newstest2021")
    collection = ET.SubElement(root, "collection", id="general")
    for start in range(0, len(src), 10):
        doc = ET.SubElement(collection, "doc", id=f"doc{start}",
                            origlang="de" if start % 20 else "en")
        for tag, attrs, lines in parts:
            p = ET.SubElement(ET.SubElement(doc, tag, **attrs), "p")
            for i in range(start, min(start + 10, len(src))):
                text = "" if i == 3 and tag == "ref" else lines[i]
                if i == 4:
                    text = "  " + text.replace(" ", " \t ") + " "
                ET.SubElement(p, "seg", id=str(i - start + 1)).text = text
    raw = cache / test_set / "raw"
    (raw / "test").mkdir(parents=True)
    ET.ElementTree(root).write(raw / "test" / "newstest2021.en-de.xml", encoding="utf-8",
                               xml_declaration=True)
    (raw / f"{test_set.replace('/', '_')}.test.tgz").write_bytes(b"stand-in")


def sacrebleu_run(args: list[str], cache: Path) -> tuple[int, str]:
    proc = subprocess.run([SACREBLEU, *args], capture_output=True, text=True, timeout=600,
                          env={**os.environ, "SACREBLEU": str(cache)})
    return proc.returncode, proc.stdout


def shim_run(args: list[str], cache: Path, monkeypatch) -> tuple[int, str]:
    monkeypatch.setenv("SACREBLEU", str(cache))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = shim_main(args)
    return status, out.getvalue().replace(SHIM_VERSION, "2.6.0")


ECHO = ["src", "ref", "ref:C", "src ref:A ref:C docid origlang Online-W UEdin"]
SCORE = [
    "-i HYP -m bleu chrf ter",
    "-i HYP -m bleu chrf ter -f text -w 3",
    "-i HYP -b",
    "-i HYP -sl",
    "-i HYP HYP2 -m bleu chrf --paired-bs --paired-bs-n 100 -f text",
]


@pytest.fixture
def cache(tmp_path):
    write_wmt21_cache(tmp_path / "cache", "wmt21")
    write_wmt21_cache(tmp_path / "cache", "wmt21/AC")
    return tmp_path / "cache"


def test_echo_and_scores_are_sacrebleus(cache, tmp_path, monkeypatch, capsys):
    jobs = [["-t", "wmt21", "-l", "en-de", "--echo", *spec.split()] for spec in ECHO]
    hyp, hyp2 = tmp_path / "hyp", tmp_path / "hyp2"
    for test_set in ("wmt21", "wmt21/AC"):
        jobs += [["-t", test_set, "-l", "en-de",
                  *spec.replace("HYP2", str(hyp2)).replace("HYP", str(hyp)).split()]
                 for spec in SCORE]
    # the systems' outputs, from the XML (no text file yet: mtalign reads the XML)
    for path, name in ((hyp, "Online-W"), (hyp2, "UEdin")):
        status, out = shim_run(["-t", "wmt21", "-l", "en-de", "--echo", name], cache,
                               monkeypatch)
        assert status == 0 and len(out.splitlines()) == 149
        path.write_text(out, encoding="utf-8")
    from_xml = [shim_run(args, cache, monkeypatch) for args in jobs]
    assert not list(cache.glob("wmt21/wmt21.*")), "mtalign wrote into sacrebleu's cache"
    theirs = [sacrebleu_run(args, cache) for args in jobs]
    assert (cache / "wmt21" / "wmt21.en-de.ref-C").exists()  # sacrebleu extracted the text
    from_text = [shim_run(args, cache, monkeypatch) for args in jobs]
    for args, a, b, c in zip(jobs, from_xml, from_text, theirs, strict=True):
        assert c[0] == 0 and c[1], args
        assert a == c, args
        assert b == c, args
    assert "Traceback" not in capsys.readouterr().err


@pytest.mark.parametrize("args", ["-t wmt21 -l en-de --echo nonsense",
                                  "-t wmt21 -l en-de --echo all src",
                                  "-l en-de --echo src ref.A"])
def test_echo_errors_as_sacrebleus(cache, args, monkeypatch):
    assert shim_run(args.split(), cache, monkeypatch) == sacrebleu_run(args.split(), cache)


@pytest.mark.parametrize("args", ["-t wmt21 -l de-en --echo src",
                                  "-t wmt21 -l en-de -i hyp",
                                  "-t wmt22 -l en-de --echo ref"])
def test_missing_test_set_is_one_line(tmp_path, args, monkeypatch, capsys):
    status, out = shim_run(args.split(), tmp_path, monkeypatch)
    err = capsys.readouterr().err
    test_set, langpair = args.split()[1], args.split()[3]
    assert (status, out) == (2, "")
    assert len(err.splitlines()) == 1 and str(tmp_path / test_set / "raw") in err
    assert f"sacrebleu -t {test_set} -l {langpair} --echo src > /dev/null" in err


@pytest.mark.parametrize("args", ["-t wmt20 -l en-de --echo src", "-t wmt21 -l en-de --list",
                                  "-t wmt21 -l en-de -i hyp --origlang en",
                                  "-t wmt21 -l en-de -i hyp -d"])
def test_not_supported_is_one_line(cache, args, monkeypatch, capsys):
    assert shim_run(args.split(), cache, monkeypatch) == (2, "")
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "sacrebleu" in err and "Traceback" not in err
