"""Record files (.jsonl/.ndjson, .json, .csv, .parquet) and .gz of them: small real files."""
from __future__ import annotations

import csv
import datetime as dt
import gzip
import json

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from newsclean.cleaners.pipeline import clean_document
from newsclean.cleaners.readers import discover, read_source, reader_for
from newsclean.cleaners.settings import Settings
from newsclean.cleaners.types import DocumentError, RawDocument
from tests.articles import BODY, page


def _read(tmp_path, name):
    return list(read_source(tmp_path, name, Settings()))


def _jsonl(path, records, broken_at=None):
    lines = [json.dumps(r) for r in records]
    if broken_at is not None:
        lines.insert(broken_at, '{"id": "x", "text": "unterminated')
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_jsonl_one_broken_line_is_quarantined_alone(tmp_path):
    _jsonl(tmp_path / "news.jsonl", [{"id": "a", "text": BODY}, {"id": "b", "text": BODY + "\n\nOne more line of text here, for a different record."}], broken_at=1)
    items = _read(tmp_path, "news.jsonl")
    docs = [i for i in items if isinstance(i, RawDocument)]
    errors = [i for i in items if isinstance(i, DocumentError)]
    assert [d.source for d in docs] == ["news.jsonl#L1", "news.jsonl#L3"]
    assert len(errors) == 1
    assert errors[0].source == "news.jsonl#L2" and errors[0].stage == "read"
    assert "line 2 is not valid JSON" in errors[0].reason
    assert docs[0].meta == {"id": "a"} and docs[0].format == "text" and docs[0].text == BODY
    assert docs[0].doc_id != docs[1].doc_id


def test_ndjson_blank_lines_and_records_without_content(tmp_path):
    (tmp_path / "n.ndjson").write_text(
        json.dumps({"text": BODY}) + "\n\n" + json.dumps({"title": "no body"}) + "\n" + json.dumps([1, 2]) + "\n", encoding="utf-8")
    items = _read(tmp_path, "n.ndjson")
    assert isinstance(items[0], RawDocument) and items[0].source == "n.ndjson#L1"
    assert isinstance(items[1], DocumentError) and items[1].source == "n.ndjson#L3" and "no content" in items[1].reason
    assert isinstance(items[2], DocumentError) and items[2].source == "n.ndjson#L4" and "not an object" in items[2].reason


def test_csv_with_quoted_newlines_commas_and_quotes(tmp_path):
    text = 'First paragraph, with a comma and "quotes".\n\nSecond paragraph\nover two lines.'
    with open(tmp_path / "news.csv", "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["id", "url", "title", "text"])
        w.writerow(["1", "https://www.bbc.co.uk/news/uk-1", "A headline, with comma", text])
        w.writerow(["2", "", "", BODY])
        w.writerow(["3", "too", "many", "fields", "here"])
    items = _read(tmp_path, "news.csv")
    assert [getattr(i, "source", None) for i in items] == ["news.csv#0", "news.csv#1", "news.csv#2"]
    first = items[0]
    assert first.text == text  # newlines inside quotes survive
    assert first.meta == {"id": "1", "url": "https://www.bbc.co.uk/news/uk-1", "title": "A headline, with comma"}
    assert items[1].meta["url"] is None  # empty cells are missing values
    assert isinstance(items[2], DocumentError) and "5 fields but the header has 4" in items[2].reason


def test_csv_semicolon_delimited_and_legacy_encoding(tmp_path):
    data = "id;text\r\n1;\"Caf\xe9 owners said the new rules, which start on Monday, would cost them money.\"\r\n".encode("cp1252")
    (tmp_path / "semi.csv").write_bytes(data)
    (item,) = _read(tmp_path, "semi.csv")
    assert item.text.startswith("Café owners") and item.meta == {"id": "1"}


def test_json_array_and_index_sources(tmp_path):
    records = [{"id": 1, "content": BODY}, "not a record", {"id": 3, "content": page(), "url": "https://www.reuters.com/world/x"}]
    (tmp_path / "news.json").write_text(json.dumps(records), encoding="utf-8")
    items = _read(tmp_path, "news.json")
    assert [getattr(i, "source", None) for i in items] == ["news.json#0", "news.json#1", "news.json#2"]
    assert items[0].format == "text"
    assert isinstance(items[1], DocumentError)
    assert items[2].format == "html"  # `content` holding a page is read as HTML


def test_json_that_is_not_json_fails_as_a_file(tmp_path):
    (tmp_path / "bad.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(DocumentError, match="not valid JSON"):
        _read(tmp_path, "bad.json")


def test_parquet_records_with_typed_columns(tmp_path):
    table = pa.table({
        "id": ["p1", "p2"],
        "text": [BODY, None],
        "published": [dt.date(2018, 2, 24), dt.date(2019, 1, 1)],
        "site": ["Reuters", "CNN"],
    })
    pq.write_table(table, tmp_path / "news.parquet")
    items = _read(tmp_path, "news.parquet")
    assert items[0].source == "news.parquet#0" and items[0].meta["published"] == dt.date(2018, 2, 24)
    assert isinstance(items[1], DocumentError) and items[1].source == "news.parquet#1"


def test_gz_of_jsonl_names_the_compressed_file(tmp_path):
    payload = (json.dumps({"id": "z", "text": BODY}) + "\n").encode()
    (tmp_path / "news.jsonl.gz").write_bytes(gzip.compress(payload))
    (item,) = _read(tmp_path, "news.jsonl.gz")
    assert item.source == "news.jsonl.gz#L1" and item.text == BODY


def test_gz_limits_and_damage(tmp_path):
    (tmp_path / "big.txt.gz").write_bytes(gzip.compress(b"a" * 5000))
    with pytest.raises(DocumentError, match="max_bytes"):
        list(read_source(tmp_path, "big.txt.gz", Settings(max_bytes=1000)))
    (tmp_path / "cut.txt.gz").write_bytes(gzip.compress(BODY.encode())[:-12])
    with pytest.raises(DocumentError, match="truncated"):
        _read(tmp_path, "cut.txt.gz")


def test_discover_takes_every_format_and_skips_unknown_gz(tmp_path):
    for name in ["a.txt", "b.html", "c.htm", "d.jsonl", "e.ndjson", "f.json", "g.csv", "h.parquet", "i.jsonl.gz",
                 "j.warc", "k.warc.gz", "l.html.gz", "skip.tar.gz", "skip.png", "skip.gz.gz"]:
        (tmp_path / name).write_bytes(b"")
    sources, skipped = discover(tmp_path)
    assert sources == ["a.txt", "b.html", "c.htm", "d.jsonl", "e.ndjson", "f.json", "g.csv", "h.parquet",
                       "i.jsonl.gz", "j.warc", "k.warc.gz", "l.html.gz"]
    assert reader_for("X.JSONL") is reader_for("x.jsonl")


def test_record_metadata_wins_with_record_provenance(tmp_path):
    text = "date 2017-01-05 (FoxNews.com) - " + BODY
    record = {"id": "r1", "text": text, "title": "The record's own title", "published": "2018-02-24T10:00:00Z",
              "outlet": "Reuters", "url": "https://www.bbc.co.uk/news/2016/01/01/x", "author": "Jane Doe"}
    (tmp_path / "r.jsonl").write_text(json.dumps(record) + "\n", encoding="utf-8")
    (raw,) = _read(tmp_path, "r.jsonl")
    doc = clean_document(raw, Settings())
    assert doc.title == "The record's own title"
    assert (doc.published.value, doc.published.source) == (dt.date(2018, 2, 24), "record")
    assert (doc.outlet.value, doc.outlet.source) == ("Reuters", "record")
    assert doc.outlet_domain == "reuters.com"  # the URL's domain belongs to another outlet: the registry's
    assert doc.url == record["url"] and doc.author == "Jane Doe"
    assert "FoxNews.com" not in doc.text  # the dateline is still removed as debris


def test_record_html_field_goes_through_the_html_path(tmp_path):
    record = {"id": "h1", "html": page(), "url": "https://www.theguardian.com/uk-news/2018/feb/24/council-buses"}
    (tmp_path / "h.jsonl").write_text(json.dumps(record) + "\n", encoding="utf-8")
    (raw,) = _read(tmp_path, "h.jsonl")
    assert raw.format == "html"
    doc = clean_document(raw, Settings())
    assert doc.title == "Council votes to expand the city bus network"
    assert doc.text.startswith("The city council voted")
    assert "Privacy policy" not in doc.text and "Sport" not in doc.text
    assert doc.url == record["url"]


def test_json_object_forms(tmp_path):
    (tmp_path / "wrapped.json").write_text(json.dumps({"articles": [{"text": BODY}, {"text": BODY + "\n\nMore."}]}), encoding="utf-8")
    assert [i.source for i in _read(tmp_path, "wrapped.json")] == ["wrapped.json#0", "wrapped.json#1"]
    (tmp_path / "single.json").write_text(json.dumps({"text": BODY, "id": 7}), encoding="utf-8")
    (item,) = _read(tmp_path, "single.json")
    assert item.source == "single.json#0" and item.meta == {"id": 7}
    (tmp_path / "other.json").write_text(json.dumps({"config": True}), encoding="utf-8")
    with pytest.raises(DocumentError, match="no records"):
        _read(tmp_path, "other.json")


def test_news_please_and_cc_news_exports_are_read_with_their_metadata(tmp_path):
    # news-please writes "maintext", "date_publish", "source_domain" and a list of "authors";
    # CC-News-style datasets "text", "date" and "domain"; some exports keep the page in "raw_html"
    news_please = {"title": "Council votes to expand the city bus network", "maintext": BODY,
                   "date_publish": "2024-03-05 10:12:00", "source_domain": "www.theguardian.com",
                   "authors": ["Jane Doe", "John Roe"], "url": "https://www.theguardian.com/uk/2024/mar/05/buses"}
    cc_news = {"text": BODY, "date": "2024-03-06", "domain": "www.bbc.co.uk", "title": "Bus network grows"}
    raw_html = {"id": "h1", "raw_html": page(), "publish_date": "2024-03-07"}
    _jsonl(tmp_path / "exports.jsonl", [news_please, cc_news, raw_html])
    docs = _read(tmp_path, "exports.jsonl")
    assert [d.format for d in docs] == ["text", "text", "html"]
    cleaned = [clean_document(d, Settings()) for d in docs]
    assert [c.text for c in cleaned] == [BODY, BODY, BODY]
    first, second, third = cleaned
    assert first.published.value == dt.date(2024, 3, 5) and first.published.source == "record"
    assert first.outlet.value == "The Guardian" and first.author == "Jane Doe; John Roe"
    assert second.published.value == dt.date(2024, 3, 6) and second.outlet.value == "BBC News"
    assert third.published.value == dt.date(2024, 3, 7)


def test_tsv_records_are_read(tmp_path):
    rows = [["id", "title", "text"], ["a", "Bus network grows", BODY.replace("\n\n", " ")]]
    (tmp_path / "news.tsv").write_text("\n".join("\t".join(r) for r in rows) + "\n", encoding="utf-8")
    (doc,) = _read(tmp_path, "news.tsv")
    assert doc.source == "news.tsv#0" and doc.meta["title"] == "Bus network grows"
    assert doc.text == BODY.replace("\n\n", " ")


def test_wordpress_and_json_ld_nested_fields(tmp_path):
    # WordPress's REST API wraps title and content in {"rendered": …}; JSON-LD gives authors as
    # Person objects and a date as {"@value": …}
    wordpress = {"id": 12, "date": "2024-03-05T10:12:00", "link": "https://example.org/2024/03/05/buses/",
                 "title": {"rendered": "Council votes to expand the city bus network"},
                 "content": {"rendered": "".join(f"<p>{p}</p>" for p in BODY.split("\n\n")), "protected": False}}
    json_ld = {"text": BODY, "headline": "Bus network grows",
               "author": [{"@type": "Person", "name": "Jane Doe"}, {"@type": "Person", "name": "John Roe"}],
               "datePublished": {"@value": "2024-03-06"}}
    _jsonl(tmp_path / "nested.jsonl", [wordpress, json_ld])
    docs = _read(tmp_path, "nested.jsonl")
    assert [d.format for d in docs] == ["html", "text"]
    first, second = (clean_document(d, Settings()) for d in docs)
    assert first.title == "Council votes to expand the city bus network" and first.text == BODY
    assert first.url == "https://example.org/2024/03/05/buses/" and first.published.value == dt.date(2024, 3, 5)
    assert second.title == "Bus network grows" and second.author == "Jane Doe; John Roe"
    assert second.published.value == dt.date(2024, 3, 6)


def test_a_field_holding_an_object_without_a_value_is_missing_not_its_repr(tmp_path):
    record = {"text": BODY, "title": {"nested": True}, "url": 7, "author": {"id": 3}, "outlet": [{"x": 1}]}
    _jsonl(tmp_path / "odd.jsonl", [record])
    (raw,) = _read(tmp_path, "odd.jsonl")
    doc = clean_document(raw, Settings())
    assert doc.text == BODY
    assert doc.title is None or "nested" not in doc.title
    assert doc.url is None and doc.author is None and doc.outlet is None
    wrapped = {"content": {"protected": True}}  # content wrapped with no value: no content, said so
    _jsonl(tmp_path / "empty.jsonl", [wrapped])
    (err,) = _read(tmp_path, "empty.jsonl")
    assert isinstance(err, DocumentError) and "no content" in err.reason
