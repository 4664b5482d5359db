"""newsclean.cleaners.html_blocks: the run a block sits in, its topic fit, its list or table, and
repeated patterns."""
from __future__ import annotations

import numpy as np

from newsclean.cleaners.extract_html import parse_html
from newsclean.cleaners.html_blocks import TAGS, feature_names, list_context, list_groups, page_blocks, sequence_context, topic_fit


def test_gaps_to_the_body_on_each_side():
    chars = np.array([10.0, 20.0, 30.0, 40.0, 50.0])
    in_body = np.array([0.0, 1.0, 0.0, 0.0, 1.0])
    out = sequence_context(chars, np.zeros(5), np.zeros(5, dtype=np.int32), in_body)
    # block 3: block 2's 30 characters since the body block before it, none before the next one
    assert out["body_gap_before"][3] == np.log1p(30.0) and out["body_gap_after"][3] == 0.0
    assert out["body_gap_before"][0] == -1.0  # no body before the first block
    assert out["body_gap_after"][4] == -1.0  # nor after the last
    assert out["body_gap_after"][0] == 0.0
    # the body's characters before each block: 20 of 70 from block 2 on
    assert np.allclose(out["body_before_share"], [0.0, 0.0, 20 / 70, 20 / 70, 20 / 70])
    assert out["body_chars"][0] == np.log1p(70.0) and out["page_chars"][0] == np.log1p(150.0)


def test_neighbours_size_and_links_padded_past_the_ends():
    chars = np.array([9.0, 99.0, 999.0])
    links = np.array([1.0, 0.5, 0.0])
    out = sequence_context(chars, links, np.zeros(3, dtype=np.int32), np.zeros(3))
    assert np.allclose(out["prev1_chars"], [-1.0, np.log1p(9.0), np.log1p(99.0)])
    assert np.allclose(out["next2_chars"], [np.log1p(999.0), -1.0, -1.0])
    assert np.allclose(out["next1_link"], [0.5, 0.0, -1.0])
    assert np.allclose(out["prev3_link"], [-1.0, -1.0, -1.0])


def test_a_tag_run_is_decided_together():
    tags = np.array([0, 1, 1, 1, 0], dtype=np.int32)
    chars = np.full(5, 10.0)
    in_body = np.array([1.0, 1.0, 0.0, 0.0, 1.0])
    out = sequence_context(chars, np.zeros(5), tags, in_body)
    assert out["tag_run_blocks"].tolist() == [1.0, 3.0, 3.0, 3.0, 1.0]
    assert np.allclose(out["tag_run_in_body"][1:4], 1 / 3)


def test_no_blocks():
    assert all(len(v) == 0 for v in sequence_context(np.zeros(0), np.zeros(0), np.zeros(0, dtype=np.int32), np.zeros(0)).values())
    assert all(len(v) == 0 for v in topic_fit([], "", np.zeros(0), np.zeros(0, dtype=np.int32)).values())


BODY = ("The council approved the new river bridge after a long debate.\n"
        "Engineers expect the bridge over the river to open next spring.")
TEXTS = ["The council approved the new river bridge after a long debate.",
         "Engineers expect the bridge over the river to open next spring.",
         "Bridge river council spring",  # on topic, outside the body (a list item trafilatura missed)
         "Celebrity chef opens bakery downtown with croissants",  # another article's text
         "Home"]


def test_topic_fit_against_the_rest_of_the_body():
    out = topic_fit(TEXTS, BODY, np.array([1.0, 1.0, 0.0, 0.0, 0.0]), np.zeros(5, dtype=np.int32))
    fit = out["topic_fit"]
    assert fit[2] == 1.0  # every content word is in the body
    assert fit[3] == 0.0
    assert fit[4] == 0.0
    # a body block is judged against the rest of the body: its own words do not count
    assert 0.0 < fit[0] < 1.0 and 0.0 < fit[1] < 1.0


def test_topic_fit_is_not_credited_by_the_block_itself():
    lone = "Celebrity chef opens bakery downtown with croissants"
    out = topic_fit([lone], lone, np.array([1.0]), np.zeros(1, dtype=np.int32))
    assert out["topic_fit"][0] == 0.0  # the body holds only the block: nothing else is about it
    out = topic_fit([lone], lone, np.array([0.0]), np.zeros(1, dtype=np.int32))
    assert out["topic_fit"][0] == 1.0  # the body holds it elsewhere


def test_heading_fit_and_blocks_without_content_words():
    tags = np.array([TAGS.index("h1"), 0, 0], dtype=np.int32)
    out = topic_fit(["River bridge approved", "The bridge opens in spring", "and the"], "", np.zeros(3), tags)
    assert out["heading_fit"][0] == 1.0
    assert 0.0 < out["heading_fit"][1] < 1.0
    assert out["heading_fit"][2] == -1.0 and out["topic_fit"][2] == -1.0  # only function words


PAGE = """<html><body>
<p>The council approved the new river bridge after a long debate.</p>
<table><tr><td>Bridge length</td><td>120 metres</td></tr><tr><td>River depth</td><td>8 metres</td></tr></table>
<p>Engineers expect the bridge over the river to open next spring.</p>
<ul><li>Item 1</li><li>Item 2<ol><li>Inner</li></ol></li><li>Item two</li></ul>
</body></html>"""


def test_list_and_table_context_on_a_page():
    table = page_blocks(parse_html(PAGE), BODY)
    rows = {r["text"]: r for r in table.iter_rows(named=True)}
    cell, para = rows["Bridge length"], rows["The council approved the new river bridge after a long debate."]
    assert cell["list_group"] == rows["8 metres"]["list_group"] == 1
    assert cell["list_blocks"] == 4.0 and cell["list_in_body"] == 0.0
    assert cell["list_gap_before"] == 0.0 and cell["list_gap_after"] == 0.0  # the body on both sides
    # half the content words of "Bridge length" and "River depth" are the body's, none of "metres":
    # by characters, (12 + 10) / 2 of the cells' 38
    assert abs(cell["list_topic_fit"] - 11 / 38) < 1e-9
    assert para["list_group"] == -1 and para["list_in_body"] == -1.0
    # the innermost list: the nested item is a group of its own
    assert rows["Inner"]["list_group"] != rows["Item 1"]["list_group"] == rows["Item two"]["list_group"]
    assert "list_group" not in feature_names(table)


def test_repeated_patterns_fold_digits_only():
    table = page_blocks(parse_html(PAGE), BODY)
    rows = {r["text"]: r for r in table.iter_rows(named=True)}
    assert rows["Item 1"]["pattern_repeats"] == rows["Item 2"]["pattern_repeats"] == 1.0
    assert rows["Item 1"]["repeats"] == 0.0
    assert rows["Item two"]["pattern_repeats"] == 0.0  # a word, not a number
    assert rows["120 metres"]["pattern_repeats"] == rows["8 metres"]["pattern_repeats"] == 1.0


def test_list_context_without_lists():
    out = list_context(list_groups([0, 0]), np.ones(2), np.ones(2), np.ones(2), np.zeros(2), np.zeros(2))
    assert all((v == -1.0).all() for v in out.values())



def test_a_thread_opens_below_the_start_of_the_body():
    from newsclean.cleaners.html_blocks import thread_opener

    texts = ["Menu", "The article's first paragraph.", "More of the article.", "12 Comments", "Jane said:", "A post."]
    assert thread_opener(texts, np.array([0.0, 1.0, 1.0, 0.0, 0.0, 0.0])) == 3
    # a count between two parts of the body opens one too (page_body weighs the body below it)
    assert thread_opener(["First part.", "124 Comments", "Second part."], np.array([1.0, 0.0, 1.0])) == 1


def test_a_comment_count_over_the_article_or_a_reply_form_opens_no_thread():
    from newsclean.cleaners.html_blocks import thread_opener

    # a count above the body's first block (a byline's "12 Comments") opens nothing
    assert thread_opener(["12 Comments", "The article."], np.array([0.0, 1.0])) is None
    # a reply form's title opens no thread; a page without trafilatura's body has no "below"
    assert thread_opener(["The article.", "Leave a Reply", "Name"], np.array([1.0, 0.0, 0.0])) is None
    assert thread_opener(["Story", "3 comments", "x"], np.zeros(3)) is None
