"""Tables in pipe syntax: found by their structure, judged whole.

Scrapers that write Markdown (Firecrawl, Jina Reader, crawl4ai) and the HTML path's own output
(trafilatura's) show a table as a header row over a delimiter row, then its rows (GitHub-flavoured
Markdown):

    | Rank | State        | Score |
    |------|:-------------|------:|
    | 1    | North Dakota | 82.0  |

or, for a table without header cells (trafilatura), as rows framed by pipes alone:

    | Memory:  | 16 GB      | Weight:              | 3.74 pounds |
    | Storage: | 512 GB SSD | Tested battery life: | 9 hours     |

Read one line at a time, a row of short cells is shaped like a breadcrumb or a menu ("Home |
News | Sport"), and the line model never saw a table in its training pages. The structure is what
tells a table apart: a delimiter row (cells of dashes, as many as the header row's), or at least
MIN_FRAMED_ROWS different rows that each open and close with a pipe and have as many cells (a
menu is one line, rarely framed, and the same line where a page repeats it). The decision step (newsclean.cleaners.decide) keeps or drops the block as one:
kept where it lies inside the article body or right below it, dropped elsewhere.

Rows may stand apart by blank lines (the HTML path writes one paragraph per row) when the first two
lines do; every row has the first row's number of cells.
"""
from __future__ import annotations

import re
from typing import Sequence

# a delimiter row: cells of dashes with optional alignment colons, a pipe between them
_DELIMITER = re.compile(r"^\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)+\|?\s*$")
_UNESCAPED_PIPE = re.compile(r"(?<!\\)\|")
MIN_CELLS = 2  # a one-column "table" is a line between pipes, not evidence of one
MIN_FRAMED_ROWS = 2  # rows framed by pipes, without a delimiter row, that make a table
MAX_ROW_GAP = 2  # line numbers between two rows: adjacent, or one blank line apart


def cell_count(line: str) -> int:
    """Cells of a pipe-syntax row: its unescaped pipes, less an outer pipe at either end."""
    text = line.strip()
    pipes = len(_UNESCAPED_PIPE.findall(text))
    if not pipes:
        return 0
    return pipes + 1 - text.startswith("|") - (text.endswith("|") and not text.endswith("\\|"))


def _framed(text: str) -> bool:
    text = text.strip()
    return len(text) > 1 and text[0] == "|" and text[-1] == "|" and not text.endswith("\\|")


def table_blocks(texts: Sequence[str], numbers: Sequence[int] | None = None,
                 bridged: Sequence[bool] | None = None) -> list[tuple[int, int]]:
    """(first, last) indices of each pipe-syntax table among a document's non-empty lines `texts`
    (`numbers`: their line numbers in the document, if it has blank lines). A table starts with a
    header row over a delimiter row with as many cells (at least MIN_CELLS), or with two rows framed
    by pipes with as many cells; the rows below are written as its first row is: as many cells, an
    outer pipe where it has one, and as far apart as its first two lines are (GFM ends a table at a
    blank line; the HTML path writes a blank line between any two rows). So a menu under a table
    ("Share | Tweet | Email") is no row of it. `bridged[j]`: the gap above line j is one that lines
    removed by an earlier decision pass left, which the output closes; a row there continues its table,
    and a table may start across it."""
    numbers = numbers if numbers is not None else range(len(texts))
    bridged = bridged if bridged is not None else [False] * len(texts)
    blocks: list[tuple[int, int]] = []
    i, n = 0, len(texts)
    while i + 1 < n:
        head, second = texts[i], texts[i + 1]
        step = numbers[i + 1] - numbers[i]
        if "|" not in head or "|" not in second or (step > MAX_ROW_GAP and not bridged[i + 1]):
            i += 1
            continue
        if bridged[i + 1]:
            # the output closes the gap between the first two rows: the rows stand as far apart as
            # the next two do (as the output's rows all do), or as the HTML path writes them
            step = numbers[i + 2] - numbers[i + 1] if i + 2 < n and not bridged[i + 2] else MAX_ROW_GAP
        cells = cell_count(second)
        delimited = "-" in second and _DELIMITER.match(second) is not None
        framed = not delimited and _framed(head) and _framed(second)
        if cells < MIN_CELLS or cell_count(head) != cells or not (delimited or framed):
            i += 1
            continue
        outer = head.lstrip().startswith("|")
        j = i + 2
        while j < n and (numbers[j] - numbers[j - 1] == step or bridged[j]) and "|" in texts[j] \
                and texts[j].lstrip().startswith("|") == outer and cell_count(texts[j]) == cells \
                and (delimited or _framed(texts[j])):
            j += 1
        # framed rows that repeat one text are a menu shown twice, not a table
        if delimited or len({texts[k].strip() for k in range(i, j)}) >= MIN_FRAMED_ROWS:
            blocks.append((i, j - 1))
        i = j
    return blocks
