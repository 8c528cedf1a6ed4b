"""Every docstring example of the public modules runs and prints what it says."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["mtalign", "mtalign.rouge", "mtalign.dcs", "mtalign.kernels", "mtalign.tokenizers",
           "mtalign.errors", "mtalign.demo", "mtalign.sia"]
MODULES += ["mtalign.orange", "mtalign.io", "mtalign.rerank", "mtalign.registry",
            "mtalign._metric", "mtalign._progress"]
MODULES += ["mtalign.compat.rouge_score", "mtalign.compat.rouge_score.rouge_scorer",
            "mtalign.compat.rouge_score.scoring"]
MODULES += ["mtalign.bleu", "mtalign.nist", "mtalign.error_rate", "mtalign.ribes"]
MODULES += ["mtalign.meta", "mtalign.meta.correlation", "mtalign.meta.ties",
            "mtalign.meta.pairwise", "mtalign.meta.williams", "mtalign.meta.permutation",
            "mtalign.meta.clusters", "mtalign.meta.wmt", "mtalign.meta.paired"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{name} has no examples"
    assert result.failed == 0
