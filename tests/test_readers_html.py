"""Saved HTML pages: charset, trafilatura extraction plus the line cleaner, fallback, metadata."""
from __future__ import annotations

import datetime as dt

from newsclean.cleaners.extract_html import decode_html, extract_html, visible_text
from newsclean.cleaners.pipeline import clean_document
from newsclean.cleaners.readers import read_source
from newsclean.cleaners.settings import Settings
from newsclean.cleaners.types import RawDocument
from tests.articles import PARAGRAPHS, page


def _clean(html: bytes | str, source="page.html", **meta):
    data = html.encode("utf-8") if isinstance(html, str) else html
    return clean_document(RawDocument(source=source, data=data, format="html", meta=meta), Settings())


def test_reader_yields_one_html_document(tmp_path):
    (tmp_path / "a.html").write_text(page(), encoding="utf-8")
    (item,) = read_source(tmp_path, "a.html", Settings())
    assert item.format == "html" and item.source == "a.html" and item.text is None


def test_declared_non_utf8_charset_is_honoured(tmp_path):
    paras = [p.replace("officials", "caf\u00e9 owners \u2013 and na\u00efve critics \u2013") for p in PARAGRAPHS]
    html = page("Caf\u00e9 owners cheer \u2018new\u2019 bus routes", paragraphs=paras, charset="windows-1252")
    data = html.encode("cp1252")
    (tmp_path / "legacy.html").write_bytes(data)
    (raw,) = read_source(tmp_path, "legacy.html", Settings())
    doc = clean_document(raw, Settings())
    assert doc.title == "Café owners cheer 'new' bus routes"
    assert "café owners - and naïve critics -" not in doc.text  # dashes are kept as dashes
    assert "café owners – and naïve critics –" in doc.text
    assert "\ufffd" not in doc.text and "Ã" not in doc.text


def test_charset_precedence():
    body = "<p>na\u00efve caf\u00e9</p>"
    latin = f'<html><head><meta http-equiv="Content-Type" content="text/html; charset=ISO-8859-1"></head><body>{body}</body></html>'
    # iso-8859-1 is read as windows-1252, as browsers do
    assert decode_html(latin.encode("cp1252")) == (latin, "cp1252")
    # the HTTP header's charset comes first
    text, enc = decode_html(body.encode("cp1252"), header="text/html; charset=windows-1252")
    assert text == body and enc == "cp1252"
    # a BOM wins over a declaration
    assert decode_html(b"\xef\xbb\xbf" + latin.encode("utf-8"))[1] == "utf-8"
    # bytes that are valid UTF-8 with multi-byte characters are UTF-8 whatever the <meta> says
    assert decode_html(latin.encode("utf-8"))[0] == latin
    # no declaration: detection (newsclean.cleaners.encoding)
    assert decode_html(f"<html><body>{body}</body></html>".encode("cp1252"))[0].endswith(f"{body}</body></html>")


def test_debris_trafilatura_leaves_is_removed_by_the_line_cleaner():
    extra = """<p>RELATED: Mayor promises faster trains by next summer</p>
<p>Photo: Getty Images</p>
<p>Sign up for our newsletter to get the latest city news every morning.</p>
<p>\u00a9 2018 Example Gazette. All rights reserved.</p>"""
    doc = _clean(page(body_extra=extra), url="https://www.example-gazette.com/2018/02/24/buses")
    kinds = {s.kind for s in doc.removed}
    assert {"related_headline", "caption", "call_to_action", "outlet_signature"} <= kinds
    for gone in ("RELATED", "Getty", "Sign up", "All rights reserved"):
        assert gone not in doc.text
    assert doc.text.split("\n\n") == PARAGRAPHS  # the body itself is untouched
    assert doc.title == "Council votes to expand the city bus network"


def test_a_related_box_trafilatura_leaves_is_removed():
    # a box header and the headline under it, in the reader's language or in English
    extra = """<p>Lesen Sie auch</p>
<p>Stadtrat streitet über neue Buslinien</p>
<p>Related Stories</p>
<p>Mayor promises faster trains by next summer</p>"""
    doc = _clean(page(body_extra=extra))
    gone = {s.text: s.kind for s in doc.removed}
    for line in ("Lesen Sie auch", "Stadtrat streitet über neue Buslinien", "Related Stories",
                 "Mayor promises faster trains by next summer"):
        assert gone.get(line) == "related_headline", line
    assert doc.text.split("\n\n") == PARAGRAPHS


def test_an_embedded_post_s_placeholder_trafilatura_leaves_is_removed():
    extra = """<blockquote><p>View this post on Instagram</p>
<p>A post shared by Example Gazette (@examplegazette)</p></blockquote>"""
    doc = _clean(page(body_extra=extra))
    gone = {s.text: s.kind for s in doc.removed}
    for line in ("View this post on Instagram", "A post shared by Example Gazette (@examplegazette)"):
        assert gone.get(line) == "navigation", (line, gone)
    assert doc.text.split("\n\n") == PARAGRAPHS


def test_lists_and_subheadings_inside_the_body_are_kept():
    extra = "<h2>What happens next</h2><ul><li>New routes open in spring</li><li>Fares stay the same</li></ul>"
    doc = _clean(page(body_extra=extra))
    assert "What happens next" in doc.text and "Fares stay the same" in doc.text


def test_page_trafilatura_cannot_read_falls_back_to_the_text_path():
    # the whole article sits in a block marked as comments, which trafilatura discards
    paras = "".join(f"<p>{p}</p>" for p in PARAGRAPHS)
    html = f"""<html><head><title>Buses</title></head><body>
<div><a href="/">Home</a> <a href="/news">News</a></div>
<div id="comments" class="comments"><h2>Council votes to expand the city bus network</h2>{paras}<p>Share this article</p></div></body></html>"""
    doc = _clean(html)
    assert any("visible text" in n for n in doc.notes)
    assert doc.text.split("\n\n") == PARAGRAPHS


def test_empty_page_is_quarantined_with_a_reason():
    import pytest

    from newsclean.cleaners.types import DocumentError
    with pytest.raises(DocumentError) as err:
        _clean("<html><head><title>x</title></head><body><nav>Home</nav></body></html>")
    assert err.value.stage in ("extract", "decide")


def test_a_page_whose_body_shows_no_text_says_so():
    # a forum drawn by JavaScript, saved as served: a full head, a body of scripts and a sign-in form
    import pytest

    from newsclean.cleaners.pipeline import NO_TEXT
    from newsclean.cleaners.types import DocumentError
    head = ('<title>New to Astronomy: Best First Telescope? - Forum</title><meta charset="utf-8">'
            '<meta name="description" content="I am new to astronomy and would love advice on a first telescope.">'
            '<link rel="stylesheet" href="/app.css"><script src="/app.js"></script>')
    body = ('<noscript></noscript><div id="app"></div><script>window.boot()</script>'
            '<form id="signin"><input name="username" type="text"><input name="password" type="password">'
            '<input type="submit" value="Log In"></form>')
    for html in (f"<html><head>{head}</head><body>{body}</body></html>",
                 "<html><head><script>var x = 1;</script></head><body></body></html>"):
        with pytest.raises(DocumentError) as err:
            _clean(html)
        assert (err.value.stage, err.value.reason) == ("extract", NO_TEXT)


def test_htmldate_gives_the_original_publication_date_not_the_update():
    head = ('<meta property="article:published_time" content="2018-02-24T10:32:00-05:00">'
            '<meta property="article:modified_time" content="2019-03-01T08:00:00Z">')
    doc = _clean(page(head=head))
    assert (doc.published.value, doc.published.source) == (dt.date(2018, 2, 24), "html")
    assert (doc.outlet.value, doc.outlet.source) == ("Example Gazette", "html")


def test_visible_text_one_block_per_line():
    from newsclean.cleaners.extract_html import parse_html
    tree = parse_html("<html><body><script>var x=1;</script><div>Menu <b>bold</b></div><p>One</p><p>Two<br>Three</p></body></html>")
    assert visible_text(tree) == "Menu bold\n\nOne\n\nTwo\n\nThree"


def test_extract_reports_trafilatura_metadata():
    head = '<meta name="author" content="Jane Doe"><link rel="canonical" href="https://www.example-gazette.com/news/buses">'
    ext = extract_html(page(head=head).encode())
    assert ext.author == "Jane Doe"
    assert ext.url == "https://www.example-gazette.com/news/buses"
    assert ext.sitename == "Example Gazette" and not ext.fallback


def test_headline_and_furniture_at_the_top_of_the_body_are_not_body():
    # kicker and reading time above a headline that trafilatura keeps inside the body
    paras = "".join(f"<p>{p}</p>" for p in PARAGRAPHS)
    html = f"""<html><head><title>Council votes to expand the city bus network - Example Gazette</title></head><body>
<div class="article-body"><p>Transport</p><p>4 min read</p><p>Council votes to expand the city bus network</p>{paras}</div></body></html>"""
    doc = _clean(html)
    assert doc.text.split("\n\n") == PARAGRAPHS
    assert doc.title == "Council votes to expand the city bus network"


def test_a_long_paragraph_repeated_in_the_body_is_kept_once():
    doc = _clean(page(body_extra=f"<p>{PARAGRAPHS[1]}</p>"))
    assert doc.text.split("\n\n") == PARAGRAPHS
    assert [(s.kind, s.by) for s in doc.removed] == [("boilerplate", "repeated_paragraph")]


def test_cue_rules_name_existing_rules():
    # the HTML path keeps removals by rule name: a renamed rule must fail here, not silently vanish
    from newsclean.cleaners.policy import CUE_RULES, EDGE_RULES
    from newsclean.cleaners.rules import RULES
    assert CUE_RULES | EDGE_RULES <= {rule.__name__ for rule in RULES}


def test_html_body_is_judged_by_the_cue_rules_only():
    # trafilatura's body keeps only cue-rule removals, so only those rules run on it (in RULES order)
    from newsclean.cleaners.decide import decide
    from newsclean.cleaners.policy import CUE_RULES, EDGE_RULES, HTML_RULES, Policy
    from newsclean.cleaners.settings import Settings
    from newsclean.cleaners.rules import RULES
    assert list(HTML_RULES) == [r for r in RULES if r in HTML_RULES]
    assert {r.__name__ for r in HTML_RULES} == CUE_RULES | EDGE_RULES
    lines = ["Mayor unveils plan", "", "The council voted on Tuesday to approve the new budget for the coming year.",
             "", "Tags: politics, budget, council", "", "Watch LIVE"]
    every = {s.by for s in decide(lines, Settings(use_model=False)).spans}
    cue = {s.by for s in decide(lines, Settings(use_model=False), policy=Policy(rules=HTML_RULES)).spans}
    assert "ui_words" in every and "ui_words" not in cue and "tag_prefix" in every & cue


def test_teaser_headlines_after_an_english_body_go_but_not_after_a_german_one():
    teasers = "<p>Mayor unveils plan for a new river crossing</p><p>Zoo welcomes two red pandas</p>"
    doc = _clean(page(body_extra=teasers))
    assert doc.text.split("\n\n") == PARAGRAPHS
    assert [(s.kind, s.by) for s in doc.removed] == [("related_headline", "headline_shape")] * 2
    german = [
        "Der Stadtrat hat am Dienstag beschlossen, das Busnetz auf drei neue Bezirke auszuweiten, wie die Verwaltung mitteilte.",
        "Befürworter sagen, dass die neuen Linien vielen Pendlern eine Stunde Fahrzeit pro Tag ersparen würden.",
        "Kritiker fragen, wie die zusätzlichen Fahrer bezahlt werden sollen, und warnen vor höheren Preisen im nächsten Jahr.",
    ]
    doc = _clean(page("Stadtrat erweitert das Busnetz", paragraphs=german,
                      body_extra="<p>Folgende Bezirke sind betroffen:</p><p>Nordstadt und Weststadt</p>"))
    assert "Folgende Bezirke sind betroffen:" in doc.text and "Nordstadt und Weststadt" in doc.text
