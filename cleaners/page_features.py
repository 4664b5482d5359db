"""What kind of page a parsed HTML page is, as numbers: its markup, its URL and its extracted body.

newsclean.cleaners.page_kind reads these to tell an article from a listing of teasers, a forum
thread, a product or service page, a shop's category page or a documentation page. The signals are
generic, the kind of thing any site's markup states about itself:

- what the page declares: og:type, the JSON-LD and microdata types (NewsArticle, Product,
  DiscussionForumPosting, CollectionPage, ItemList...), article:published_time;
- its structure: how many <article>, <time>, headings that are links (teasers), list items, forms
  and buttons it has, the largest run of sibling blocks of one tag and class (the cards of a
  listing, the posts of a thread), the share of its text inside links, headings and table cells,
  and the share of links in its largest <main> or <article>;
- the class and id tokens of its elements (price, cart, comment, reply, card, teaser, toc...);
- its URL's shape (path depth, a slug, a date, /forum/, /product/, /tag/, /docs/...);
- how much of the page's text trafilatura takes as the body, and that body's shape (how many of
  its lines are headline-shaped, as a listing's teasers are).

One pass over the tree (plus XPaths for the link, heading and cell text), cheap beside the extraction itself:
extract_html computes them from the tree it already parsed and carries them on HtmlExtraction.
Counts are raw (the model's trees need no scaling, and a reason can quote them).
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Collection
from urllib.parse import urlsplit

from lxml import etree

from newsclean.cleaners.shape import is_headline_shaped

# JSON-LD and microdata types, by what they say the page is
_TYPE_GROUPS = {
    "article": {"article", "newsarticle", "blogposting", "reportagenewsarticle", "analysisnewsarticle",
                "opinionnewsarticle", "backgroundnewsarticle", "reviewnewsarticle", "liveblogposting",
                "socialmediaposting", "report", "scholarlyarticle", "posting"},
    "product": {"product", "offer", "aggregateoffer", "productgroup", "individualproduct", "productmodel",
                "offershippingdetails", "merchantreturnpolicy"},
    "rating": {"aggregaterating", "review", "rating"},
    "forum": {"discussionforumposting", "qapage", "question", "answer", "comment"},
    "collection": {"collectionpage", "itemlist", "searchresultspage", "offercatalog", "listitem"},
    "doc": {"techarticle", "howto", "faqpage", "apireference", "course", "softwaresourcecode", "softwareapplication"},
    "service": {"service", "localbusiness", "professionalservice", "organization", "contactpage", "aboutpage",
                "educationalorganization", "corporation", "store", "event", "place", "postaladdress"},
    "webpage": {"webpage", "itempage", "profilepage"},
}
# class and id tokens, by what they usually mark
_CLASS_GROUPS = {
    "post": {"post", "posts", "comment", "comments", "reply", "replies", "message", "messages", "answer", "answers",
             "thread", "threads", "topic", "forum", "discussion", "vote", "votes", "avatar", "username", "userinfo",
             "signature", "postbody", "quote", "member", "user", "reactions", "likes"},
    "shop": {"price", "prices", "cart", "basket", "checkout", "sku", "product", "products", "quantity", "qty",
             "variant", "variants", "swatch", "swatches", "stock", "wishlist", "shipping", "buy", "purchase", "bag",
             "rating", "stars", "reviews", "sale", "discount"},
    "teaser": {"card", "cards", "teaser", "teasers", "tile", "tiles", "grid", "item", "items", "listing", "feed",
               "excerpt", "summary", "river", "stream", "promo", "pagination", "pager", "more", "thumbnail", "thumb"},
    "article": {"article", "story", "byline", "author", "dateline", "headline", "entry", "share", "related",
                "caption", "published", "timestamp", "date"},
    "doc": {"toc", "docs", "doc", "documentation", "code", "highlight", "syntax", "api", "wiki", "edit", "version",
            "sidebar", "breadcrumb", "breadcrumbs", "menu", "chapter", "section", "anchor", "permalink", "hljs"},
    "service": {"cta", "hero", "testimonial", "testimonials", "pricing", "plan", "plans", "contact", "quote", "form",
                "faq", "features", "feature", "benefits", "book", "booking", "schedule", "appointment", "banner"},
}
# URL path tokens, by what they usually mark
_URL_GROUPS = {
    "forum": {"forum", "forums", "thread", "threads", "topic", "topics", "community", "questions", "question",
              "discussion", "discussions", "viewtopic", "showthread", "board", "boards", "t", "r", "comments"},
    "product": {"product", "products", "p", "dp", "item", "shop", "store", "buy", "sku", "pd"},
    "listing": {"tag", "tags", "category", "categories", "c", "collections", "collection", "section", "archive",
                "archives", "search", "author", "authors", "page", "topic", "latest", "all", "list", "browse"},
    "doc": {"docs", "doc", "documentation", "wiki", "learn", "guide", "guides", "manual", "reference", "api",
            "help", "support", "kb", "tutorial", "tutorials", "faq", "howto", "knowledge"},
    "article": {"news", "article", "articles", "story", "stories", "blog", "blogs", "post", "posts", "opinion",
                "politics", "world", "sport", "sports", "business", "entertainment", "local", "health"},
    "service": {"services", "service", "solutions", "pricing", "plans", "contact", "about", "book", "booking",
                "programs", "program", "admissions", "careers", "locations", "rentals", "movers"},
}
_OG_TYPES = ("article", "product", "website")

FEATURE_NAMES: tuple[str, ...] = (
    *(f"og_{t}" for t in (*_OG_TYPES, "other", "none")),
    *(f"ld_{g}" for g in _TYPE_GROUPS),
    *(f"micro_{g}" for g in _TYPE_GROUPS),
    "meta_published", "meta_author", "meta_product", "meta_section", "rel_next",
    "n_tel_links", "n_mailto_links", "n_hash_links", "n_long_links", "long_link_chars_share", "n_input_fields",
    "n_option",
    "n_elements", "n_head", "n_article", "n_time", "n_h1", "n_h2", "n_h3", "n_h4", "n_linked_headings", "n_li", "n_a",
    "n_img", "n_p", "n_form", "n_input", "n_button", "n_select", "n_table", "n_pre", "n_code", "n_nav", "n_aside",
    "n_section", "n_footer", "n_blockquote", "n_dl",
    "itemprop_price", "itemprop_author", "itemprop_date", "itemprop_body", "itemprop_text", "itemprop_review",
    *(f"class_{g}" for g in _CLASS_GROUPS),
    *(f"class_{g}_share" for g in _CLASS_GROUPS),
    "repeat_max", "repeat_groups", "repeat_items", "repeat_post_max", "repeat_linked_max",
    "run_text_share", "run_text_items", "run_text_item_chars", "run_text_linked", "run_text_post",
    "p_long", "p_long_max_parent", "p_long_parent_share", "p_long_chars_share",
    "page_chars", "link_chars_share", "body_share", "body_chars", "body_lines", "body_words_per_line",
    "body_sentence_end_share", "body_short_share", "body_question_share", "body_currency", "body_digit_share",
    "title_words", "title_chars", "title_question", "title_digits", "title_in_body", "has_date", "has_author",
    "url_depth", "url_slug_words", "url_slug_chars", "url_date", "url_long_number", "url_query", "url_html",
    "url_root", *(f"url_{g}" for g in _URL_GROUPS),
    "heading_chars_share", "td_chars_share", "main_link_share", "body_headline_share",
)
INDEX = {name: i for i, name in enumerate(FEATURE_NAMES)}

_LD_TYPE = re.compile(r'"@type"\s*:\s*(\[[^\]]*\]|"[^"]*")')
_QUOTED = re.compile(r'"([^"]*)"')
_TOKEN = re.compile(r"[a-z]+")
_CURRENCY = re.compile(r"[$€£¥₹]\s?\d|\d(?:[.,]\d\d)?\s?(?:€|EUR|USD|GBP)\b")
_SENT_END = re.compile(r"[.!?…:;\"'”’)\]。！？]$")
_URL_DATE = re.compile(r"(?<!\d)(?:19|20)\d{2}[/_.-](?:0?[1-9]|1[0-2])(?:[/_.-]|$)|(?<!\d)(?:19|20)\d{6}(?!\d)")
_LONG_NUMBER = re.compile(r"\d{5,}")
_DIGIT = re.compile(r"\d")
_LINK_TEXT = etree.XPath("//body//a//text()")
_HEAD_TAGS = frozenset(("meta", "link", "script", "style", "base"))  # what a served page's <head> holds
HEADING_TAGS = frozenset(("h1", "h2", "h3", "h4", "h5", "h6"))
_COUNTED = {"article": "n_article", "time": "n_time", "h1": "n_h1", "h2": "n_h2", "h3": "n_h3", "h4": "n_h4",
            "li": "n_li", "a": "n_a", "img": "n_img", "p": "n_p", "form": "n_form", "input": "n_input",
            "button": "n_button", "select": "n_select", "table": "n_table", "pre": "n_pre", "code": "n_code",
            "nav": "n_nav", "aside": "n_aside", "section": "n_section", "footer": "n_footer",
            "blockquote": "n_blockquote", "dl": "n_dl"}
_ITEMPROPS = {"price": "itemprop_price", "pricecurrency": "itemprop_price", "offers": "itemprop_price",
              "author": "itemprop_author", "datepublished": "itemprop_date", "articlebody": "itemprop_body",
              "text": "itemprop_text", "review": "itemprop_review", "reviewbody": "itemprop_review"}
REPEAT_MIN = 3  # sibling blocks of one tag and class that count as a run (cards, posts, rows)
RUNS_MEASURED = 8  # the largest runs whose text is measured
LONG_LINK_WORDS = 6  # a link that reads as a headline (a teaser's), not a menu entry
P_LONG_CHARS = 150  # a paragraph of prose, not a caption or a teaser's line
_STRING = etree.XPath("string()")
_LINK_TEXT_IN = etree.XPath(".//a//text()")


def _nonspace(text: str) -> int:
    return len("".join(text.split()))


@lru_cache(maxsize=4096)
def _token_groups(value: str) -> frozenset[str]:
    """The _CLASS_GROUPS a class or id attribute's tokens fall in (pages repeat their classes)."""
    tokens = set(_TOKEN.findall(value.lower()))
    return frozenset(group for group, names in _CLASS_GROUPS.items() if tokens & names)


def _type_group(name: str) -> str | None:
    name = name.rsplit("/", 1)[-1].rsplit(":", 1)[-1].strip().lower()
    for group, names in _TYPE_GROUPS.items():
        if name in names:
            return group
    return None


def _url_features(url: str | None, f: list[float]) -> None:
    if not url:
        return
    try:
        parts = urlsplit(url if "//" in url else "//" + url)
    except ValueError:
        return
    segments = [s for s in parts.path.split("/") if s]
    last = segments[-1] if segments else ""
    stem = re.sub(r"\.(?:s?html?|php|aspx?|jsp)$", "", last.lower())
    f[INDEX["url_depth"]] = len(segments)
    f[INDEX["url_slug_words"]] = len([w for w in re.split(r"[-_+]|%20", stem) if w])
    f[INDEX["url_slug_chars"]] = len(stem)
    f[INDEX["url_date"]] = float(bool(_URL_DATE.search(parts.path)))
    f[INDEX["url_long_number"]] = float(bool(_LONG_NUMBER.search(parts.path)))
    f[INDEX["url_query"]] = float(bool(parts.query))
    f[INDEX["url_html"]] = float(last.lower().endswith((".html", ".htm", ".shtml", ".php", ".aspx", ".asp")))
    f[INDEX["url_root"]] = float(not segments)
    tokens = set(_TOKEN.findall(parts.path.lower()))
    for group, names in _URL_GROUPS.items():
        f[INDEX[f"url_{group}"]] = len(tokens & names)


def _body_features(body: str, page: int, f: list[float]) -> None:
    lines = [ln.strip() for ln in body.splitlines() if ln.strip()]
    chars = _nonspace(body)
    f[INDEX["body_chars"]] = chars
    f[INDEX["body_share"]] = chars / page if page else 0.0
    f[INDEX["body_lines"]] = len(lines)
    if not lines:
        return
    words = [len(ln.split()) for ln in lines]
    n = len(lines)
    f[INDEX["body_words_per_line"]] = sum(words) / n
    f[INDEX["body_sentence_end_share"]] = sum(bool(_SENT_END.search(ln)) for ln in lines) / n
    f[INDEX["body_short_share"]] = sum(w < 8 for w in words) / n
    f[INDEX["body_question_share"]] = sum(ln.endswith("?") for ln in lines) / n
    f[INDEX["body_currency"]] = len(_CURRENCY.findall(body))
    # headline-shaped lines: the titles of a listing's teasers or a shop's products, not prose
    f[INDEX["body_headline_share"]] = sum(map(is_headline_shaped, lines)) / n
    f[INDEX["body_digit_share"]] = len(_DIGIT.findall(body)) / max(1, chars)


def _run_text(runs: list[list], page: int, f: list[float]) -> None:
    """The run of sibling blocks that holds the most text (of the RUNS_MEASURED largest): the posts
    of a thread, the teasers of a listing, the products of a category page."""
    best = None
    for count, linked, post, items in sorted(runs, key=lambda r: -r[0])[:RUNS_MEASURED]:
        chars = [_nonspace(_STRING(el)) for el in items]
        total = sum(chars)
        if best is None or total > best[0]:
            best = (total, count, sorted(chars)[len(chars) // 2], linked, post)
    if best is None or not page:
        return
    total, count, median, linked, post = best
    f[INDEX["run_text_share"]] = min(1.0, total / page)
    f[INDEX["run_text_items"]] = count
    f[INDEX["run_text_item_chars"]] = median
    f[INDEX["run_text_linked"]] = float(linked)
    f[INDEX["run_text_post"]] = float(post)


def _paragraphs(paragraphs: list, page: int, f: list[float]) -> None:
    """Paragraphs of prose (P_LONG_CHARS or more) and how many share one parent: an article's are
    together in its body, a thread's are spread over its posts."""
    by_parent: dict = {}
    chars = 0
    for el in paragraphs:
        n = _nonspace(_STRING(el))
        if n >= P_LONG_CHARS:
            chars += n
            parent = el.getparent()
            by_parent[parent] = by_parent.get(parent, 0) + 1
    long = sum(by_parent.values())
    f[INDEX["p_long"]] = long
    if long:
        top = max(by_parent.values())
        f[INDEX["p_long_max_parent"]] = top
        f[INDEX["p_long_parent_share"]] = top / long
        f[INDEX["p_long_chars_share"]] = min(1.0, chars / page) if page else 0.0


def _text_chars(nodes: list[str]) -> int:
    """Non-space characters of text nodes (joined: one count, not one per node)."""
    return _nonspace("".join(nodes))


def _outer_chars(elements: list, tags: Collection[str]) -> int:
    """Non-space characters of the text of `elements`, each of tags `tags`, but those inside
    another of them (a table in a table's cell), whose text the outer one already holds."""
    return sum(_nonspace(_STRING(el)) for el in elements if next(el.iterancestors(*tags), None) is None)


def _text_blocks(mains: list, headings: list, cells: list, page: int, f: list[float]) -> None:
    """The share of the page's text in headings (a listing's teasers and a service page's sections
    are mostly headings) and in table cells (specifications, prices, a forum's or a reference's
    tables), and the share of links in the text of the largest <main> or <article> (an article's
    is prose; a listing's main block is its teasers' links)."""
    if not page:
        return
    f[INDEX["heading_chars_share"]] = min(1.0, _outer_chars(headings, HEADING_TAGS) / page)
    f[INDEX["td_chars_share"]] = min(1.0, _outer_chars(cells, ("td",)) / page)
    main, chars = None, 0
    for el in mains:
        n = _nonspace(_STRING(el))
        if n > chars:
            main, chars = el, n
    if main is not None:
        f[INDEX["main_link_share"]] = min(1.0, _text_chars(_LINK_TEXT_IN(main)) / chars)


def _title_features(title: str | None, body: str, f: list[float]) -> None:
    if not title:
        return
    words = title.split()
    f[INDEX["title_words"]] = len(words)
    f[INDEX["title_chars"]] = len(title)
    f[INDEX["title_question"]] = float(title.rstrip().endswith("?"))
    f[INDEX["title_digits"]] = float(any(c.isdigit() for c in title))
    f[INDEX["title_in_body"]] = float(" ".join(words[:6]) in " ".join(body[:3000].split()))


def page_features(tree, url: str | None, body: str, page: int, *, title: str | None = None,
                  dated: bool = False, authored: bool = False) -> tuple[float, ...]:
    """The FEATURE_NAMES of a parsed page (extract_html's tree), its URL, trafilatura's body, the
    page's visible text size in non-space characters (extract_html.page_chars), its headline, and
    whether a publication date and an author were found in it."""
    f = [0.0] * len(FEATURE_NAMES)
    f[INDEX["has_date"]] = float(dated)
    f[INDEX["has_author"]] = float(authored)
    _title_features(title, body, f)
    root = tree.getroottree().getroot()
    og = None
    ld: set[str] = set()
    micro: set[str] = set()
    classes = {g: 0 for g in _CLASS_GROUPS}
    runs: dict[tuple, list] = {}  # (parent, tag, class) -> [count, has link, post-like, elements]
    paragraphs: list = []
    mains: list = []  # the <main> and <article> elements
    headings: list = []
    cells: list = []  # <td>
    long_link_chars = 0
    n = 0
    for el in root.iter(etree.Element):
        tag = el.tag
        n += 1
        if tag in _HEAD_TAGS:
            f[INDEX["n_head"]] += 1
        if tag == "meta":
            prop = (el.get("property") or el.get("name") or "").lower()
            if prop == "og:type" and og is None:
                og = (el.get("content") or "").strip().lower()
            elif prop in ("article:published_time", "datepublished", "pubdate", "publish-date", "parsely-pub-date"):
                f[INDEX["meta_published"]] = 1.0
            elif prop in ("author", "article:author", "parsely-author"):
                f[INDEX["meta_author"]] = 1.0
            elif prop.startswith(("product:", "og:price")):
                f[INDEX["meta_product"]] = 1.0
            elif prop in ("article:section", "article:tag", "news_keywords"):
                f[INDEX["meta_section"]] = 1.0
            continue
        if tag == "script":
            if (el.get("type") or "").lower() == "application/ld+json" and el.text:
                for m in _LD_TYPE.finditer(el.text):
                    ld.update(_QUOTED.findall(m.group(1)))
            continue
        if tag == "link":
            if (el.get("rel") or "").lower() == "next":
                f[INDEX["rel_next"]] = 1.0
            continue
        key = _COUNTED.get(tag)
        if key is not None:
            f[INDEX[key]] += 1
        if tag == "a":
            href = (el.get("href") or "").strip().lower()
            if href.startswith("tel:"):
                f[INDEX["n_tel_links"]] += 1
            elif href.startswith("mailto:"):
                f[INDEX["n_mailto_links"]] += 1
            elif href.startswith("#") and len(href) > 1:
                f[INDEX["n_hash_links"]] += 1
            text = _STRING(el)
            if len(text.split()) >= LONG_LINK_WORDS:
                f[INDEX["n_long_links"]] += 1
                long_link_chars += _nonspace(text)
        elif tag == "input":
            if (el.get("type") or "text").lower() in ("text", "email", "tel", "number", "date"):
                f[INDEX["n_input_fields"]] += 1
        elif tag == "option":
            f[INDEX["n_option"]] += 1
        if tag in HEADING_TAGS:
            headings.append(el)
            if tag != "h1" and (next(el.iter("a"), None) is not None or next(el.iterancestors("a"), None) is not None):
                f[INDEX["n_linked_headings"]] += 1
        elif tag == "td":
            cells.append(el)
        itemtype = el.get("itemtype")
        if itemtype:
            micro.update(itemtype.split())
        itemprop = el.get("itemprop")
        if itemprop:
            for prop in itemprop.lower().split():
                if prop in _ITEMPROPS:
                    f[INDEX[_ITEMPROPS[prop]]] += 1
        cls = el.get("class")
        ident = el.get("id")
        if cls or ident:
            groups = _token_groups(cls) if cls else frozenset()
            if ident:
                groups |= _token_groups(ident)
            for group in groups:
                classes[group] += 1
            if cls:
                parent = el.getparent()
                run = runs.setdefault((parent, tag, cls), [0, False, "post" in groups, []])
                run[0] += 1
                run[3].append(el)
                if not run[1] and (tag == "a" or next(el.iter("a"), None) is not None):
                    run[1] = True
        if tag == "p":
            paragraphs.append(el)
        elif tag == "main" or tag == "article":
            mains.append(el)
    f[INDEX["n_elements"]] = n
    if og is None:
        f[INDEX["og_none"]] = 1.0
    elif og in _OG_TYPES:
        f[INDEX[f"og_{og}"]] = 1.0
    else:
        f[INDEX["og_other"]] = 1.0
    for prefix, names in (("ld", ld), ("micro", micro)):
        for name in names:
            group = _type_group(name)
            if group is not None:
                f[INDEX[f"{prefix}_{group}"]] = 1.0
    for group, count in classes.items():
        f[INDEX[f"class_{group}"]] = count
        f[INDEX[f"class_{group}_share"]] = count / n if n else 0.0
    sizes = [r for r in runs.values() if r[0] >= REPEAT_MIN]
    f[INDEX["repeat_max"]] = max((r[0] for r in sizes), default=0)
    f[INDEX["repeat_groups"]] = len(sizes)
    f[INDEX["repeat_items"]] = sum(r[0] for r in sizes)
    f[INDEX["repeat_post_max"]] = max((r[0] for r in sizes if r[2]), default=0)
    f[INDEX["repeat_linked_max"]] = max((r[0] for r in sizes if r[1]), default=0)
    _run_text(sizes, page, f)
    _paragraphs(paragraphs, page, f)
    f[INDEX["page_chars"]] = page
    link_chars = _text_chars(_LINK_TEXT(tree))
    f[INDEX["link_chars_share"]] = min(1.0, link_chars / page) if page else 0.0
    f[INDEX["long_link_chars_share"]] = min(1.0, long_link_chars / page) if page else 0.0
    _text_blocks(mains, headings, cells, page, f)
    _body_features(body, page, f)
    _url_features(url, f)
    return tuple(float(v) for v in f)


def feature(values: tuple[float, ...], name: str) -> float:
    """One named value of page_features' tuple."""
    return values[INDEX[name]]
