"""A dependency-free progress bar on stderr for long command-line runs."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    r"""Draws ``label [#####.....] done/total  elapsed`` on one stderr line.

    Nothing is drawn until ``delay`` seconds have passed (short runs stay silent), nor when
    the stream is not a terminal unless ``force``. Use as a callable ``progress(done, total)``.

    >>> import io
    >>> out = io.StringIO()
    >>> p = Progress("scoring", stream=out, delay=0.0, force=True)
    >>> p(1, 4); p(4, 4); p.close()
    >>> out.getvalue().split("\r")[-1].rstrip()
    'scoring [##############################] 4/4  0.0s'
    """

    def __init__(self, label: str, *, stream: TextIO | None = None, delay: float = 2.0,
                 force: bool = False, width: int = 30) -> None:
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        self.delay = delay
        self.width = width
        isatty = getattr(self.stream, "isatty", lambda: False)
        self.enabled = force or bool(isatty())
        self.start = time.perf_counter()
        self.drawn = False

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled:
            return
        elapsed = time.perf_counter() - self.start
        if elapsed < self.delay and done < total:
            return
        if elapsed < self.delay and not self.drawn:
            return
        filled = self.width if total <= 0 else int(self.width * done / total)
        bar = "#" * filled + "." * (self.width - filled)
        self.stream.write(f"\r{self.label} [{bar}] {done}/{total}  {elapsed:.1f}s")
        self.stream.flush()
        self.drawn = True

    def close(self) -> None:
        """Ends the line if anything was drawn."""
        if self.drawn:
            self.stream.write("\n")
            self.stream.flush()
            self.drawn = False
