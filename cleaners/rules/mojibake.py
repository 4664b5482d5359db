"""Mojibake that no repair undoes: newsclean.cleaners.lines repairs a line with ftfy, whole or piece
by piece, but where a character's bytes were lost before the text was saved ("Pricing ✠âœ": a
check mark whose third byte a scraper took for a line break) nothing can bring the character back.
Each word that holds such a run is cut, so that the article keeps the rest of its text instead of
failing the articles table's text check (which quarantines the whole document), and the cut is a
`removed` row that says what went.

The runs are those ftfy.badness flags (newsclean.cleaners.lines.has_mojibake, the text check's
own test) in the line as the article's text holds it (reads_as_mojibake), cut a word at a time; a
line left with nothing else goes whole. No named kind covers damage, so these are `boilerplate`
under their own rule name.
"""
from __future__ import annotations

from ftfy.badness import BADNESS_RE

from newsclean.cleaners.lines import has_mojibake, mojibake_pattern
from newsclean.cleaners.rules.base import Doc, Line, Proposal, when, whole_line
from newsclean.cleaners.text_left import text_left

RULE = "unrepairable_mojibake"
# Cutting a word can bring two others together into a new run; past this many rounds the line goes whole
ROUNDS_MAX = 4


def mojibake_words(text: str) -> list[tuple[int, int]]:
    """The (start, end) of each run of whole words of `text` (white-space delimited) where mojibake
    starts, in order and apart from one another; what they leave (joined by spaces) holds none.
    [] for a text without mojibake; [(0, len(text))] where nothing else would be left clean."""
    cuts: list[tuple[int, int]] = []
    for _ in range(ROUNDS_MAX):
        if not reads_as_mojibake(text_left(text, cuts)):
            return cuts
        # the word where each run starts: a run may reach into the next word ("âœ C": a check mark's
        # remains before "Community"), which is cut only if it still reads as mojibake without it
        runs = BADNESS_RE.finditer(_in_text(_masked(text, cuts)))
        cuts = _merged(cuts + [_word_span(text, min(max(m.start() - 1, 0), len(text) - 1)) for m in runs])
    return [(0, len(text))] if reads_as_mojibake(text_left(text, cuts)) else cuts


def without_damaged_words(text: str) -> str:
    """`text` less its words of mojibake no repair undoes (mojibake_words), white space collapsed:
    for a title from a record's or a page's metadata, which has no line of the text to be cut from."""
    cuts = mojibake_words(text)
    return text_left(text, cuts) if cuts else text


def _in_text(line: str) -> str:
    """A line as an article's text holds it, between line breaks."""
    return "\n" + line + "\n"


def reads_as_mojibake(line: str) -> bool:
    """has_mojibake of the line where the article's text holds it: some runs read as mojibake only
    before a line break ("âœ" ends a line: ftfy's pattern wants "œ" before white space or a mark),
    and the articles table's check reads the whole text."""
    return has_mojibake(_in_text(line))


def _masked(text: str, cuts: list[tuple[int, int]]) -> str:
    """`text` with each cut run shown as a space (the same offsets; a run already cut matches no more)."""
    out = list(text)
    for s, e in cuts:
        out[s:e] = " " * (e - s)
    return "".join(out)


def _word_span(text: str, at: int) -> tuple[int, int]:
    """The word (a white-space delimited run) around offset `at`; a white space there: that space.
    Whole words only: what a cut leaves is made of the line's own words, none split in two."""
    start, end = at, at + 1
    while start > 0 and not text[start - 1].isspace():
        start -= 1
    while end < len(text) and not text[end].isspace():
        end += 1
    return start, end


def _merged(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for s, e in sorted(spans):
        if out and s <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], e))
        else:
            out.append((s, e))
    return out


def _may_hold_mojibake():
    """reads_as_mojibake by has_mojibake's own pattern (newsclean.cleaners.lines.mojibake_pattern), run
    by polars."""
    import polars as pl

    return pl.concat_str([pl.lit("\n"), pl.col("text"), pl.lit("\n")]).str.contains(mojibake_pattern())


@when(_may_hold_mojibake)
def unrepairable_mojibake(line: Line, doc: Doc) -> Proposal | tuple[Proposal, ...] | None:
    """The words of the line that hold mojibake the repair left, one strong cut each (the line
    whole where nothing else is left)."""
    text = line.text
    if not reads_as_mojibake(text):
        return None
    cuts = mojibake_words(text)
    if not text_left(text, cuts):
        return whole_line("boilerplate", RULE)
    return tuple(Proposal("boilerplate", RULE, start=s, end=e) for s, e in cuts)
