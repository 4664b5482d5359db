"""The page features the page-kind decision reads (newsclean.cleaners.page_features)."""
from __future__ import annotations

import pytest

from newsclean.cleaners.extract_html import extract_html, page_chars, parse_html
from newsclean.cleaners.page_features import FEATURE_NAMES, feature, page_features

PROSE = ("The council voted on Tuesday to expand the programme after a long debate in which members weighed "
         "the cost against the benefits for residents of the northern districts. Work starts in the spring. ")


def features(html: str, url: str | None = None, body: str = "", **kw) -> tuple[float, ...]:
    tree = parse_html(html)
    return page_features(tree, url, body, page_chars(tree), **kw)


def test_one_value_per_name():
    f = features("<html><body><p>Hello</p></body></html>")
    assert len(f) == len(FEATURE_NAMES) and len(set(FEATURE_NAMES)) == len(FEATURE_NAMES)
    assert all(isinstance(v, float) for v in f)


def test_declared_types_og_json_ld_and_microdata():
    html = ('<html><head><meta property="og:type" content="product">'
            '<script type="application/ld+json">{"@context": "https://schema.org", "@graph": ['
            '{"@type": ["Product", "Thing"]}, {"@type": "BreadcrumbList"}, {"@type":"DiscussionForumPosting"}]}</script>'
            '</head><body><div itemscope itemtype="https://schema.org/ItemList"><p>x</p></div></body></html>')
    f = features(html)
    assert feature(f, "og_product") == 1 and feature(f, "og_article") == 0 and feature(f, "og_none") == 0
    assert feature(f, "ld_product") == 1 and feature(f, "ld_forum") == 1 and feature(f, "ld_article") == 0
    assert feature(f, "micro_collection") == 1
    assert feature(features("<html><body><p>x</p></body></html>"), "og_none") == 1


def test_a_listing_of_teasers_is_counted():
    cards = "".join(f'<div class="card teaser"><h3><a href="/news/story-{i}">Story number {i} of the day in town</a></h3>'
                    f'<p>A short summary of the story.</p></div>' for i in range(12))
    f = features(f"<html><body><main>{cards}</main></body></html>", "https://example.org/tag/council")
    assert feature(f, "n_linked_headings") == 12
    assert feature(f, "repeat_max") == 12 and feature(f, "repeat_linked_max") == 12
    assert feature(f, "n_long_links") == 12
    assert feature(f, "class_teaser") == 12
    assert feature(f, "run_text_items") == 12 and feature(f, "run_text_linked") == 1
    assert feature(f, "url_listing") >= 1 and feature(f, "url_depth") == 2


def test_a_thread_of_posts_spreads_its_paragraphs():
    posts = "".join(f'<div class="post"><span class="username">user{i}</span><time datetime="2024-01-0{i}">Jan {i}</time>'
                    f'<p>{PROSE}</p></div>' for i in range(1, 7))
    f = features(f"<html><body>{posts}</body></html>", "https://forum.example.org/threads/garden.123/")
    assert feature(f, "repeat_post_max") == 6 and feature(f, "run_text_post") == 1
    assert feature(f, "n_time") == 6
    assert feature(f, "p_long") == 6 and feature(f, "p_long_max_parent") == 1
    assert feature(f, "url_forum") >= 1
    article = features(f"<html><body><article><h1>Council votes</h1>"
                       f"{''.join('<p>' + PROSE + '</p>' for _ in range(6))}</article></body></html>")
    assert feature(article, "p_long") == 6 and feature(article, "p_long_parent_share") == 1


def test_shop_and_service_cues():
    html = ('<html><body><div class="product-price">$19.99</div><button class="add-to-cart">Add</button>'
            '<select name="size"><option>S</option><option>M</option></select>'
            '<a href="tel:+15551234">Call us</a><a href="mailto:a@example.org">Mail</a><a href="#faq">FAQ</a>'
            '<form><input type="email"><input type="hidden"><input type="search"></form></body></html>')
    f = features(html, body="Price $19.99 now")
    assert feature(f, "class_shop") == 2
    assert feature(f, "n_option") == 2 and feature(f, "n_select") == 1
    assert feature(f, "n_tel_links") == 1 and feature(f, "n_mailto_links") == 1 and feature(f, "n_hash_links") == 1
    assert feature(f, "n_input_fields") == 1  # the email field; hidden and search inputs are not a form to fill
    assert feature(f, "body_currency") == 1


@pytest.mark.parametrize("url, depth, words, dated, number", [
    ("https://example.org/news/2024/05/17/council-votes-to-expand-programme.html", 5, 5, 1, 0),
    ("https://example.org/", 0, 0, 0, 0),
    ("https://example.org/products/1082604-REG/nikon_d750", 3, 2, 0, 1),
])
def test_url_shape(url, depth, words, dated, number):
    f = features("<html><body><p>x</p></body></html>", url)
    assert feature(f, "url_depth") == depth
    assert feature(f, "url_slug_words") == words
    assert feature(f, "url_date") == dated
    assert feature(f, "url_long_number") == number
    assert feature(f, "url_root") == (depth == 0)


def test_body_and_title_shape():
    body = "\n".join([PROSE.strip(), "Short line", "Is this a question?", PROSE.strip()])
    f = features("<html><body><p>x</p></body></html>", body=body, title="Council votes to expand programme",
                 dated=True, authored=False)
    assert feature(f, "body_lines") == 4
    assert feature(f, "body_question_share") == 0.25
    assert feature(f, "body_short_share") == 0.5
    assert feature(f, "title_words") == 5 and feature(f, "has_date") == 1 and feature(f, "has_author") == 0


def test_extract_html_carries_the_features_of_its_own_tree():
    paras = "".join(f"<p>{PROSE}</p>" for _ in range(4))
    html = (f'<html><head><title>Council votes</title><meta property="og:type" content="article"></head>'
            f'<body><nav><a href="/">Home</a></nav><article><h1>Council votes</h1>{paras}</article></body></html>')
    ext = extract_html(html.encode(), url="https://example.org/news/council-votes", page_kind=True)
    assert len(ext.page) == len(FEATURE_NAMES)
    assert feature(ext.page, "og_article") == 1 and feature(ext.page, "n_article") == 1
    assert feature(ext.page, "body_chars") > 0 and 0 < feature(ext.page, "body_share") <= 1
    assert feature(ext.page, "title_words") == 2


def test_the_share_of_the_page_in_headings():
    """A listing's text is mostly its teasers' headings; an article's subheads are a little of it."""
    teasers = "".join(f"<h3>Story number {i} of the day in the town</h3><span>May {i}</span>" for i in range(1, 10))
    listing = features(f"<html><body><main>{teasers}</main></body></html>")
    subheads = "".join(f"<h2>Part {i} of the story</h2><p>{PROSE}</p>" for i in range(3))
    article = features(f"<html><body><article><h1>Council votes</h1>{subheads}</article></body></html>")
    assert feature(listing, "heading_chars_share") > 0.8
    assert 0 < feature(article, "heading_chars_share") < 0.15


def test_the_share_of_the_page_in_table_cells_counts_a_nested_table_once():
    specs = "".join(f"<tr><td>Weight {i}</td><td>{i} kg</td></tr>" for i in range(10))
    table = features(f"<html><body><h1>Drill</h1><table>{specs}</table></body></html>")
    assert feature(table, "td_chars_share") > 0.8
    # an old layout table: the article in a cell of a table in a cell is counted once
    nested = features(f"<html><body><table><tr><td><table><tr><td><p>{PROSE}</p></td></tr></table>"
                      f"</td></tr></table></body></html>")
    assert feature(nested, "td_chars_share") == 1.0
    # a table's header and caption and the prose beside it are not its cells
    beside = features(f"<html><body><p>{PROSE}</p><table><caption>Votes</caption><tr><th>For</th></tr></table>"
                      f"</body></html>")
    assert feature(beside, "td_chars_share") == 0


def test_the_link_share_of_the_largest_main_or_article():
    """A listing's main block is its teasers' links; an article's links are in its menus, not its
    body, however many the page has."""
    cards = "".join(f'<article><a href="/s/{i}">Story number {i} of the day in the town</a></article>' for i in range(8))
    listing = features(f"<html><body><main>{cards}</main></body></html>")
    assert feature(listing, "main_link_share") == 1.0
    menu = "".join(f'<li><a href="/section/{i}">Section number {i} of the site</a></li>' for i in range(40))
    article = features(f'<html><body><nav><ul>{menu}</ul></nav><article><h1>Council votes</h1><p>{PROSE}'
                       f'<a href="/council">the council</a></p><p>{PROSE}</p></article></body></html>')
    assert feature(article, "link_chars_share") > 0.5  # the page is mostly its menu's links
    assert 0 < feature(article, "main_link_share") < 0.05
    assert feature(features(f"<html><body><div><p>{PROSE}</p></div></body></html>"), "main_link_share") == 0


def test_the_share_of_headline_shaped_lines_in_the_body():
    titles = "\n".join(f"Council votes to expand the programme in district {i}" for i in range(6))
    assert feature(features("<html><body><p>x</p></body></html>", body=titles), "body_headline_share") == 1
    # sentences, however short, and paragraphs of prose are not headlines
    prose = "\n".join(["The council voted to expand the programme.", PROSE.strip(), PROSE.strip(), "Work starts soon."])
    assert feature(features("<html><body><p>x</p></body></html>", body=prose), "body_headline_share") == 0
