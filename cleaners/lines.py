"""Text to normalised lines. Line numbers match the raw file's: CRLF, CR and LF all end a line.

A normalised line is ftfy-repaired (only where a cheap check finds something to repair), has
no-break and other odd spaces turned into spaces, runs of white space collapsed and is trimmed.
Span offsets in removed.parquet index these normalised lines.
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from re import _constants as C, _parser as P  # a pattern's parsed form: ftfy's patterns are read from it

import re2

from newsclean.cleaners import upstream

upstream.require("ftfy")  # the tables below are ftfy's internals: another ftfy stops here, saying what to do
import ftfy  # noqa: E402
import polars as pl  # noqa: E402
from ftfy import chardata, fixes  # noqa: E402
from ftfy.badness import BADNESS_RE, is_bad  # noqa: E402

from newsclean.cleaners import front_matter  # noqa: E402
from newsclean.cleaners.markdown import plain_lines
from newsclean.cleaners.unwrap import unwrap

_LINE_END = re.compile(r"\r\n|\r|\n")
# Line and paragraph separators other than CR/LF (and what ftfy turns them into) become spaces too:
# a normalised line never holds a line break, whatever the input.
_SPACE_CHARS = "\t\n\r\x0b\x0c\x1c-\x1f\x85\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
_SPACES = re.compile(r"[ " + _SPACE_CHARS + r"]+")
# The same substitution, but matching only the runs it changes (a lone " " stays as it is): the
# result of .sub(" ", line) is identical and most lines have nothing to replace.
_SPACES_TO_FOLD = re.compile(r" [ " + _SPACE_CHARS + r"]+|[" + _SPACE_CHARS + r"][ " + _SPACE_CHARS + r"]*")
# Characters that ftfy.fix_text may change in an otherwise ASCII line: entities and control chars.
# (ftfy's unescape_html changes only what its HTML_ENTITY_RE matches: "&amp;", not "Q&A".)
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def _ascii_suspect(text: str) -> bool:
    """A control character or an HTML entity in `text`: what ftfy would change in an ASCII text.
    Two scans (a character class, then the entity pattern only where an "&" is) rather than one
    alternation of both, which Python's engine tries at every position (~3x slower on a body)."""
    return _CONTROL.search(text) is not None or ("&" in text and chardata.HTML_ENTITY_RE.search(text) is not None)
_CURLY = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'",
                        "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"'})


def _runs(codepoints: set[int]) -> list[tuple[int, int]]:
    """`codepoints` as ranges of consecutive code points (first, last), in order."""
    cps, runs, i = sorted(codepoints), [], 0
    while i < len(cps):
        j = i
        while j + 1 < len(cps) and cps[j + 1] == cps[j] + 1:
            j += 1
        runs.append((cps[i], cps[j]))
        i = j + 1
    return runs


def _ranges_class(ranges: list[tuple[int, int]], escape: str, negated: bool = False) -> str:
    """A character class of the code point ranges (first, last), each code point as `escape` formats it."""
    parts = (escape.format(lo) if lo == hi else escape.format(lo) + "-" + escape.format(hi) for lo, hi in ranges)
    return ("[^" if negated else "[") + "".join(parts) + "]"


def _char_class(codepoints: set[int], escape: str = "\\U{:08x}") -> str:
    """A character class of `codepoints`, written as ranges, each code point as `escape` formats it
    (Python's "\\U0001f600" by default; polars reads "\\x{1f600}")."""
    return _ranges_class(_runs(codepoints), escape)


def _class_chars(pattern: re.Pattern) -> set[int]:
    """The characters a one-character-class pattern such as "[\\u2018-\\u201b]" matches."""
    parsed = list(P.parse(pattern.pattern, pattern.flags))
    op, av = parsed[0] if len(parsed) == 1 else (None, None)  # None: not one class, as below
    out: set[int] = set()
    for o, a in (av if op is C.IN else [(op, av)]):
        if o is C.LITERAL:
            out.add(a)
        elif o is C.RANGE:
            out.update(range(a[0], a[1] + 1))
        else:
            raise upstream.mismatch("ftfy", f"the pattern {pattern.pattern!r} of ftfy.chardata is not one class of "
                                    "characters, as newsclean.cleaners.lines reads its quote patterns")
    return out


def _ftfy_tables() -> tuple[re.Pattern, re.Pattern, set[int]]:
    """From ftfy's own tables, every character one of fix_text's per-character fixers may change,
    other than curly quotes: HTML entities (as its HTML_ENTITY_RE finds them), C1 controls, Latin ligatures, half- and
    full-width forms, line and paragraph separators, surrogates, terminal escapes and the control
    characters it removes; and the curly quotes its uncurl_quotes step straightens. Then the
    first pattern's characters as code points (its class without the entities)."""
    special = {0x1B, ord("\r"), ord("\n"), 0x2028, 0x2029, *range(0x80, 0xA0), *range(0xD800, 0xE000)}
    special |= set(chardata.LIGATURES) | set(chardata.WIDTH_MAP) | set(chardata.CONTROL_CHARS)
    quotes = _class_chars(chardata.SINGLE_QUOTE_RE) | _class_chars(chardata.DOUBLE_QUOTE_RE)
    special -= quotes
    return re.compile(_char_class(special) + "|" + chardata.HTML_ENTITY_RE.pattern), re.compile(_char_class(quotes)), special


def _mojibake_required() -> re.Pattern:
    """A set of characters of which any text that ftfy.badness.is_bad flags contains at least one.

    BADNESS_RE is an alternation; every alternative has mandatory positions that only non-ASCII
    characters from a fixed class can fill. Taking one such class per alternative (the one with
    the fewest general-punctuation characters, so curly quotes and dashes rarely trigger the full
    check) gives a necessary condition: no character of the union -> is_bad is False. A pattern
    that cannot be analysed so (another ftfy) raises UpstreamMismatch."""
    def chars(op, av):
        if op is C.LITERAL:
            return {av}
        if op is C.IN:
            out = set()
            for o, a in av:
                if o is C.LITERAL:
                    out.add(a)
                elif o is C.RANGE:
                    out.update(range(a[0], a[1] + 1))
                else:
                    return None
            return out
        if op is C.MAX_REPEAT and av[0] >= 1 and len(av[2]) == 1:
            return chars(*list(av[2])[0])
        return None

    def unreadable(why: str) -> upstream.UpstreamMismatch:
        return upstream.mismatch("ftfy", f"ftfy.badness.BADNESS_RE {why}, which newsclean.cleaners.lines needs to skip is_bad")

    tree = list(P.parse(BADNESS_RE.pattern, BADNESS_RE.flags))
    if len(tree) != 1 or tree[0][0] is not C.BRANCH:
        raise unreadable("is not a plain alternation")
    required: set[int] = set()
    for alt in tree[0][1][1]:
        cands = [s for op, av in alt if (s := chars(op, av)) and all(c >= 0x80 for c in s)]
        if not cands:
            raise unreadable("has an alternative without a mandatory non-ASCII class")
        required |= min(cands, key=lambda s: (sum(c == 0xA0 or 0x2000 <= c < 0x2070 for c in s), len(s)))
    return re.compile(_char_class(required))


_FTFY_SPECIAL, _FTFY_QUOTE, _FTFY_SPECIAL_CHARS = _ftfy_tables()
_MOJIBAKE_REQUIRED = _mojibake_required()


_REGEX_ESCAPE = "\\x{{{:x}}}"  # a code point as Rust's regex (polars) and RE2 read it: \x{1f600}


def _scalar_ranges(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The ranges less the surrogates: Arrow text and UTF-8 hold none, and Rust's regex rejects them."""
    out = []
    for lo, hi in ranges:
        out += [(a, b) for a, b in ((lo, min(hi, 0xD7FF)), (max(lo, 0xE000), hi)) if a <= b]
    return out


def _regex_class(codepoints: set[int]) -> str:
    """A character class of `codepoints` as polars' regular expressions read it (the surrogates
    left out: Arrow text holds none)."""
    return _ranges_class(_scalar_ranges(_runs(codepoints)), _REGEX_ESCAPE)


@lru_cache(maxsize=1)
def _columnar_tables() -> tuple[str, str, str, str]:
    """The patterns of line_forms_many: a character that sends a line to normalise_line (a
    separator, a character of ftfy's per-character fixers other than quotes and line ends, a
    character mojibake needs), ftfy's single and double curly quotes, and a run of spaces to fold
    within a line (_SPACES_TO_FOLD less the line ends)."""
    special = _FTFY_SPECIAL_CHARS | _class_chars(_HAS_SEPARATOR) | _class_chars(_MOJIBAKE_REQUIRED)
    spaces = (_class_chars(re.compile("[" + _SPACE_CHARS + "]")) | {0x20}) - {ord("\r"), ord("\n")}
    other = _regex_class(spaces - {0x20})
    either = _regex_class(spaces)
    return (_regex_class(special - {ord("\r"), ord("\n")}), _regex_class(_class_chars(chardata.SINGLE_QUOTE_RE)),
            _regex_class(_class_chars(chardata.DOUBLE_QUOTE_RE)), f" {either}+|{other}{either}*")


# ftfy.badness.is_bad is BADNESS_RE.search, a long alternation that Python's backtracking engine
# tries at every position (a few MB/s). _explicit_pattern writes the same pattern for the automaton
# engines, RE2 (one text at a time) and Rust's regex (polars, a column at once), which answer in one
# pass: whether a match exists does not depend on which alternative an engine prefers. Python's own
# meaning of every character class, \s and \w included, is written out as code point ranges; a
# construct it cannot write so stops the run (UpstreamMismatch) instead of answering differently.
_CATEGORY_ESCAPES = {C.CATEGORY_SPACE: r"\s", C.CATEGORY_NOT_SPACE: r"\S", C.CATEGORY_WORD: r"\w",
                     C.CATEGORY_NOT_WORD: r"\W", C.CATEGORY_DIGIT: r"\d", C.CATEGORY_NOT_DIGIT: r"\D"}
_TRANSLATED_FLAGS = re.VERBOSE | re.UNICODE  # what changes nothing the translation writes (VERBOSE only the parse)


def _every_code_point() -> str:
    """U+0000 to U+10FFFF in order, lone surrogates included: built as UTF-32-LE bytes (code point c
    is c & 255, c >> 8 & 255, c >> 16, 0), ten times faster than joining a million chr()s."""
    n = 0x110000
    utf32 = bytearray(4 * n)
    utf32[0::4] = bytes(range(256)) * (n // 256)
    utf32[1::4] = b"".join(bytes([b]) * 256 for b in range(256)) * (n // 65536)
    utf32[2::4] = b"".join(bytes([p]) * 65536 for p in range(n // 65536))
    return utf32.decode("utf-32-le", "surrogatepass")


@lru_cache(maxsize=None)
def _category_ranges(category) -> tuple[tuple[int, int], ...]:
    """The code points Python's engine matches with \\s, \\w, \\d or their negations, as ranges: found
    by that engine itself in a string of every code point (RE2's and Rust's \\s and \\w are other sets)."""
    runs = re.finditer(_CATEGORY_ESCAPES[category] + "+", _every_code_point())
    return tuple((m.start(), m.end() - 1) for m in runs)


def _untranslatable(what: str) -> upstream.UpstreamMismatch:
    return upstream.mismatch("ftfy", f"ftfy.badness.BADNESS_RE has {what}, which newsclean.cleaners.lines cannot "
                             "write for RE2 and polars to run in place of is_bad")


def _explicit_class(items) -> str:
    """A parsed character class ([(op, av)], as in an IN node) as explicit code point ranges."""
    negated = bool(items) and items[0][0] is C.NEGATE
    ranges = []
    for op, av in items[1:] if negated else items:
        if op is C.LITERAL:
            ranges.append((av, av))
        elif op is C.RANGE:
            ranges.append(av)
        elif op is C.CATEGORY and av in _CATEGORY_ESCAPES:
            ranges += _category_ranges(av)
        else:
            raise _untranslatable(f"the class item {op} {av}")
    ranges = _scalar_ranges(ranges)  # overlapping ranges are fine in both engines' classes
    if not ranges:
        raise _untranslatable(f"a class of surrogates only {items}")
    return _ranges_class(ranges, _REGEX_ESCAPE, negated)


def _explicit(nodes) -> str:
    """A parsed pattern (re._parser's nodes) in the syntax RE2 and Rust's regex share, every character class
    written as code point ranges."""
    out = []
    for op, av in nodes:
        if op is C.LITERAL:
            out.append(_explicit_class([(op, av)]))
        elif op is C.NOT_LITERAL:
            out.append(_explicit_class([(C.NEGATE, None), (C.LITERAL, av)]))
        elif op is C.ANY:  # "." without DOTALL: anything but a line feed
            out.append(_explicit_class([(C.NEGATE, None), (C.LITERAL, ord("\n"))]))
        elif op is C.IN:
            out.append(_explicit_class(av))
        elif op is C.AT and av in (C.AT_BEGINNING, C.AT_BEGINNING_STRING):  # "^" without MULTILINE, "\A"
            out.append(r"\A")
        elif op is C.BRANCH:
            out.append("(?:" + "|".join(_explicit(branch) for branch in av[1]) + ")")
        elif op is C.SUBPATTERN and not av[1] and not av[2]:  # a group that sets no flags
            out.append("(?:" + _explicit(av[3]) + ")")
        elif op in (C.MAX_REPEAT, C.MIN_REPEAT):  # greedy or lazy: a match exists in the same texts
            low, high, repeated = av
            bounds = "{%d,}" % low if high is C.MAXREPEAT else "{%d,%d}" % (low, high)
            out.append("(?:" + _explicit(repeated) + ")" + bounds)
        else:
            raise _untranslatable(f"the construct {op} {av}")
    return "".join(out)


def _explicit_pattern(pattern: re.Pattern) -> str:
    """`pattern` for RE2 and polars: the texts in which it finds a match are those in which Python's
    pattern.search does (texts without lone surrogates, which neither engine can take)."""
    if pattern.flags & ~_TRANSLATED_FLAGS:
        raise _untranslatable(f"the flags {re.RegexFlag(pattern.flags & ~_TRANSLATED_FLAGS)!r}")
    return _explicit(P.parse(pattern.pattern, pattern.flags))


@lru_cache(maxsize=1)
def mojibake_pattern() -> str:
    """ftfy.badness.BADNESS_RE for RE2 and polars (has_mojibake's, has_mojibake_many's and the rule
    newsclean.cleaners.rules.mojibake's columnar condition)."""
    return _explicit_pattern(BADNESS_RE)


@lru_cache(maxsize=1)
def _badness_re2():
    return re2.compile(mojibake_pattern())


def has_mojibake(text: str) -> bool:
    """ftfy.badness.is_bad(text), the same answer (the normalisation asks it of lines, the articles
    schema of single texts): False where no character it could flag is present, else BADNESS_RE as
    RE2 runs it (~8 µs a line against is_bad's 10 µs to 0.5 ms), or is_bad itself for a text with a
    lone surrogate (not UTF-8, which RE2 reads)."""
    if text.isascii() or not _MOJIBAKE_REQUIRED.search(text):
        return False
    try:
        return _badness_re2().search(text) is not None
    except UnicodeEncodeError:
        return is_bad(text)


def has_mojibake_many(texts: Sequence[str]) -> list[bool]:
    """has_mojibake of each text, BADNESS_RE searched over all the non-ASCII ones at once by polars
    (Rust's regex; faster than _MOJIBAKE_REQUIRED's screen on long texts, so without it). Texts that
    are not Arrow text (a lone surrogate) are asked of is_bad itself."""
    out = [False] * len(texts)
    held = [i for i, t in enumerate(texts) if not t.isascii()]  # mojibake needs a non-ASCII character
    try:
        column = pl.Series([texts[i] for i in held], dtype=pl.String)
    except (UnicodeEncodeError, pl.exceptions.PolarsError):  # a lone surrogate is not Arrow text
        unfit = {i for i in held if _SURROGATE.search(texts[i])}
        for i in unfit:
            out[i] = is_bad(texts[i])
        held = [i for i in held if i not in unfit]
        column = pl.Series([texts[i] for i in held], dtype=pl.String)
    if held:
        for i, found in zip(held, column.str.contains(mojibake_pattern()).to_list()):
            out[i] = found
    return out


def split_lines(text: str) -> list[str]:
    return _LINE_END.split(text)


def _repair(line: str, keep_curly_quotes: bool) -> str:
    """ftfy.fix_text(line), computed cheaply where possible; the result is always the same.

    fix_text repeats, until nothing changes: HTML unescaping (needs '&'), mojibake repair (only
    runs where ftfy.badness.is_bad finds mojibake), per-character fixers (ligatures, widths,
    quotes, line breaks, surrogates, escapes, control characters) and NFC normalisation. So a line
    with no '&', no character of the per-character fixers other than curly quotes, no mojibake
    before or after straightening its quotes, and that is NFC, comes out of fix_text as the same
    line with its quotes straightened (ftfy's own uncurl_quotes). Anything else takes the full
    fix_text. tests/test_ftfy_gate.py checks the equivalence on a varied sample."""
    if line.isascii():
        # Pure-ASCII lines without entities or control characters are what ftfy leaves alone.
        if not _ascii_suspect(line):
            return line
        return ftfy.fix_text(line, uncurl_quotes=not keep_curly_quotes)
    if _FTFY_SPECIAL.search(line) or has_mojibake(line):
        return ftfy.fix_text(line, uncurl_quotes=not keep_curly_quotes)
    fixed = line
    if not keep_curly_quotes and _FTFY_QUOTE.search(line):
        fixed = fixes.uncurl_quotes(line)
        if has_mojibake(fixed):
            return ftfy.fix_text(line, uncurl_quotes=not keep_curly_quotes)
    if not unicodedata.is_normalized("NFC", fixed):
        return ftfy.fix_text(line, uncurl_quotes=not keep_curly_quotes)
    return fixed


def _repair_full(line: str, keep_curly_quotes: bool) -> str:
    """The reference: ftfy.fix_text on every line (tests compare _repair with it)."""
    return ftfy.fix_text(line, uncurl_quotes=not keep_curly_quotes)


# Separators that are not line ends here become spaces before repair, so that ftfy sees the same
# characters in a line as it will when the clean text is cleaned again (idempotence). NEL (U+0085)
# stays: as a C1 control it may be part of mojibake that ftfy repairs.
_SEPARATORS = str.maketrans({c: " " for c in "\x0b\x0c\x1c\x1d\x1e\x1f\u2028\u2029"})
_HAS_SEPARATOR = re.compile("[\x0b\x0c\x1c-\x1f\u2028\u2029]")  # str.translate with a dict is slow on long lines


def _separators_as_spaces(line: str) -> str:
    return line.translate(_SEPARATORS) if _HAS_SEPARATOR.search(line) else line


def _normalise_once(line: str, keep_curly_quotes: bool) -> str:
    return _SPACES_TO_FOLD.sub(" ", _repair(_separators_as_spaces(line), keep_curly_quotes)).strip()


def normalise_line(line: str, keep_curly_quotes: bool = False) -> str:
    """Normalise until nothing changes: ftfy undoes one layer of mojibake at a time, and folding
    spaces can expose another ("Â" + space), so a normalised line normalises to itself. A line
    that still holds mojibake is mended (_mended) where that leaves none."""
    original = line
    line = _normalised(line, keep_curly_quotes)
    if has_mojibake(line):
        line = _mended(original, keep_curly_quotes) or line
    return line


def _normalised(line: str, keep_curly_quotes: bool) -> str:
    for _ in range(4):
        fixed = _normalise_once(line, keep_curly_quotes)
        if fixed == line:
            break
        line = fixed
    return line


# C1 control characters: ftfy reads them as the Windows-1252 bytes of mojibake, but the five that
# Windows-1252 leaves undefined (0x81, 0x8D, 0x8F, 0x90, 0x9D) survive its repair when the rest of
# their character was lost ("love 'em”\x9d"): no text uses them, so they go.
_C1 = re.compile("[\x80-\x9f]")
# A line longer than this is not repaired piece by piece (ftfy's time grows with pieces x length).
MEND_MAX_CHARS = 20_000


def _mended(line: str, keep_curly_quotes: bool) -> str | None:
    """A raw line in which ftfy leaves mojibake when it repairs the line whole, normalised with
    no mojibake left, or None when that cannot be done. ftfy re-decodes a line whole or not at all,
    so a line that mixes mojibake with text that was never garbled (a template's correct "–" beside
    a double-encoded "wiarygodnoÅ›ci") defeats it; its pieces (_in_pieces) do not. What is still
    bad after that and only a stray C1 control explains is dropped with the control (_C1)."""
    if len(line) > MEND_MAX_CHARS:
        return None
    pieced = _normalised(_in_pieces(_separators_as_spaces(line), keep_curly_quotes), keep_curly_quotes)
    for mended in (pieced, _normalised(_C1.sub("", pieced), keep_curly_quotes)):
        if not has_mojibake(mended):
            return mended
    return None


def _in_pieces(line: str, keep_curly_quotes: bool) -> str:
    """ftfy.fix_text of `line`, or where that leaves mojibake, of its two halves (split at the
    middle space) in turn, down to single words."""
    fixed = ftfy.fix_text(line, uncurl_quotes=not keep_curly_quotes)
    words = line.split(" ")
    if len(words) < 2 or not has_mojibake(fixed):
        return fixed
    half = len(words) // 2
    return (_in_pieces(" ".join(words[:half]), keep_curly_quotes) + " "
            + _in_pieces(" ".join(words[half:]), keep_curly_quotes))


_SURROGATE = re.compile("[\ud800-\udfff]")


@dataclass
class LineForms:
    """What one look at a text's lines over a whole batch found (line_forms_many): per line,
    whether it must go through normalise_line, and its quotes-straightened and folded forms."""

    lines: list[str]  # split_lines(text)
    one_by_one: list[bool]
    straight: list[str]
    folded: list[str]


def line_forms_many(texts: list[str], keep_curly_quotes: bool) -> list[LineForms | None]:
    """For a batch of texts, the scans normalise_lines makes of each line of a non-ASCII text
    without entities or control characters, run over all their lines at once (polars, Rust
    regex): a line with a character ftfy may change other than a curly quote, or one mojibake
    needs (_MOJIBAKE_REQUIRED), is marked to go through normalise_line; on the others ftfy's only
    work is to straighten the quotes, so every line's quotes are straightened and its spaces folded
    and trimmed in one expression each. None for a text those scans do not serve (ASCII, with an
    entity or a control character, or not Arrow text). normalise_lines(text, forms=...) finishes
    each text in its own cleaning step."""
    out: list[LineForms | None] = [None] * len(texts)
    chosen = [i for i, t in enumerate(texts) if not t.isascii() and not _ascii_suspect(t)]
    split = [split_lines(texts[i]) for i in chosen]
    try:
        column = pl.Series("text", [line for lines in split for line in lines], dtype=pl.String)
    except (UnicodeEncodeError, pl.exceptions.PolarsError):  # a lone surrogate is not Arrow text: leave its text out
        keep = [k for k, i in enumerate(chosen) if not _SURROGATE.search(texts[i])]
        chosen, split = [chosen[k] for k in keep], [split[k] for k in keep]
        column = pl.Series("text", [line for lines in split for line in lines], dtype=pl.String)
    needs_ftfy, single, double, spaces = _columnar_tables()
    text = pl.col("text")
    straight = text if keep_curly_quotes else text.str.replace_all(double, '"').str.replace_all(single, "'")
    found = column.to_frame().select(text.str.contains(needs_ftfy).alias("one"), straight.alias("straight"),
                                     straight.str.replace_all(spaces, " ").str.strip_chars(" ").alias("folded"))
    one, straight_lines, folded = (found.get_column(c).to_list() for c in ("one", "straight", "folded"))
    pos = 0
    for i, lines in zip(chosen, split):
        end = pos + len(lines)
        out[i] = LineForms(lines, one[pos:end], straight_lines[pos:end], folded[pos:end])
        pos = end
    return out


def _lines_of(forms: LineForms, keep_curly_quotes: bool) -> list[str]:
    """normalise_line of each line, from the text's LineForms: a line is taken as folded where no
    scan sent it to normalise_line and it is NFC before and after folding (else normalise_line,
    which leaves the rest to ftfy). An ASCII line folds as " ".join(line.split()) does."""
    out = forms.folded.copy()
    for i, line in enumerate(forms.lines):
        if not line.isascii() and (forms.one_by_one[i] or not unicodedata.is_normalized("NFC", forms.straight[i])
                                   or not unicodedata.is_normalized("NFC", out[i])):
            out[i] = normalise_line(line, keep_curly_quotes)
    return out


def normalise_lines(text: str, keep_curly_quotes: bool = False, forms: LineForms | None = None,
                    markdown: bool | None = None) -> list[str]:
    """The text's lines, each normalised, Markdown rendered to plain text (newsclean.cleaners.markdown) and
    hard-wrapped paragraphs joined (newsclean.cleaners.unwrap): one entry per raw line, so list positions are
    raw line numbers. `forms`: the text's line_forms_many entry, when a batch's lines were scanned
    together (the same lines). `markdown`: True renders the lines as Markdown whether or not the text
    reads as Markdown (newsclean.cleaners.markdown.is_markdown, the default's test)."""
    if forms is not None:
        lines = _lines_of(forms, keep_curly_quotes)
    elif _ascii_suspect(text):
        lines = [normalise_line(line, keep_curly_quotes) for line in split_lines(text)]
    # No entity or control character anywhere (_ascii_suspect finds none in a line that the text
    # lacks): an ASCII line has nothing for ftfy or the separators, only spaces and tabs to fold
    # (the same result as normalise_line).
    elif text.isascii():
        lines = [" ".join(line.split()) for line in split_lines(text)]
    else:
        lines = [" ".join(line.split()) if line.isascii() else normalise_line(line, keep_curly_quotes)
                 for line in split_lines(text)]
    # a static-site page's front matter is its metadata (read by the text reader), not its text
    n_front = front_matter.block_lines(text)
    if n_front:
        lines = [""] * n_front + lines[n_front:]
    out = unwrap(plain_lines(lines, markdown))
    if out is not lines:
        # Rendering Markdown or joining wrapped lines made new text ("â¤](url)" became "â¤ " + the
        # next words): it is repaired and folded as cleaning the clean text again will see it.
        out = [new if new == old or not new else normalise_line(new, keep_curly_quotes) for new, old in zip(out, lines)]
    return out


def straighten_quotes(text: str) -> str:
    return text.translate(_CURLY)
