"""Helpers shared by the benchmark scripts: reading aligned text files, machine facts."""

from __future__ import annotations

import os
import platform
from collections.abc import Iterable
from importlib import metadata
from pathlib import Path
from typing import Any

from mtalign.io import read_lines

__all__ = ["read_lines"]  # one reader for every script: mtalign.io's


def installed_version(dist: str) -> str | None:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return None


def machine_info(dists: Iterable[str]) -> dict[str, Any]:
    """Usable cores, CPU model, Python, thread settings and the versions of `dists`."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:
        usable = os.cpu_count() or 1
    return {
        "nproc": usable,
        "cpu_count": os.cpu_count(),
        "cpu": cpu,
        "platform": platform.platform(),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "RAYON_NUM_THREADS": os.environ.get("RAYON_NUM_THREADS"),
        "MTALIGN_NUM_THREADS": os.environ.get("MTALIGN_NUM_THREADS"),
        "versions": {d: installed_version(d) for d in dists},
    }
