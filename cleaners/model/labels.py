"""Training labels for the line model, derived by *aligning* a page to its true article body.

A line is body when most of its tokens are matched, in order, by an alignment of the page's token
sequence to the truth's token sequence. Checking whether a line's words merely occur somewhere in
the truth would teach the model to keep menus ("Health", "Sign in" also occur in articles); the
alignment only credits tokens at the place where the truth has them.

Tokens are the scorer's: NFKC, lower case, Unicode punctuation and symbols deleted, split on white
space (see shared/tools/score-devset), so the labels optimise the measured quantity.
"""
from __future__ import annotations

import difflib
import re

import numpy as np

from newsclean.cleaners.corpus import fold_title, tokens  # noqa: F401 (the scorer's forms, read from here too)


def aligned_share(lines: list[str], truth: str) -> tuple[np.ndarray, np.ndarray]:
    """Per line: (share of its tokens aligned to the truth, number of tokens).

    The alignment is difflib's longest-matching-blocks over integer token ids (no junk heuristic),
    which keeps the order of both sequences, so a menu word is only credited where the truth
    actually continues with it.
    """
    vocab: dict[str, int] = {}
    line_toks = [tokens(line) for line in lines]
    counts = np.fromiter((len(t) for t in line_toks), dtype=np.int64, count=len(lines))
    page = [vocab.setdefault(t, len(vocab)) for toks in line_toks for t in toks]
    true = [vocab.setdefault(t, len(vocab)) for t in tokens(truth)]
    hit = np.zeros(len(page), dtype=np.float64)
    if page and true:
        sm = difflib.SequenceMatcher(None, page, true, autojunk=False)
        for a, _b, size in sm.get_matching_blocks():
            if size:
                hit[a:a + size] = 1.0
    share = np.zeros(len(lines))
    if len(page):
        line_of = np.repeat(np.arange(len(lines)), counts)
        sums = np.bincount(line_of, weights=hit, minlength=len(lines))
        share = np.divide(sums, counts, out=np.zeros(len(lines)), where=counts > 0)
    return share, counts


def body_labels(lines: list[str], truth: str, min_share: float = 0.5) -> tuple[np.ndarray, np.ndarray]:
    """Per line: label (1 body, 0 debris) and a training weight (0 for lines without tokens)."""
    share, counts = aligned_share(lines, truth)
    return (share >= min_share).astype(np.int8), (counts > 0).astype(np.float64)


def snippet_labels(lines: list[str], with_: list[str], without: list[str]) -> np.ndarray:
    """Partial labels from snippets: 1 body (line holds a `with` snippet or lies inside one),
    0 debris (same for `without`), -1 unknown. Matching is on the scorer's tokens, so spacing and
    punctuation differences between the snippet and the rendered text do not matter."""
    out = np.full(len(lines), -1, dtype=np.int8)
    folded = [" " + " ".join(tokens(line)) + " " for line in lines]
    for snippets, value in ((without, 0), (with_, 1)):
        for snip in snippets:
            s = " ".join(tokens(snip))
            if len(s.split()) < 2:
                continue
            key = " " + s + " "
            for i, f in enumerate(folded):
                # the snippet sits in the line, or (for snippets spanning lines) the line in it
                if key in f or (len(f.split()) >= 3 and f in key):
                    if out[i] == -1 or value == 0:
                        out[i] = value
    return out


def title_index(lines: list[str], title: str | None) -> int | None:
    """Index of the first line equal (folded) to the annotated title, or None."""
    found = title_indices(lines, title)
    return found[0] if found else None


def title_indices(lines: list[str], title: str | None) -> list[int]:
    """Indices of every line equal (folded) to the annotated title: a page often repeats its
    headline (breadcrumb, heading, share text), and each copy is the title."""
    ft = fold_title(title)
    if not ft:
        return []
    return [i for i, line in enumerate(lines) if fold_title(line) == ft]


def markup_title_indices(lines: list[str], html: bytes | str | None) -> list[int]:
    """Silver headline labels for pages annotated without a title: the lines equal (folded) to
    the page's one <h1> that its own meta titles agree with (og:title, twitter:title or <title>
    equal to it, or "<h1> | Site" / "Site - <h1>" with a short site part). A long remainder means
    the <h1> is the site's name ("Blog name" vs "Blog name: Post title"), so it does not count.
    On the 461 WCXB pages this labels 317, and 302 of them agree with the annotated title (the
    rest are mostly the annotator choosing a shorter or longer variant)."""
    if not html:
        return []
    import lxml.html  # trafilatura's parser; only training reads markup this way

    try:
        tree = lxml.html.fromstring(html)
    except (ValueError, lxml.etree.ParserError):
        return []
    h1 = {h for h in (fold_title(e.text_content()) for e in tree.iter("h1")) if len(h.split()) >= 2}
    meta = [fold_title(e.get("content")) for e in tree.iter("meta")
            if (e.get("property") or e.get("name") or "").lower() in ("og:title", "twitter:title") and e.get("content")]
    meta += [fold_title(e.text_content()) for e in tree.iter("title")]

    def agrees(h: str, m: str) -> bool:
        rest = len(m.split()) - len(h.split())
        return m == h or ((m.startswith(h + " ") or m.endswith(" " + h)) and rest <= min(6, len(h.split())))

    agreed = [h for h in h1 if any(agrees(h, m) for m in meta if m)]
    if len(agreed) != 1:
        return []
    return [i for i, line in enumerate(lines) if fold_title(line) == agreed[0]]


_WS = re.compile(r"\s+")


def simple_lines(text: str) -> list[str]:
    """Fallback splitter (non-empty lines, no-break spaces to spaces, runs collapsed, trimmed) used
    when newsclean.cleaners.lines is not importable; the pipeline uses newsclean.cleaners.lines."""
    out = []
    for raw in text.split("\n"):
        s = _WS.sub(" ", raw.replace("\u00a0", " ")).strip()
        if s:
            out.append(s)
    return out
