"""WARC archives, written with warcio in the test, read back as documents."""
from __future__ import annotations

import datetime as dt
import io

import pytest
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from newsclean.cleaners.pipeline import clean_document
from newsclean.cleaners.readers import read_source
from newsclean.cleaners.settings import Settings
from newsclean.cleaners.types import DocumentError, RawDocument
from tests.articles import BODY, page

URL = "https://www.reuters.com/world/2018/02/24/council-votes-to-expand-bus-network"


def _response(writer, url, body: bytes, content_type="text/html; charset=utf-8", status="200 OK"):
    http = StatusAndHeaders(status, [("Content-Type", content_type), ("Content-Length", str(len(body)))], protocol="HTTP/1.1")
    writer.write_record(writer.create_warc_record(url, "response", payload=io.BytesIO(body), http_headers=http))


def _warc(gzip_records=True, *, cp1252_page=False) -> bytes:
    out = io.BytesIO()
    w = WARCWriter(out, gzip=gzip_records)
    w.write_record(w.create_warc_record("", "warcinfo", payload=io.BytesIO(b"software: newsclean-test\r\n"),
                                        warc_content_type="application/warc-fields"))
    req = StatusAndHeaders("GET / HTTP/1.1", [("Host", "www.reuters.com")], is_http_request=True)
    w.write_record(w.create_warc_record(URL, "request", payload=io.BytesIO(b""), http_headers=req))
    _response(w, URL, page(charset=None).encode("utf-8"))
    _response(w, "https://www.reuters.com/logo.png", b"\x89PNG\r\n\x1a\n" + b"\x00" * 32, content_type="image/png")
    _response(w, "https://www.reuters.com/gone", b"<html><body>Not found</body></html>", status="404 Not Found")
    second = page("Caf\u00e9 owners welcome the new routes", charset=None,
                  paragraphs=[p.replace("officials", "caf\u00e9 owners") for p in BODY.split("\n\n")])
    if cp1252_page:
        _response(w, "https://www.bbc.co.uk/news/uk-123", second.encode("cp1252"), content_type="text/html; charset=windows-1252")
    else:
        _response(w, "https://www.bbc.co.uk/news/uk-123", second.encode("utf-8"))
    return out.getvalue()


@pytest.mark.parametrize("name,gz", [("crawl.warc.gz", True), ("crawl.warc", False)])
def test_html_responses_become_documents_with_header_urls(tmp_path, name, gz):
    (tmp_path / name).write_bytes(_warc(gz))
    items = list(read_source(tmp_path, name, Settings()))
    assert all(isinstance(i, RawDocument) for i in items)
    # warcinfo #0, request #1, page #2, png #3, 404 #4, page #5: only the two pages are documents
    assert [i.source for i in items] == [f"{name}#2", f"{name}#5"]
    assert [i.meta["url"] for i in items] == [URL, "https://www.bbc.co.uk/news/uk-123"]
    assert all(i.format == "html" for i in items)
    assert items[0].data.startswith(b"<!DOCTYPE html>")  # the HTTP payload, not the record


def test_warc_documents_clean_with_url_metadata(tmp_path):
    (tmp_path / "crawl.warc.gz").write_bytes(_warc(cp1252_page=True))
    first, second = (clean_document(i, Settings()) for i in read_source(tmp_path, "crawl.warc.gz", Settings()))
    assert first.url == URL
    assert first.title == "Council votes to expand the city bus network"
    assert first.text.startswith("The city council voted")
    assert first.published is not None and first.published.value == dt.date(2018, 2, 24)
    assert first.published.source in ("html", "url")  # htmldate reads the URL too
    assert (first.outlet.value, first.outlet_domain) == ("Example Gazette", None)  # og:site_name, not Reuters' domain
    # the charset of the HTTP header decodes the second page
    assert second.title == "Café owners welcome the new routes"
    assert "café owners" in second.text and "\ufffd" not in second.text


def test_wet_conversion_records_are_text_documents(tmp_path):
    out = io.BytesIO()
    w = WARCWriter(out, gzip=True)
    w.write_record(w.create_warc_record("https://apnews.com/article/x", "conversion", payload=io.BytesIO(BODY.encode()),
                                        warc_content_type="text/plain"))
    (tmp_path / "crawl.warc.wet.warc.gz").write_bytes(out.getvalue())
    (item,) = read_source(tmp_path, "crawl.warc.wet.warc.gz", Settings())
    assert item.format == "text" and item.meta["url"] == "https://apnews.com/article/x"
    doc = clean_document(item, Settings())
    assert (doc.outlet.value, doc.outlet.source, doc.outlet_domain) == ("The Associated Press", "url", "apnews.com")


@pytest.mark.parametrize("gz", [True, False])
@pytest.mark.parametrize("keep", [0.6, 0.7, 0.85, 0.97])
def test_a_cut_archive_keeps_the_records_before_the_cut_and_says_where(tmp_path, gz, keep):
    data = _warc(gz)
    (tmp_path / "cut.warc").write_bytes(data[: int(len(data) * keep)])
    items = list(read_source(tmp_path, "cut.warc", Settings()))
    docs = [i for i in items if isinstance(i, RawDocument)]
    errors = [i for i in items if isinstance(i, DocumentError)]
    assert [d.source for d in docs] == ["cut.warc#2"]  # the last page is cut: never passed on half-read
    assert len(errors) == 1 and errors[0].source in ("cut.warc#3", "cut.warc#4", "cut.warc#5")
    assert "re-download" in errors[0].reason.lower()


def test_not_a_warc(tmp_path):
    (tmp_path / "junk.warc").write_bytes(b"this is not an archive at all\n" * 5)
    with pytest.raises(DocumentError, match="WARC"):
        list(read_source(tmp_path, "junk.warc", Settings()))


def test_an_archive_without_a_page_says_what_it_holds(tmp_path):
    """A WARC of images and errors yields no document: a quarantine row says what its records are,
    instead of the file vanishing from the run."""
    out = io.BytesIO()
    w = WARCWriter(out, gzip=True)
    _response(w, "https://www.reuters.com/logo.png", b"\x89PNG\r\n\x1a\n" + b"\x00" * 32, content_type="image/png")
    _response(w, "https://www.reuters.com/gone", b"<html><body>Not found</body></html>", status="404 Not Found")
    (tmp_path / "assets.warc.gz").write_bytes(out.getvalue())
    with pytest.raises(DocumentError, match=r"no HTML page among its 2 records \(1 response image/png, 1 response 404\)"):
        list(read_source(tmp_path, "assets.warc.gz", Settings()))


def _archive(path, fetches) -> None:
    """A WARC of HTML responses: (uri, body, extra headers) each."""
    with open(path, "wb") as fh:
        writer = WARCWriter(fh, gzip=True)
        for uri, body, headers in fetches:
            head = StatusAndHeaders("200 OK", [("Content-Type", "text/html; charset=utf-8"), *headers], protocol="HTTP/1.1")
            writer.write_record(writer.create_warc_record(uri, "response", payload=io.BytesIO(body), http_headers=head))


def test_the_same_page_at_two_addresses_of_an_archive_is_two_articles_of_one_cluster(tmp_path):
    # a WARC often holds one page served at two addresses (two outlets carry it, a story moved):
    # each address is an article of its own, with its own URL, and the two are one near-duplicate cluster
    import gzip

    from newsclean.cleaners.batch import clean_sources
    from newsclean.cleaners.syndication import cluster_rows
    from tests.articles import page

    html = page().encode("utf-8")
    _archive(tmp_path / "twice.warc.gz", [("https://example.org/a", html, []),
                                          ("https://example.org/b", gzip.compress(html), [("Content-Encoding", "gzip")])])
    out = clean_sources(tmp_path, ["twice.warc.gz"], Settings())
    assert not out.quarantine
    assert [(a["source"], a["url"]) for a in out.articles] == [("twice.warc.gz#0", "https://example.org/a"),
                                                               ("twice.warc.gz#1", "https://example.org/b")]
    first, second = out.articles
    assert first["doc_id"] != second["doc_id"] and first["text"] == second["text"]
    assert cluster_rows(out.articles) == [(first["doc_id"], 1.0), (first["doc_id"], 1.0)]


def test_the_same_page_fetched_twice_at_one_address_is_one_article_and_a_record_note(tmp_path):
    # the same bytes at the same URL (a re-fetch, gzip-encoded the second time): the copy is left out
    # (doc_id unique) with advice about a record, not "remove the duplicate file"
    import gzip

    from newsclean.cleaners.batch import clean_sources
    from tests.articles import page

    html = page().encode("utf-8")
    _archive(tmp_path / "twice.warc.gz", [("https://example.org/a", html, []),
                                          ("https://example.org/a", gzip.compress(html), [("Content-Encoding", "gzip")])])
    out = clean_sources(tmp_path, ["twice.warc.gz"], Settings())
    assert [a["source"] for a in out.articles] == ["twice.warc.gz#0"]
    (q,) = out.quarantine
    assert q["source"] == "twice.warc.gz#1" and "same content and metadata (address, fields) as twice.warc.gz#0" in q["error"]
    assert "remove the duplicate file" not in q["error"] and "drop the record" in q["error"]
