"""Training labels come from aligning the page to the truth, not from word membership."""
import numpy as np

from newsclean.cleaners.model.labels import aligned_share, body_labels, fold_title, snippet_labels, title_index


def test_menu_words_that_occur_in_the_article_are_not_body():
    truth = "Health officials said the new clinic will open in May. Sign in to the portal is not needed."
    lines = ["Health", "Sign in", "Health officials said the new clinic will open in May.",
             "Sign in to the portal is not needed.", "Health", "Sign in"]
    y, w = body_labels(lines, truth)
    # every word of the menu lines occurs in the truth, but only the aligned copies are body
    assert list(y) == [0, 0, 1, 1, 0, 0]
    assert list(w) == [1, 1, 1, 1, 1, 1]


def test_share_is_per_line_and_tokenless_lines_weigh_nothing():
    share, counts = aligned_share(["A B C D", "---", "x y"], "a b c d")
    assert share[0] == 1.0 and counts[1] == 0 and share[2] == 0.0
    y, w = body_labels(["A B C D", "---"], "a b c d")
    assert w[1] == 0


def test_snippet_labels_are_partial():
    lines = ["Home | News", "The council voted 7-2 on Tuesday to close the bridge.", "Something else",
             "Read more: Bridge closures across the region"]
    s = snippet_labels(lines, ["council voted 7-2 on Tuesday"], ["Read more: Bridge closures"])
    assert list(s) == [-1, 1, -1, 0]


def test_title_folding_and_index():
    assert fold_title("The 7 Biggest Diet  Trends, in 2025!") == "the 7 biggest diet trends in 2025"
    assert title_index(["Menu", "The 7 biggest diet trends in 2025", "Body."], "The 7 Biggest Diet Trends in 2025") == 1
    assert title_index(["Menu"], "Nope") is None


def test_markup_title_is_the_h1_its_meta_titles_agree_with():
    from newsclean.cleaners.model.labels import markup_title_indices
    lines = ["Menu", "Council closes the old bridge", "By Ann Lee", "The council voted on Tuesday.",
             "Council closes the old bridge"]
    page = ('<html><head><title>Council closes the old bridge | Daily Post</title></head>'
            '<body><h1>Council closes the old bridge</h1><p>x</p></body></html>')
    assert markup_title_indices(lines, page) == [1, 4]
    og = page.replace("<title>Council closes the old bridge | Daily Post</title>",
                      '<meta property="og:title" content="Daily Post - Council closes the old bridge">')
    assert markup_title_indices(lines, og) == [1, 4]


def test_markup_title_look_alikes_give_no_label():
    from newsclean.cleaners.model.labels import markup_title_indices
    lines = ["Daily Post Blog", "Council closes the old bridge", "The council voted on Tuesday."]
    # the <h1> is the site's name: the <title> goes on with a whole headline after it
    site_h1 = ('<html><head><title>Daily Post Blog: Council closes the old bridge after a long vote</title>'
               '</head><body><h1>Daily Post Blog</h1></body></html>')
    assert markup_title_indices(lines, site_h1) == []
    # no meta title agrees with the <h1>
    other = '<html><head><title>Weather today</title></head><body><h1>Council closes the old bridge</h1></body></html>'
    assert markup_title_indices(lines, other) == []
    # two different agreeing <h1>s: ambiguous
    two = ('<html><head><title>Council closes the old bridge</title><meta name="twitter:title" content="Daily Post Blog">'
           '</head><body><h1>Council closes the old bridge</h1><h1>Daily Post Blog</h1></body></html>')
    assert markup_title_indices(lines, two) == []
    assert markup_title_indices(lines, None) == [] and markup_title_indices(lines, b"") == []


def test_snippet_pages_teach_the_title_ranker_their_markup_headline(tmp_path):
    """A snippet-labelled page has no annotated title; its markup headline (silver) becomes a title
    label with weight, and a page without one teaches the title models nothing."""
    import gzip

    from newsclean.cleaners.model import train as tr

    html = ('<html><head><meta property="og:title" content="Council closes the old bridge"></head>'
            '<body><h1>Council closes the old bridge</h1></body></html>')
    (tmp_path / "a.html.gz").write_bytes(gzip.compress(html.encode()))
    text = "Menu\nCouncil closes the old bridge\nThe council voted on Tuesday to close the old bridge for repairs.\nShare"
    pages = [{"id": "a", "url": None, "text": text, "with": ["council voted on Tuesday"], "without": ["Share"],
              "html": "a.html.gz"},
             {"id": "b", "url": None, "text": text, "with": ["council voted on Tuesday"], "without": ["Share"]}]
    a, b = tr.snippet_docs(pages, tmp_path)
    assert a.titles == (1,) and b.titles == ()
    y, w = tr.title_labels([a, b])
    assert list(y) == [0, 1, 0, 0, 0, 0, 0, 0]
    assert list(w) == [1, 1, 1, 1, 0, 0, 0, 0]
