"""Files whose name says no format (a mirrored site's `news/story`, `page.php?id=3`) are read by
their content; a mirror's assets are left out; documents newsclean cannot read are reported."""
from __future__ import annotations

import gzip
import io
import json
import shutil

import pytest
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from newsclean.cleaners.batch import clean_sources
from newsclean.cleaners.readers import discover, read_source
from newsclean.cleaners.readers.sniff import name_kind
from newsclean.cleaners.settings import Settings
from newsclean.cleaners.types import DocumentError
from newsclean.schemas.validate import failing_rows
from tests.articles import BODY, PARAGRAPHS, page
from tests.conftest import SEEDS_RAW


@pytest.mark.parametrize("name", ["story", "news/2020/05/story", "article.php", "article.php?id=3", "index.aspx",
                                  "page.shtml", "story.text", "v2.0-final", "archive/page.cfm?x=1&y=2", "story.gz"])
def test_names_that_say_no_format_are_read_by_content(name):
    assert name_kind(name) == ("sniff", None)


@pytest.mark.parametrize("name", ["logo.png", "photo.JPG", "style.css", "app.js", "font.woff2", "clip.mp4",
                                  "sitemap.xml", "feed.rss", ".DS_Store", ".gitkeep", "story~", "style.css.gz",
                                  "img/logo.png?v=3"])
def test_a_mirrors_assets_and_dot_files_are_left_out(name):
    assert name_kind(name) == ("ignore", None)


@pytest.mark.parametrize("name,says", [("report.pdf", "PDF"), ("letter.docx", "office"), ("site.zip", "archive"),
                                       ("dump.tar.gz", "archive"), ("book.epub", "e-book"), ("report.pdf.gz", "PDF"),
                                       ("twice.gz.gz", "gzip inside gzip")])
def test_documents_newsclean_cannot_read_are_reported(name, says):
    kind, why = name_kind(name)
    assert kind == "report" and says in why


def _warc_bytes() -> bytes:
    out = io.BytesIO()
    w = WARCWriter(out, gzip=False)
    http = StatusAndHeaders("200 OK", [("Content-Type", "text/html; charset=utf-8")], protocol="HTTP/1.1")
    w.write_record(w.create_warc_record("https://www.bbc.co.uk/news/uk-1", "response",
                                        payload=io.BytesIO(page("Crawled bus story").encode()), http_headers=http))
    return out.getvalue()


@pytest.mark.parametrize("content,fmt", [
    (page().encode(), "html"),
    (BODY.encode(), "text"),
    (BODY.encode("utf-16"), "text"),  # UTF-16 with its BOM is text, NUL bytes and all
    (gzip.compress(BODY.encode()), "text"),
    (gzip.compress(page().encode()), "html"),
    ((json.dumps({"id": "r1", "text": BODY}) + "\n").encode(), "text"),
    (json.dumps([{"id": "r1", "html": page()}], indent=2).encode(), "html"),
    (_warc_bytes(), "html"),
    (gzip.compress(_warc_bytes()), "html"),
    (b"{curly} is how the column opens, and the rest is plain text.\n\n" + BODY.encode(), "text"),
], ids=["html", "text", "utf-16 text", "gzip text", "gzip html", "jsonl record", "json array of html", "warc",
        "gzip warc", "text opening with a brace"])  # a WARC record's id is random: ids keep xdist's workers in step
def test_content_decides_the_reader(tmp_path, content, fmt):
    (tmp_path / "story").write_bytes(content)
    (item,) = list(read_source(tmp_path, "story", Settings()))
    assert item.format == fmt


def test_records_found_by_content_keep_their_fields(tmp_path):
    (tmp_path / "export").write_text(json.dumps({"id": "r1", "text": BODY, "title": "Buses for three districts",
                                                 "url": "https://www.reuters.com/x"}) + "\n", encoding="utf-8")
    (item,) = list(read_source(tmp_path, "export", Settings()))
    assert (item.source, item.format) == ("export#L1", "text")
    assert item.meta["title"] == "Buses for three districts"


@pytest.mark.parametrize("content,says", [(b"%PDF-1.4\n\x00\x01", "a PDF document"), (b"PK\x03\x04\x00\x00", "ZIP"),
                                          (b"\x00\x01\x02binary", "binary data"),
                                          (gzip.compress(gzip.compress(BODY.encode())), "gzip inside gzip")],
                         ids=["pdf", "zip", "binary", "gzip inside gzip"])
def test_unreadable_content_is_a_reason_not_a_crash(tmp_path, content, says):
    (tmp_path / "blob").write_bytes(content)
    with pytest.raises(DocumentError, match=says):
        list(read_source(tmp_path, "blob", Settings()))


def _mirror(raw):
    site = raw / "www.example-gazette.com"
    (site / "news" / "2018" / "02").mkdir(parents=True)
    shutil.copy(sorted(SEEDS_RAW.glob("*.txt"))[0], site / "news" / "2018" / "02" / "officers-stunned")
    (site / "article.php?id=3").write_text(page("Council votes to expand the bus network"), encoding="utf-8")
    (site / "index.aspx").write_bytes(gzip.compress(page("Second council vote on buses").encode()))
    (site / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"\x00" * 16)
    (site / "style.css").write_text("body { margin: 0 }", encoding="utf-8")
    (site / "sitemap.xml").write_text("<?xml version='1.0'?><urlset></urlset>", encoding="utf-8")
    (site / ".DS_Store").write_bytes(b"\x00\x00\x00\x01Bud1")
    (site / "annual-report.pdf").write_bytes(b"%PDF-1.4\n\x00")
    (site / "download").write_bytes(b"%PDF-1.4\n\x00")  # a PDF saved under a page's name


def test_a_mirrored_site_loses_no_document(tmp_path):
    raw = tmp_path / "raw"
    _mirror(raw)
    sources, skipped = discover(raw)
    site = "www.example-gazette.com/"
    assert sources == [site + s for s in ["article.php?id=3", "download", "index.aspx", "news/2018/02/officers-stunned"]]
    assert [(s, why.split(";")[0]) for s, why in skipped] == [(site + "annual-report.pdf", "not read: a PDF document")]

    result = clean_sources(raw, sources, Settings())
    assert result.docs_read == len(result.articles) + len(result.quarantine) == 4
    by_source = {a["source"]: a for a in result.articles}
    assert sorted(by_source) == [site + s for s in ["article.php?id=3", "index.aspx", "news/2018/02/officers-stunned"]]
    assert by_source[site + "article.php?id=3"]["title"] == "Council votes to expand the bus network"
    assert by_source[site + "article.php?id=3"]["text"] == "\n\n".join(PARAGRAPHS)
    assert by_source[site + "index.aspx"]["title"] == "Second council vote on buses"
    assert by_source[site + "news/2018/02/officers-stunned"]["title"].startswith("Officers were")
    (q,) = result.quarantine
    assert (q["source"], q["stage"]) == (site + "download", "read") and "a PDF document" in q["error"]
    assert failing_rows("articles", result.articles) == {}
    assert failing_rows("quarantine", result.quarantine) == {}
