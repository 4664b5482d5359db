"""Whether text labelled as text (a .txt file, a record's text or content field) is HTML markup.

Pages saved with a .txt name and CSV or JSONL exports whose text field holds the page's HTML are
common; read as text, their tags stay in the clean text (or every line reads as debris and the
document is quarantined). Markup is recognised by a document that opens like an HTML page, or by
tags of the block elements that carry a page's text on most of its lines (scraped text with a few
leaked tags stays text).
"""
from __future__ import annotations

import re

SNIFF_CHARS = 5000  # only the start is looked at
MIN_TAGS = 2  # block tags needed when the text does not open like a page (<p> and </p> are two)
MIN_MARKUP_SHARE = 0.5  # of its non-empty lines holding one
_OPENS_LIKE_A_PAGE = re.compile(r"^\s*(?:<!doctype\s+html|<html|<head|<body|<\?xml|<meta|<title|<script|<style|<link|<!--)", re.I)
# block-level elements: inline tags alone (<a>, <b>, <em>) also appear in text about HTML, such as
# a comment form's "You may use these HTML tags: <a href=""> <b> <em> ..."
_TEXT_TAG = re.compile(r"</?(?:p|div|article|section|header|footer|nav|main|br|h[1-6]|li|ul|ol|table|tr|td)(?:\s[^<>]*)?/?>", re.I)


def looks_like_html(text: str) -> bool:
    head = text[:SNIFF_CHARS]
    if _OPENS_LIKE_A_PAGE.search(head):
        return True
    if len(_TEXT_TAG.findall(head)) < MIN_TAGS:
        return False
    # markup on most lines: a fragment or minified page, not text with a few leaked tags
    lines = [line for line in head.splitlines() if line.strip()]
    return sum(1 for line in lines if _TEXT_TAG.search(line)) >= MIN_MARKUP_SHARE * len(lines)


def bytes_look_like_html(data: bytes) -> bool:
    """The same on a file's first bytes (read as Latin-1, which every ASCII-compatible encoding
    shares for the characters of a tag)."""
    return looks_like_html(data[:SNIFF_CHARS].decode("latin-1"))
