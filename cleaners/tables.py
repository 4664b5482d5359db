"""Tables in pipe syntax (GitHub-flavoured Markdown): found by their structure, judged whole.

Scrapers that write Markdown (Firecrawl, Jina Reader, crawl4ai) and the HTML path's own output
show a table as a header row over a delimiter row, then its rows:

    | Rank | State        | Score |
    |------|:-------------|------:|
    | 1    | North Dakota | 82.0  |

Read one line at a time, a row of short cells is shaped like a breadcrumb or a menu ("Home |
News | Sport"), and the line model never saw a table in its training pages. The delimiter row
is what tells a table apart: cells of dashes, as many as the header row's. The decision step
(cleaners.decide) keeps or drops the block as one: kept where it lies inside the article body
or right below it, dropped elsewhere.

Rows may stand apart by blank lines (the HTML path writes one paragraph per row) when the header
and the delimiter row do; a row has the header's number of cells (a delimiter row among the rows
included).
"""
from __future__ import annotations

import re
from typing import Sequence

# a delimiter row: cells of dashes with optional alignment colons, a pipe between them
_DELIMITER = re.compile(r"^\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)+\|?\s*$")
_UNESCAPED_PIPE = re.compile(r"(?<!\\)\|")
MIN_CELLS = 2  # a one-column "table" is a line between pipes, not evidence of one


def cell_count(line: str) -> int:
    """Cells of a pipe-syntax row: its unescaped pipes, less an outer pipe at either end."""
    text = line.strip()
    pipes = len(_UNESCAPED_PIPE.findall(text))
    if not pipes:
        return 0
    return pipes + 1 - text.startswith("|") - (text.endswith("|") and not text.endswith("\\|"))


def table_blocks(texts: Sequence[str], numbers: Sequence[int] | None = None) -> list[tuple[int, int]]:
    """(first, last) indices of each pipe-syntax table among a document's non-empty lines `texts`
    (`numbers`: their line numbers in the document, if it has blank lines): a header row, a
    delimiter row with as many cells (at least MIN_CELLS), and the rows below written as the header
    is: as many cells, an outer pipe where it has one, and as far apart as the header and the
    delimiter row are (GFM ends a table at a blank line; the HTML path writes a blank line between
    any two rows). So a menu under a table ("Share | Tweet | Email") is no row of it."""
    numbers = numbers if numbers is not None else range(len(texts))
    blocks: list[tuple[int, int]] = []
    i, n = 1, len(texts)
    while i < n:
        text = texts[i]
        if "-" in text and "|" in text and _DELIMITER.match(text):
            header, cells = texts[i - 1], cell_count(text)
            if cells >= MIN_CELLS and cell_count(header) == cells:
                outer, step = header.lstrip().startswith("|"), numbers[i] - numbers[i - 1]
                j = i + 1
                while j < n and numbers[j] - numbers[j - 1] == step and "|" in texts[j] \
                        and texts[j].lstrip().startswith("|") == outer and cell_count(texts[j]) == cells:
                    j += 1
                blocks.append((i - 1, j - 1))
                i = j
                continue
        i += 1
    return blocks
