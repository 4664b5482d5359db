"""What cuts of a line leave of it: the pieces between them, joined by a space and white space
collapsed; with a map from each character left to the offset it came from. The decider
(newsclean.cleaners.decide) keeps a cut line's text so, the passes after the first
(newsclean.cleaners.fixpoint) map their cuts back through it, and the damage rule
(newsclean.cleaners.rules.mojibake) checks what its cuts would leave."""
from __future__ import annotations

from typing import Iterable, Sequence


def text_left(text: str, cuts: Iterable[tuple[int, int]]) -> str:
    """What non-overlapping cuts (start, end) of a line leave of it: the pieces between them, white
    space collapsed (text_left_mapped's text)."""
    return text_left_mapped(text, range(len(text)), cuts)[0]


def text_left_mapped(text: str, offsets: Sequence[int], cuts: Iterable[tuple[int, int]]) -> tuple[str, list[int]]:
    """text_left, and for each of its characters the offset it came from: offsets[i] for text[i]
    (a line cut before keeps mapping to the original line, newsclean.cleaners.fixpoint); a space
    that joins two pieces maps to where the cut began."""
    pieces: list[str] = []
    piece_offsets: list[int] = []
    pos = 0
    for s, e in sorted(cuts) + [(len(text), len(text))]:
        if s > pos:
            pieces.append(text[pos:s])
            piece_offsets.extend(offsets[pos:s])
        if s < len(text):
            pieces.append(" ")  # the pieces are joined with a space
            piece_offsets.append(offsets[s])
        pos = max(pos, e)
    joined = "".join(pieces)
    out: list[str] = []
    out_offsets: list[int] = []
    start = 0
    for word in joined.split():
        start = joined.find(word, start)  # only white space lies between the last word and this one
        if out:
            out_offsets.append(out_offsets[-1] + 1)  # the collapsed space: one past the word before
        out.append(word)
        out_offsets.extend(piece_offsets[start:start + len(word)])
        start += len(word)
    return " ".join(out), out_offsets
