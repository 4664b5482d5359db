"""Pages that are not an article (newsclean.cleaners.page_kind): a bot check, a script-rendered shell, an error
page, a frameset, a redirect are quarantined with what to do; articles that look like them stay."""
from __future__ import annotations

import pytest

from newsclean.cleaners.pipeline import clean_document
from newsclean.cleaners.rules.navigation import ACCESS_NOTICE
from newsclean.cleaners.settings import Settings
from newsclean.cleaners.types import DocumentError, RawDocument
from tests.articles import BODY, PARAGRAPHS, page


def _clean(text: str, fmt: str = "text", name: str = "x"):
    raw = RawDocument(source=f"{name}.{'html' if fmt == 'html' else 'txt'}", data=text.encode("utf-8"), format=fmt)
    return clean_document(raw, Settings())


def _reason(text: str, fmt: str = "text") -> tuple[str, str]:
    with pytest.raises(DocumentError) as info:
        _clean(text, fmt)
    return info.value.stage, info.value.reason


BOT_CHECK_TEXT = ("Just a moment...\n\nChecking your browser before accessing example.org\n\n"
                  "This process is automatic. Your browser will redirect to your requested content shortly.\n\n"
                  "Please allow up to 5 seconds…\n\nDDoS protection by Cloudflare\n\nRay ID: 7a1b2c3d4e5f6789")
BLOCKED_TEXT = ("Sorry, you have been blocked\n\nYou are unable to access example.org\n\n"
                "Why have I been blocked?\n\nThis website is using a security service to protect itself from online attacks.")
SPA_HTML = ('<!doctype html><html><head><title>News App</title><script src="/static/app.js"></script></head><body>'
            '<noscript>You need to enable JavaScript to run this app.</noscript><div id="root"></div></body></html>')
ERROR_HTML = ('<html><head><title>Page Not Found | Example Gazette</title></head><body><nav><a href="/">Home</a></nav>'
              '<h1>Page not found</h1><p>The page you are looking for does not exist. It may have been moved.</p>'
              '<p><a href="/">Go back home</a></p></body></html>')
FRAMES_HTML = ('<html><head><title>Example News</title></head><frameset cols="20%,80%"><frame src="menu.html">'
               '<frame src="story-1234.html"></frameset></html>')
REDIRECT_HTML = ('<html><head><meta http-equiv="refresh" content="0; url=https://example.org/news/council-votes">'
                 '<title>Redirecting</title></head><body>Redirecting to <a href="https://example.org/news/council-votes">'
                 'the article</a>...</body></html>')


@pytest.mark.parametrize("text, fmt, stage, says", [
    (BOT_CHECK_TEXT, "text", "decide", "bot check"),
    (BLOCKED_TEXT, "text", "decide", "bot check"),
    (SPA_HTML, "html", "decide", "made by a script"),
    ("You need to enable JavaScript to run this app.\n\nLoading…", "text", "decide", "made by a script"),
    (ERROR_HTML, "html", "decide", "error page"),
    ("404 Not Found\n\nnginx/1.18.0", "text", "decide", "error page"),
    (FRAMES_HTML, "html", "extract", "story-1234.html"),
    (REDIRECT_HTML, "html", "extract", "https://example.org/news/council-votes"),
], ids=["bot check", "blocked", "script shell html", "script shell text", "error page html", "404 text",
        "frameset", "meta refresh"])
def test_a_page_that_is_not_an_article_is_quarantined_with_what_to_do(text, fmt, stage, says):
    got_stage, reason = _reason(text, fmt)
    assert got_stage == stage and says in reason, reason
    assert any(verb in reason for verb in ("fetch", "save", "check")), reason  # a reason a person can act on


LONG_PROSE = " ".join(PARAGRAPHS)


@pytest.mark.parametrize("text, fmt", [
    # an article about a bot check quotes its notice inside sentences
    ("Sites ask readers to verify they are human\n\n" + BODY + "\n\nMany readers now see a page that says "
     "\"Checking your browser before accessing\" the site, and security firms say the checks stop most bots "
     "while slowing real visitors by a few seconds.", "text"),
    # a long article with a notice line quoted on its own (a caption-like line) stays: its text is long
    ("Council votes to expand the city bus network\n\n" + BODY + "\n\nAccess denied\n\n" + LONG_PROSE, "text"),
    # a short brief whose headline reads like a notice but is a sentence of news
    ("Access denied to journalists, union says\n\nReporters were turned away from the council meeting on "
     "Tuesday, the union said, and it will ask the mayor to explain why the doors were closed to the press.",
     "text"),
    ("Page not found in the index, says Google\n\nGoogle said on Tuesday that the council's new page was "
     "not found in its index for two days after launch, and that the problem has now been fixed.", "text"),
    # an article page that reloads itself every five minutes, or that names its canonical address
    (page(head='<meta http-equiv="refresh" content="300">'), "html"),
    (page(head='<meta http-equiv="refresh" content="0; url=https://example.org/news/council-votes">'), "html"),
    # an article with an embedded frame
    (page(body_extra='<iframe src="https://www.youtube.com/embed/x"></iframe>'), "html"),
], ids=["quoted in prose", "notice line in a long article", "headline access denied", "headline page not found",
        "self refresh", "refresh on an article", "iframe embed"])
def test_articles_that_look_like_notice_pages_stay(text, fmt):
    doc = _clean(text, fmt)
    assert len(doc.text.split()) > 25


@pytest.mark.parametrize("line, kind", [
    ("Please verify you are a human", "bot_check"), ("Checking your browser before accessing example.org", "bot_check"),
    ("Sorry, you have been blocked", "bot_check"), ("Access Denied - Example", "bot_check"),
    ("Attention Required! | Cloudflare", "bot_check"), ("You need to enable JavaScript to run this app.", "script_shell"),
    ("This site requires JavaScript", "script_shell"), ("404 Not Found", "error_page"), ("Error 404", "error_page"),
    ("Page Not Found | The Daily News", "error_page"), ("Oops! That page can’t be found.", "error_page"),
    ("503 Service Unavailable", "error_page"), ("Seite nicht gefunden", "error_page"),
    ("Page not found in the index, says Google", None), ("Access denied to journalists, union says", None),
    ("The 404 page", None), ("404", None), ("Readers are asked to verify their age", None),
])
def test_access_notice_lines_and_look_alikes(line, kind):
    m = ACCESS_NOTICE.search(line)
    assert (m.lastgroup if m else None) == kind
