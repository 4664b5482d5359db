"""An HTML page's headline, chosen by a learned ranker among everything the page states as one.

A page states its headline several times, each copy with its own noise: the <h1>s (one may be the
site's name, a section label or a teaser's), <h2>s inside <article> or <header> (the headline on
some templates, a subheading or a "Related" box on most), og:title and twitter:title (often an SEO
wording), JSON-LD's headline and name, <title> ("Headline | Site", "Site - Section - Headline")
and trafilatura's title. Each is a candidate, and so is each piece of a title split at its
separators and a meta title without its site label (strip_site_suffix). Copies that read the same
when folded as titles are compared (newsclean.cleaners.corpus.fold_title) are one candidate
that records all its sources.

Each candidate is described by evidence that holds on any site (FEATURES): which sources state it,
how many agree with it or contain it, its likeness to the <h1>, to og:title and to <title>, its
place in <title>, its overlap with the URL's slug, its length, whether it names the site or ends
in a label (newsclean.cleaners.titles.label_cut), where its heading sits in the page. A LightGBM
booster (files/title_ranker.lgb.txt, LightGBM's text format: loading it runs no code) scores each
candidate, and the highest score is the headline (the first stated on a tie).
`python -m newsclean.cleaners.metadata.train_title_ranker` rebuilds the file from the development
pages, and prints its accuracy cross-validated by site.
"""
from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Sequence

import numpy as np

from newsclean.cleaners.corpus import fold_title
from newsclean.cleaners.metadata.jsonld import jsonld_blocks
from newsclean.cleaners.metadata.urls import slug_words
from newsclean.cleaners.shape import fold
from newsclean.cleaners.titles import headline_text, label_cut

MODEL_FILE = Path(__file__).resolve().parent / "files" / "title_ranker.lgb.txt"
MAX_WORDS = 40  # a longer "headline" is a paragraph
MAX_H2 = 4  # <h2>s inside <article>/<header> taken as candidates, in page order
MAX_JSONLD_NODES = 200  # objects of one JSON-LD block looked into
META_SOURCES = ("og", "twitter", "title", "jsonld_headline", "jsonld_name", "trafilatura")
PIECE_SOURCES = ("piece_first", "piece_middle", "piece_last", "piece_head", "piece_tail")
SOURCES = ("h1", "h2", *META_SOURCES, *PIECE_SOURCES, "stripped")
# the form a candidate's text takes when several sources state it: the displayed heading first
_FORM_ORDER = {s: k for k, s in enumerate(("h1", "jsonld_headline", "og", "twitter", "h2", "trafilatura", "jsonld_name",
                                           "title", "stripped", "piece_head", "piece_first", "piece_tail",
                                           "piece_last", "piece_middle"))}
HEADING_FIELDS = ("in_article", "in_header", "in_main", "in_aside", "in_link", "marked", "order", "last")
_ARTICLE_TYPE = re.compile(r"article|posting|report|blog|news", re.I)
_TITLE_CLASS = re.compile(r"headline|title", re.I)
# separators a title's parts are joined with ("Headline | Site", "Site - Section - Headline", "Site: Headline")
_PIECE_SEP = re.compile(r"\s+(?:\|{1,2}|[-–—•·»/~]|::)\s+|:\s+")
_SUFFIX_SEP = re.compile(r"\s+[|–—•·»:-]\s+|\s+-\s+")
_DIGIT = re.compile(r"\d")


@dataclass(frozen=True)
class PageTitles:
    """What a page states about its headline (page_titles_evidence)."""

    # (source "h1" or "h2", text, HEADING_FIELDS values), in page order, <h1>s first
    headings: tuple[tuple[str, str, tuple[float, ...]], ...] = ()
    # (source in META_SOURCES, text as the page has it): og, twitter and <title> first (each the
    # page's first), then JSON-LD's, then trafilatura's title
    metas: tuple[tuple[str, str], ...] = ()
    sitename: str | None = None  # trafilatura's site name
    host: str | None = None  # trafilatura's host name of the page's URL

    def texts(self, *sources: str) -> list[str]:
        """The statements of these sources, headings then metas, in order."""
        return [t for s, t, _ in self.headings if s in sources] + [t for s, t in self.metas if s in sources]


@dataclass
class Candidate:
    """One headline text and everything that states it."""

    text: str
    key: str  # fold_title(text)
    sources: set[str] = field(default_factory=set)
    heading: tuple[float, ...] = ()  # HEADING_FIELDS of the first heading that states it
    cuts: set[str] = field(default_factory=set)  # the separators it was cut from a longer statement at


def _clean(text: str | None) -> str:
    return " ".join((text or "").split())


def _jsonld_titles(data) -> list[tuple[str, str]]:
    """(source, text) of the headline and name of a parsed JSON-LD block's article-like objects."""
    out: list[tuple[str, str]] = []
    stack, seen = [data], 0
    while stack and seen < MAX_JSONLD_NODES:
        item = stack.pop()
        seen += 1
        if isinstance(item, list):
            stack.extend(reversed(item))
            continue
        if not isinstance(item, dict):
            continue
        kind = item.get("@type")
        kind = " ".join(k for k in kind if isinstance(k, str)) if isinstance(kind, list) else str(kind or "")
        if _ARTICLE_TYPE.search(kind):
            for key, source in (("headline", "jsonld_headline"), ("name", "jsonld_name")):
                value = item.get(key)
                if isinstance(value, str) and value.strip():  # CMSs often write it HTML-escaped
                    out.append((source, _clean(html.unescape(value))))
        for key in ("@graph", "mainEntity"):
            if isinstance(item.get(key), (dict, list)):
                stack.append(item[key])
    return out


def _ancestors(el) -> set[str]:
    return {a.tag for a in el.iterancestors() if isinstance(a.tag, str)}


def _heading_evidence(el, ancestors: set[str], order: int, count: int) -> tuple[float, ...]:
    in_link = "a" in ancestors or next(el.iter("a"), None) is not None
    marked = el.get("itemprop") == "headline" or bool(_TITLE_CLASS.search(el.get("class") or ""))
    return (float("article" in ancestors), float("header" in ancestors), float("main" in ancestors),
            float(bool(ancestors & {"aside", "nav", "footer"})), float(in_link), float(marked),
            float(order), float(order == count - 1))


def page_titles_evidence(tree, trafilatura_title: str | None = None, sitename: str | None = None,
                         host: str | None = None, jsonld: tuple | None = None) -> PageTitles:
    """The page's headline statements, from one pass over its elements: every <h1> inside <body>,
    the first MAX_H2 <h2>s inside an <article> or <header>; og:title, twitter:title and <title> as
    the XPaths //meta[@property="og:title"]/@content, //meta[@name="twitter:title"]/@content and
    //title give first; JSON-LD's headline and name of article-like objects (`jsonld`: the page's
    jsonld_blocks when the caller has them); trafilatura's title."""
    og = twitter = title = None
    jsonld_titles = [t for data in (jsonld_blocks(tree) if jsonld is None else jsonld) for t in _jsonld_titles(data)]
    h1s: list = []
    h2s: list = []
    for el in tree.getroottree().getroot().iter("meta", "title", "h1", "article", "header"):
        tag = el.tag
        if tag == "meta":
            if og is None and el.get("property") == "og:title" and el.get("content") is not None:
                og = el.get("content")
            if twitter is None and el.get("name") == "twitter:title" and el.get("content") is not None:
                twitter = el.get("content")
        elif tag == "title":
            title = _clean(el.text_content()) if title is None else title
        elif tag == "h1":
            ancestors = _ancestors(el)
            if "body" in ancestors:
                h1s.append((el, ancestors))
        elif len(h2s) < MAX_H2:  # an <article> or <header>: its <h2>s (a nested one's come again)
            for h2 in el.iter("h2"):
                if len(h2s) < MAX_H2 and not any(h2 is seen for seen, _ in h2s):
                    ancestors = _ancestors(h2)
                    if "body" in ancestors:
                        h2s.append((h2, ancestors))
    metas = [(s, t) for s, t in (("og", og), ("twitter", twitter), ("title", title)) if t is not None] + jsonld_titles
    if trafilatura_title:
        metas.append(("trafilatura", trafilatura_title))
    headings = [(source, _clean(el.text_content()), _heading_evidence(el, ancestors, k, len(found)))
                for source, found in (("h1", h1s), ("h2", h2s)) for k, (el, ancestors) in enumerate(found)]
    return PageTitles(tuple(headings), tuple(metas), sitename, host)


def _words(text: str | None) -> set[str]:
    return set(fold(text).split())


def strip_site_suffix(title: str, sitename: str | None, host: str | None) -> str:
    """'Headline | Site Name' -> 'Headline' when the last part names the site (or the host)."""
    parts = _SUFFIX_SEP.split(title)
    if len(parts) < 2:
        return title
    site_words = _words(sitename) | {w for w in re.split(r"[.-]", (host or "").lower()) if len(w) > 2}
    last = _words(parts[-1])
    if last and site_words and (last <= site_words or fold(parts[-1]).replace(" ", "") in (host or "").lower().replace("-", "")):
        head = title[: title.rfind(parts[-1])]
        return _SUFFIX_SEP.sub("", head[::-1], count=1)[::-1].strip() or title
    return title


def _cut_kind(separator: str) -> str:
    s = separator.strip()
    return "colon" if s == ":" else "pipe" if s in ("|", "||") else "dash" if s in ("-", "–", "—") else "other"


def _pieces(title: str) -> list[tuple[str, str, str]]:
    """(source, text, the kind of separator it was cut at) of a title's parts between separators;
    with three parts or more, also all but the last ("piece_head") and all but the first
    ("piece_tail"): a headline can hold a separator of its own ("Budget: what changes | Site")."""
    seps = list(_PIECE_SEP.finditer(title))
    if not seps:
        return []
    bounds = [0, *(x for m in seps for x in (m.start(), m.end())), len(title)]
    parts = [title[bounds[k]:bounds[k + 1]].strip() for k in range(0, len(bounds), 2)]
    kinds = [_cut_kind(m.group()) for m in seps]
    out = [("piece_first", parts[0], kinds[0]), ("piece_last", parts[-1], kinds[-1])]
    out += [("piece_middle", p, kinds[k]) for k, p in enumerate(parts[1:-1])]
    if len(parts) > 2:
        out += [("piece_head", title[:seps[-1].start()].strip(), kinds[-1]),
                ("piece_tail", title[seps[0].end():].strip(), kinds[0])]
    return [(s, p, k) for s, p, k in out if p]


def candidates(page: PageTitles) -> list[Candidate]:
    """The page's distinct headline candidates (folded as titles are compared), each with its
    sources, in the order first stated."""
    found: dict[str, Candidate] = {}

    def add(source: str, text: str, heading: tuple[float, ...] = (), cut: str | None = None) -> None:
        key = fold_title(text)
        if not key or len(key.split()) > MAX_WORDS:
            return
        c = found.get(key)
        if c is None:
            c = found[key] = Candidate(text, key)
        elif _FORM_ORDER[source] < min(_FORM_ORDER[s] for s in c.sources):
            c.text = text
        c.sources.add(source)
        if cut is not None:
            c.cuts.add(cut)
        if heading and not c.heading:  # the first heading that states it: <h1>s come first
            c.heading = heading

    statements = [(s, _clean(t), h) for s, t, h in page.headings] + [(s, _clean(t), ()) for s, t in page.metas]
    for source, text, heading in statements:
        add(source, text, heading)
    for source, text, _ in statements:
        if source == "h2":
            continue
        for piece_source, piece, cut in _pieces(text):
            add(piece_source, piece, cut=cut)
        stripped = strip_site_suffix(text, page.sitename, page.host)
        if stripped != text:
            add("stripped", stripped)
    return list(found.values())


def _site_words(sitename: str | None, host: str | None) -> set[str]:
    host = (host or "").lower().removeprefix("www.")
    labels = host.split(".")[:-1] if "." in host else [host]
    return (set(fold_title(sitename).split()) - {"the"}) | {w for lab in labels for w in re.split(r"[-_]", lab) if len(w) > 2}


def _spells(squashed: str, name: str) -> bool:
    """Whether a text without spaces spells a name: the same letters, or most of them from the start
    ("examplegazette" for example-gazette.com; "spiceai" and "spice" for spice.ai)."""
    short, long = sorted((squashed, name), key=len)
    return len(short) >= 3 and long.startswith(short) and len(short) >= 0.6 * len(long)


def _sim(a: set[str], b: set[str]) -> float:
    return len(a & b) / len(a | b) if a and b else 0.0


FEATURES = (
    *(f"src_{s}" for s in SOURCES), "n_sources", "n_meta_sources", "n_heading_sources",
    "n_meta_containing", "share_meta_containing", "n_meta_equal", "n_contained", "n_containing",
    "prefix_of_title", "suffix_of_title",
    "best_sim_other", "mean_sim_meta", "sim_h1", "sim_og", "sim_title",
    "slug_in_text", "text_in_slug", "slug_prefix_in_text",
    "words", "chars", "words_vs_longest", "words_vs_median",
    "site_share", "is_site", "spells_host", "names_site",
    *(f"h_{name}" for name in HEADING_FIELDS), "n_h1", "n_candidates",
    "upper_share", "all_upper", "ends_stop", "has_digit",
    "cut_colon", "cut_dash", "cut_pipe", "cut_other", "has_colon", "has_dash", "has_pipe", "label_outlet", "label_short",
    # against the page's best candidate by the same measure (0 for the best)
    "n_sources_vs_best", "n_meta_containing_vs_best", "slug_vs_best", "best_sim_vs_best",
)
FEATURE_INDEX = {name: k for k, name in enumerate(FEATURES)}
_VS_BEST = (("n_sources", "n_sources_vs_best"), ("n_meta_containing", "n_meta_containing_vs_best"),
            ("slug_in_text", "slug_vs_best"), ("best_sim_other", "best_sim_vs_best"))


def features(cands: Sequence[Candidate], page: PageTitles, url: str | None = None) -> np.ndarray:
    """The ranker's rows: one per candidate, FEATURES' columns."""
    if not cands:
        return np.zeros((0, len(FEATURES)))
    ix = FEATURE_INDEX
    meta_keys = [(s, k) for s, k in ((s, fold_title(t)) for s, t in page.metas) if k]
    title_key = next((k for s, k in meta_keys if s == "title"), "")
    og_key = next((k for s, k in meta_keys if s == "og"), "")
    h1_key = next((k for k in (fold_title(t) for s, t, _ in page.headings if s == "h1") if k), "")
    slug = slug_words(url)
    slug_pre = {w[:5] for w in slug}
    site = _site_words(page.sitename, page.host)
    host_name = (page.host or "").lower().removeprefix("www.").split(".")[0].replace("-", "")
    site_name = fold_title(page.sitename).replace(" ", "")
    meta_sets = [set(k.split()) for _, k in meta_keys]
    named_sets = [(name, set(key.split()) if key else None)
                  for name, key in (("sim_h1", h1_key), ("sim_og", og_key), ("sim_title", title_key))]
    word_sets = [set(c.key.split()) for c in cands]
    lengths = [float(len(c.key.split())) for c in cands]
    longest, median = max(lengths), float(np.median(lengths))
    n_h1 = sum(1 for s, _, _ in page.headings if s == "h1")
    rows = []
    for i, c in enumerate(cands):
        row = [0.0] * len(FEATURES)
        rows.append(row)
        for s in c.sources:
            row[ix[f"src_{s}"]] = 1.0
        row[ix["n_sources"]] = len(c.sources)
        row[ix["n_meta_sources"]] = len(c.sources.intersection(META_SOURCES))
        row[ix["n_heading_sources"]] = len(c.sources & {"h1", "h2"})
        padded = f" {c.key} "
        containing = sum(1 for _, k in meta_keys if padded in f" {k} ")
        row[ix["n_meta_containing"]] = containing
        row[ix["share_meta_containing"]] = containing / len(meta_keys) if meta_keys else 0.0
        row[ix["n_meta_equal"]] = sum(k == c.key for _, k in meta_keys)
        row[ix["n_contained"]] = sum(1 for j, o in enumerate(cands) if j != i and f" {o.key} " in padded)
        row[ix["n_containing"]] = sum(1 for j, o in enumerate(cands) if j != i and padded in f" {o.key} ")
        if title_key:
            row[ix["prefix_of_title"]] = float(title_key.startswith(c.key + " "))
            row[ix["suffix_of_title"]] = float(title_key.endswith(" " + c.key))
        ws = word_sets[i]
        row[ix["best_sim_other"]] = max((_sim(ws, word_sets[j]) for j in range(len(cands))
                                         if j != i and not cands[j].sources <= c.sources), default=0.0)
        row[ix["mean_sim_meta"]] = sum(_sim(ws, m) for m in meta_sets) / len(meta_sets) if meta_sets else 0.0
        for name, words in named_sets:
            row[ix[name]] = _sim(ws, words) if words is not None else -1.0
        if slug:
            hit = len(ws & slug)
            row[ix["slug_in_text"]] = hit / len(slug)
            row[ix["text_in_slug"]] = hit / len(ws)
            row[ix["slug_prefix_in_text"]] = len({w[:5] for w in ws} & slug_pre) / len(slug_pre)
        row[ix["words"]] = lengths[i]
        row[ix["chars"]] = len(c.key)
        row[ix["words_vs_longest"]] = lengths[i] / longest
        row[ix["words_vs_median"]] = lengths[i] / median if median else 0.0
        row[ix["site_share"]] = len(ws & site) / len(ws)
        squashed = c.key.replace(" ", "")
        row[ix["is_site"]] = float(bool(site_name) and squashed == site_name)
        row[ix["spells_host"]] = float(_spells(squashed.removeprefix("the"), host_name))
        row[ix["names_site"]] = float(len(site_name) >= 3 and site_name in squashed)
        if c.heading:
            for name, value in zip(HEADING_FIELDS, c.heading):
                row[ix[f"h_{name}"]] = value
        else:
            row[ix["h_order"]] = -1.0
        row[ix["n_h1"]] = n_h1
        row[ix["n_candidates"]] = len(cands)
        letters = [w for w in c.text.split() if w[:1].isalpha()]
        row[ix["upper_share"]] = sum(w[0].isupper() for w in letters) / len(letters) if letters else 0.0
        row[ix["all_upper"]] = float(c.text.isupper())
        row[ix["ends_stop"]] = float(c.text.endswith("."))
        row[ix["has_digit"]] = float(_DIGIT.search(c.key) is not None)
        for cut in c.cuts:
            row[ix[f"cut_{cut}"]] = 1.0
        for m in _PIECE_SEP.finditer(c.text):
            kind = _cut_kind(m.group())
            if kind != "other":
                row[ix[f"has_{kind}"]] = 1.0
        label = label_cut(c.text, url)
        if label is not None:
            row[ix["label_outlet" if label[1] == "outlet_signature" else "label_short"]] = 1.0
    X = np.array(rows)
    for name, vs_best in _VS_BEST:
        X[:, ix[vs_best]] = X[:, ix[name]] - X[:, ix[name]].max()
    return X


@lru_cache(maxsize=1)
def _predict():
    """The packaged booster's predict, compiled to native code when possible
    (newsclean.cleaners.model.compiled: with a warm cache, LightGBM is not even imported, 2-3 s of
    a process's start-up). Imported on first use: extract_html imports nothing of the line model."""
    from newsclean.cleaners.model.compiled import file_predictor

    with MODEL_FILE.open(encoding="utf-8") as fh:
        names = next((line.split("=", 1)[1].split() for line in fh if line.startswith("feature_names=")), [])
    if tuple(names) != FEATURES:
        raise ValueError("the title ranker's features are not this code's; retrain it with "
                         "`python -m newsclean.cleaners.metadata.train_title_ranker`")
    return file_predictor(MODEL_FILE)


def scores(X: np.ndarray) -> np.ndarray:
    """The packaged ranker's score of each row: P(the headline), higher for likelier."""
    if not len(X):
        return np.zeros(0)
    return _predict()(X)


def best(X: np.ndarray, s: np.ndarray) -> int:
    """The row of the best candidate by the scores `s` (the first on a tie), never a site logo
    while there is another: a heading that names the site (its name, or its host's) and that no
    meta title states (the dev pages have few such <h1>s for the ranker to learn it from)."""
    ix = FEATURE_INDEX
    logo = ((X[:, ix["is_site"]] > 0) | (X[:, ix["spells_host"]] > 0)) & (X[:, ix["n_sources"]] == X[:, ix["n_heading_sources"]])
    return int(np.argmax(np.where(logo, -np.inf, s))) if not logo.all() else int(np.argmax(s))


def headline(cands: Sequence[Candidate], X: np.ndarray, s: np.ndarray, url: str | None = None) -> str:
    """The headline the scores `s` of the candidates' rows `X` give: the best candidate (best)
    without a trailing outlet or short label ("Headline | Opinion", "Headline – Outlet" on the
    outlet's site: newsclean.cleaners.titles.headline_text, the cut the text path makes on its
    headline line). Such a label is a candidate's own wording when every source of the page states
    it, and the ranker cannot tell it from a subtitle."""
    return headline_text(cands[best(X, s)].text, url)


def choose_title(page: PageTitles, url: str | None = None) -> str | None:
    """The page's headline: the candidate the packaged ranker scores highest, its trailing label
    cut (headline), or None when the page states none."""
    cands = candidates(page)
    if not cands:
        return None
    if len(cands) == 1:  # best() of one row is that row, whatever its score
        return headline_text(cands[0].text, url)
    X = features(cands, page, url)
    return headline(cands, X, scores(X), url)
