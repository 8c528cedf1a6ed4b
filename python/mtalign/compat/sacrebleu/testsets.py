"""sacrebleu's WMT XML test sets (``-t wmt21 -l en-de`` and the other WMT21-WMT24 sets), read
from sacrebleu's local cache, ``$SACREBLEU`` (default ``~/.sacrebleu``), laid out as sacrebleu
2.6.0 lays it out: the language pair's XML under ``NAME/raw/`` (which names the fields) and
the text files sacrebleu extracted from it, ``NAME/NAME.LANGPAIR.FIELD`` (``/`` in the name
and ``:`` in the field written ``_`` and ``-``). A field whose text file is absent is taken
from the XML, cleaned as sacrebleu cleans it. Nothing is downloaded or written: a test set
not in the cache is an error naming where it was looked for and the sacrebleu command that
fetches it.

>>> cache_dir({"SACREBLEU": "/data/sb"})
'/data/sb'
>>> text_file("/data/sb", "wmt21/C", "en-de", "ref:C")
'/data/sb/wmt21/C/wmt21_C.en-de.ref-C'
"""

from __future__ import annotations

import os
import re
import xml.etree.ElementTree as ET
from collections.abc import Mapping

from mtalign.compat.sacrebleu._testsets import OTHER_SETS, WMT_XML

__all__ = ["MissingTestSet", "cache_dir", "fields", "reference_fields", "text_file"]


class MissingTestSet(Exception):
    """The test set is not in sacrebleu's cache (or is one mtalign cannot read)."""


def cache_dir(environ: Mapping[str, str] = os.environ) -> str:
    """sacrebleu's cache folder: ``$SACREBLEU``, else ``~/.sacrebleu``."""
    return environ.get("SACREBLEU", os.path.join(os.path.expanduser("~"), ".sacrebleu"))


def text_file(cache: str, test_set: str, langpair: str, field: str) -> str:
    """Where sacrebleu keeps one field of a test set as text."""
    name = test_set.replace("/", "_")
    return os.path.join(cache, test_set, f"{name}.{langpair}.{field.replace(':', '-')}")


def _fetch_hint(test_set: str, langpair: str) -> str:
    return f"sacrebleu -t {test_set} -l {langpair} --echo src > /dev/null"


def _xml_path(cache: str, test_set: str, langpair: str) -> str:
    if test_set in OTHER_SETS:
        raise MissingTestSet(
            f"-t {test_set}: mtalign reads only sacrebleu's WMT XML test sets "
            f"({', '.join(WMT_XML)}) from its cache; echo {test_set} with sacrebleu itself "
            f"(sacrebleu -t {test_set} -l {langpair} --echo ref > ref.txt) and pass the files")
    return os.path.join(cache, test_set, "raw", WMT_XML[test_set][1][langpair][0])


def _ref_field(translator: str | None) -> str:
    return f"ref:{translator}" if translator else "ref"


def _clean(text: str) -> str:
    return re.sub(r"\s+", " ", text.strip())


def _unwrap(path: str) -> dict[str, list[str]]:
    """sacrebleu 2.6.0's ``WMTXMLDataset._unwrap_wmt21_or_later`` on the standard library's
    XML parser: src, the references by translator (in order of first appearance; sacrebleu
    orders them as a Python set does), docid, origlang, the systems, and domain if given."""
    root = ET.parse(path).getroot()
    translators = list(dict.fromkeys(ref.get("translator") for ref in root.iter("ref")))
    refs: dict[str, list[str]] = {_ref_field(t): [] for t in translators}
    src: list[str] = []
    docids: list[str] = []
    origlangs: list[str] = []
    domains: list[str | None] = []
    systems: dict[str, list[str]] = {}
    seen_domain = False
    for doc in root.iter("doc"):
        if "testsuite" in doc.attrib:
            continue
        src_sents = {int(seg.get("id", "")): seg.text for seg in doc.findall(".//src//seg")}

        def sents(part: ET.Element) -> dict[int, str]:
            return {int(seg.get("id", "")): seg.text or "" for seg in part.findall(".//seg")}

        by_translator = {ref.get("translator"): sents(ref) for ref in doc.findall(".//ref")}
        hyps = {str(hyp.get("system")): sents(hyp) for hyp in doc.findall(".//hyp")}
        for seg_id in sorted(src_sents):
            if not any(sent.get(seg_id, "") for sent in by_translator.values()):
                continue  # no reference for this segment: sacrebleu skips it
            for t in translators:
                refs[_ref_field(t)].append(by_translator.get(t, {}).get(seg_id, ""))
            src.append(src_sents[seg_id] or "")
            for name, sent_of in hyps.items():
                systems.setdefault(name, []).append(sent_of[seg_id])
            docids.append(doc.attrib["id"])
            origlangs.append(doc.attrib["origlang"])
            domains.append(doc.get("domain"))
            seen_domain = doc.get("domain") is not None
    out = {"src": src, **refs, "docid": docids, "origlang": origlangs, **systems}
    if seen_domain:
        out["domain"] = [d or "" for d in domains]
    return {name: [_clean(line) for line in lines] for name, lines in out.items()}


def fields(test_set: str, langpair: str, cache: str | None = None) -> dict[str, list[str]]:
    """Every field of a cached test set (sacrebleu's ``--echo all`` order), one list of lines
    each; the text files sacrebleu extracted where present, else the XML."""
    cache = cache_dir() if cache is None else cache
    path = _xml_path(cache, test_set, langpair)
    if not os.path.isfile(path):
        raise MissingTestSet(
            f"-t {test_set} -l {langpair}: not in sacrebleu's cache (looked for {path}; "
            f"$SACREBLEU sets the folder); mtalign never downloads: fetch it with sacrebleu "
            f"itself: {_fetch_hint(test_set, langpair)}")
    try:
        from_xml = _unwrap(path)
    except (ET.ParseError, KeyError, ValueError) as e:
        raise MissingTestSet(f"{path}: not a WMT XML test set ({e}); delete it and fetch it "
                             f"again: {_fetch_hint(test_set, langpair)}") from None
    out = {}
    for name, lines in from_xml.items():
        txt = text_file(cache, test_set, langpair, name)
        if os.path.exists(txt):
            with open(txt, encoding="utf-8", newline="\n") as f:
                lines = [line.rstrip() for line in f]
        out[name] = lines
    return out


def reference_fields(test_set: str, langpair: str) -> list[str]:
    """The fields sacrebleu scores against (``ref:A`` for ``wmt21``, ``ref:B`` for
    ``wmt21/B``, ...).

    >>> reference_fields("wmt21/AB", "de-en")
    ['ref:A', 'ref:B']
    """
    defaults, langpairs = WMT_XML[test_set]
    override = langpairs[langpair][1]
    return [_ref_field(t) for t in (defaults if override is None else override)]
