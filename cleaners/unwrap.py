"""Hard-wrapped paragraphs joined back into one line each.

Text dumps of web pages (lynx -dump, w3m, html2text), wire copy and e-mail break every paragraph
into lines of at most a fixed width. Read line by line, each piece of a sentence looks like a
fragment (no terminal mark, a partial clause), and the clean text would carry a paragraph break in
the middle of every sentence.

Greedy wrapping leaves a mark that ordinary text does not: a wrapped line ends where the next word
would not have fitted, so `len(line) + 1 + len(next line's first word) > width`. A document is
hard-wrapped when its longest line is no wider than a terminal or mail width and most of its lines
of at least half that width that another line follows meet that test against it; its lines that
meet it are then joined to the next one. Menus and lists (short lines), and the last line of a
paragraph, fail the test and stay on their own. Scraped full-page text, with one block per line,
has lines far longer than any wrapping width and is left alone.

Joined lines keep their place: the pieces after the first become empty lines, so line numbers still
count raw lines (the removed table's `line`), and offsets count in the joined, normalised line.
"""
from __future__ import annotations

MAX_WRAP_WIDTH = 132  # the widest width text is wrapped at (terminals and mail use 64-80, some 100-132)
MIN_WRAP_WIDTH = 40  # narrower than this is a column of short lines (a menu, a list), not wrapping
MIN_WRAPPED_LINES = 3  # joints that meet the test: fewer is too little evidence of wrapping
MIN_WRAPPED_SHARE = 0.6  # of the lines at least half as wide that another line follows


def _wrap_joints(lines: list[str], width: int) -> list[bool]:
    """Per line: whether it ends where greedy wrapping at `width` would have broken it, with the
    next line continuing the paragraph (no blank line between)."""
    joints = [False] * len(lines)
    for i in range(len(lines) - 1):
        line, nxt = lines[i], lines[i + 1]
        if line and nxt:
            first_word = nxt.split(" ", 1)[0]
            joints[i] = len(line) + 1 + len(first_word) > width
    return joints


def _wrapping(lines: list[str]) -> tuple[int, list[bool]] | None:
    """(width, the lines that end where wrapping at it broke them) when the document is
    hard-wrapped, else None."""
    width = max(map(len, lines), default=0)
    if not MIN_WRAP_WIDTH <= width <= MAX_WRAP_WIDTH:
        return None
    joints = _wrap_joints(lines, width)
    # lines at least half the width with another line after them: in wrapped text these are the
    # wrapped lines (and some paragraph ends); short lines in a row are menus and lists either way
    followed = sum(1 for i in range(len(lines) - 1) if 2 * len(lines[i]) >= width and lines[i + 1])
    wrapped = sum(joints)
    if wrapped < MIN_WRAPPED_LINES or wrapped < MIN_WRAPPED_SHARE * followed:
        return None
    return width, joints


def wrap_width(lines: list[str]) -> int | None:
    """The width the document is hard-wrapped at, or None when it is not hard-wrapped."""
    found = _wrapping(lines)
    return found[0] if found is not None else None


def unwrap(lines: list[str]) -> list[str]:
    """`lines` (normalised, empty ones included) with each hard-wrapped paragraph joined into its
    first line and its other lines emptied; the same list when the text is not hard-wrapped."""
    found = _wrapping(lines)
    if found is None:
        return lines
    _, joints = found
    out = list(lines)
    head = None  # the line the current paragraph is being joined into
    for i, joined in enumerate(joints):
        if head is not None:
            out[head] += " " + lines[i]
            out[i] = ""
        head = (i if head is None else head) if joined else None
    return out
