"""trafilatura's regular-expression XPaths, evaluated by a Python loop inside `gated()`: the same
elements in the same order, at a fraction of the cost.

Saves ~14 ms of trafilatura's body extraction a page (ten expressions: ~19 ms as XPaths, ~4.6 ms as
loops), 1.21x on extract_html over 1,912 cases, every output identical (bench/RESULTS.md, HTML path speed).

trafilatura finds the article and prunes around it with XPath expressions whose tests are EXSLT
regular expressions (`re:test(@class, '…')`). lxml runs every re:test as a call back into Python, for
each element the expression visits: on the dev pages the ten expressions transcribed here take
~16 ms of the ~41 trafilatura's body extraction costs a page (bench/RESULTS.md, HTML path speed). A loop
over the candidate elements (lxml's tag filter, in C) with the same regular expressions, compiled
once, takes about a quarter of that.

What the transcriptions rely on (lxml's extensions.pxi, _ExsltRegExp.test): re:test(X, P, F) is
`re.compile(P, re.UNICODE | (re.I if "i" in F)).search(string(X))`; string() of a missing attribute is
''; string(@id|@class) is the value of whichever of the two comes first on the element (the union
is in document order, and an element's attributes are in source order). `.//*[…][1]` keeps, among
each parent's matching children, the first; `(.//*[…])[1]` keeps the first match of all.

An expression is transcribed only when its text, with its regular expressions taken out, is the
text transcribed here (`TEMPLATES`): the regular expressions themselves are read from the installed
trafilatura, so a new token in its vocabulary needs nothing here, and a changed expression keeps its
XPath. Outside `gated()` (the benchmarks' trafilatura baseline, other callers) every expression runs
as an XPath. The lists it edits are trafilatura's internals (newsclean.cleaners.upstream declares
them): another trafilatura stops the HTML path with UpstreamMismatch, which says what to check.
tests/test_xpath_gate.py compares both on the fixture pages and on look-alike elements;
bench/html_identity.py compares whole extractions on the dev pages.
"""
from __future__ import annotations

import re
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Callable, Iterator

from lxml import etree

from newsclean.cleaners import upstream

_ACTIVE: ContextVar[bool] = ContextVar("xpath_gate_active", default=False)
# inside gated(): each regular expression's answer for each attribute value the page has shown it
_VALUES: ContextVar[dict | None] = ContextVar("xpath_gate_values", default=None)
_RE_TEST = re.compile(r"re:test\([^,()]*,\s*'([^']*)'")  # the pattern argument of each re:test


def _first(el, a: str, b: str, va: str | None, vb: str | None) -> str:
    """string(@a|@b): the value of whichever attribute comes first on the element ('' if neither)."""
    if va is None:
        return vb or ""
    if vb is None:
        return va
    for name in el.keys():
        if name == a:
            return va
        if name == b:
            return vb
    return ""  # not reached: both are attributes of the element


Select = Callable[[etree._Element], list]
Test = Callable[[str], bool]


class Search:
    """`pattern.search(value) is not None`, each value's answer computed once a page (within one
    gated() block): a page repeats its id and class values, and trafilatura runs the expressions
    on the page, on its copies and again in its retries (the longest pattern costs ~6 µs a value)."""

    def __init__(self, pattern: re.Pattern):
        self.pattern = pattern
        self.key = (pattern.pattern, pattern.flags)  # expressions sharing a pattern share its answers

    def for_page(self) -> Test:
        values = _VALUES.get()
        memo: dict[str, bool] = {} if values is None else values.setdefault(self.key, {})
        search = self.pattern.search

        def test(value: str) -> bool:
            hit = memo.get(value)
            if hit is None:
                hit = memo[value] = search(value) is not None
            return hit
        return test
_BLOCK_TAGS = ("div", "item", "list", "p", "section", "span")  # trafilatura's names after convert_tags
_BODY_TAGS = ("article", "div", "main", "section")


def _overall_discard(consent: Search, by_id: Search, by_class: Search) -> Select:
    def select(tree):
        out = []
        consent_, by_id_, by_class_ = consent.for_page(), by_id.for_page(), by_class.for_page()
        for el in tree.iterdescendants(*_BLOCK_TAGS):
            get = el.get
            i, c = get("id"), get("class")
            if ((i is not None and by_id_(i)) or (c is not None and by_class_(c))
                    or ((i is not None or c is not None) and consent_(_first(el, "id", "class", i, c)))
                    or get("data-lp-replacement-content") is not None
                    or "nav" in (get("role") or "").replace("N", "n")
                    or "MostPopularStories" in (get("data-component") or "")):
                out.append(el)
        return out
    return select


def _overall_discard_hidden(hidden: Search, by_id: Search, by_class: Search) -> Select:
    def select(tree):
        out = []
        hidden_, by_id_, by_class_ = hidden.for_page(), by_id.for_page(), by_class.for_page()
        for el in tree.iterdescendants(etree.Element):
            get = el.get
            i, c, s = get("id"), get("class"), get("style")
            if ((i is not None and by_id_(i)) or (c is not None and by_class_(c))
                    or c == "comments-title" or get("aria-hidden") == "true"
                    or ((i is not None or c is not None) and _first(el, "id", "class", i, c).startswith("reply-"))
                    or ((i is not None or s is not None) and hidden_(_first(el, "id", "style", i, s)))
                    or (s is not None and ("display:none" in s or "display: none" in s))):
                out.append(el)
        return out
    return select


def _either(el, by_id: Test, by_class: Test) -> bool:
    """re:test(@id, by_id) or re:test(@class, by_class), neither pattern matching ''."""
    i, c = el.get("id"), el.get("class")
    return (i is not None and by_id(i)) or (c is not None and by_class(c))


def _comments_and_lists(by_id: Search, by_class: Search, list_id: Search, list_class: Search) -> Select:
    def select(tree):
        by_id_, by_class_, list_id_, list_class_ = by_id.for_page(), by_class.for_page(), list_id.for_page(), list_class.for_page()
        return [el for el in tree.iterdescendants("div", "list", "section", "details", "ol", "ul")
                if _either(el, by_id_, by_class_) and (el.tag not in ("ol", "ul") or _either(el, list_id_, list_class_))]
    return select


def _raw_tree_prune(by_id: Search, by_class: Search, keep_id: Search, keep_class: Search) -> Select:
    def select(tree):
        by_id_, by_class_, keep_id_, keep_class_ = by_id.for_page(), by_class.for_page(), keep_id.for_page(), keep_class.for_page()
        return [el for el in tree.iterdescendants("div", "section", "aside")
                if _either(el, by_id_, by_class_)
                and (next(el.iterdescendants("h1"), None) is None or _either(el, keep_id_, keep_class_))]
    return select


def _share_buttons() -> Select:
    def select(tree):
        return [el for el in tree.iterdescendants("div", "section", "aside")
                if "elementor-share-buttons" in (el.get("class") or "")]
    return select


def _word_in_id_or_class(word: str, capital: str = "") -> Callable[[], Select]:
    """contains(translate(@id, capital, lower), word) or the same of @class (no translate() when no capital)."""
    def build() -> Select:
        def select(tree):
            out = []
            for el in tree.iterdescendants(*_BLOCK_TAGS):
                for value in (el.get("id"), el.get("class")):
                    if value is not None and word in (value.replace(capital, capital.lower()) if capital else value):
                        out.append(el)
                        break
            return out
        return select
    return build


def _article_body(by_id: Search, by_class: Search) -> Select:
    """`.//*[…][1]`: of each parent's matching children, the first."""
    def select(tree):
        out, parents = [], set()
        by_id_, by_class_ = by_id.for_page(), by_class.for_page()
        for el in tree.iterdescendants(*_BODY_TAGS):
            get = el.get
            i, c = get("id"), get("class")
            if (c == "post" or c == "entry" or get("itemprop") == "articleBody" or i == "articleContent"
                    or (i is not None and by_id_(i)) or (c is not None and by_class_(c))):
                parent = el.getparent()
                if parent not in parents:
                    parents.add(parent)
                    out.append(el)
        return out
    return select


def _story(by_id: Search, fulltext: Search, by_class: Search) -> Select:
    fulltext = Search(re.compile(fulltext.pattern.pattern, fulltext.pattern.flags | re.IGNORECASE))  # re:test(…, 'i')

    def select(tree):
        by_id_, fulltext_, by_class_ = by_id.for_page(), fulltext.for_page(), by_class.for_page()
        for el in tree.iterdescendants(*_BODY_TAGS):
            get = el.get
            i, c = get("id"), get("class")
            if (i in ("article", "story") or c in ("postarea", "art-postcontent", "text", "cell", "story")
                    or get("role") == "article"
                    or (i is not None and by_id_(i))
                    or (c is not None and (fulltext_(c) or by_class_(c)))):
                return [el]
        return []
    return select


def _main_content(by_id: Search, by_class: Search) -> Select:
    def select(tree):
        by_id_, by_class_ = by_id.for_page(), by_class.for_page()
        for el in tree.iterdescendants(*_BODY_TAGS):
            i, c = el.get("id"), el.get("class")
            if i is None and c is None:
                continue
            if (i == "content" or c == "content" or (i is not None and by_id_(i))
                    or (c is not None and by_class_(c))
                    or (i is not None and "main-content" in i.replace("C", "c").replace("M", "m"))
                    or (c is not None and ("main-content" in c.replace("C", "c").replace("M", "m")
                                           or "page-content" in c.replace("C", "c").replace("P", "p")))):
                return [el]
        return []
    return select


# (list in trafilatura.xpaths, index, its text with {} for each regular expression, the loop)
TEMPLATES: tuple[tuple[str, int, str, Callable[..., Select]], ...] = (
    ("OVERALL_DISCARD_XPATH", 0, """
        .//*[self::div or self::item or self::list or self::p or self::section or self::span][
        @data-lp-replacement-content or
        contains(translate(@role, 'N', 'n'), 'nav') or
        contains(@data-component, 'MostPopularStories') or
        re:test(@id|@class, '{}') or
        re:test(@id, '{}') or
        re:test(@class, '{}')]
        """, _overall_discard),
    ("OVERALL_DISCARD_XPATH", 1, """
        .//*[@class='comments-title' or
        starts-with(@id|@class, 'reply-') or
        re:test(@id|@style, '{}') or
        contains(@style, 'display:none') or contains(@style, 'display: none') or
        re:test(@id, '{}') or
        re:test(@class, '{}') or @aria-hidden='true']
        """, _overall_discard_hidden),
    ("REMOVE_COMMENTS_AND_LISTS_XPATH", 0, """
        .//*[self::div or self::list or self::section or self::details or self::ol or self::ul][
        re:test(@id, '{}') or
        re:test(@class, '{}')][
        not(self::ol or self::ul) or re:test(@id, '{}') or re:test(@class, '{}')]
        """, _comments_and_lists),
    ("RAW_TREE_PRUNE_XPATH", 0, """
        .//*[self::div or self::section or self::aside][
        re:test(@id, '{}') or
        re:test(@class, '{}')][
        not(.//h1) or re:test(@id, '{}') or re:test(@class, '{}')]
        """, _raw_tree_prune),
    ("RAW_TREE_PRUNE_XPATH", 1, ".//*[self::div or self::section or self::aside][contains(@class, 'elementor-share-buttons')]",
     _share_buttons),
    ("TEASER_DISCARD_XPATH", 0, """
        .//*[self::div or self::item or self::list or self::p or self::section or self::span][
        contains(translate(@id, 'T', 't'), 'teaser') or contains(translate(@class, 'T', 't'), 'teaser')]
        """, _word_in_id_or_class("teaser", "T")),
    ("DISCARD_IMAGE_ELEMENTS", 0, """
        .//*[self::div or self::item or self::list or self::p or self::section or self::span][
        contains(@id, 'caption') or contains(@class, 'caption')]
        """, _word_in_id_or_class("caption")),
    ("BODY_XPATH", 0, """
        .//*[self::article or self::div or self::main or self::section][
        @class='post' or @class='entry' or
        @itemprop='articleBody' or @id='articleContent' or
        re:test(@id, '{}') or
        re:test(@class, '{}')
        ][1]
        """, _article_body),
    ("BODY_XPATH", 2, """
        (.//*[self::article or self::div or self::main or self::section][
        @role='article' or
        @id='article' or @id='story' or
        @class='postarea' or @class='art-postcontent' or @class='text' or @class='cell' or @class='story' or
        re:test(@id, '{}') or
        re:test(@class, '{}', 'i') or
        re:test(@class, '{}')
        ])[1]
        """, _story),
    ("BODY_XPATH", 3, """
        (.//*[self::article or self::div or self::main or self::section][
        @id='content' or @class='content' or
        re:test(@id, '{}') or
        re:test(@class, '{}') or
        contains(translate(@id, 'CM','cm'), 'main-content') or contains(translate(@class, 'CM','cm'), 'main-content') or
        contains(translate(@class, 'CP','cp'), 'page-content')
        ])[1]
        """, _main_content),
)


def _normal(text: str) -> str:
    return " ".join(text.split())


def transcription(path: str, template: str, build: Callable[..., Select]) -> Select | None:
    """The loop for the XPath text `path` when it is `template` with regular expressions in its
    {} places (none of which matches the empty string, as a missing attribute reads); else None."""
    patterns = _RE_TEST.findall(path)
    if template.count("{}") != len(patterns) or _normal(path) != _normal(template.format(*patterns)):
        return None
    try:
        compiled = [re.compile(p, re.UNICODE) for p in patterns]
    except re.error:
        return None
    if any(p.search("") for p in compiled):
        return None  # the loops skip missing attributes, which such a pattern would match
    return build(*map(Search, compiled))


class GatedXPath:
    """Stands in trafilatura's list for one XPath: inside gated(), the loop; else the XPath."""

    def __init__(self, xpath: etree.XPath, select: Select):
        self.xpath, self.select, self.path = xpath, select, xpath.path

    def __call__(self, tree, **variables):
        if _ACTIVE.get() and not variables and isinstance(tree, etree._Element):
            return self.select(tree)
        return self.xpath(tree, **variables)


_installed: tuple[str, ...] | None = None  # None: not tried yet


def installed() -> tuple[str, ...]:
    """The expressions the gate stands in for ("OVERALL_DISCARD_XPATH[0]", …), installed on first use."""
    global _installed
    if _installed is None:
        _installed = _install()
    return _installed


def _install() -> tuple[str, ...]:
    upstream.require("trafilatura")  # the lists below exist
    import trafilatura.xpaths as xpaths

    done = []
    for name, index, template, build in TEMPLATES:
        expressions = getattr(xpaths, name)
        if index >= len(expressions):
            continue  # keeps trafilatura's own XPaths, as a changed expression does
        xpath = expressions[index]
        if isinstance(xpath, GatedXPath):
            done.append(f"{name}[{index}]")
            continue
        if not isinstance(xpath, etree.XPath):
            continue
        select = transcription(xpath.path, template, build)
        if select is not None:
            expressions[index] = GatedXPath(xpath, select)  # the list trafilatura's modules imported
            done.append(f"{name}[{index}]")
    return tuple(done)


@contextmanager
def gated(active: bool = True) -> Iterator[None]:
    """Within the block, trafilatura's transcribed XPaths run as Python loops."""
    token = _ACTIVE.set(active and bool(installed()))
    values = _VALUES.set({})
    try:
        yield
    finally:
        _VALUES.reset(values)
        _ACTIVE.reset(token)
