"""HTML pages to candidate article bodies plus metadata evidence, before the line cleaner sees them.

bytes -> text (a BOM, else the declared charset: HTTP header or <meta>, else newsclean.cleaners.encoding)
-> one lxml tree -> trafilatura `bare_extraction(include_comments=False, with_metadata=True)`:
body text, title, date (newsclean.cleaners.metadata.date_ranker: htmldate's original publication
date is one candidate among the page's dates), sitename, url, author. When trafilatura finds no body, or one that is tiny beside the page, the page's
visible text (one block per line) is returned too, as the other candidate body; asked for (blocks=True),
so is the page's visible text as a table of blocks with their markup (newsclean.cleaners.html_blocks),
from which newsclean.cleaners.page_body chooses a body over the whole page. Nothing here
calls the cleaner: the caller (newsclean.cleaners.pipeline) chooses between the candidates with it, sets
the visible text as the body (mode "visible text", `fallback`) when it chooses that one, and
records that it did.

The headline: the page states it several times (its <h1>s, og:title, JSON-LD, <title> with a site
suffix, trafilatura's title), each copy with its own noise; newsclean.cleaners.metadata.title_ranker
chooses among them, and among their pieces split at separators, with a learned ranker.
"""
from __future__ import annotations

import codecs
import datetime as dt
import gc
import logging
import re
import threading
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import wraps
from typing import Any, Callable, Iterator

import lxml.html
from lxml import etree

from newsclean.cleaners import readability_gate, upstream, xpath_gate
from newsclean.cleaners.encoding import decode
from newsclean.cleaners.metadata import date_ranker
from newsclean.cleaners.metadata.jsonld import jsonld_blocks
from newsclean.cleaners.metadata.title_ranker import PageTitles, choose_title, page_titles_evidence
from newsclean.cleaners.page_features import page_features
from newsclean.cleaners.page_kind import SHELL_MAX_CHARS, is_whole_page, shell_reason
from newsclean.cleaners.rules.prefilter import Prefilter
from newsclean.cleaners.types import DocumentError

logging.getLogger("trafilatura").setLevel(logging.CRITICAL)
logging.getLogger("htmldate").setLevel(logging.CRITICAL)

_BOMS = ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"))
_META_CHARSET = re.compile(rb"""<meta[^>]+?charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)""", re.I)
_HEADER_CHARSET = re.compile(r"""charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)""", re.I)
_XML_DECL = re.compile(r"^\s*<\?xml[^>]*\?>", re.I)
# WHATWG: these labels mean windows-1252 in a browser.
_WEB_ALIASES = {"iso-8859-1": "cp1252", "iso8859-1": "cp1252", "latin1": "cp1252", "latin-1": "cp1252",
                "l1": "cp1252", "us-ascii": "cp1252", "ascii": "cp1252", "x-user-defined": "cp1252",
                "iso_8859-1": "cp1252", "windows-1252": "cp1252"}

INVISIBLE_TAGS = ("script", "style", "noscript", "template", "svg", "iframe", "head", "object", "canvas", "button", "select", "form")
_BLOCK = frozenset("""address article aside blockquote br dd details dialog div dl dt fieldset figcaption figure footer
    h1 h2 h3 h4 h5 h6 header hr li main nav ol p pre section summary table tbody thead tfoot td th tr ul title""".split())


def declared_charset(data: bytes, header: str | None = None) -> str | None:
    """The charset an HTTP Content-Type header or the page's first <meta> declares, if Python knows it."""
    names = []
    if header:
        m = _HEADER_CHARSET.search(header)
        if m:
            names.append(m.group(1))
    m = _META_CHARSET.search(data[:8192])
    if m:
        names.append(m.group(1).decode("ascii", "ignore"))
    for name in names:
        name = _WEB_ALIASES.get(name.strip().lower(), name.strip().lower())
        try:
            return codecs.lookup(name).name
        except LookupError:
            continue
    return None


# Double-encoded UTF-8 in a page's own source ("LLCâ\x80\x99s": a CMS that encoded its text twice)
# decodes to text holding C1 control characters, which HTML text never holds legitimately.
# trafilatura drops control characters from its output, so what ftfy repairs ("LLC’s") would be lost
# as "LLCâs": the runs of the page that hold one are repaired before parsing (ftfy's encoding fix,
# then its C1 fix for a lone cp1252 byte such as "we\x92re"). A page without any is not touched.
_C1 = re.compile("[\x80-\x9f]")
_C1_CHARS = tuple(map(chr, range(0x80, 0xA0)))
_C1_UTF8 = re.compile(b"\xc2[\x80-\x9f]")  # a C1 character in UTF-8 (a third of _C1_CHARS' cost on the bytes)
_RUN_ENDS = "<>&\n"  # a run of text or of a tag's attributes ends at these
_RUN_END = re.compile("[" + re.escape(_RUN_ENDS) + "]")


def repair_source_mojibake(html: str, utf8: bytes | None = None) -> str:
    """`html` with its runs that hold a C1 control character repaired (the same object when it
    holds none). `utf8`: the bytes `html` was strictly decoded from as UTF-8, when the caller has
    them: searched instead of the text."""
    if utf8 is not None:
        if _C1_UTF8.search(utf8) is None:
            return html
    # one search per character, which str runs at memory speed: a third of a character class's scan
    elif html.isascii() or not any(c in html for c in _C1_CHARS):
        return html
    import ftfy
    from ftfy import fixes

    out: list[str] = []
    pos = 0
    for m in _C1.finditer(html):
        if m.start() < pos:
            continue  # inside a run already repaired
        start = max(pos, max(html.rfind(c, pos, m.start()) for c in _RUN_ENDS) + 1)
        after = _RUN_END.search(html, m.end())
        end = after.start() if after else len(html)
        out += [html[pos:start], fixes.fix_c1_controls(ftfy.fix_encoding(html[start:end]))]
        pos = end
    out.append(html[pos:])
    return "".join(out)


def decode_html(data: bytes, header: str | None = None) -> tuple[str, str]:
    """(text, encoding used). A BOM wins, then the declared charset, then detection.

    One exception to the declaration: bytes that are valid UTF-8 and contain multi-byte sequences
    are UTF-8 whatever a <meta> says (legacy text is practically never valid UTF-8 by accident,
    while pages re-saved as UTF-8 often keep their old declaration)."""
    for bom, name in _BOMS:
        if data.startswith(bom):
            return data[len(bom):].decode(name, errors="replace"), name
    declared = declared_charset(data, header)
    if declared and declared != "utf-8":
        if not data.isascii():
            try:
                return data.decode("utf-8"), "utf-8"
            except UnicodeDecodeError:
                pass
        if declared.startswith("utf-16") or declared.startswith("utf-32"):
            declared = None  # a page decoded as ASCII-compatible says so only if it is not really UTF-16
        else:
            return data.decode(declared, errors="replace"), declared
    if declared == "utf-8":
        try:
            return data.decode("utf-8"), "utf-8"
        except UnicodeDecodeError:
            pass  # mislabelled: let detection decide
    return decode(data), "detected"


def utf8_source(data: bytes, encoding: str) -> bytes | None:
    """`data` when decode_html read it as UTF-8 without a BOM: then strictly, so the text it gave
    encodes back to exactly these bytes (what the parser reads, without encoding the text again);
    else None."""
    return data if encoding == "utf-8" and not data.startswith(codecs.BOM_UTF8) else None


def visible_blocks(tree, drop: tuple[str, ...] = INVISIBLE_TAGS) -> list[tuple[Any, str, int]]:
    """The page's visible text cut where visible_text cuts it (at the start and end of every
    block-level element, and around an image's alt text), in document order: per piece, the
    element whose text it is (the innermost block-level element open there, or the <img> of an alt
    text), its text as the source has it (spaces and newlines unchanged; often only white space),
    and how many of its non-space characters are link text (inside an <a>). The elements `drop`
    names are left out with their content (their tails stay).
    Walks the tree with an explicit stack, not recursion: a page of unclosed tags nests elements
    deeper than Python's recursion limit."""
    pieces: list[tuple[Any, str, int]] = []
    run: list[str] = []  # the text since the last cut
    linked = 0  # non-space characters of link text in `run`
    in_link = 0  # <a> elements open
    body = tree.find(".//body")
    root = body if body is not None else tree
    owners = [root]  # the block-level elements open, innermost last
    stack: list[tuple[Any, bool]] = [(root, False)]
    while stack:
        el, closing = stack.pop()
        tag = el.tag if isinstance(el.tag, str) else ""
        if closing:  # after the element's children
            if tag in _BLOCK:
                pieces.append((owners.pop(), "".join(run), linked))
                run, linked = [], 0
            elif tag == "a":
                in_link -= 1
            if el.tail:
                run.append(el.tail)
                if in_link:
                    linked += nonspace_chars(el.tail)
            continue
        if tag in drop or not tag:  # dropped elements, comments, processing instructions
            if el.tail:
                run.append(el.tail)
                if in_link:
                    linked += nonspace_chars(el.tail)
            continue
        if tag in _BLOCK:
            pieces.append((owners[-1], "".join(run), linked))
            run, linked = [], 0
            owners.append(el)
        elif tag == "a":
            in_link += 1
        if tag == "img" and el.get("alt"):
            alt = el.get("alt")
            pieces.append((owners[-1], "".join(run), linked))
            pieces.append((el, alt, nonspace_chars(alt) if in_link else 0))
            run, linked = [], 0
        if el.text:
            run.append(el.text)
            if in_link:
                linked += nonspace_chars(el.text)
        stack.append((el, True))
        stack.extend((child, False) for child in reversed(el))
    pieces.append((owners[-1], "".join(run), linked))
    return pieces


def visible_text(tree) -> str:
    """Every visible text block of the page, one block per line, a blank line between blocks
    (visible_blocks' pieces, each cut again at its newlines, spaces collapsed, empty ones left out)."""
    blocks = (" ".join(b.split()) for b in "\n".join(text for _, text, _ in visible_blocks(tree)).split("\n"))
    return "\n\n".join(b for b in blocks if b)


# trafilatura's body against the page's visible text (non-space characters): under RECALL_BELOW
# of it, the recall mode is tried and wins when it finds RECALL_GAIN times more; under
# VISIBLE_BELOW, trafilatura may have missed the article, and the page's visible text is a
# candidate body too.
RECALL_BELOW, RECALL_GAIN, VISIBLE_BELOW = 0.5, 1.3, 0.1
VISIBLE_MODE = "visible text"  # the mode of a body that is the page's visible text
_VISIBLE_TEXT = etree.XPath("//body//text()[not(ancestor::script or ancestor::style or ancestor::noscript or ancestor::template)]")
_HIDDEN_TAGS = ("script", "style", "noscript", "template")
_STRING = etree.XPath("string()")


def nonspace_chars(text: str) -> int:
    return len(text) - sum(text.count(c) for c in " \n\t\r")


def body_chars(tree) -> int:
    """Non-space characters of the whole <body> text, hidden elements included: page_chars plus
    the text of script, style, noscript and template, so never less than page_chars: string(//body),
    the document's first <body>'s text, found by lxml's iteration (which stops there) rather than
    by an XPath walk over every node."""
    body = next(tree.getroottree().getroot().iter("body"), None)
    return 0 if body is None else nonspace_chars(_STRING(body))


def page_chars(tree, whole: int | None = None) -> int:
    """Non-space characters of the page's text outside script, style, noscript and template: the
    whole <body> text in one C call (`whole`, body_chars, when already counted), less the few
    hidden text nodes (the same count as summing `_chars` over `_VISIBLE_TEXT(tree)`, at a tenth
    of the cost)."""
    body = next(tree.iter("body"), None)  # the first <body>, as string(//body) takes it
    if body is None:
        return 0
    hidden = 0
    for el in body.iter(_HIDDEN_TAGS):
        if next(el.iterancestors(_HIDDEN_TAGS), None) is None:  # outermost hidden element only
            hidden += nonspace_chars(_STRING(el))
    return (body_chars(tree) if whole is None else whole) - hidden


@dataclass(frozen=True)
class HtmlExtraction:
    text: str  # the body: trafilatura's ("" when it found none), or `visible` once the caller chose that
    mode: str  # "trafilatura", "trafilatura recall mode", or VISIBLE_MODE once the caller chose `visible`
    encoding: str
    title: str | None = None
    published: dt.date | None = None
    sitename: str | None = None
    url: str | None = None
    author: str | None = None
    headlines: tuple[str, ...] = ()  # every headline candidate: <h1>s, og:title, <title>, trafilatura's
    titles: PageTitles = PageTitles()  # what the page states about its headline, for the title ranker
    # the other candidate body: the page's visible text, when trafilatura's body is missing or
    # under VISIBLE_BELOW of the page's text
    visible: str | None = None
    # why the page is a shell holding no article (page_kind.shell_reason: a frameset, a redirect),
    # when a candidate body has under SHELL_MAX_CHARS; the caller quarantines the page with it when
    # the body it chooses is that short
    shell: str | None = None
    # what kind of page it is, as numbers (newsclean.cleaners.page_features.FEATURE_NAMES): its
    # markup, URL and trafilatura's body, read by newsclean.cleaners.page_kind.kind_reason; empty
    # unless extract_html was asked for it (page_kind=True)
    page: tuple[float, ...] = ()
    # the page's visible text (visible_text) when `page` says it is not a whole page (a fragment, a
    # hand-made page: page_kind.is_whole_page), which the HTML model does not judge: the text
    # path's page-kind model judges this text instead (newsclean.cleaners.pipeline)
    fragment_text: str | None = None
    # the page's visible text blocks with their markup and trafilatura's choice (html_blocks.
    # page_blocks: a polars DataFrame), when extract_html was asked for them (blocks=True)
    blocks: Any = field(default=None, compare=False, repr=False)

    @property
    def fallback(self) -> bool:
        """The body is the page's visible text: trafilatura missed the article."""
        return self.mode == VISIBLE_MODE


def page_titles(tree) -> list[str]:
    """The first og:title, twitter:title and <title> of the page, in that order: what the XPaths
    //meta[@property="og:title"]/@content, //meta[@name="twitter:title"]/@content and //title give
    first (title_ranker.page_titles_evidence)."""
    return page_titles_evidence(tree).texts("og", "twitter", "title")


# libxml2 stops reading a page's elements 256 levels deep unless told otherwise (XML_PARSE_HUGE):
# a page of unclosed tags (a <div> or <font> opened per paragraph) passes that, and everything
# deeper, often the whole article, is dropped. Such a page is parsed again with the limit at 2,048
# levels (DEEP_LIMIT), by a parser with trafilatura's options and huge_tree.
DEEP_LIMIT = 2048


def html_class_lookup() -> etree.ElementNamespaceClassLookup:
    """lxml.html's element classes (HtmlElement; FormElement, InputElement... for the tags lxml.html
    gives a class of their own; HtmlComment, HtmlProcessingInstruction, HtmlEntity), chosen in C.
    lxml.html's own lookup is a Python method called for every element proxy lxml creates (~6,000
    a page here, through trafilatura's, htmldate's and newsclean's walks); this one gives every node
    the same class without calling back into Python. A page's copies keep its parser, so
    trafilatura's and htmldate's copies of the tree are looked up in C too."""
    lookup = etree.ElementNamespaceClassLookup(etree.ElementDefaultClassLookup(
        element=lxml.html.HtmlElement, comment=lxml.html.HtmlComment, pi=lxml.html.HtmlProcessingInstruction,
        entity=lxml.html.HtmlEntity))
    from lxml.html import defs

    theirs, by_tag = lxml.html.HtmlElementClassLookup(), lookup.get_namespace(None)
    for tag in sorted(defs.tags | defs.html5_tags):
        cls = theirs.lookup("element", None, None, tag)
        if cls is not lxml.html.HtmlElement:
            by_tag[tag] = cls
    return lookup


_DEEP_PARSER = lxml.html.HTMLParser(collect_ids=False, default_doctype=False, encoding="utf-8", remove_comments=True,
                                    remove_pis=True, huge_tree=True)
_DEEP_PARSER.set_element_class_lookup(html_class_lookup())
_parser = None  # trafilatura's HTML_PARSER's configuration with html_class_lookup (made on first use)


def _html_parser():
    """A parser configured as trafilatura's HTML_PARSER (its copy), choosing element classes in C."""
    global _parser
    if _parser is None:
        from trafilatura.utils import HTML_PARSER

        parser = HTML_PARSER.copy()
        parser.set_element_class_lookup(html_class_lookup())
        _parser = parser
    return _parser
TOO_DEEP = (f"the page nests its elements more than {DEEP_LIMIT:,} levels deep (unclosed tags?), past what the HTML "
            "parser reads, and no text was found above that depth; fix the markup (close its tags) or convert the page to text")


def _too_deep(parser) -> bool:
    """Whether the parser's last parse stopped at its depth limit ("Excessive depth in document")."""
    return any(e.type_name == "ERR_RESOURCE_LIMIT" and "depth" in e.message for e in parser.error_log)


def _at_depth_limit(tree) -> bool:
    """Whether the tree reaches down to the deep parser's limit, where the parse dropped the rest
    (checked only for a page that gave no text: it walks every element's ancestors)."""
    return bool(tree.xpath(f"boolean(//*[count(ancestor::*) >= {DEEP_LIMIT - 8}])"))


def _load_html(html: str, utf8: bytes | None = None):
    """trafilatura's `load_html(html)` for a str, with libxml2 reading the page's UTF-8 bytes
    (given a Python str, lxml hands libxml2 the string's internal buffer to transcode: ~1 ms more
    per page; `utf8`: those bytes when the caller has them, used when trafilatura's repairs leave
    the text as it is): the same repairs and checks, the same parser. Anything unusual (a parse that fails
    or yields an empty tree) goes through trafilatura's own function. bench/html_identity.py and
    tests/test_html_speed_paths.py compare the trees."""
    upstream.require("trafilatura")
    from trafilatura import load_html
    from trafilatura.utils import is_dubious_html, repair_faulty_html

    parser = _html_parser()
    beginning = html[:50].lower()
    dubious = is_dubious_html(beginning)
    try:  # as trafilatura's fromstring_bytes, but a lone surrogate goes to trafilatura's own path
        repaired = repair_faulty_html(html, beginning)
        data = utf8 if utf8 is not None and repaired == html else repaired.encode("utf-8")
        tree = lxml.html.fromstring(data, parser=parser)
        if _too_deep(parser):
            tree = lxml.html.fromstring(data, parser=_DEEP_PARSER)
    except Exception:  # noqa: BLE001 (any parse failure: trafilatura's own path decides)
        tree = None
    if tree is None or len(tree) < 1:
        return load_html(html)
    return None if dubious and len(tree) < 2 else tree


def parse_html(html: str, utf8: bytes | None = None):
    """The page's tree, parsed as trafilatura parses it (comments and processing instructions
    dropped; its extractors depend on that). `utf8`: the bytes `html` was strictly decoded from as
    UTF-8 (utf8_source), when the caller has them."""
    stripped = _XML_DECL.sub("", html, count=1)
    if stripped is not html:
        html, utf8 = stripped, None
    try:
        tree = _load_html(html, utf8)
    except (etree.ParserError, ValueError, TypeError):
        tree = None
    if tree is None:
        try:
            tree = lxml.html.document_fromstring(html)
        except (etree.ParserError, ValueError):
            return None
    return tree


def page_tree(data: bytes | str, header: str | None = None) -> tuple[Any, str]:
    """(the page's tree or None, the encoding read): raw bytes decoded (decode_html), or text a
    record already decoded (encoding "record"), its source mojibake repaired, parsed (parse_html)."""
    if isinstance(data, str):
        html, encoding, utf8 = data, "record", None
    else:
        html, encoding = decode_html(data, header)
        utf8 = utf8_source(data, encoding)
    repaired = repair_source_mojibake(html, utf8)
    return parse_html(repaired, utf8 if repaired is html else None), encoding


# trafilatura's AUTHOR_XPATHS and AUTHOR_DISCARD_XPATHS (2.3), which page_author evaluates in one
# pass over the tree; when the installed trafilatura has other expressions, its own function runs.
_AUTHOR_XPATH_TEXTS = (
    "//*[self::a or self::address or self::div or self::link or self::p or self::span or self::strong][ "
    "@rel='author' or @id='author' or @class='author' or @itemprop='author name' or rel='me' or "
    "@data-testid='AuthorCard' or @data-testid='AuthorURL' or re:test(@class, 'author-?name|AuthorName|authorName')]|//author",
    "//*[self::a or self::div or self::h3 or self::h4 or self::p or self::span][ @class='byline' or @class='username' or "
    "@class='byl' or @class='BBL' or contains(@itemprop, 'author') or re:test(@id, 'author|zuozhe|bianji|xiaobian') or "
    "re:test(@class, 'author|channel-name|zuozhe|bianji|xiaobian|submitted-by|posted-by|journalist-name')]",
    "//*[ contains(@data-component, 'Byline') or contains(@itemprop, 'author') or re:test(@id, '[Aa]uthor') or "
    "re:test(@class, '[Aa]uthor|screenname|writer|[Bb]yline')]",
)
_AUTHOR_DISCARD_TEXTS = (
    ".//*[self::a or self::div or self::section or self::span][ @id='comments' or @class='comments' or @class='title' or "
    "@class='date' or re:test(@id, '^comments|comment-?list|ProductReviews') or re:test(@class, '^[Cc]omments|commentlist|"
    "comments-list|sidebar|is-hidden|quote|embedly-instagram|article-(?:share|support)|print|category|meta-date|meta-reviewer') "
    "or contains(@data-component, 'Figure')]",
    "//time|//figure",
)
# the regexes of those expressions (lxml's EXSLT re:test is Python's re.search on the attribute)
_A0_CLASS = re.compile("author-?name|AuthorName|authorName")
_A1_ID = re.compile("author|zuozhe|bianji|xiaobian")
_A1_CLASS = re.compile("author|channel-name|zuozhe|bianji|xiaobian|submitted-by|posted-by|journalist-name")
_A2_ID = re.compile("[Aa]uthor")
_A2_CLASS = re.compile("[Aa]uthor|screenname|writer|[Bb]yline")
_D_ID = re.compile("^comments|comment-?list|ProductReviews")
_D_CLASS = re.compile("^[Cc]omments|commentlist|comments-list|sidebar|is-hidden|quote|embedly-instagram|"
                      "article-(?:share|support)|print|category|meta-date|meta-reviewer")
_A0_TAGS = frozenset("a address div link p span strong".split())
_A1_TAGS = frozenset("a div h3 h4 p span".split())
_D_TAGS = frozenset("a div section span".split())


# AUTHOR_XPATHS' tests of a class or an id value, one bit each (the first, second and third
# expression), computed once per value a page holds; RE2 (newsclean.cleaners.rules.prefilter) rules
# out most values before Python's engine runs the four regular expressions (~3.5 µs a value)
_FIRST, _SECOND, _THIRD = 1, 2, 4
_AUTHOR_CLASS = Prefilter([_A0_CLASS, _A1_CLASS, _A2_CLASS], at_start=False)
_AUTHOR_ID = Prefilter([_A1_ID, _A2_ID], at_start=False)


def _class_bits(cls: str) -> int:
    bits = _FIRST if cls == "author" else _SECOND if cls in ("byline", "username", "byl", "BBL") else 0
    if _AUTHOR_CLASS.may_match(cls):
        bits |= ((_FIRST if _A0_CLASS.search(cls) else 0) | (_SECOND if _A1_CLASS.search(cls) else 0)
                 | (_THIRD if _A2_CLASS.search(cls) else 0))
    return bits


def _id_bits(ident: str) -> int:
    bits = _FIRST if ident == "author" else 0
    if _AUTHOR_ID.may_match(ident):
        bits |= (_SECOND if _A1_ID.search(ident) else 0) | (_THIRD if _A2_ID.search(ident) else 0)
    return bits


def _discarded(el, root) -> bool:
    """Whether AUTHOR_DISCARD_XPATHS match `el` (evaluated from `root`)."""
    tag = el.tag
    if tag in ("time", "figure"):
        return True
    if tag not in _D_TAGS or el is root:
        return False
    cls, ident, component = el.get("class"), el.get("id"), el.get("data-component")
    return (ident == "comments" or cls in ("comments", "title", "date") or _D_ID.search(ident or "") is not None
            or _D_CLASS.search(cls or "") is not None or (component is not None and "Figure" in component))


def _same_author_xpaths() -> bool:
    import trafilatura.metadata as tm

    norm = lambda xs: tuple(" ".join(x.path.split()) for x in xs)  # noqa: E731
    return norm(tm.AUTHOR_XPATHS) == _AUTHOR_XPATH_TEXTS and norm(tm.AUTHOR_DISCARD_XPATHS) == _AUTHOR_DISCARD_TEXTS


def _pruned_text(elem, gone: Callable[[Any], bool]) -> str:
    """trim(" ".join(elem.itertext())) as it reads on a copy of the tree from which the elements
    `gone` says were deleted by trafilatura's delete_element (each deleted element's tail joins the
    previous kept sibling's tail, or the parent's text: concatenated, in document order)."""
    pieces: list[str] = []

    def walk(e):
        children = list(e)
        text, i = e.text or "", 0
        while i < len(children) and gone(children[i]):
            text += children[i].tail or ""
            i += 1
        pieces.append(text)
        while i < len(children):
            child = children[i]
            walk(child)
            tail = child.tail or ""
            i += 1
            while i < len(children) and gone(children[i]):
                tail += children[i].tail or ""
                i += 1
            pieces.append(tail)

    walk(elem)
    return " ".join(" ".join(pieces).split()).strip()


def page_author(tree) -> str | None:
    """trafilatura's `extract_author(tree)`, with the same result, at a fraction of its cost.

    trafilatura deep-copies the page, deletes what AUTHOR_DISCARD_XPATHS match (comments, sidebars,
    dates, figures...), then returns the first element of AUTHOR_XPATHS (expression by expression,
    in document order) whose text has 3-119 characters; each expression is a full-tree XPath with
    regex tests (~2.5 ms each here). Those expressions test tag names and attributes only, so one
    pass over the original tree evaluates all five (the same regexes, which is what lxml's re:test
    runs); the matches inside discarded parts are skipped and a match's text is read as it reads
    on the pruned copy (_pruned_text). trafilatura's own function runs when its expressions differ
    from the ones transcribed here, or when the tree holds comments or processing instructions
    (delete_element would move tails onto them) or a <rel> element (rel='me' tests its text).
    tests/test_html_speed_paths.py compares both on the dev pages."""
    upstream.require("trafilatura")
    import trafilatura.metadata as tm

    if not _same_author_xpaths() or next(tree.iter(etree.Comment, etree.ProcessingInstruction, "rel"), None) is not None:
        # trafilatura's own function (past the stand-in page_metadata puts in its place)
        return getattr(tm.extract_author, "__wrapped__", tm.extract_author)(tree)
    root = tree.getroottree().getroot()
    matches: tuple[list, list, list] = ([], [], [])
    # what a class or an id value says, by value: a page repeats its class names
    class_bits: dict[str, int] = {}
    id_bits: dict[str, int] = {}
    for el in root.iter(etree.Element):
        tag = el.tag
        get = el.get
        cls, ident, itemprop, component = get("class"), get("id"), get("itemprop"), get("data-component")
        bits = 0
        if cls is not None:
            bits = class_bits.get(cls)
            if bits is None:
                bits = class_bits[cls] = _class_bits(cls)
        if ident is not None:
            more = id_bits.get(ident)
            if more is None:
                more = id_bits[ident] = _id_bits(ident)
            bits |= more
        if tag == "author" or (tag in _A0_TAGS and (
                bits & _FIRST or itemprop == "author name" or get("rel") == "author"
                or get("data-testid") in ("AuthorCard", "AuthorURL"))):
            matches[0].append(el)
        author_prop = itemprop is not None and "author" in itemprop
        if tag in _A1_TAGS and (bits & _SECOND or author_prop):
            matches[1].append(el)
        if bits & _THIRD or author_prop or (component is not None and "Byline" in component):
            matches[2].append(el)
    # the discarded parts matter only around the matches: tested there, once per element
    known: dict = {}

    def gone(el) -> bool:
        seen = known.get(el)
        if seen is None:
            seen = known[el] = _discarded(el, root)
        return seen

    for found in matches:
        for el in found:
            if gone(el) or any(gone(a) for a in el.iterancestors()):
                continue  # deleted from trafilatura's copy
            content = _pruned_text(el, gone)
            if content and 2 < len(content) < 120:
                return tm.normalize_authors(None, content)
    return None


# htmldate's last resort, search_page (see page_date): off. It hunts the serialised page for any
# date-like string (a copyright year, a bare year-month); on the 461 dev pages it decides 55, and 47
# of those have no date in the truth. Off: false dates on the 80 undated pages 78 -> 32, right dates
# on the 381 dated ones 322 -> 321, ~2 ms/page faster (bench/html_date_mode.py). A corpus is better
# served by no date than by a guessed one. page_date(page_search=True) runs htmldate's whole cascade.
DATE_PAGE_SEARCH = False

# Inside page_metadata (and page_date), trafilatura's extract_metadata and htmldate's find_date run
# as they are, except for the functions they look up by name that stand-ins replace (each declared
# in newsclean.cleaners.upstream): the author search is page_author, the categories, tags and
# licence (never read here) are not searched, htmldate's search_page runs only when asked, and
# htmldate runs at all only when asked (page_metadata(with_date=False): the date ranker asks for
# its pick through htmldate_pick, on the pages whose own dates leave the answer open).
_SHORTCUTS: ContextVar[bool] = ContextVar("metadata_shortcuts", default=False)
_PAGE_SEARCH: ContextVar[bool] = ContextVar("metadata_page_search", default=True)
_WITH_DATE: ContextVar[bool] = ContextVar("metadata_with_date", default=True)
_shortcuts_installed = False
_installing = threading.Lock()  # pages extracted in threads: one installs, the others wait


def _stand_in(module, name: str, instead: Callable) -> None:
    """Put a function in place of `module.name` that calls `instead(original, *args)` inside
    metadata_shortcuts() and the original elsewhere (`__wrapped__`, read at each call)."""
    original = getattr(module, name)
    if getattr(original, "is_stand_in", False):
        original = original.__wrapped__  # put in by an earlier import of this module: replaced

    @wraps(original)
    def stand_in(*args, **kwargs):
        if _SHORTCUTS.get():
            return instead(stand_in.__wrapped__, *args, **kwargs)
        return stand_in.__wrapped__(*args, **kwargs)

    stand_in.is_stand_in = True
    setattr(module, name, stand_in)


def _install_shortcuts() -> None:
    global _shortcuts_installed
    upstream.require("trafilatura", "htmldate")
    if _shortcuts_installed:
        return
    with _installing:
        if _shortcuts_installed:
            return
        import htmldate.core as hd
        import trafilatura.metadata as tm

        _stand_in(tm, "extract_author", lambda original, tree: page_author(tree))
        _stand_in(tm, "extract_catstags", lambda original, metatype, tree: [])
        _stand_in(tm, "extract_license", lambda original, tree: None)
        _stand_in(hd, "search_page", lambda original, htmlstring, options:
                  original(htmlstring, options) if _PAGE_SEARCH.get() else None)
        _stand_in(tm, "find_date", lambda original, htmlobject, *args, **kwargs:
                  original(htmlobject, *args, **kwargs) if _WITH_DATE.get() else None)
        _shortcuts_installed = True


@contextmanager
def metadata_shortcuts(page_search: bool | None = None) -> Iterator[None]:
    """Within the block, extract_metadata and find_date take the stand-ins (see _SHORTCUTS);
    htmldate's search_page runs when `page_search` (default DATE_PAGE_SEARCH)."""
    _install_shortcuts()
    on = _SHORTCUTS.set(True)
    search = _PAGE_SEARCH.set(DATE_PAGE_SEARCH if page_search is None else page_search)
    try:
        yield
    finally:
        _PAGE_SEARCH.reset(search)
        _SHORTCUTS.reset(on)


def page_date(tree, url: str | None, date_config: dict, *, page_search: bool | None = None) -> str | None:
    """htmldate's `find_date(tree, url=url, **date_config)`, whose last resort, `search_page`, a
    regex hunt for any date-like string (a copyright year, a bare year-month) in the whole
    serialised page, runs only when `page_search` (default DATE_PAGE_SEARCH). On the 461 dev pages
    that step alone decides 55 pages: 47 of them have no published date in the truth, and of the 8
    that have one it gets 1 right; it costs ~16 ms on each page it runs on (bench/html_date_mode.py)."""
    from htmldate import find_date

    with metadata_shortcuts(page_search):
        return find_date(tree, url=url, **date_config)


def page_metadata(tree, url: str | None = None, *, page_search: bool | None = None, with_date: bool = True):
    """trafilatura's `extract_metadata(tree, url)`: title, author, url, hostname, date (htmldate's
    original publication date, extensive search, search_page as page_date runs it; None without
    asking htmldate unless `with_date`: htmldate_pick finds it later) and sitename, with the author
    found by page_author and without the three fields this path never reads (categories, tags,
    licence: ~2 of its ~6 ms a page on 200 dev pages). The tree is not modified (trafilatura's
    author search and htmldate's copy it)."""
    from trafilatura import extract_metadata

    with metadata_shortcuts(page_search):
        asked = _WITH_DATE.set(with_date)
        try:
            return extract_metadata(tree, default_url=url)
        finally:
            _WITH_DATE.reset(asked)


def htmldate_pick(tree, metadata_url: str | None) -> str | None:
    """The date page_metadata(tree, url).date gives, from the metadata's `url` of
    page_metadata(tree, url, with_date=False): htmldate's find_date with trafilatura's settings."""
    from trafilatura.settings import set_date_params

    return page_date(tree, metadata_url, set_date_params(True))


@contextmanager
def _gc_paused():
    """Python's cyclic garbage collector off for the duration (back on after, if it was on).

    One page's extraction allocates hundreds of thousands of objects (lxml proxies, trafilatura's
    and htmldate's intermediate strings and lists) and few reference cycles; each allocation burst
    triggers young-generation collections that also scan whatever else the process holds (the line
    model, registries, caches) and costs ~10% of the extraction. What is freed does not change:
    objects without cycles go by reference counting as always, and the few cycles wait for the next
    collection after the page."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def extract_html(data: bytes | str, *, url: str | None = None, header: str | None = None,
                 page_kind: bool = False, blocks: bool = False) -> HtmlExtraction:
    """Extract the candidate bodies and the metadata evidence of one page (raw bytes, or text a
    record already decoded); the caller chooses the body (newsclean.cleaners.pipeline.choose_body_steps).
    Raises DocumentError("extract") only when it is not a parseable page at all, or no text was
    read above the parser's depth limit.

    One parse: the same lxml tree feeds the metadata (page_metadata), trafilatura's body
    extraction (which works on its own copy) and our page measures. The cyclic garbage collector
    pauses during the page (_gc_paused); trafilatura skips readability where it cannot be chosen
    (readability_gate) and its regular-expression XPaths run as Python loops (xpath_gate).
    `page_kind`: also measure what kind of page it is (HtmlExtraction.page, for
    newsclean.cleaners.page_kind.kind_reason, and a fragment's visible text, fragment_text; ~5 ms
    a page, so only when asked). `blocks`: also the page's visible text as a table of blocks with
    their markup and trafilatura's choice (HtmlExtraction.blocks, newsclean.cleaners.html_blocks.
    page_blocks), from which newsclean.cleaners.page_body chooses a body over the whole page (~14 ms
    a page)."""
    with _gc_paused(), readability_gate.gated(), xpath_gate.gated():
        return _extract_html(data, url=url, header=header, page_kind=page_kind, blocks=blocks)


def recall_mode_body(tree, url: str | None) -> str:
    """trafilatura's recall-mode body of the page (favor_recall=True), "" when it finds none or
    fails on odd markup. Callers run it inside extract_html's gates (readability_gate, xpath_gate)."""
    from trafilatura import bare_extraction

    try:
        doc = bare_extraction(tree, url=url, include_comments=False, favor_recall=True)
    except Exception:  # noqa: BLE001 (trafilatura bugs on odd markup: no recall body)
        return ""
    return (doc.text or "").strip() if doc is not None else ""


def _extract_html(data: bytes | str, *, url: str | None, header: str | None, page_kind: bool = False,
                  blocks: bool = False) -> HtmlExtraction:
    from trafilatura import bare_extraction

    tree, encoding = page_tree(data, header)
    if tree is None:
        raise DocumentError("extract", "not a parseable HTML page (empty or no elements); check the file is HTML")
    # No `except` here: an error in the metadata is the page's own (a quarantine row naming it), and
    # a library that changed under newsclean stops the run (newsclean.cleaners.upstream), never an
    # empty title and date on every page
    doc = page_metadata(tree, url, with_date=False)  # htmldate's pick only if the date ranker asks
    try:
        # the body, with the url bare_extraction(with_metadata=True) would hand its extractors
        body_doc = bare_extraction(tree, url=url or doc.url, include_comments=False)
    except Exception:  # trafilatura bugs on odd markup: fall back to the visible text
        body_doc = None
    jsonld = jsonld_blocks(tree)  # read by the headline and the date rankers
    titles = page_titles_evidence(tree, doc.title, doc.sitename, doc.hostname or None, jsonld)
    page_url = url or doc.url
    sitename = doc.sitename
    title = choose_title(titles, page_url)
    body = (body_doc.text or "").strip() if body_doc is not None else ""
    # The page's size only matters when trafilatura's body is under half of it (recall retry,
    # visible-text check); the whole <body> text bounds it from above, so the exact count (less
    # script, style...) is needed only when the body is under half of that bound.
    whole = body_chars(tree)
    exact = not body or nonspace_chars(body) < RECALL_BELOW * whole
    page = page_chars(tree, whole) if exact else whole
    mode = "trafilatura"
    wider_body = None
    if body and nonspace_chars(body) < RECALL_BELOW * page:
        # The balanced mode kept under half the page's text: ask the recall mode, and take its body
        # when it finds clearly more (its extra text is what the balanced mode cut).
        wider_body = recall_mode_body(tree, page_url)
        if nonspace_chars(wider_body) > RECALL_GAIN * nonspace_chars(body):
            body, mode = wider_body, "trafilatura recall mode"
    # trafilatura kept (almost) nothing of the page: its visible text is a candidate body too
    visible = visible_text(tree) if not body or nonspace_chars(body) < VISIBLE_BELOW * page else None
    if not body and not visible.strip() and _at_depth_limit(tree):
        raise DocumentError("extract", TOO_DEEP)
    # htmldate's pick is one candidate among the page's dates (newsclean.cleaners.metadata.date_ranker),
    # asked for only where the page's own dates leave the answer open
    published = date_ranker.published_date(tree, page_url, lambda: htmldate_pick(tree, doc.url), jsonld=jsonld)
    features = page_features(tree, page_url, body, page if exact else page_chars(tree, whole), title=title,
                             dated=published is not None, authored=bool(doc.author)) if page_kind else ()
    fragment = None
    if page_kind and not is_whole_page(features):
        fragment = visible if visible is not None else visible_text(tree)
    block_table = None
    if blocks:
        from newsclean.cleaners.html_blocks import page_blocks

        block_table = page_blocks(tree, body, wider_body)
    candidates = [text for text in (body, visible) if text is not None]
    short = any(nonspace_chars(text) < SHELL_MAX_CHARS for text in candidates)
    return HtmlExtraction(
        text=body,
        mode=mode,
        encoding=encoding,
        title=title,
        published=published,
        sitename=sitename,
        url=page_url,
        author=doc.author or None,
        headlines=tuple(dict.fromkeys(h for h in (title, *titles.texts("h1", "trafilatura", "og", "twitter", "title")) if h)),
        titles=titles,
        visible=visible,
        shell=shell_reason(tree) if short else None,
        page=features,
        fragment_text=fragment,
        blocks=block_table,
    )
