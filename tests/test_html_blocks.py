"""newsclean.cleaners.html_blocks: a page's visible text blocks with their markup and trafilatura's choice."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from newsclean.cleaners.extract_html import parse_html, visible_blocks, visible_text
from newsclean.cleaners.html_blocks import TAGS, body_share, page_blocks, token_bits, CLASS_TOKENS
from newsclean.cleaners.model.labels import tokens

PAGE = """<html><head><title>t</title><script>var x = 1;</script></head><body>
<nav class="site-nav"><ul><li><a href="/">Home</a></li><li><a href="/world">World news</a></li></ul></nav>
<main><article>
<h1>The river rose overnight</h1>
<p class="byline">By Ann Lee</p>
<p>The river rose two metres overnight, and the town's lower streets were closed by morning.</p>
<p>Officials said the water would fall by Friday. <a href="/maps">See the flood map</a> for the streets affected.</p>
<figure><img src="a.jpg" alt="Flooded street"><figcaption>Water on Main Street.</figcaption></figure>
</article></main>
<aside id="relatedStories"><h2>Related</h2><p><a href="/x">Storm season starts early this year</a></p></aside>
<footer><p>Copyright 2024 The Town Paper</p></footer>
<form><p>Sign up for our newsletter</p></form>
</body></html>"""

BODY = ("The river rose two metres overnight, and the town's lower streets were closed by morning.\n"
        "Officials said the water would fall by Friday. See the flood map for the streets affected.")


@pytest.fixture(scope="module")
def table():
    return page_blocks(parse_html(PAGE), BODY)


def _row(table, start: str) -> dict:
    rows = [r for r in table.iter_rows(named=True) if r["text"].startswith(start)]
    assert len(rows) == 1, (start, table["text"].to_list())
    return rows[0]


def test_blocks_in_document_order(table):
    assert table["text"].to_list() == [
        "Home", "World news", "The river rose overnight", "By Ann Lee",
        "The river rose two metres overnight, and the town's lower streets were closed by morning.",
        "Officials said the water would fall by Friday. See the flood map for the streets affected.",
        "Flooded street", "Water on Main Street.", "Related", "Storm season starts early this year",
        "Copyright 2024 The Town Paper", "Sign up for our newsletter"]


def test_nav_aside_footer_form_and_figure_ancestry(table):
    home, related, copyright_ = _row(table, "Home"), _row(table, "Storm season"), _row(table, "Copyright")
    assert (home["in_nav"], home["in_ul"], home["in_article"]) == (1, 1, 0)
    assert (related["in_aside"], related["in_nav"]) == (1, 0)
    assert (copyright_["in_footer"], copyright_["in_aside"]) == (1, 0)
    assert _row(table, "Sign up")["in_form"] == 1  # kept, unlike visible_text, and flagged
    caption = _row(table, "Water on Main")
    assert (caption["in_figure"], caption["in_article"], caption["in_main"]) == (1, 1, 1)
    assert caption["tag"] == TAGS.index("figcaption")
    assert _row(table, "Flooded street")["tag"] == TAGS.index("img")
    paragraph = _row(table, "The river rose two")
    assert (paragraph["in_article"], paragraph["in_main"], paragraph["in_nav"], paragraph["in_aside"]) == (1, 1, 0, 0)


def test_class_and_id_tokens_on_the_block_and_above_it(table):
    assert _row(table, "Home")["above_nav"] == 1 and _row(table, "Home")["own_nav"] == 0
    assert _row(table, "By Ann")["own_byline"] == 1
    assert _row(table, "Storm season")["above_related"] == 1  # id="relatedStories": camel case split
    assert _row(table, "The river rose two")["above_related"] == 0
    assert token_bits("post-content main-col") & (1 << list(CLASS_TOKENS).index("content"))
    assert token_bits("colour") == 0 and token_bits(None) == 0  # whole tokens only


def test_link_share(table):
    assert _row(table, "Home")["link_share"] == 1.0
    assert _row(table, "The river rose two")["link_share"] == 0.0
    mixed = _row(table, "Officials said")
    linked = len("Seethefloodmap")
    total = len("Officials said the water would fall by Friday. See the flood map for the streets affected.".replace(" ", ""))
    assert mixed["link_share"] == pytest.approx(linked / total)


def test_trafilatura_body_membership(table):
    assert _row(table, "The river rose overnight")["in_body"] == 0.0  # the headline: this body does not hold it
    assert _row(table, "The river rose two")["in_body"] == 1.0
    assert _row(table, "Officials said")["in_body"] == 1.0
    for start in ("Home", "World news", "Related", "Storm season", "Copyright", "Flooded"):
        assert _row(table, start)["in_body"] == 0.0, start
    inside = table["inside_body_span"].to_list()
    assert inside[4:6] == [1, 1] and inside[0] == 0 and inside[-1] == 0
    assert table["in_recall"].to_list() == table["in_body"].to_list()  # no recall body given


def test_recall_body_membership():
    recall = BODY + "\nStorm season starts early this year"
    table = page_blocks(parse_html(PAGE), BODY, recall)
    assert _row(table, "Storm season")["in_recall"] == 1.0 and _row(table, "Storm season")["in_body"] == 0.0


def test_short_block_needs_the_body_to_go_on_with_it():
    """A one-word block is not credited for the word appearing elsewhere in the body."""
    folded = [" ".join(tokens(t)) for t in ("Home", "The river rose two metres overnight", "Home")]
    share = body_share(folded, "The river rose two metres overnight and the streets closed.\nHome prices fell.")
    assert share.tolist() == [0.0, 1.0, 1.0]  # the second "Home" comes right where the body goes on with it


def test_a_block_the_body_split_into_lines_is_partly_held():
    folded = [" ".join(tokens("First sentence of the paragraph here. Second sentence of the paragraph here. Menu"))]
    share = body_share(folded, "First sentence of the paragraph here.\nSecond sentence of the paragraph here.")
    assert 0.8 < share[0] < 1.0


def test_visible_text_reads_the_blocks():
    tree = parse_html(PAGE)
    pieces = visible_blocks(tree)
    assert all(" ".join(text.split()) != "Sign up for our newsletter" for _, text, _ in pieces)  # forms dropped by default
    assert visible_text(tree).split("\n\n")[:2] == ["Home", "World news"]


def test_empty_page_has_no_rows():
    table = page_blocks(parse_html("<html><body><div> </div></body></html>"), "")
    assert table.height == 0 and "in_body" in table.columns
    assert np.isfinite(table.select([c for c in table.columns if c != "text"]).to_numpy()).all()


def test_hidden_markup_is_flagged():
    page = ('<html><body><p>Shown paragraph of the article.</p><div style="display: none"><p>A hidden teaser.</p></div>'
            '<p aria-hidden="true">Hidden too.</p></body></html>')
    table = page_blocks(parse_html(page), "Shown paragraph of the article.")
    assert table["in_hidden"].to_list() == [0, 1, 1]
    assert table["near5_in_body"].to_list()[0] == pytest.approx(len("Shownparagraphofthearticle.")
                                                                / sum(table["chars"].to_list()))


def test_aligned_membership_agrees_on_a_plain_page(table):
    exact = page_blocks(parse_html(PAGE), BODY, aligned=True)
    assert exact["in_body"].to_list() == table["in_body"].to_list()


def test_a_repeated_block_is_credited_once():
    """A teaser repeating the body's first paragraph above it is not the body's copy."""
    first = "The river rose two metres overnight and the lower streets were closed by morning"
    folded = [" ".join(tokens(t)) for t in (first, "Read more", first, "Officials said the water would fall by Friday")]
    share = body_share(folded, first + ".\nOfficials said the water would fall by Friday.")
    assert share.tolist() == [0.0, 0.0, 1.0, 1.0] or share.tolist() == [1.0, 0.0, 0.0, 1.0]


def _topic_fit_by_definition(texts, body, in_body, tag):
    """topic_fit as its docstring defines it, block by block (the reference for the vectorised one)."""
    from newsclean.cleaners.html_blocks import TOPIC_WINDOW
    from newsclean.cleaners.shape import content_words

    n = len(texts)
    block_words = [content_words(t) for t in texts]
    counts: dict[str, float] = {}
    for w in content_words(body):
        counts[w] = counts.get(w, 0.0) + 1.0
    first_h1 = next((i for i in range(n) if tag[i] == TAGS.index("h1")), None)
    heading = set(block_words[first_h1]) if first_h1 is not None else set()
    hits, in_heading = np.zeros(n), np.zeros(n)
    sizes = np.array([len(ws) for ws in block_words], dtype=np.float64)
    for i, ws in enumerate(block_words):
        if not ws:
            continue
        own: dict[str, float] = {}
        if in_body[i] >= 0.5:
            for w in ws:
                own[w] = own.get(w, 0.0) + 1.0
        hits[i] = sum(counts.get(w, 0.0) - own.get(w, 0.0) > 0 for w in ws)
        in_heading[i] = sum(w in heading for w in ws) if i != first_h1 else len(ws)
    near = np.full(n, -1.0)
    for i in range(n):
        lo, hi = max(i - TOPIC_WINDOW, 0), min(i + TOPIC_WINDOW + 1, n)
        if sizes[lo:hi].sum() > 0:
            near[i] = hits[lo:hi].sum() / sizes[lo:hi].sum()
    return {"topic_fit": np.where(sizes > 0, hits / np.maximum(sizes, 1.0), -1.0),
            "heading_fit": np.where(sizes > 0, in_heading / np.maximum(sizes, 1.0), -1.0), "near_topic_fit": near}


_TOPIC_WORDS = ["storm", "storms", "coast", "Coast", "flood", "the", "and", "2025", "Menu", "share", "città", "ΟΔΟΣ"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.lists(st.sampled_from(_TOPIC_WORDS), max_size=6).map(" ".join),
                          st.sampled_from([0.0, 0.3, 0.5, 1.0]), st.sampled_from(["p", "h1", "li", "div"])), max_size=12),
       st.lists(st.sampled_from(_TOPIC_WORDS), max_size=15).map(" ".join))
def test_topic_fit_is_its_definition(blocks, body):
    # the whole page's words as one table (a word's block and its id) give each block's hits, its
    # heading words and the windows' shares exactly as counting block by block does
    from newsclean.cleaners.html_blocks import topic_fit

    texts = [t for t, _, _ in blocks]
    in_body = np.array([b for _, b, _ in blocks], dtype=np.float64)
    tag = np.array([TAGS.index(g) for _, _, g in blocks], dtype=np.int32)
    got, expected = topic_fit(texts, body, in_body, tag), _topic_fit_by_definition(texts, body, in_body, tag)
    for name in expected:
        assert np.allclose(got[name], expected[name], rtol=0, atol=1e-12), name
