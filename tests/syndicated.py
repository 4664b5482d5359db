"""Syndicated copies of real articles, as another outlet republishes a wire story: another
headline, the outlet's own debris (menu, share bar, an advertisement label, a teaser link) and
signature, the last paragraphs cut, a few words edited. For the near-duplicate tests and
bench/syndication.py."""
from __future__ import annotations

import random
import re

# Fictional outlets: no registered outlet's name, so no test depends on the outlet registry.
OUTLETS = ("The Harbour Gazette", "Valley Courier", "Northern Ledger", "Lakeside Tribune", "Coastal Herald",
           "Prairie Sentinel", "Riverside Post", "Highland Chronicle")
MENUS = (["Home", "News", "Local", "Sport", "Opinion"], ["Top Stories", "U.S.", "World", "Business"],
         ["Menu", "Search", "Sign in", "Subscribe"])
HEADLINE_TAGS = ("", "UPDATE: ", "WATCH: ", "Report: ")
# Word edits a copy desk makes: tense, synonyms, spelling
SWAPS = {"said": "says", "says": "said", "told": "informed", "officers": "deputies", "police": "authorities",
         "Thursday": "this week", "reported": "revealed", "shooting": "attack", "school": "campus",
         "people": "residents", "government": "administration", "percent": "per cent", "program": "programme"}
_WORD = re.compile(r"[A-Za-z]{4,}")


def cut_last_paragraphs(paragraphs: list[str], share: float) -> list[str]:
    """Drop the last paragraphs: at least one (when there are three or more), and more while the
    words dropped stay within `share` of the article's."""
    total = sum(len(p.split()) for p in paragraphs)
    kept = list(paragraphs)
    dropped = 0
    while len(kept) > 2:
        words = len(kept[-1].split())
        if dropped and dropped + words > share * total:
            break
        dropped += words
        kept.pop()
    return kept


def edit_words(paragraphs: list[str], n: int, rng: random.Random) -> list[str]:
    """`n` word edits: a word swapped for its SWAPS entry where it has one, else left out."""
    out = list(paragraphs)
    for _ in range(n):
        i = rng.randrange(len(out))
        words = out[i].split(" ")
        candidates = [k for k, w in enumerate(words) if _WORD.fullmatch(w.strip(",.;:\"'"))]
        if not candidates:
            continue
        k = rng.choice(candidates)
        bare = words[k].strip(",.;:\"'")
        if bare in SWAPS:
            words[k] = words[k].replace(bare, SWAPS[bare])
        elif len(words) > 1:
            del words[k]
        out[i] = " ".join(words)
    return out


def headline(title: str | None, paragraphs: list[str], rng: random.Random) -> str:
    """Another headline for the story: the outlet's tag on the original shortened, or one written
    from the first sentence; never the original."""
    words = (title or "").split()
    if len(words) > 6 and rng.random() < 0.5:
        text = " ".join(words[: len(words) - 2])
    else:
        text = " ".join(w for w in paragraphs[0].split()[:10] if w.lower() not in ("the", "a", "an"))
    text = text.rstrip(".,;:")
    return rng.choice(HEADLINE_TAGS) + text[:1].upper() + text[1:]


def syndicated_copy(title: str | None, text: str, rng: random.Random, *, outlet: str | None = None,
                    cut_share: float = 0.15, edits: int = 3, teaser: str = "Council approves new budget for schools") -> str:
    """The raw text of another outlet's copy of an article (`text`: its clean body, paragraphs
    separated by blank lines)."""
    outlet = outlet or rng.choice(OUTLETS)
    body = edit_words(cut_last_paragraphs(text.split("\n\n"), cut_share), edits, rng)
    lines = [*rng.choice(MENUS), "", headline(title, body, rng), "",
             f"By {outlet} staff", "", "Share on Facebook", "Share on Twitter", ""]
    for i, para in enumerate(body):
        lines += [para, ""]
        if i == 1:
            lines += ["Advertisement", ""]
        if i == len(body) // 2 and len(body) > 3:
            lines += [f"Read more: {teaser}", ""]
    lines += [f"Copyright 2018 {outlet}. All rights reserved.", "", "Related Articles", teaser, "", "Most read"]
    return "\n".join(lines)
