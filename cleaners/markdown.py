"""Markdown input read as the plain text it renders to.

Scrapers made for language models (Firecrawl, Jina Reader, crawl4ai, trafilatura's markdown
output) save pages as Markdown: `[text](url)` links, `![alt](src)` images, `# ` headings,
`**bold**`. Read as plain text, the syntax stays in the clean text and hides what a line is (a
"# Headline", a "**Related:** [..](..)" teaser). A document with several links or headings in
Markdown syntax is Markdown; each of its lines becomes the text Markdown renders: heading and quote
markers and thematic breaks dropped, links and images reduced to their text and alt text,
emphasis, code spans and escapes to their content (markdown-it-py, CommonMark's inline rules).

Lines keep their place (one entry per raw line), so line numbers still count raw lines and the
removed table's offsets count in the rendered line.
"""
from __future__ import annotations

import re
from functools import lru_cache

# Evidence of Markdown: inline links or images, and ATX headings at the start of a line
_LINK = re.compile(r"!?\[[^\]\n]*\]\([^()\s]*(?:\s+\"[^\"\n]*\")?\)")
_HEADING_LINE = re.compile(r"(?m)^ {0,3}#{1,6}[ \t]+\S")
MIN_LINKS = 3
MIN_LINK_LINE_SHARE = 0.01  # of the non-empty lines: Markdown is written throughout a document
MIN_HEADINGS = 2

_HEADING = re.compile(r"^ {0,3}#{1,6}(?:[ \t]+|$)(.*?)(?:[ \t]+#+)?[ \t]*$")
_QUOTE = re.compile(r"^(?: {0,3}>[ \t]?)+")
_RULE = re.compile(r"^ {0,3}(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,}|`{3,}.*|~{3,}.*|=+)$")
_TEXT_TOKENS = frozenset({"text", "text_special", "code_inline"})


def is_markdown(text: str) -> bool:
    """Whether the document is written in Markdown: inline links or images on several lines and on
    at least one line in a hundred, or headings and a link. (Headings alone are not enough: "# "
    also starts the comments of shell and Python code that technical pages show. A few link-shaped
    strings in a long page's text are what the page shows, such as a reference list a CMS did not
    render: they stay as they are.)"""
    if "](" not in text:
        return False
    links = _LINK.findall(text)
    if links and len(_HEADING_LINE.findall(text)) >= MIN_HEADINGS:
        return True
    if len(links) < MIN_LINKS:
        return False
    lines = [line for line in text.split("\n") if line.strip()]
    with_link = sum(1 for line in lines if "](" in line and _LINK.search(line))
    return with_link >= MIN_LINK_LINE_SHARE * len(lines)


@lru_cache(maxsize=1)
def _parser():
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark")


def _inline_text(tokens) -> str:
    out: list[str] = []
    for tok in tokens:
        if tok.type in _TEXT_TOKENS:
            out.append(tok.content)
        elif tok.type == "image":
            out.append(_inline_text(tok.children or []))  # the alt text
        elif tok.type in ("softbreak", "hardbreak"):
            out.append(" ")
    return "".join(out)


def plain_line(line: str) -> str:
    """One line of Markdown as the text it renders to (white space folded)."""
    if _RULE.match(line):
        return ""
    line = _QUOTE.sub("", line)
    heading = _HEADING.match(line)
    if heading:
        line = heading.group(1)
    if not line:
        return ""
    tokens = _parser().parseInline(line)
    text = _inline_text(tokens[0].children or []) if tokens else line
    return " ".join(text.split())


def plain_lines(lines: list[str], markdown: bool | None = None) -> list[str]:
    """`lines` (one document's normalised lines) rendered from Markdown when the document is
    Markdown (`markdown`: True renders them whatever is_markdown finds); the same list otherwise."""
    if not (markdown if markdown is not None else is_markdown("\n".join(lines))):
        return lines
    return [plain_line(line) if line else line for line in lines]
