"""Cheap shape facts about a line of text, shared by the rules and the decision step."""
from __future__ import annotations

import re

# A compact English function-word list: headlines and sentences have them, tag lists and menus don't.
STOP_WORDS = frozenset(
    """a an the and or but if of at by for with about against between into through during before after
    above below to from up down in out on off over under again further then once here there when where why
    how all any both each few more most other some such no nor not only own same so than too very can will
    just should now is are was were be been being have has had having do does did doing i me my we our you
    your he him his she her it its they them their what which who whom this that these those am would could
    as until while than s t don""".split()
)

WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*", re.UNICODE)
# A sentence ends in . ! ? or … possibly followed by closing quotes or brackets.
TERMINAL = re.compile(r"[.!?…]['\"’”)\]]*$")


def words(text: str) -> list[str]:
    return WORD.findall(text)


def n_words(text: str) -> int:
    return len(text.split())


def ends_sentence(text: str) -> bool:
    return bool(TERMINAL.search(text))


def stop_share(ws: list[str]) -> float:
    return sum(w.lower() in STOP_WORDS for w in ws) / len(ws) if ws else 0.0


def is_capitalised(word: str) -> bool:
    return word[:1].isupper()


def content_words(text: str) -> list[str]:
    """Lower-cased words of 3+ letters that are not function words: the article's topic vocabulary."""
    return [w for w in (x.lower() for x in WORD.findall(text)) if len(w) > 2 and w not in STOP_WORDS and not w.isdigit()]


def is_sentence_like(text: str, min_words: int = 6) -> bool:
    """Prose: enough words, some function words, and a terminal punctuation mark."""
    ws = words(text)
    return len(ws) >= min_words and ends_sentence(text) and stop_share(ws) > 0.1


def is_headline_shaped(text: str) -> bool:
    """A headline: 4-30 words, starts with a capital or digit, no sentence-final full stop."""
    ws = words(text)
    return 4 <= len(ws) <= 30 and (text[:1].isupper() or text[:1].isdigit() or text[:1] in "'\"") and not text.rstrip("'\"”’").endswith(".")
