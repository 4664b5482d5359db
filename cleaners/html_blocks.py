"""A page's visible text as a table of blocks with their markup, for a block-level decision over the
whole page (trafilatura's body as evidence, not as the limit of what can be kept).

One row per piece of visible text between block-level boundaries, in document order
(newsclean.cleaners.extract_html.visible_blocks: a <p>'s, <li>'s, <td>'s, heading's own text, a
<div>'s text outside its block children, an image's alt text), with:

- its markup: the tag of the element holding it, that element's depth, the share of its text that
  is link text, generic class and id tokens (CLASS_TOKENS) on the element itself and on any of its
  ancestors, and its ancestry (ANCESTORS: inside an <article>, <main>, <aside>, <nav>...);
- its text: characters, words, sentence ends, function-word share, digits, repeats on the page;
- its place: position in the page (by blocks and by characters);
- trafilatura's choice: how much of it trafilatura's body holds, and its recall-mode body when
  given (body_share: on the scorer's tokens, each stretch of the body credited to one block, in
  order), and the same facts of its neighbours, of the blocks around it and of its container.
- its run (sequence_context): the size and link share of the blocks on each side, the characters
  between it and trafilatura's body before and after it, the body's share before it, the run of
  blocks with its tag; its innermost list or table (list_context) taken together;
- its topic (topic_fit): the share of its content words the rest of trafilatura's body holds
  (alone and around it), and the share in the page's first <h1>; and how often its text repeats
  with its digits folded ("Item 1", "Item 2").

No Prefect here; newsclean.cleaners.page_body reads it (html_body = "page"), bench/page_body_cv.py
measures it.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

import numpy as np
import polars as pl

from newsclean.cleaners.corpus import folded_tokens_many
from newsclean.cleaners.extract_html import INVISIBLE_TAGS, nonspace_chars, recall_mode_body, visible_blocks
from newsclean.cleaners.model.labels import aligned_share
from newsclean.cleaners.page_features import HEADING_TAGS
from newsclean.cleaners.shape import FUNCTION_WORDS, content_of, content_words, ends_sentence, stop_share, words

# Generic class and id tokens (never a site's own names): each a pattern on one token of a class or
# id value, split at non-letters and at lower-to-upper case changes ("relatedPosts" -> related, posts).
CLASS_TOKENS: dict[str, re.Pattern] = {name: re.compile(pattern) for name, pattern in {
    "nav": r"^(?:nav|navs|navbar|navigation|subnav|topnav)$",
    "menu": r"^(?:menu|menus|submenu|megamenu|dropdown)$",
    "footer": r"^(?:footer|foot|bottom|colophon)$",
    "header": r"^(?:header|masthead|topbar|top)$",
    "comment": r"^(?:comment|comments|disqus|replies|reply|respond|discussion)$",
    "share": r"^(?:share|shares|sharing|sharer|addthis|print|email)$",
    "related": r"^(?:related|recommended|recommendations|more|trending|popular|outbrain|taboola|read|next)$",
    "social": r"^(?:social|facebook|twitter|whatsapp|linkedin|pinterest|follow)$",
    "sidebar": r"^(?:sidebar|side|aside|rail|widget|widgets)$",
    "ad": r"^(?:ad|ads|adv|advert|advertisement|adslot|dfp|sponsor|sponsored|banner)$",
    "promo": r"^(?:promo|promotion|newsletter|subscribe|subscription|signup|cta|paywall)$",
    "caption": r"^(?:caption|figcaption|credit|credits|photo|image|img|media|gallery)$",
    "byline": r"^(?:byline|author|authors|writer|date|time|meta|dateline|published)$",
    "breadcrumb": r"^(?:breadcrumb|breadcrumbs|crumbs|crumb)$",
    "tag": r"^(?:tag|tags|tagged|topics|category|categories|keywords|label|labels)$",
    "hidden": r"^(?:hidden|hide|sr|visually|invisible|screen|offscreen)$",
    "content": r"^(?:article|content|body|story|post|entry|text|main|prose|richtext)$",
}.items()}
ANCESTORS = ("article", "main", "aside", "nav", "footer", "header", "form", "figure", "ul", "ol", "table", "blockquote",
             "button", "hidden")  # "hidden": an element hidden by its markup (is_hidden)
_HIDDEN_BIT = 1 << ANCESTORS.index("hidden")
_HIDDEN_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.I)


def is_hidden(el) -> bool:
    """The element hides itself in its markup: a `hidden` attribute, aria-hidden="true", or an
    inline style of display:none or visibility:hidden (style sheets are not read)."""
    get = el.get
    style = get("style")
    return (get("hidden") is not None or get("aria-hidden") == "true"
            or (style is not None and _HIDDEN_STYLE.search(style) is not None))


TAGS = ("p", "li", "div", "td", "th", "h1", "h2", "h3", "h4", "h5", "h6", "span", "a", "blockquote", "dd", "dt",
        "figcaption", "pre", "section", "img", "br", "body", "other")  # the tag codes (TAGS.index), in this order
_SPLIT = re.compile(r"[^A-Za-z0-9]+|(?<=[a-z])(?=[A-Z])")
_DIGIT = re.compile(r"\d")
_DIGITS = re.compile(r"\d+")
_SENTENCE_END = re.compile(r"[.!?…][\"'”’»)\]]*(?=\s|$)")
# what visible_text leaves out but a page's blocks keep: a whole page can sit inside a <form>
# (ASP.NET pages), or, in broken markup, inside a <button> left open; the in_form and in_button
# flags tell their blocks apart
DROPPED = tuple(tag for tag in INVISIBLE_TAGS if tag not in ("form", "button"))
CONTEXT = 2  # neighbours on each side whose trafilatura membership is a feature
WINDOWS = (5, 20)  # blocks on each side whose body share of characters is a feature


@lru_cache(maxsize=65536)
def _one_token_bits(token: str) -> int:
    return sum(1 << i for i, pattern in enumerate(CLASS_TOKENS.values()) if pattern.match(token))


def token_bits(value: str | None) -> int:
    """The CLASS_TOKENS a class or id value holds, one bit each (in CLASS_TOKENS' order)."""
    bits = 0
    for token in _SPLIT.split(value or ""):
        if token:
            bits |= _one_token_bits(token.lower())
    return bits


MIN_RUN_TOKENS = 4  # a shorter block counts as in a body only where the body goes on with it
NEAR_CHARS = 40  # ... within this many characters of where the block before it was found


def body_share(folded: list[str], body: str) -> np.ndarray:
    """Per block (its scorer's tokens joined by single spaces, as `folded` holds them), how much
    of it trafilatura's `body` holds, each stretch of the body credited to one block at most and
    in order, as an alignment would: first the anchors, blocks of MIN_RUN_TOKENS tokens or more
    that occur once on the page and once in the body, in increasing order; then, between two
    anchors, the other blocks in order with a cursor (a long block found anywhere before the next
    anchor, a short one only within NEAR_CHARS of the cursor: "Home" or "Share" is not credited
    for a word the body holds elsewhere). A block not found is credited with the share of its
    characters that the body's long lines cover inside it (a block the body split into lines; a
    block that is one of those lines, found out of order, gets nothing)."""
    lines = folded_tokens_many(body.split("\n"))
    long_lines = [f" {line} " for line in lines if line.count(" ") + 1 >= MIN_RUN_TOKENS]
    haystack = " " + " ".join(line for line in lines if line) + " "
    n = len(folded)
    out = np.zeros(n)
    keys = [f" {block} " for block in folded]
    is_long = [block.count(" ") + 1 >= MIN_RUN_TOKENS for block in folded]
    on_page: dict[str, int] = {}
    for block in folded:
        on_page[block] = on_page.get(block, 0) + 1
    found: list[tuple[int, int, int]] = []  # (block, start, end) in the haystack
    for i, block in enumerate(folded):
        if block and is_long[i] and on_page[block] == 1:
            at = haystack.find(keys[i])
            if at >= 0 and haystack.find(keys[i], at + 1) < 0:
                found.append((i, at, at + len(keys[i]) - 1))
    anchors = _in_order(found)
    bounds = [(-1, 0, 0), *anchors, (n, len(haystack), len(haystack))]
    for (i0, _, cursor), (i1, limit, _) in zip(bounds, bounds[1:]):
        if i1 < n:
            out[i1] = 1.0
        for i in range(i0 + 1, i1):
            if not folded[i]:
                continue
            at = haystack.find(keys[i], cursor, limit + 1)
            if at >= 0 and (is_long[i] or at <= cursor + NEAR_CHARS):
                out[i] = 1.0
                cursor = at + len(keys[i]) - 1
            elif long_lines:
                covered = sum(len(line) - 2 for line in long_lines if line in keys[i] and line != keys[i])
                out[i] = min(covered / len(folded[i]), 1.0)
    return out


def _in_order(found: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    """The longest run of `found` (block, start, end), in block order, whose stretches of the body
    follow each other without overlapping (a longest increasing subsequence, by their starts)."""
    tails: list[int] = []  # per length, the index in `found` of the run's last item with the smallest start
    before = [-1] * len(found)
    for j, (_, start, _) in enumerate(found):
        lo, hi = 0, len(tails)
        while lo < hi:  # the longest run this item can follow: its last item ends before `start`
            mid = (lo + hi) // 2
            if found[tails[mid]][2] <= start + 1:
                lo = mid + 1
            else:
                hi = mid
        before[j] = tails[lo - 1] if lo else -1
        if lo == len(tails):
            tails.append(j)
        elif start < found[tails[lo]][1]:
            tails[lo] = j
    run, j = [], tails[-1] if tails else -1
    while j >= 0:
        run.append(found[j])
        j = before[j]
    return run[::-1]


class _Markup:
    """Per element, memoised along the ancestor chain: depth, own token bits, the token bits of its
    ancestors, and the ANCESTORS it sits in (bits; the element itself counts)."""

    def __init__(self) -> None:
        self.known: dict[Any, tuple[int, int, int, int]] = {}
        self.values: dict[str, int] = {}  # a page repeats its class values

    def _bits(self, value: str | None) -> int:
        if not value:
            return 0
        bits = self.values.get(value)
        if bits is None:
            bits = self.values[value] = token_bits(value)
        return bits

    def of(self, el) -> tuple[int, int, int, int]:
        """(depth, own token bits, ancestors' token bits, ancestry bits) of `el`."""
        chain = []
        node = el
        while node is not None and node not in self.known:
            chain.append(node)
            node = node.getparent()
        depth, own, above, ancestry = self.known[node] if node is not None else (-1, 0, 0, 0)
        for node in reversed(chain):  # from the known ancestor down to `el`
            above |= own
            tag = node.tag if isinstance(node.tag, str) else ""
            own = self._bits(node.get("class")) | self._bits(node.get("id"))
            if tag in ANCESTORS:
                ancestry |= 1 << ANCESTORS.index(tag)
            if is_hidden(node):
                ancestry |= _HIDDEN_BIT
            depth += 1
            self.known[node] = (depth, own, above, ancestry)
        return self.known[el]


def _tag_code(el) -> int:
    tag = el.tag if isinstance(el.tag, str) else ""
    return TAGS.index(tag) if tag in TAGS else len(TAGS) - 1


def page_blocks(tree, body: str, recall: str | None = None, *, aligned: bool = False) -> pl.DataFrame:
    """The table of the page's visible text blocks (one row each, in document order; see the
    module's docstring) for a tree parse_html gave, trafilatura's body `body` and its recall-mode
    body `recall` (None: not extracted; the recall columns then repeat the body's). `aligned`:
    a block's membership is the share of its tokens a token alignment with the body credits
    (newsclean.cleaners.model.labels.aligned_share: exact, several times body_share's cost)."""
    markup = _Markup()
    rows_el: list[Any] = []
    texts: list[str] = []
    linked: list[int] = []
    for el, raw, link in visible_blocks(tree, DROPPED):
        text = " ".join(raw.split())
        if text:
            rows_el.append(el)
            texts.append(text)
            linked.append(link)
    n = len(texts)
    facts = [markup.of(el) for el in rows_el]
    parents = [el.getparent() for el in rows_el]
    container = np.array([id(p) if p is not None else 0 for p in parents], dtype=np.int64)
    lists = _ListOwners()
    owner_ids = [id(o) if (o := lists.of(el)) is not None else 0 for el in rows_el]
    chars = np.fromiter((nonspace_chars(t) for t in texts), dtype=np.float64, count=n)
    block_words = [words(t) for t in texts]
    n_words = np.fromiter((len(w) for w in block_words), dtype=np.float64, count=n)
    if aligned:
        in_body = aligned_share(texts, body)[0] if n else np.zeros(0)
        in_recall = aligned_share(texts, recall)[0] if n and recall is not None else in_body
    else:
        folded = folded_tokens_many(texts)
        in_body = body_share(folded, body)
        in_recall = body_share(folded, recall) if recall is not None else in_body
    seen: dict[str, int] = {}
    for t in texts:
        seen[t] = seen.get(t, 0) + 1
    patterns = [_DIGITS.sub("0", t.lower()) for t in texts]  # "Item 1", "Item 2": one pattern
    seen_pattern: dict[str, int] = {}
    for t in patterns:
        seen_pattern[t] = seen_pattern.get(t, 0) + 1
    cum = np.cumsum(chars) - chars
    total = max(float(chars.sum()), 1.0)
    cols: dict[str, Any] = {
        "text": texts,
        "tag": np.fromiter((_tag_code(el) for el in rows_el), dtype=np.int32, count=n),
        "heading": np.fromiter(((el.tag if isinstance(el.tag, str) else "") in HEADING_TAGS for el in rows_el), dtype=np.int8, count=n),
        "depth": np.fromiter((f[0] for f in facts), dtype=np.float64, count=n),
        "chars": chars,
        "words": n_words,
        "link_share": np.minimum(np.asarray(linked, dtype=np.float64) / np.maximum(chars, 1.0), 1.0),
        "sentence_ends": np.fromiter((len(_SENTENCE_END.findall(t)) for t in texts), dtype=np.float64, count=n),
        "ends_sentence": np.fromiter((ends_sentence(t) for t in texts), dtype=np.int8, count=n),
        "function_share": np.fromiter((stop_share(w, FUNCTION_WORDS) if w else 0.0 for w in block_words),
                                      dtype=np.float64, count=n),
        "digit_share": np.fromiter((len(_DIGIT.findall(t)) / len(t) for t in texts), dtype=np.float64, count=n),
        "repeats": np.fromiter((seen[t] - 1 for t in texts), dtype=np.float64, count=n),
        "pattern_repeats": np.fromiter((seen_pattern[t] - 1 for t in patterns), dtype=np.float64, count=n),
        "position": np.arange(n, dtype=np.float64) / max(n - 1, 1),
        "char_position": cum / total,
        "in_body": in_body,
        "in_recall": in_recall,
    }
    own = np.fromiter((f[1] for f in facts), dtype=np.int64, count=n)
    above = np.fromiter((f[2] for f in facts), dtype=np.int64, count=n)
    ancestry = np.fromiter((f[3] for f in facts), dtype=np.int64, count=n)
    for i, name in enumerate(CLASS_TOKENS):
        cols[f"own_{name}"] = ((own >> i) & 1).astype(np.int8)
        cols[f"above_{name}"] = ((above >> i) & 1).astype(np.int8)
    for i, name in enumerate(ANCESTORS):
        cols[f"in_{name}"] = ((ancestry >> i) & 1).astype(np.int8)
    cols.update(_context(in_body, in_recall, chars, cols["link_share"], container))
    sequence = sequence_context(chars, cols["link_share"], cols["tag"], in_body)
    cols.update(sequence)
    cols.update(topic := topic_fit(texts, body, in_body, cols["tag"]))
    cols["list_group"] = list_groups(owner_ids)
    cols["row_group"] = list_groups([_row_owner(el, f[3]) for el, f in zip(rows_el, facts)])
    cols.update(list_context(cols["list_group"], in_body, chars, topic["topic_fit"], sequence["body_gap_before"],
                             sequence["body_gap_after"]))
    return pl.DataFrame(cols)


def _context(in_body: np.ndarray, in_recall: np.ndarray, chars: np.ndarray, link_share: np.ndarray,
             container: np.ndarray) -> dict[str, np.ndarray]:
    """Where a block sits against trafilatura's choice: its neighbours' membership, whether it lies
    between the first and the last block of the body, how far from the nearest body block, and the
    body share of the characters of its container (the element holding its element)."""
    n = len(in_body)
    out: dict[str, np.ndarray] = {}
    padded = np.concatenate([np.full(CONTEXT, -1.0), in_body, np.full(CONTEXT, -1.0)])
    for k in range(1, CONTEXT + 1):
        out[f"prev{k}_in_body"] = padded[CONTEXT - k:CONTEXT - k + n]
        out[f"next{k}_in_body"] = padded[CONTEXT + k:CONTEXT + k + n]
    member = np.flatnonzero(in_body >= 0.5)
    index = np.arange(n)
    if len(member):
        out["inside_body_span"] = ((index >= member[0]) & (index <= member[-1])).astype(np.int8)
        nearest = np.searchsorted(member, index)
        before = np.abs(index - member[np.maximum(nearest - 1, 0)])
        after = np.abs(member[np.minimum(nearest, len(member) - 1)] - index)
        out["body_distance"] = np.minimum(before, after).astype(np.float64)
    else:
        out["inside_body_span"] = np.zeros(n, dtype=np.int8)
        out["body_distance"] = np.full(n, float(n))
    recall_member = np.flatnonzero(in_recall >= 0.5)
    out["inside_recall_span"] = (((index >= recall_member[0]) & (index <= recall_member[-1])).astype(np.int8)
                                 if len(recall_member) else np.zeros(n, dtype=np.int8))
    body_sums = np.concatenate([[0.0], np.cumsum(in_body * chars)])
    char_sums = np.concatenate([[0.0], np.cumsum(chars)])
    for width in WINDOWS:  # the body share of the characters around the block (itself included)
        lo, hi = np.maximum(index - width, 0), np.minimum(index + width + 1, n)
        out[f"near{width}_in_body"] = (body_sums[hi] - body_sums[lo]) / np.maximum(char_sums[hi] - char_sums[lo], 1.0)
    span_chars = np.cumsum(chars) - chars  # characters before the block
    if len(member):  # characters between the block and the body's span, before it (< 0) or after it (> 0)
        start, end = span_chars[member[0]], span_chars[member[-1]] + chars[member[-1]]
        gap = np.where(span_chars < start, span_chars + chars - start, np.where(span_chars >= end, span_chars - end, 0.0))
        out["span_gap"] = gap / max(float((in_body * chars).sum()), 1.0)
    else:
        out["span_gap"] = np.zeros(n)
    body_chars = float((in_body * chars).sum())
    out["page_body_share"] = np.full(n, body_chars / max(float(chars.sum()), 1.0))
    if n:
        _, group, counts = np.unique(container, return_inverse=True, return_counts=True)
        group_chars = np.bincount(group, weights=chars)
        group_body = np.bincount(group, weights=in_body * chars)
        group_links = np.bincount(group, weights=link_share * chars)
        out["container_in_body"] = group_body[group] / np.maximum(group_chars[group], 1.0)
        out["container_link_share"] = group_links[group] / np.maximum(group_chars[group], 1.0)
        out["container_blocks"] = counts[group].astype(np.float64)
    else:
        out["container_in_body"] = out["container_link_share"] = out["container_blocks"] = np.zeros(0)
    return out


LIST_TAGS = frozenset(("ul", "ol", "dl", "table"))


class _ListOwners:
    """Per element, its innermost enclosing list or table (LIST_TAGS; itself if it is one), None
    outside any, memoised along the ancestor chain."""

    def __init__(self) -> None:
        self.known: dict[Any, Any] = {}

    def of(self, el):
        chain = []
        node = el
        while node is not None and node not in self.known:
            if isinstance(node.tag, str) and node.tag in LIST_TAGS:
                break
            chain.append(node)
            node = node.getparent()
        owner = None if node is None else (self.known[node] if node in self.known else node)
        for seen in chain:
            self.known[seen] = owner
        return owner


_IN_TABLE = 1 << ANCESTORS.index("table")


def _row_owner(el, ancestry: int) -> int:
    """A key of the table row (<tr>, itself or its nearest ancestor) a block lies in, 0 outside any:
    the cells of one row are written as one line (newsclean.cleaners.page_body)."""
    if not ancestry & _IN_TABLE and el.tag != "tr":
        return 0
    node = el
    while node is not None and node.tag != "table":
        if node.tag == "tr":
            return id(node)
        node = node.getparent()
    return 0


def list_groups(owner_ids: list[int]) -> np.ndarray:
    """Per block, the index of the first block of its list or table (blocks with one owner, by any
    key; 0 for none), -1 outside any."""
    first: dict[int, int] = {}
    return np.fromiter((-1 if key == 0 else first.setdefault(key, i) for i, key in enumerate(owner_ids)),
                       dtype=np.int64, count=len(owner_ids))


def list_context(group: np.ndarray, in_body: np.ndarray, chars: np.ndarray, topic: np.ndarray,
                 gap_before: np.ndarray, gap_after: np.ndarray) -> dict[str, np.ndarray]:
    """A list's or table's items decided together: per block in one (list_groups), the body share
    of its characters, its blocks, its mean topic fit (by characters, blocks without content words
    left out), and how far trafilatura's body is before its first block and after its last
    (sequence_context's log gaps); -1 outside any list."""
    n = len(group)
    names = ("list_in_body", "list_blocks", "list_topic_fit", "list_gap_before", "list_gap_after")
    out = {name: np.full(n, -1.0) for name in names}
    inside = np.flatnonzero(group >= 0)
    if not len(inside):
        return out
    key = group[inside]
    _, g = np.unique(key, return_inverse=True)
    c = chars[inside]
    fitted = topic[inside] >= 0
    size = np.bincount(g, weights=c)
    out["list_in_body"][inside] = (np.bincount(g, weights=in_body[inside] * c) / np.maximum(size, 1.0))[g]
    out["list_blocks"][inside] = np.bincount(g)[g].astype(np.float64)
    fit_chars = np.bincount(g, weights=c * fitted)
    out["list_topic_fit"][inside] = np.where(fit_chars[g] > 0, (np.bincount(g, weights=np.where(fitted, topic[inside] * c, 0.0))
                                                                / np.maximum(fit_chars, 1.0))[g], -1.0)
    last = np.zeros(g.max() + 1, dtype=np.int64)
    np.maximum.at(last, g, inside)
    out["list_gap_before"][inside] = gap_before[key]
    out["list_gap_after"][inside] = gap_after[last[g]]
    return out


SEQUENCE = 3  # blocks on each side whose size and link share are features
TOPIC_WINDOW = 3  # blocks on each side whose content words make near_topic_fit


def sequence_context(chars: np.ndarray, link_share: np.ndarray, tag: np.ndarray, in_body: np.ndarray) -> dict[str, np.ndarray]:
    """The run a block sits in: the size (log characters) and link share of the SEQUENCE blocks on
    each side (-1 past the page's ends), the characters between it and the nearest block of
    trafilatura's body before and after it (log; -1 when there is none), the share of the body's
    characters before it, and the run of blocks with its tag around it (its length and the body
    share of its characters: a list's items together)."""
    n = len(chars)
    out: dict[str, np.ndarray] = {}
    size = np.log1p(chars)
    for k in range(1, SEQUENCE + 1):
        for name, values in (("chars", size), ("link", link_share)):
            pad = np.concatenate([np.full(k, -1.0), values, np.full(k, -1.0)])
            out[f"prev{k}_{name}"] = pad[:n]
            out[f"next{k}_{name}"] = pad[2 * k:]
    member = in_body >= 0.5
    before_end = np.cumsum(chars)  # characters up to the block's end
    start = before_end - chars
    index = np.arange(n)
    # the last body block before each block and the first after it (-1 and n for none); every
    # array here is empty on a page without blocks
    last = np.maximum.accumulate(np.where(member, index, -1))
    shifted = np.concatenate([[-1], last])[:n]
    first_after = np.minimum.accumulate(np.where(member, index, n)[::-1])[::-1]
    following = np.append(first_after, n)[1:]
    gap_before = np.where(shifted >= 0, start - before_end[np.maximum(shifted, 0)], -1.0)
    gap_after = np.where(following < n, start[np.minimum(following, max(n - 1, 0))] - before_end, -1.0)
    out["body_gap_before"] = np.where(gap_before >= 0, np.log1p(np.maximum(gap_before, 0)), -1.0)
    out["body_gap_after"] = np.where(gap_after >= 0, np.log1p(np.maximum(gap_after, 0)), -1.0)
    body_chars = in_body * chars
    total_body = max(float(body_chars.sum()), 1.0)
    out["body_before_share"] = (np.cumsum(body_chars) - body_chars) / total_body
    out["body_chars"] = np.full(n, np.log1p(float(body_chars.sum())))
    out["page_chars"] = np.full(n, np.log1p(float(chars.sum())))
    # runs of consecutive blocks with one tag
    run_id = np.concatenate([[0], np.cumsum(tag[1:] != tag[:-1])])[:n].astype(np.int64)
    run_chars = np.bincount(run_id, weights=chars)
    out["tag_run_blocks"] = np.bincount(run_id).astype(np.float64)[run_id]
    out["tag_run_in_body"] = np.bincount(run_id, weights=body_chars)[run_id] / np.maximum(run_chars[run_id], 1.0)
    return out


def topic_fit(texts: list[str], body: str, in_body: np.ndarray, tag: np.ndarray) -> dict[str, np.ndarray]:
    """How much a block is about what the page is about: the share of its content words
    (shape.content_words) that trafilatura's body holds elsewhere (the block's own words taken out
    of the body where the body holds it), the same over the blocks around it (TOPIC_WINDOW on each
    side, by content words), and the share of its content words in the page's first <h1>."""
    n = len(texts)
    block_words = [content_of(words(t)) for t in texts]  # page_blocks asked for words(t): memoised
    sizes = np.fromiter(map(len, block_words), dtype=np.int64, count=n)
    # every content word of every block as one table: its block and its id in the page's vocabulary
    vocabulary: dict[str, int] = {}
    ids = np.fromiter((vocabulary.setdefault(w, len(vocabulary)) for ws in block_words for w in ws),
                      dtype=np.int64, count=int(sizes.sum()))
    block = np.repeat(np.arange(n, dtype=np.int64), sizes)
    in_vocabulary = [vocabulary[w] for w in content_words(body) if w in vocabulary]
    body_counts = np.bincount(np.asarray(in_vocabulary, dtype=np.int64), minlength=len(vocabulary))
    # a word of a block in the body is held "elsewhere" only beyond the block's own copies of it
    _, pair, pair_counts = np.unique(block * max(len(vocabulary), 1) + ids, return_inverse=True, return_counts=True)
    own = np.where(in_body[block] >= 0.5, pair_counts[pair], 0)
    hits = np.bincount(block, weights=body_counts[ids] - own > 0, minlength=n)
    h1 = TAGS.index("h1")
    first_h1 = next((i for i in range(n) if tag[i] == h1), None)
    heading = np.zeros(len(vocabulary), dtype=bool)
    if first_h1 is not None:
        heading[ids[block == first_h1]] = True
    in_heading = np.bincount(block, weights=heading[ids], minlength=n)
    if first_h1 is not None:
        in_heading[first_h1] = sizes[first_h1]
    sizes = sizes.astype(np.float64)
    out = {"topic_fit": np.where(sizes > 0, hits / np.maximum(sizes, 1.0), -1.0),
           "heading_fit": np.where(sizes > 0, in_heading / np.maximum(sizes, 1.0), -1.0)}
    hit_sums = np.concatenate([[0.0], np.cumsum(hits)])
    size_sums = np.concatenate([[0.0], np.cumsum(sizes)])
    index = np.arange(n)
    lo, hi = np.maximum(index - TOPIC_WINDOW, 0), np.minimum(index + TOPIC_WINDOW + 1, n)
    window = size_sums[hi] - size_sums[lo]
    out["near_topic_fit"] = np.where(window > 0, (hit_sums[hi] - hit_sums[lo]) / np.maximum(window, 1.0), -1.0)
    return out


def thread_opener(texts: list[str], in_body: np.ndarray) -> int | None:
    """The block where a reader thread opens below the article: the first comments header
    (newsclean.cleaners.rules.navigation.is_comments_header: "10 comments:", "124 Comments"; a reply
    form's title opens none) below the first block of trafilatura's body; None when there is none."""
    from newsclean.cleaners.rules.navigation import is_comments_header

    member = np.flatnonzero(in_body >= 0.5)
    if not len(member):
        return None
    return next((i for i in range(int(member[0]) + 1, len(texts)) if is_comments_header(texts[i])), None)


FEATURES_EXCLUDED = ("text", "list_group", "row_group")


def feature_names(table: pl.DataFrame) -> list[str]:
    """The table's numeric feature columns (every column but the text)."""
    return [c for c in table.columns if c not in FEATURES_EXCLUDED]


def recall_body(tree, url: str | None = None) -> str:
    """extract_html.recall_mode_body (as extract_html asks for it when the balanced body is under
    half the page) under the same gates."""
    from newsclean.cleaners import readability_gate, xpath_gate

    with readability_gate.gated(), xpath_gate.gated():
        return recall_mode_body(tree, url)
