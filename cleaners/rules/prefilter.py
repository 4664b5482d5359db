"""A fast necessary test for regular expressions the rules run on every new line (their start
patterns above all): RE2's DFA over a one-byte view of the line.

The start-pattern rules (newsclean.cleaners.rules.base.starts_with) are tried where one anchored
alternation of all their patterns matches (start_union). Python's backtracking engine walks that
alternation branch by branch under IGNORECASE: ~20 µs on every new line, of which fewer than 3 in
100 match. RE2 runs the same alternation as a DFA in about a microsecond, but it cannot run
the patterns themselves (lookarounds, backreferences, Unicode \\b and \\w), so this module
translates each pattern into an RE2 pattern whose language is a SUPERSET of the original's, over a
one-byte view of the text:

- every character below U+00FF is its own byte; U+00FF and everything above it is the byte 0xFF
  (the view: `one_byte_view`), and RE2 runs in Latin-1 mode over those bytes;
- a node that matches one character (a literal, a class, a category, ".") becomes the class of
  bytes whose characters Python's own engine matches with the node's flags (each of the 255 tried),
  plus 0xFF unless the node is a case-sensitive literal below U+00FF;
- lookarounds and anchors inside the pattern (\\b, $, (?=...), (?!...)) match the empty string,
  a backreference any text, a possessive or atomic group its plain form, a bounded repeat over
  RE2's limit an unbounded one.

Each step only widens what matches, so where the prefilter finds no match, start_union has none
either, and the rules need not be tried: the output is the same by construction. Where it does
match, start_union decides as before. tests/test_rules_prefilter.py checks the superset on the dev
lines and on generated text, and that every translated pattern compiles.
"""
from __future__ import annotations

import codecs
import re
from functools import lru_cache
from re import _constants as C  # the parsed form of a pattern: the node kinds
from re import _compiler, _parser
from typing import Sequence

import re2

WIDE = 0xFF  # the byte that stands for U+00FF and every character above it
_ERRORS = "newsclean-one-byte"


def _wide(err: UnicodeEncodeError):
    return b"\xff" * (err.end - err.start), err.end


codecs.register_error(_ERRORS, _wide)


def one_byte_view(text: str) -> bytes:
    """The text as RE2 sees it: one byte per character, 0xFF for U+00FF and above."""
    return text.encode("latin-1", _ERRORS)


def _byte_class(members: Sequence[int]) -> str:
    """An RE2 class of the given bytes, written as ranges."""
    if len(members) == 256:
        return r"[\x00-\xff]"
    parts, run = [], []
    for b in sorted(members) + [None]:
        if run and (b is None or b != run[-1] + 1):
            parts.append(r"\x%02x" % run[0] if len(run) == 1 else r"\x%02x-\x%02x" % (run[0], run[-1]))
            run = []
        if b is not None:
            run.append(b)
    return "[" + "".join(parts) + "]" if parts else r"[^\x00-\xff]"  # empty: matches nothing


@lru_cache(maxsize=None)
def _one_char(op, av, flags: int) -> str:
    """The byte class of a node that matches exactly one character (its `op`, `av` as the parser
    gives them, made hashable), decided by Python's engine on each character below U+00FF."""
    sub = _parser.SubPattern(_parser.State(), [(op, _unfreeze(av))])
    sub.state.flags = flags
    one = _compiler.compile(sub, flags).fullmatch
    members = [b for b in range(WIDE) if one(chr(b))]
    if not (op is C.LITERAL and av < WIDE and not flags & _IGNORECASE):
        members.append(WIDE)
    return _byte_class(members)


def _freeze(av):
    return tuple(_freeze(x) for x in av) if isinstance(av, list | tuple) else av


def _unfreeze(av):
    return [tuple(x) if isinstance(x, tuple) else x for x in av] if isinstance(av, tuple) else av


# flags as plain ints: RegexFlag's enum operators cost more than the rest of the translation
_IGNORECASE = int(re.I)
_ONE_CHAR_FLAGS = int(re.I | re.S | re.A | re.U)  # the flags a one-character node's match depends on
_ONE_CHAR = (C.LITERAL, C.NOT_LITERAL, C.ANY, C.IN)
_EMPTY = (C.AT, C.ASSERT, C.ASSERT_NOT)
_REPEATS = (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT)
RE2_MAX_REPEAT = 1000


def _sequence(nodes, flags: int) -> str:
    return "".join(_node(op, av, flags) for op, av in nodes)


def _node(op, av, flags: int) -> str:
    if op in _ONE_CHAR:
        return _one_char(op, _freeze(av), flags & _ONE_CHAR_FLAGS)
    if op in _EMPTY:
        return ""
    if op is C.BRANCH:
        return "(?:" + "|".join(_sequence(b, flags) for b in av[1]) + ")"
    if op is C.SUBPATTERN:
        _group, add, remove, nodes = av
        return "(?:" + _sequence(nodes, (flags | int(add)) & ~int(remove)) + ")"
    if op is C.ATOMIC_GROUP:
        return "(?:" + _sequence(av, flags) + ")"
    if op in _REPEATS:
        low, high, nodes = av
        inner = "(?:" + _sequence(nodes, flags) + ")"
        if low > RE2_MAX_REPEAT:
            return inner + "+"
        if high is C.MAXREPEAT or high > RE2_MAX_REPEAT:
            return inner + "{%d,}" % low
        return inner + "{%d,%d}" % (low, high)
    if op is C.GROUPREF:
        return r"[\x00-\xff]*"
    if op is C.GROUPREF_EXISTS:
        _group, yes, no = av
        return "(?:" + _sequence(yes, flags) + "|" + (_sequence(no, flags) if no else "") + ")"
    raise ValueError(f"no RE2 form for the pattern node {op}")


def widened(pattern: re.Pattern) -> str:
    """An RE2 pattern (Latin-1 mode, over one_byte_view) that matches wherever `pattern` matches
    and possibly elsewhere."""
    if isinstance(pattern.pattern, bytes):
        raise ValueError("text patterns only")
    return _sequence(_parser.parse(pattern.pattern, pattern.flags), int(pattern.flags))


# RE2 builds its DFA lazily within this budget (default 8 MB): with the default, the rules' union
# (a program of ~30,000 instructions) runs out and falls back to a slower engine (4.0 against
# 1.2 µs a line on the dev lines).
DFA_MEMORY = 64 << 20


class Prefilter:
    """`may_match(text)` is False only where no pattern of `patterns` matches `text`: from its
    start (`at_start`, as re.match; the rules' start patterns, each anchored with "^"), or
    anywhere (as re.search)."""

    def __init__(self, patterns: Sequence[re.Pattern], *, at_start: bool = True):
        options = re2.Options()
        options.encoding = re2.Options.Encoding.LATIN1
        options.never_capture = True
        options.max_mem = DFA_MEMORY
        source = "|".join("(?:" + widened(p) + ")" for p in patterns) or r"[^\x00-\xff]"
        self.regexp = re2.compile(source.encode("latin-1"), options=options)
        # google-re2's own match() and search() wrap each call in a generator and a match object
        # (~1 µs): the compiled RE2 object is called directly where this version has it
        native = getattr(self.regexp, "_regexp", None)
        anchors = getattr(getattr(getattr(re2, "_re2", None), "RE2", None), "Anchor", None)
        if native is not None and anchors is not None and hasattr(native, "Match"):
            match, anchor = native.Match, anchors.ANCHOR_START if at_start else anchors.UNANCHORED
            self._matches = lambda data: match(anchor, data, 0, len(data))[0][0] >= 0
        else:
            public = self.regexp.match if at_start else self.regexp.search
            self._matches = lambda data: public(data) is not None

    def may_match(self, text: str, view: bytes | None = None) -> bool:
        """`view`: one_byte_view(text), when the caller has it (one view serves several prefilters)."""
        return self._matches(one_byte_view(text) if view is None else view)


class Guarded:
    """`pattern.search(text)`, the same answer, with Python's engine asked only where the RE2
    prefilter finds that the pattern may match: for the long alternations of words a rule runs
    over a whole paragraph (a few µs against tens). The prefilter is built on first use."""

    def __init__(self, pattern: re.Pattern):
        self.pattern = pattern
        self._prefilter: Prefilter | None = None

    def search(self, text: str, view: bytes | None = None) -> re.Match | None:
        """`view`: as Prefilter.may_match takes it."""
        if self._prefilter is None:
            self._prefilter = Prefilter([self.pattern], at_start=False)
        return self.pattern.search(text) if self._prefilter.may_match(text, view) else None
