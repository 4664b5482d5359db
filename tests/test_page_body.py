"""newsclean.cleaners.page_body: the HTML path's body chosen block by block over the whole page
(settings.html_body = "page"), trafilatura's choice one piece of evidence among the markup's."""
from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Callable

import numpy as np
import polars as pl
import pytest

import newsclean.cleaners.page_body as page_body
from newsclean.cleaners.extract_html import extract_html, parse_html
from newsclean.cleaners.html_blocks import TAGS, page_blocks
from newsclean.cleaners.model.train_page_body import feature_columns
from newsclean.cleaners.pipeline import clean_document
from newsclean.cleaners.settings import Settings
from newsclean.cleaners.types import RawDocument

PAGES = Path(__file__).parent / "data" / "html_pages"
PARAGRAPHS = [
    "The council voted on Tuesday to rebuild the old harbour wall, which storms have battered for a decade, at a cost of twelve million pounds.",
    "Engineers said the new wall would stand two metres higher than the old one and would protect the houses along the front from the worst winter tides.",
    "Work is due to start in the spring and to take three years, during which the harbour will stay open to fishing boats but closed to yachts.",
    "Residents who spoke at the meeting welcomed the plan, though several asked why it had taken so long after the floods of the last two winters.",
]
STEPS = ["Check the tide tables before you set out on the harbour path.",
         "Keep to the marked route while the works are under way."]
PAGE = f"""<html><head><title>Harbour wall to be rebuilt | The Coast Gazette</title></head><body>
<header class="masthead"><nav class="menu"><ul><li><a href="/">Home</a></li><li><a href="/news">News</a></li>
<li><a href="/sport">Sport</a></li></ul></nav></header>
<main><article class="story"><h1>Harbour wall to be rebuilt</h1>
{''.join(f'<p>{p}</p>' for p in PARAGRAPHS)}
<p>What the council advises walkers while the work goes on:</p>
<ol>{''.join(f'<li>{s}</li>' for s in STEPS)}</ol>
</article></main>
<aside class="sidebar related"><h2>Most read</h2><ul><li><a href="/a">Royal wedding guest list revealed</a></li>
<li><a href="/b">Ten best beaches for a winter walk</a></li></ul></aside>
<footer class="footer"><p>Copyright 2026 The Coast Gazette. All rights reserved.</p></footer>
</body></html>"""


def _blocks(rows: list[tuple[str, str, int]]) -> pl.DataFrame:
    return pl.DataFrame({"text": [r[0] for r in rows], "tag": [TAGS.index(r[1]) for r in rows],
                         "row_group": [r[2] for r in rows]})


def test_lists_and_table_rows_are_written_as_trafilatura_writes_them():
    blocks = _blocks([("Intro line.", "p", -1), ("one", "li", -1), ("- two", "li", -1),
                      ("Memory:", "td", 3), ("16 GB", "td", 3), ("a|b", "td", 5), ("left out", "td", 5),
                      ("After.", "p", -1), ("\u200b\u200b", "p", -1)])
    keep = np.array([True, True, True, True, True, True, False, True, True])
    assert page_body.written_blocks(blocks, keep) == [
        "Intro line.", "- one", "- two", "| Memory: | 16 GB |", "| a\\|b |", "After."]


def test_table_cells_share_their_rows_group():
    html = ("<html><body><p>Specs of the laptop we tested, in full, for the record.</p><table>"
            "<tr><td>Memory:</td><td>16 GB</td></tr><tr><td><p>Storage:</p></td><td>512 GB</td></tr></table>"
            "<ul><li>not a row</li></ul></body></html>")
    table = page_blocks(parse_html(html), "")
    rows = dict(zip(table["text"].to_list(), table["row_group"].to_list()))
    assert rows["Memory:"] == rows["16 GB"] >= 0
    assert rows["Storage:"] == rows["512 GB"] >= 0 and rows["Storage:"] != rows["Memory:"]
    assert rows["not a row"] == rows["Specs of the laptop we tested, in full, for the record."] == -1


def test_packaged_model_reads_the_block_tables_columns():
    meta, _ = page_body._model()
    table = page_blocks(parse_html(PAGE), "")
    assert meta["features"] == feature_columns(table), "retrain: python -m newsclean.cleaners.model.train_page_body"
    assert 0.0 < float(meta["threshold"]) < 1.0


def test_the_article_is_kept_and_the_page_chrome_is_not():
    ext = extract_html(PAGE, blocks=True)
    body = page_body.page_body(ext.blocks).split("\n\n")
    for paragraph in PARAGRAPHS:
        assert paragraph in body
    assert [f"- {s}" for s in STEPS] == [line for line in body if line.startswith("- ")]
    for chrome in ("Home", "Sport", "Most read", "Royal wedding guest list revealed",
                   "Copyright 2026 The Coast Gazette. All rights reserved."):
        assert chrome not in body


def test_the_default_extraction_builds_no_block_table():
    assert extract_html(PAGE).blocks is None  # the default HTML path pays nothing for it


def _fixture(name: str) -> tuple[bytes, str]:
    expected = {row["file"]: row for row in map(json.loads, (PAGES / "expected.jsonl").read_text(encoding="utf-8").splitlines())}
    return gzip.open(PAGES / name).read(), expected[name]["url"]


def _clean(data: bytes, url: str, settings: Settings) -> str:
    return clean_document(RawDocument(source="page.html", data=data, format="html", meta={"url": url}), settings).text


def test_text_trafilatura_dropped_comes_back():
    # A dev page (WCXB, CC-BY-4.0; the packaged model trained on it) whose article trafilatura cuts
    # short: its body lacks the statement of the theorem the page is about.
    data, url = _fixture("0406.html.gz")
    theorem = "The theorem is that every pattern (plane graph) of straight-line cuts"
    assert theorem not in _clean(data, url, Settings())
    assert theorem in _clean(data, url, Settings(html_body="page"))


def test_a_page_whose_blocks_are_all_dropped_keeps_trafilaturas_body():
    data, url = _fixture("0139.html.gz")
    meta, predict = page_body._model()
    with page_body.using(dict(meta, threshold=2.0), predict):  # keeps no block
        assert _clean(data, url, Settings(html_body="page")) == _clean(data, url, Settings())


def test_settings_name_the_two_bodies():
    assert Settings().html_body == "trafilatura"
    with pytest.raises(ValueError, match="html_body"):
        Settings.load(html_body="blocks")


def test_the_visible_text_still_wins_over_a_short_block_body():
    # A page whose article trafilatura and the block model both miss (a long list under a short
    # intro): where the text path finds far more article in the page's visible text, that wins, as
    # it does over trafilatura's body
    from dataclasses import replace

    from newsclean.cleaners.engine.scoring import run_steps
    from newsclean.cleaners.extract_html import VISIBLE_MODE
    from newsclean.cleaners.pipeline import choose_body_steps
    from tests.articles import PARAGRAPHS as LONG_ARTICLE

    ext = extract_html(PAGE, blocks=True)
    meta, _ = page_body._model()
    with page_body.using(meta, lambda X: np.r_[1.0, np.zeros(len(X) - 1)]):  # keeps the first block only
        short = run_steps(choose_body_steps(ext))
        assert (short.mode, short.text) == (page_body.PAGE_MODE, "- Home")  # a menu item
        chosen = run_steps(choose_body_steps(replace(ext, visible="\n\n".join(LONG_ARTICLE))))
    assert chosen.mode == VISIBLE_MODE


POSTS = [
    "I grew up on that front and the floods were worse every year, so I am glad the council finally found the money.",
    "Twelve million pounds seems a lot for a wall, and I would like to know who checked the engineers' sums before the vote.",
]
THREAD_PAGE = PAGE.replace("</article></main>", f"""</article>
<section id="comments" class="comments"><h3>{len(POSTS)} Comments</h3><ol class="comment-list">
{''.join(f'<li class="comment"><p class="comment-meta">Reader {i} on March {i + 3}, 2026 at 5:23 pm said:</p><p>{post}</p></li>'
         for i, post in enumerate(POSTS))}
</ol></section></main>""")


def _with_posts_kept(ext) -> Callable:
    """A block model that keeps the article and the thread's posts but drops everything else (the
    thread's opener and its commenters' lines too)."""
    texts = ext.blocks["text"].to_list()
    keep = np.array([t in PARAGRAPHS or t in POSTS for t in texts], dtype=np.float64)
    return lambda X: keep


def test_a_thread_the_block_model_keeps_is_removed_as_comments():
    ext = extract_html(THREAD_PAGE, blocks=True)
    meta, _ = page_body._model()
    with page_body.using(meta, _with_posts_kept(ext)):
        kept = page_body.page_body(ext.blocks).split("\n\n")
        assert f"{len(POSTS)} Comments" in kept  # the opener written above the posts, as evidence
        doc = clean_document(RawDocument(source="page.html", data=THREAD_PAGE.encode(), format="html"),
                             Settings(html_body="page"))
    for paragraph in PARAGRAPHS:
        assert paragraph in doc.text
    for post in POSTS:
        assert post not in doc.text
    removed = {doc.lines[s.line - 1][s.start:s.end]: s.kind for s in doc.removed}
    assert removed[POSTS[0]] == removed[f"{len(POSTS)} Comments"] == "comments"


def test_a_comment_count_over_the_article_is_left_to_the_block_model():
    # the same count over the article (a byline's link to the thread): the body goes on below it,
    # so it is not written, and nothing below it is cut
    page = PAGE.replace("<h1>Harbour wall to be rebuilt</h1>", "<h1>Harbour wall to be rebuilt</h1><p><a href='#c'>2 Comments</a></p>")
    ext = extract_html(page, blocks=True)
    meta, _ = page_body._model()
    texts = ext.blocks["text"].to_list()
    with page_body.using(meta, lambda X: np.array([float(t in PARAGRAPHS) for t in texts])):
        kept = page_body.page_body(ext.blocks).split("\n\n")
    assert "2 Comments" not in kept and [t for t in kept if t in PARAGRAPHS] == PARAGRAPHS


@pytest.mark.parametrize("texts, in_body, keep, written", [
    # posts kept below a dropped opener, the body above it: the opener is written
    (["Body.", "3 Comments", "Post one.", "Post two."], [1, 0, 0, 0], [1, 0, 1, 1], [1, 1, 1, 1]),
    # a sidebar's "Recent comments" sharing a few of the body's words below it: still a thread
    (["Body. " * 20, "3 Comments", "Post one.", "Reader on Body"], [1, 0, 0, 0.8], [1, 0, 1, 1], [1, 1, 1, 1]),
    # the body goes on below the count (a link to the thread under the first paragraph): no thread
    (["Body.", "3 Comments", "More of the body.", "Post."], [1, 0, 1, 0], [1, 0, 1, 1], [1, 0, 1, 1]),
    # nothing kept below it: nothing to end; the opener kept already: nothing to add
    (["Body.", "3 Comments", "Post one.", "Post two."], [1, 0, 0, 0], [1, 0, 0, 0], [1, 0, 0, 0]),
    (["Body.", "3 Comments", "Post one.", "Post two."], [1, 0, 0, 0], [1, 1, 1, 0], [1, 1, 1, 0]),
    # no opener on the page (a reply form's title opens none)
    (["Body.", "Leave a Reply", "Name", "Email"], [1, 0, 0, 0], [1, 0, 1, 1], [1, 0, 1, 1]),
])
def test_a_threads_opener_is_written_only_over_kept_posts_below_the_body(texts, in_body, keep, written):
    blocks = pl.DataFrame({"text": texts, "in_body": [float(b) for b in in_body],
                           "chars": [float(len(t.replace(" ", ""))) for t in texts]})
    assert page_body.with_thread_opener(blocks, np.array(keep, dtype=bool)).tolist() == [bool(k) for k in written]


def test_a_block_table_without_a_column_the_model_reads_names_the_fix():
    blocks = page_blocks(parse_html(PAGE), "\n".join(PARAGRAPHS))
    assert len(page_body.block_proba(blocks)) == blocks.height  # the packaged model reads this table
    meta, _ = page_body._active()
    lacking = blocks.drop(meta["features"][0])
    with pytest.raises(ValueError, match=r"lacks \(" + meta["features"][0] + r"\).*train_page_body"):
        page_body.block_proba(lacking)
