"""What a rule sees and what it returns.

A rule is a small named function `rule(line, doc) -> Proposal | None`. It sees one line with its
neighbours and the document context, and proposes a span of debris with a kind (or several cuts
of its line, a tuple of Proposals). It never deletes: newsclean.cleaners.decide combines the
proposals and alone decides.

A proposal is `strong` when the line's own evidence suffices (a "RELATED:" prefix, a photo
credit). A `weak` proposal only names the kind of a line that the decision step already judged
to be outside the article body (before its first or after its last paragraph), e.g. a
headline-shaped line below the story is a related headline, but a subheading inside it stays.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from operator import attrgetter
from typing import Any, Callable, Iterable, Optional, Sequence

from newsclean.cleaners import shape


@dataclass(frozen=True)
class Proposal:
    kind: str
    rule: str
    strong: bool = True
    start: int = 0
    end: Optional[int] = None  # None: to the end of the line

    def bounds(self, text: str) -> tuple[int, int]:
        return self.start, len(text) if self.end is None else self.end


_GATE_FOLD = str.maketrans({"ı": "i", "ſ": "s", "\u0307": None})


class _memo:
    """functools.cached_property without its per-access lock (Python 3.11 takes an RLock on every
    first access): computes once and stores the value in the instance's __dict__."""

    def __init__(self, fn):
        self.fn, self.name, self.__doc__ = fn, fn.__name__, fn.__doc__

    def __get__(self, obj, cls=None):
        if obj is None:
            return self
        value = obj.__dict__[self.name] = self.fn(obj)
        return value


@dataclass
class Line:
    index: int  # position among the document's non-empty lines
    number: int  # 1-based line number in the raw text
    text: str

    @_memo
    def words(self) -> tuple[str, ...]:
        return shape.words(self.text)

    @_memo
    def n_words(self) -> int:
        return len(self.words)

    @_memo
    def lower(self) -> str:
        """The text in lower case for the rules' substring gates, computed once per line: a gate
        tells where a re.IGNORECASE pattern cannot match, so the letters such a pattern equates with
        ASCII ones that lower() does not give back ("ı", "ſ", the dot "İ" leaves) are folded too."""
        low = self.text.lower()
        return low if low.isascii() else low.translate(_GATE_FOLD)

    @_memo
    def ends_sentence(self) -> bool:
        return shape.ends_sentence(self.text)


PROSE_MIN_WORDS = 12  # a sentence this long is the article's prose, not a label or a headline
_ADDRESS = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+|(?:\w+://|www\.)\S+")


@dataclass
class Doc:
    """The document context every rule may read: all non-empty lines and the article's topic."""

    lines: list[Line]
    corpus_doc_freq: Optional[list[int]] = None  # per line: how many corpus documents contain it

    def prev(self, line: Line) -> Line | None:
        return self.lines[line.index - 1] if line.index > 0 else None

    def next(self, line: Line) -> Line | None:
        return self.lines[line.index + 1] if line.index + 1 < len(self.lines) else None

    @cached_property
    def first_prose(self) -> int:
        """Index of the first line of prose (a sentence of at least PROSE_MIN_WORDS words), or the
        number of lines: what lies above it is the page's head (headline, byline, stamps)."""
        return next((ln.index for ln in self.lines if shape.is_sentence_like(ln.text, min_words=PROSE_MIN_WORDS)),
                    len(self.lines))

    @cached_property
    def topic(self) -> dict[str, int]:
        """Content-word counts of the prose lines: what the article is about."""
        counts: dict[str, int] = {}
        for ln in self.lines:
            if shape.is_sentence_like(ln.text, min_words=PROSE_MIN_WORDS):
                for w in shape.content_words(ln.text):
                    counts[w] = counts.get(w, 0) + 1
        return counts

    @cached_property
    def lower_case_words(self) -> frozenset[str]:
        """The words the document writes in lower case somewhere: common nouns, not names. An
        e-mail address or a web address is no such use ("jane.smith@fox.com" does not make "Jane
        Smith" common nouns)."""
        return frozenset(w for ln in self.lines
                         for w in (ln.words if "@" not in ln.text and "://" not in ln.text and "www." not in ln.text
                                   else shape.words(_ADDRESS.sub(" ", ln.text)))
                         if w.islower())

    @cached_property
    def texts(self) -> list[str]:
        """The lines' texts, for the rules that look at every line of the document at once."""
        return list(map(_TEXT_OF, self.lines))

    @cached_property
    def joined_text(self) -> str:
        """The lines' texts, one a line: where a substring test rules out every line at once."""
        return "\n".join(self.texts)

    def writes_in_lower_case(self, word: str) -> bool:
        """`word` in lower_case_words, without gathering them where no line holds `word` at all
        (each of a line's words is part of its text): most names a byline gives are in no other line."""
        return word in self.joined_text and word in self.lower_case_words

    def memo(self, key: str, compute: Callable[["Doc"], Any]) -> Any:
        """What a rule derives from the whole document (its box headers, its bylines' names),
        computed once per document however many lines ask."""
        if key not in self.__dict__:
            self.__dict__[key] = compute(self)
        return self.__dict__[key]

    def topic_fit(self, line: Line) -> float:
        """Share of the line's content words that the article's prose uses elsewhere (0..1)."""
        ws = shape.content_words(line.text)
        if not ws:
            return 0.0
        own: dict[str, int] = {}
        if shape.is_sentence_like(line.text, min_words=PROSE_MIN_WORDS):
            for w in ws:
                own[w] = own.get(w, 0) + 1
        topic = self.topic
        return sum(topic.get(w, 0) - own.get(w, 0) > 0 for w in ws) / len(ws)


Rule = Callable[[Line, Doc], "Proposal | tuple[Proposal, ...] | None"]  # a tuple: several cuts of the line
_TEXT_OF = attrgetter("text")

_WHOLE_LINE: dict[tuple[str, str, bool], Proposal] = {}


def whole_line(kind: str, rule: str, strong: bool = True) -> Proposal:
    """Proposal(kind, rule, strong) for the whole line, one shared instance per (kind, rule, strong)
    (a Proposal is frozen): cheaper than a new one per line, and the rules' cache by text
    (newsclean.cleaners.rules.propose) holds fewer objects for the garbage collector to walk."""
    p = _WHOLE_LINE.get((kind, rule, strong))
    if p is None:
        p = _WHOLE_LINE[(kind, rule, strong)] = Proposal(kind, rule, strong)
    return p


def starts_with(*patterns: re.Pattern) -> Callable[[Rule], Rule]:
    """Marks a text-only rule that proposes nothing unless one of `patterns` (each anchored with "^")
    matches its line: newsclean.cleaners.rules.propose tries all such patterns of all rules as one anchored
    alternation (start_union) once per text, and calls these rules only where it matches."""
    for pat in patterns:
        if not pat.pattern.startswith("^") or pat.flags & re.M:
            raise ValueError(f"{pat.pattern[:30]!r}: starts_with needs a pattern anchored with ^ (no re.M)")

    def mark(rule: Rule) -> Rule:
        rule.start_patterns = patterns
        return rule
    return mark


def start_union(patterns: Sequence[re.Pattern]) -> re.Pattern:
    """One pattern that matches where any of `patterns` (each "^..."; re.I and re.X kept per
    pattern as scoped flags; group names dropped) matches: "^(?:(?ix:A)|(?i:B)|...)". With the "^"
    outside the alternation the engine tries the start of the line only."""
    parts = []
    for pat in patterns:
        flags = ("i" if pat.flags & re.I else "") + ("x" if pat.flags & re.X else "")
        body = re.sub(r"\(\?P<\w+>", "(?:", pat.pattern[1:])
        parts.append(f"(?{flags}:{body})" if flags else f"(?:{body})")
    return re.compile("^(?:" + "|".join(parts) + ")")


def when(condition: Callable[[], Any], *, proposes: "Proposal | None" = None, exact_gate: bool = False
         ) -> Callable[[Rule], Rule]:
    """Marks a rule with a necessary condition on its line's text: `condition()` builds a polars
    expression over the lines frame (newsclean.cleaners.engine.rule_conditions: the columns `text`, `lower`,
    the text in lower case as Line.lower folds it, `n_chars` and `n_words`) that is False only where the
    rule proposes nothing, whatever the context. The rules' first look at a batch's new lines
    (newsclean.cleaners.rules.prime) evaluates every such condition over all of them in one columnar pass, and
    calls a text-only rule, or asks an in-context rule's text gate, only where its condition holds.
    Put it above @in_context. tests/test_rule_conditions.py checks each condition against its rule
    on the dev lines.

    A condition may also be sufficient on ASCII texts (where the frame counts words exactly):
    `proposes`, a text-only rule's one proposal, means the rule proposes exactly it on an ASCII
    text wherever the condition holds; `exact_gate`, for an in-context rule, that its text gate
    holds on an ASCII text exactly where the condition does. The first look then neither calls the
    rule nor asks the gate there (tests/test_rule_conditions.py checks both on the dev lines)."""
    def mark(rule: Rule) -> Rule:
        rule.condition = condition
        rule.proposes = proposes
        rule.exact_gate = exact_gate
        return rule
    return mark


def in_context(rule: Rule | None = None, *, gate: Callable[[Line], bool] | None = None,
               candidates: Callable[[Doc], Iterable[int]] | None = None):
    """Marks a rule that reads more than its line's text (its position, its neighbours). The other
    rules' proposals depend on the text alone, so newsclean.cleaners.rules.propose caches them by text.

    `gate(line)`, if given, is a test on the line's text alone that is False only where the rule
    proposes nothing whatever the context (a necessary condition): propose caches it by text too
    and calls the rule only on lines whose gate is True.

    `candidates(doc)`, if given, gives the indexes of the lines where the rule may propose, from
    facts about the whole document found in one look at it (its position limits, the lines under a
    box header): a necessary condition too, a superset of the lines where the rule proposes.
    newsclean.cleaners.rules.propose_document calls the rule on those lines only (where the gate
    also holds); without it, on every line whose gate holds. tests/test_rule_candidates.py checks
    each against its rule. Use as @in_context or @in_context(gate=..., candidates=...)."""
    def mark(rule: Rule) -> Rule:
        rule.needs_context = True
        rule.text_gate = gate
        rule.candidates = candidates
        return rule

    return mark(rule) if rule is not None else mark

# A sentence end with the next text glued on after it.
_SENTENCE_END_THEN_MORE = re.compile(r"[.!?…][\"'’”)\]]*\s+(?=\S)")
_TERMINAL_CHAR = re.compile(r"[.!?…]")
_TERMINALS_AND_CLOSERS = ".!?…\"'’”)]"


# What a page puts between a paragraph and the block glued to it ("… in March. | Photo: dpa").
GLUE_SEPARATORS = " |•·–—"


def glued_tail(line: Line, max_words: int = 8) -> int | None:
    """Where a short run of words starts after a line's last sentence end: a scraper that joins
    blocks glues the next one ("Share this article", "Photo: Getty Images") onto a paragraph.
    None when there is no such tail or the text before it is not a sentence. Memoised per line
    (several rules ask)."""
    memo = line.__dict__.setdefault("_glued_tail", {})
    if max_words not in memo:
        memo[max_words] = _glued_tail(line.text, max_words, line.words)
    return memo[max_words]


def tail_start(text: str, max_words: int = 8) -> int | None:
    """Where a run of at most `max_words` words starts after the text's last sentence end (and the
    white space after it), or None: glued_tail without its test that the text before is a sentence."""
    # The sentence end that starts a tail of at most max_words words lies in the last max_words + 1
    # white-space-separated tokens: search only there.
    parts = text.rsplit(None, max_words + 1)
    cut = len(parts[0]) if len(parts) > max_words + 1 else 0
    # A sentence end followed by white space lies before the line's closing run of terminals and
    # closers (which holds no white space): with no terminal there, there is no tail (a shortcut).
    if _TERMINAL_CHAR.search(text, cut, len(text.rstrip(_TERMINALS_AND_CLOSERS))) is None:
        return None
    last = None
    for last in _SENTENCE_END_THEN_MORE.finditer(text, cut):
        pass
    if last is None or len(text[last.end():].split()) > max_words:
        return None
    return last.end()


def _glued_tail(text: str, max_words: int, text_words: Sequence[str] | None = None) -> int | None:
    at = tail_start(text, max_words)
    if at is None:
        return None
    head_words = None
    if text_words is not None:
        # no word runs over the white space before the tail: the head's words are the line's
        # words (text_words) less the tail's
        head_words = text_words[:len(text_words) - len(shape.word_pattern(text).findall(text, at))]
    return at if shape.is_sentence_like(text[:at].rstrip(), min_words=4, text_words=head_words) else None
