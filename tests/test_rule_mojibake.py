"""Mojibake no repair undoes (newsclean.cleaners.rules.mojibake): where a character's bytes were lost
before the text was saved, the damaged words are cut and recorded, and the article keeps the rest
instead of failing the articles table's text check; debris lines that hold such words keep the kind
their other proposals give them; clean text in any script, "cœur" and "SÃO PAULO" among it, stays."""
from __future__ import annotations

import pytest

from newsclean.cleaners.batch import clean_sources
from newsclean.cleaners.pipeline import clean_document, clean_text
from newsclean.cleaners.rules.mojibake import RULE, mojibake_words, unrepairable_mojibake
from newsclean.cleaners.settings import Settings
from newsclean.cleaners.types import RawDocument
from newsclean.schemas.tables import text_problem
from tests.ruletools import BODY, alone, article

# Check marks ("\u2705", UTF-8 E2 9C 85) read as Windows-1252 that then lost their third byte (0x85 is
# a line break to Python's str.splitlines): no repair can restore them. Normalised, the pair ends its
# line as "\u2720\u00e2\u0153" (ftfy takes "\u00e2\x9c " for a character whose last byte was a space).
CHECKS = "Pricing \u00e2\x9c \u00e2\x9c"
ROW = "Free for small teams, and paid plans start at five dollars a month. Open source \u00e2\x9c \u00e2\x9c"
KEPT = "Free for small teams, and paid plans start at five dollars a month. Open source"


@pytest.mark.parametrize("line", [
    "Le c\u0153ur de la ville et la s\u0153ur du maire, \u0152uvre compl\u00e8te.",
    "S\u00c3O PAULO \u00e9 a maior cidade do Brasil",
    "\u00c4rger \u00fcber die Stra\u00dfe, na\u00efve caf\u00e9",
    "\u041c\u043e\u0441\u043a\u0432\u0430 \u2014 \u0441\u0442\u043e\u043b\u0438\u0446\u0430 \u0420\u043e\u0441\u0441\u0438\u0438",
    "\u4e2d\u6587\u65b0\u95fb \u2705 done \u2014 \U0001f600 \u201cquoted\u201d",
])
def test_clean_text_in_any_script_is_left_alone(line):
    assert alone(unrepairable_mojibake, line) is None
    assert mojibake_words(line) == []


def test_the_damaged_words_are_cut_and_the_rest_kept():
    text = "Open source \u2720\u00e2\u0153 Free for small teams"
    (cut,) = alone(unrepairable_mojibake, text)
    assert (cut.kind, cut.rule, text[cut.start:cut.end]) == ("boilerplate", RULE, "\u2720\u00e2\u0153")
    # "âœ" ending a line reads as mojibake only before the next paragraph, as the article's text holds it
    (cut,) = alone(unrepairable_mojibake, "Pricing \u2720\u00e2\u0153")
    assert (cut.start, cut.end) == (8, 11)
    assert alone(unrepairable_mojibake, "\u2720\u00e2\u0153").end is None  # nothing else left: the whole line


def test_an_article_with_damaged_words_is_kept_without_them():
    text = article(middle=[ROW, BODY[0] + " " + CHECKS])
    doc = clean_text(text, Settings())
    assert text_problem(doc.text) is None
    assert KEPT in doc.text.split("\n\n") and BODY[0] + " Pricing" in doc.text
    cuts = [s for s in doc.removed if s.by == RULE]
    assert [s.text for s in cuts] == ["\u2720\u00e2\u0153"] * 2 and not any(s.whole_line for s in cuts)
    # cleaning the output again finds nothing more
    again = clean_text((doc.title + "\n\n" if doc.title else "") + doc.text, Settings())
    assert (again.text, again.removed) == (doc.text, ())


def test_a_debris_line_with_damaged_words_keeps_its_kind():
    # a language menu below the story: navigation, damaged or not
    line = "\u0420\u0443\ufffd\ufffd\u043a\u0438\u0439"
    intact = clean_text(article(after=["English", "\u0420\u0443\u0441\u0441\u043a\u0438\u0439"]), Settings())
    damaged = clean_text(article(after=["English", line]), Settings())
    assert {s.text: (s.kind, s.by) for s in damaged.removed}[line] == \
        {s.text: (s.kind, s.by) for s in intact.removed}["\u0420\u0443\u0441\u0441\u043a\u0438\u0439"]


def test_a_run_keeps_the_article_instead_of_quarantining_it(tmp_path):
    (tmp_path / "story.txt").write_text(article(middle=[ROW]), encoding="utf-8")
    html = ("<html><head><title>Tools</title></head><body><article><h1>Tools we tried</h1>"
            + "".join(f"<p>{p}</p>" for p in [BODY[0], ROW, BODY[1], BODY[2]]) + "</article></body></html>")
    (tmp_path / "page.html").write_text(html, encoding="utf-8")
    result = clean_sources(tmp_path, ["story.txt", "page.html"], Settings())
    assert result.quarantine == []
    doc = clean_document(RawDocument(source="page.html", data=html.encode(), format="html"), Settings())
    assert text_problem(doc.text) is None and KEPT in doc.text.split("\n\n")
    assert [s.by for s in doc.removed if s.by == RULE] == [RULE]


@pytest.mark.parametrize("row, kept", [
    ("| Pricing | \u00e2\u0153, yes | no |", "| Pricing | yes | no |"),
    # a damaged word glued to a pipe would take the pipe with it: the row stays whole (its document
    # fails the text check, as before the cut existed), never with a cell fewer nor a word split in two
    ("| Pricing | \u00e2\u0153| \u00e2\u0153|", None),
    ("|Pricing|\u00e2\u0153|\u00e2\u0153|", None),
])
def test_a_table_keeps_its_rows_and_cells_with_the_damaged_words_cut(row, kept):
    table = ["| Plan | Buses | Trams |", "|---|---|---|", row, "| Support | yes | no |"]
    text = "\n\n".join(["Council backs bigger bus network", *BODY[:2]]) + "\n\n" + "\n".join(table) + "\n\n" + BODY[2]
    doc = clean_text(text, Settings())
    rows = [p for p in doc.text.split("\n\n") if p.startswith("|")]
    if kept is None:
        assert rows == table and {s.by for s in doc.removed} == set()
        return
    assert text_problem(doc.text) is None
    assert rows == [table[0], table[1], kept, table[3]]
    assert {s.by for s in doc.removed} == {RULE}
    assert clean_text(doc.title + "\n\n" + doc.text, Settings()).removed == ()


def test_a_title_from_metadata_loses_its_damaged_words_too():
    # a record's title has no line of the text to be cut from
    meta = {"title": "Tools we tried, compared \u00e2\u0153"}
    raw = RawDocument(source="r.jsonl#L1", data=article(title=None).encode(), format="text", meta=meta)
    doc = clean_document(raw, Settings())
    assert (doc.title, doc.title_source) == ("Tools we tried, compared", "record")
