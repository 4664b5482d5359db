"""Skip trafilatura's readability fallback on pages where its output cannot be chosen.

Saves readability's run on 724 of 2,104 comparisons over the 1,451 dev and evaluation pages, 1.07x on
the HTML path, with no output changed (bench/RESULTS.md, HTML path speed).

trafilatura's balanced mode runs readability (its fork of readability-lxml) on a copy of every page
after its own extraction (`trafilatura.external.compare_extraction`), and takes readability's text
only when `_prefer_readability` says so: when its own text is empty, when readability's is over
twice as long, or when its own body has no paragraph text or more tables than paragraphs (recall
mode: also when readability's is longer). Readability's text is a part of the page's text: it drops
script, style and fencedframe elements, moves and deletes others, and adds "VIDEO" into iframes it
keeps. So its length is at most

    len(text of the tree) - len(text of script, style, fencedframe) + 6 per iframe

(removing text never lengthens a text whose white space runs are then collapsed). Where that bound
already rules readability out, readability is not run: `compare_extraction` sees an empty result
from it, which `_prefer_readability` rejects as it rejects a shorter one, so the body, the jusText
check after it and the result are the same as with readability run. Over the 461 dev pages and
990 pages of trafilatura's evaluation set it is skipped on 724 of 2,104 comparisons (the balanced
extractions and the recall retries), and no page's output changes (bench/html_identity.py).

The gate acts only inside `gated()` (newsclean.cleaners.extract_html), so trafilatura called elsewhere in the
process (the benchmarks' baseline) runs as it is. It relies on trafilatura's internals
(newsclean.cleaners.upstream declares them): it is installed only when the installed trafilatura's
`compare_extraction`, `_prefer_readability` and `try_readability` are the code the bound was checked
against (their source's hash); any other code stops the HTML path with UpstreamMismatch, which says
what to review (tests/test_readability_gate.py, tests/test_upstream_internals.py).
"""
from __future__ import annotations

import hashlib
import inspect
import threading
from contextlib import contextmanager
from contextvars import ContextVar
from functools import wraps
from typing import Iterator

from newsclean.cleaners import upstream

# SHA-256 of the source of trafilatura.external's compare_extraction, _prefer_readability and
# try_readability (trafilatura 2.3.1), in that order, joined with NUL
REVIEWED_SOURCE = "4bed21241f3f962c9594dc02105f05ce13ed22a4469922e105733336acb8d22b"
_ACTIVE: ContextVar[bool] = ContextVar("readability_gate_active", default=False)
_SKIP: ContextVar[bool] = ContextVar("readability_gate_skip", default=False)
_DROPPED = ("script", "style", "fencedframe")  # readability deletes these before it reads the page
VIDEO_CHARS = 6  # "VIDEO" and a space around it: readability's text in an iframe it keeps


def source_hash() -> str | None:
    """The hash of the trafilatura functions the gate relies on, None when they are missing."""
    try:
        import trafilatura.external as ext

        readability = getattr(ext.try_readability, "__wrapped__", ext.try_readability)  # the gate's own wrapper
        parts = [inspect.getsource(f) for f in (ext.compare_extraction, ext._prefer_readability, readability)]
    except (ImportError, AttributeError, OSError, TypeError):
        return None
    return hashlib.sha256("\0".join(parts).encode("utf-8")).hexdigest()


class _PageText:
    """What the bounds read from the tree, read once: its text, the text of the elements
    readability drops, and its iframes."""

    def __init__(self, raw_tree):
        from lxml.etree import tostring

        self.text = tostring(raw_tree, method="text", encoding=str)
        self.dropped, self.iframes = [], 0
        for elem in raw_tree.iter(*_DROPPED, "iframe"):
            if elem.tag == "iframe":
                self.iframes += 1
            elif elem.text:
                self.dropped.append(elem.text)  # in HTML these hold text only, no child elements

    def bound(self, tight: bool = False) -> int:
        if tight:
            return (len(" ".join(self.text.split())) - sum(len("".join(t.split())) for t in self.dropped)
                    + VIDEO_CHARS * self.iframes)
        return len(self.text) - sum(map(len, self.dropped)) + VIDEO_CHARS * self.iframes


def text_bound(raw_tree, tight: bool = False) -> int:
    """An upper bound on the length of readability's text for `raw_tree` (see the module's note).
    `tight`: with the page's white space collapsed as trafilatura's `trim` collapses readability's
    (removing text can only merge or drop runs of white space, so the removed elements take at
    least their non-space characters with them); about 0.4 ms more on a news page."""
    return _PageText(raw_tree).bound(tight)


# Where the quick bound leaves readability a chance but is under this many times the own body's
# length, the tight bound is worth its cost (in a probe over the dev pages it ruled readability out
# on about two thirds of the comparisons it was computed for)
TIGHTEN_BELOW = 4


def readability_could_win(raw_tree, body, text: str, options) -> bool:
    """False only where `_prefer_readability` rejects whatever readability returns for `raw_tree`:
    each of its conditions for taking readability's text needs that text longer than the bound
    allows (or needs the own extraction empty or structurally deficient)."""
    len_text = len(text)
    if len_text == 0:
        return True
    page = _PageText(raw_tree)
    bound = page.bound()
    if 2 * len_text < bound <= TIGHTEN_BELOW * len_text:
        bound = min(bound, page.bound(tight=True))  # either bounds it
    if 2 * bound < len_text:  # "own extraction much longer": never readability's
        return False
    if bound > 2 * len_text:
        return True
    if options.focus == "recall" and bound > len_text:
        return True
    if bound > options.min_extracted_size * 2 and (
            not body.xpath(".//p//text()") or len(body.findall(".//table")) > len(body.findall(".//p"))):
        return True
    return False


_installed: bool | None = None  # None: not tried yet
_installing = threading.Lock()  # pages extracted in threads: one installs, the others wait


def installed() -> bool:
    """Whether the gate is in place (installed on first use: it imports trafilatura; raises
    UpstreamMismatch when trafilatura is not the code the gate was reviewed against)."""
    global _installed
    if _installed is None:
        with _installing:
            if _installed is None:
                _installed = _install()
    return _installed


def _install() -> bool:
    upstream.require("trafilatura")
    if source_hash() != REVIEWED_SOURCE:
        raise upstream.mismatch("trafilatura", "trafilatura.external's compare_extraction, _prefer_readability and "
                                "try_readability are not the code newsclean.cleaners.readability_gate was reviewed "
                                "against (REVIEWED_SOURCE); check its bound still holds for them, then update the hash")
    import trafilatura.core as core
    import trafilatura.external as ext

    if getattr(core.compare_extraction, "is_readability_gate", False):  # put in by an earlier import of this module
        core.compare_extraction, ext.try_readability = core.compare_extraction.__wrapped__, ext.try_readability.__wrapped__
    if core.compare_extraction is not ext.compare_extraction:
        raise upstream.mismatch("trafilatura", "trafilatura.core.compare_extraction is not "
                                "trafilatura.external.compare_extraction, where readability_gate puts its gate")
    compare, readability = ext.compare_extraction, ext.try_readability

    def could_win(raw_tree, body, text, options) -> bool:
        try:
            return readability_could_win(raw_tree, body, text, options)
        except Exception:  # noqa: BLE001 (an odd tree the bound cannot read: readability runs, as without the gate)
            return True

    @wraps(compare)
    def gated_compare(cleaned_tree, raw_tree, body, text, options):
        if _ACTIVE.get() and not could_win(raw_tree, body, text, options):
            token = _SKIP.set(True)
            try:
                return compare(cleaned_tree, raw_tree, body, text, options)
            finally:
                _SKIP.reset(token)
        return compare(cleaned_tree, raw_tree, body, text, options)

    def gated_readability(htmlinput):
        if _SKIP.get():
            from lxml.html import HtmlElement

            return HtmlElement()  # what try_readability returns when readability fails: not chosen
        return readability(htmlinput)

    gated_readability.__wrapped__ = readability
    gated_compare.is_readability_gate = True
    core.compare_extraction = gated_compare
    ext.try_readability = gated_readability
    return True


@contextmanager
def gated(active: bool = True) -> Iterator[None]:
    """Within the block, trafilatura skips readability where it cannot be chosen."""
    token = _ACTIVE.set(active and installed())
    try:
        yield
    finally:
        _ACTIVE.reset(token)
