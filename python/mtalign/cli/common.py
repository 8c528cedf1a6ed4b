"""What the command line reports without a traceback, and how it reads its input files."""

from __future__ import annotations

from collections.abc import Sequence

from mtalign.io import read_references


class CliError(Exception):
    """A problem with the command's files or arguments, reported without a traceback.

    >>> str(CliError("cannot write out.txt"))
    'cannot write out.txt'
    """


def load_references(paths: Sequence[str], n_hyps: int, hyp_path: str) -> list[list[str]]:
    """Reads reference files and checks that each has as many lines as the hypotheses.

    >>> import io
    >>> load_references([io.StringIO("r1\\n")], 1, "hyp.txt")
    [['r1']]
    """
    return read_references(paths, n_sentences=n_hyps, against=hyp_path)
