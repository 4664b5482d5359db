"""Tables in pipe syntax: found by their delimiter row (newsclean.cleaners.tables), kept or dropped whole by
the decision (newsclean.cleaners.decide). Read a line at a time, a row of short cells is a breadcrumb
("| Rank | State | Score |"), so before this a Markdown article lost its tables."""
import numpy as np
import pytest

from newsclean.cleaners.decide import decide
from newsclean.cleaners.pipeline import clean_text
from newsclean.cleaners.settings import Settings
from newsclean.cleaners.tables import cell_count, table_blocks

HEADLINE = "State rankings show North Dakota leads on mental health"
PARA_1 = ("The annual report ranks every state on access to care, days of poor mental health and physical "
          "activity. North Dakota came first for the second year running.")
PARA_2 = ("Researchers said the gap between the top and bottom states has widened since the pandemic, with "
          "rural states gaining most.")
TABLE = ["| Rank | State | Score |", "|---|:---|---:|", "| 1 | North Dakota | 82.0 |", "| 2 | Vermont | 80.8 |",
         "| 3 | Nebraska | 78.0 |"]


@pytest.mark.parametrize("lines, blocks", [
    (TABLE, [(0, 4)]),
    (["Rank | State", "--- | ---", "1 | North Dakota", "2 | Vermont"], [(0, 3)]),  # no outer pipes
    (["intro", *TABLE, "after"], [(1, 5)]),
    (TABLE + ["| a | b | c |", "|---|---|---|", "| 1 | 2 | 3 |"], [(0, 7)]),  # a second delimiter row: one block
    (["| a | b |", "|---|---|", "| 1 | 2 |", "| 1 | 2 | 3 |"], [(0, 2)]),  # a row of another width ends it
    (["| a | b |", "|---|---|", "| 1 | 2 |", "1 | 2"], [(0, 2)]),  # so does a row without the outer pipe
    (["| Code | Meaning |", "|---|---|", r"| a \| b | either |"], [(0, 2)]),  # an escaped pipe is text
    # no header cells (trafilatura's output): rows framed by pipes, as many cells each
    (["| Memory: | 16 GB | Weight: | 3.74 pounds |", "| Storage: | 512 GB SSD | Battery: | 9 hours |"], [(0, 1)]),
    (["intro", "| Carrots | 4 | 8 |", "| Garlic | 6 cloves | 12 cloves |", "| Onions | | 3 |", "Share | Tweet | Email"],
     [(1, 3)]),
])
def test_table_blocks(lines, blocks):
    assert table_blocks(lines) == blocks


@pytest.mark.parametrize("lines", [
    ["Home | News | Sport | Weather", "Share | Tweet | Email"],  # menus: no delimiter row
    ["Home | News | Sport", "---", "Article text follows here."],  # a thematic break is no delimiter row
    ["| Home | News |", "|---|---|---|"],  # header and delimiter widths differ
    ["| note |", "|---|"],  # one column
    ["Scores were 1-2 | 3-4 in the final.", "Then --- | --- came next"],  # dashes with words
    ["| Home | News | Sport |", "The council met on Tuesday."],  # one framed line is a menu
    ["| Home | News | Sport |", "| Privacy | Terms |"],  # framed lines of different widths
    ["| Home | News | Sport |", "Home | News | Sport"],  # the second one not framed
    ["| Gas | Strom | DSL |", "| Gas | Strom | DSL |"],  # one framed menu, repeated
])
def test_look_alikes_are_not_tables(lines):
    assert table_blocks(lines) == []


def test_rows_stand_as_far_apart_as_the_header_and_its_delimiter_row():
    spaced = ["| a | b |", "|---|---|", "| 1 | 2 |", "| 3 | 4 |"]
    assert table_blocks(spaced, [1, 3, 5, 7]) == [(0, 3)]  # the HTML path's output: a blank line between rows
    assert table_blocks(spaced, [1, 2, 3, 5]) == [(0, 2)]  # GFM: a blank line ends the table
    assert table_blocks(spaced, [1, 3, 4, 5]) == [(0, 1), (2, 3)]  # the rows closer together: framed rows of their own


def test_a_row_across_a_gap_an_earlier_pass_left_continues_the_table():
    rows = ["| Rank | State |", "|---|---|", "| 1 | North Dakota |"]
    assert table_blocks(rows, [1, 2, 4]) == [(0, 1)]  # a blank line ends a table written without
    # the line between was removed by an earlier pass: the output will show the rows together
    assert table_blocks(rows, [1, 2, 4], bridged=[False, False, True]) == [(0, 2)]


def test_a_table_starts_across_a_gap_an_earlier_pass_left():
    rows = ["| a | b | c |", "| a | b | c |", "| d | e | f |"]
    # rows 1 and 5 with line 3 removed between them: the output shows them a blank line apart
    assert table_blocks(rows, [1, 5, 7]) == [(1, 2)]
    assert table_blocks(rows, [1, 5, 7], bridged=[False, True, False]) == [(0, 2)]
    assert table_blocks(rows, [1, 3, 5]) == [(0, 2)]  # the output itself
    # Markdown rows written together: the rows below keep their own spacing
    assert table_blocks(rows + ["| g | h | i |"], [1, 3, 4, 5], bridged=[False, True, False, False]) == [(0, 3)]
    # a gap no earlier pass left still ends the table
    assert table_blocks(rows, [1, 5, 7], bridged=[False, False, False]) == [(1, 2)]


@pytest.mark.parametrize("line, cells", [("| a | b |", 2), ("a | b | c", 3), ("| a | b", 2), (r"| a \| b |", 1), ("text", 0)])
def test_cell_count(line, cells):
    assert cell_count(line) == cells


def _decide(lines: list[str], proba: list[float]):
    """`lines` as a document gives them: a blank line after each, but between a table's rows."""
    spaced = [part for line in lines for part in ([line] if line.startswith("|") else [line, ""])]
    return decide(spaced, Settings(), debris_proba=np.array(proba))


def test_a_table_inside_the_body_stays_whole_though_the_model_doubts_its_rows():
    lines = ["Home | News | Sport | Weather", HEADLINE, PARA_1, *TABLE, PARA_2]
    decision = _decide(lines, [0.99, 0.9, 0.02, *[0.95] * len(TABLE), 0.02])
    assert decision.title is not None and decision.title.text == HEADLINE
    assert [text for _, text in decision.kept] == [PARA_1, *TABLE, PARA_2]


def test_a_headerless_table_inside_the_body_stays_whole():
    rows = ["| Memory: | 16 GB | Weight: | 3.74 pounds |", "| Storage: | 512 GB SSD | Battery life: | 9 hours |"]
    lines = [HEADLINE, PARA_1, *rows, PARA_2]
    decision = _decide(lines, [0.9, 0.02, 0.95, 0.95, 0.02])
    assert [text for _, text in decision.kept] == [PARA_1, *rows, PARA_2]


def test_a_table_closing_the_article_stays_with_its_heading():
    lines = [HEADLINE, PARA_1, PARA_2, "Rankings", *TABLE, "Share | Tweet | Email"]
    decision = _decide(lines, [0.9, 0.02, 0.02, 0.6, *[0.95] * len(TABLE), 0.99])
    assert [text for _, text in decision.kept] == [PARA_1, PARA_2, "Rankings", *TABLE]
    assert [s.text for s in decision.spans if s.by == "breadcrumb"] == ["Share | Tweet | Email"]


def test_a_table_away_from_the_body_goes_whole_and_is_never_the_title():
    ticker = ["| Index | Close | Change |", "|---|---|---|", "| Dow Jones Industrial Average | 38,000 | +0.5% |",
              "| Nasdaq Composite Index | 16,000 | -0.2% |"]
    lines = [*ticker, HEADLINE, PARA_1, PARA_2]
    decision = _decide(lines, [0.05, 0.9, 0.05, 0.05, 0.9, 0.02, 0.02])
    assert decision.title is not None and decision.title.text == HEADLINE
    assert [text for _, text in decision.kept] == [PARA_1, PARA_2]
    assert [(s.text, s.kind, s.by) for s in decision.spans] == [(row, "boilerplate", "table") for row in ticker]


def test_a_markdown_article_keeps_its_table_and_its_output_cleans_to_itself():
    doc = "\n\n".join(["Home | News | Sport | Weather", HEADLINE, "By Jane Doe, March 3, 2025", PARA_1,
                       "\n".join(TABLE), PARA_2, "Share | Tweet | Email"])
    first = clean_text(doc, Settings())
    assert first.title == HEADLINE
    assert first.text == "\n\n".join([PARA_1, *TABLE, PARA_2])
    second = clean_text(first.title + "\n\n" + first.text, Settings())
    assert (second.title, second.text, second.removed) == (first.title, first.text, ())
