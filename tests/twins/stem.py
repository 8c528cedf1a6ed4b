"""Slow pure-Python twin of ROUGE-1.5.5's stemming (``-m``), for the tests.

ROUGE-1.5.5 stems a token longer than 3 characters with its ``MorphStem``: ASCII-lowercase,
look the token up in the WordNet 2.0 exception list, otherwise apply the Porter stemmer that
the script carries — Martin Porter's own Perl implementation, "Release 1", with Chin-Yew
Lin's change of 14 Feb 2004 to step 4 (an ``-ement`` word does not try ``-ment``/``-ent`` in
the same rule; ``-ment`` and ``-ent`` are tested after it in sequence instead).

This twin transliterates that Perl into Python's ``re`` (whose semantics equal Perl's for these
patterns: ``$``, alternation, ``$``\\` is ``s[:m.start()]``), statement by statement, so it is an
independent check on the procedural Rust implementation in
``crates/mtalign-core/src/stem/porter1980.rs``, usable without perl. The real script is the
oracle of ``tests/test_rouge155_oracle.py``.
"""

from __future__ import annotations

import re
from pathlib import Path

c = "[^aeiou]"  # consonant
v = "[aeiouy]"  # vowel
C = f"{c}[^aeiouy]*"  # consonant sequence
V = f"{v}[aeiou]*"  # vowel sequence
MGR0 = re.compile(f"^({C})?{V}{C}")  # [C]VC... is m>0
MEQ1 = re.compile(f"^({C})?{V}{C}({V})?$")  # [C]VC[V] is m=1
MGR1 = re.compile(f"^({C})?{V}{C}{V}{C}")  # [C]VCVC... is m>1
HAS_V = re.compile(f"^({C})?{v}")  # vowel in stem
CVC = re.compile(f"^{C}{v}[^aeiouwxy]$")

STEP2 = {"ational": "ate", "tional": "tion", "enci": "ence", "anci": "ance", "izer": "ize",
         "bli": "ble", "alli": "al", "entli": "ent", "eli": "e", "ousli": "ous",
         "ization": "ize", "ation": "ate", "ator": "ate", "alism": "al", "iveness": "ive",
         "fulness": "ful", "ousness": "ous", "aliti": "al", "iviti": "ive", "biliti": "ble",
         "logi": "log"}
STEP3 = {"icate": "ic", "ative": "", "alize": "al", "iciti": "ic", "ical": "ic", "ful": "",
         "ness": ""}
STEP2_RE = re.compile("(" + "|".join(STEP2) + ")$")
STEP3_RE = re.compile("(" + "|".join(STEP3) + ")$")
STEP4_RE = re.compile("(al|ance|ence|er|ic|able|ible|ant|ement|ou|ism|ate|iti|ous|ive|ize)$")


def porter_release1(w: str) -> str:
    """Porter's Perl "Release 1" ``stem`` with ROUGE-1.5.5's step 4."""
    if len(w) < 3:
        return w
    firstch = w[0]
    if firstch == "y":
        w = "Y" + w[1:]
    # Step 1a
    if m := re.search("(ss|i)es$", w):
        w = w[:m.start()] + m.group(1)
    elif m := re.search("([^s])s$", w):
        w = w[:m.start()] + m.group(1)
    # Step 1b
    if m := re.search("eed$", w):
        if MGR0.search(w[:m.start()]):
            w = w[:-1]
    elif m := re.search("(ed|ing)$", w):
        stem = w[:m.start()]
        if HAS_V.search(stem):
            w = stem
            if re.search("(at|bl|iz)$", w):
                w += "e"
            elif re.search(r"([^aeiouylsz])\1$", w):
                w = w[:-1]
            elif CVC.search(w):
                w += "e"
    # Step 1c
    if m := re.search("y$", w):
        stem = w[:m.start()]
        if HAS_V.search(stem):
            w = stem + "i"
    # Steps 2 and 3
    for rx, table in ((STEP2_RE, STEP2), (STEP3_RE, STEP3)):
        if m := rx.search(w):
            stem = w[:m.start()]
            if MGR0.search(stem):
                w = stem + table[m.group(1)]
    # Step 4 (CYL 2004)
    if m := STEP4_RE.search(w):
        stem = w[:m.start()]
        if MGR1.search(stem):
            w = stem
    if m := re.search("ment$", w):
        stem = w[:m.start()]
        if MGR1.search(stem):
            w = stem
    if m := re.search("ent$", w):
        stem = w[:m.start()]
        if MGR1.search(stem):
            w = stem
    elif m := re.search("(s|t)(ion)$", w):
        stem = w[:m.start()] + m.group(1)
        if MGR1.search(stem):
            w = stem
    # Step 5
    if m := re.search("e$", w):
        stem = w[:m.start()]
        if MGR1.search(stem) or (MEQ1.search(stem) and not CVC.search(stem)):
            w = stem
    if re.search("ll$", w) and MGR1.search(w):
        w = w[:-1]
    if firstch == "y":
        w = "y" + w[1:]
    return w


def load_exceptions(path: Path) -> dict[str, str]:
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line:
            k, val = line.split("\t")
            out[k] = val
    return out


def rouge155_stem(token: str, exceptions: dict[str, str]) -> str:
    """ROUGE-1.5.5 ``-m`` (tokens longer than 3 characters): ``MorphStem``."""
    if len(token) <= 3 or not token.isascii():
        return token
    low = token.translate(_LOWER)
    if low in exceptions:
        return exceptions[low]
    return porter_release1(low)


_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
