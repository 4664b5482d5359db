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
