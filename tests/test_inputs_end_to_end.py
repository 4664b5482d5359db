"""Every input format in one folder, through newsclean.cleaners.batch.clean_sources (no Prefect): each
document ends in exactly one place, rows pass the table schemas, metadata carries provenance."""
from __future__ import annotations

import csv
import datetime as dt
import gzip
import io
import json
import shutil

import pyarrow as pa
import pyarrow.parquet as pq
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from newsclean.cleaners.batch import clean_sources
from newsclean.cleaners.readers import discover
from newsclean.cleaners.settings import Settings
from newsclean.schemas.validate import failing_rows
from tests.articles import PARAGRAPHS, page
from tests.conftest import SEEDS_RAW


def _variant(n: int) -> str:
    """A distinct article body (distinct bytes, so distinct doc_ids)."""
    return "\n\n".join(f"{p[:-1]} in district {n}." for p in PARAGRAPHS)


def _build(raw):
    seed = sorted(SEEDS_RAW.glob("*.txt"))[0]
    shutil.copy(seed, raw / "a_seed.txt")
    (raw / "b_page.html").write_text(page("Council votes to expand the bus network"), encoding="utf-8")
    (raw / "c_page.html.gz").write_bytes(gzip.compress(page("Second council vote on buses", paragraphs=_variant(1).split("\n\n")).encode()))
    lines = [json.dumps({"id": "d1", "text": _variant(2), "url": "https://www.foxnews.com/us/2018/02/24/buses", "author": "Jane Doe"}),
             '{"id": "d2", "text": "broken',
             json.dumps({"id": "d3", "html": page("Third bus story", paragraphs=_variant(3).split("\n\n")), "published": "2019-05-06", "outlet": "BBC News"})]
    (raw / "d_records.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    with open(raw / "e_records.csv", "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["id", "title", "date", "site", "text"])
        w.writerow(["e1", "CSV story, with a comma", "Feb 24, 2018", "Reuters", _variant(4)])
    (raw / "f_records.json").write_text(json.dumps([{"id": "f1", "content": _variant(5)}]), encoding="utf-8")
    pq.write_table(pa.table({"id": ["g1"], "text": [_variant(6)], "published": [dt.date(2020, 1, 2)]}), raw / "g_records.parquet")
    (raw / "h_records.jsonl.gz").write_bytes(gzip.compress((json.dumps({"id": "h1", "text": _variant(7)}) + "\n").encode()))
    out = io.BytesIO()
    writer = WARCWriter(out, gzip=True)
    body = page("Crawled bus story", paragraphs=_variant(8).split("\n\n")).encode()
    http = StatusAndHeaders("200 OK", [("Content-Type", "text/html; charset=utf-8")], protocol="HTTP/1.1")
    writer.write_record(writer.create_warc_record("https://www.bbc.co.uk/news/uk-2018-1", "response", payload=io.BytesIO(body), http_headers=http))
    (raw / "i_crawl.warc.gz").write_bytes(out.getvalue())


def test_a_folder_mixing_every_format(tmp_path):
    raw = tmp_path / "raw"
    raw.mkdir()
    _build(raw)
    sources, skipped = discover(raw)
    assert skipped == [] and len(sources) == 9
    result = clean_sources(raw, sources, Settings())

    assert result.docs_read == len(result.articles) + len(result.quarantine) == 11
    assert [(q["source"], q["stage"]) for q in result.quarantine] == [("d_records.jsonl#L2", "read")]
    by_source = {a["source"]: a for a in result.articles}
    assert sorted(by_source) == sorted([
        "a_seed.txt", "b_page.html", "c_page.html.gz", "d_records.jsonl#L1", "d_records.jsonl#L3", "e_records.csv#0",
        "f_records.json#0", "g_records.parquet#0", "h_records.jsonl.gz#L1", "i_crawl.warc.gz#0"])

    assert failing_rows("articles", result.articles) == {}
    assert failing_rows("removed", result.removed) == {}
    assert failing_rows("quarantine", result.quarantine) == {}

    d1 = by_source["d_records.jsonl#L1"]
    assert (d1["url"], d1["author"]) == ("https://www.foxnews.com/us/2018/02/24/buses", "Jane Doe")
    assert (d1["published"], d1["published_source"]) == (dt.date(2018, 2, 24), "url")
    assert (d1["outlet"], d1["outlet_source"], d1["outlet_domain"]) == ("Fox News", "url", "foxnews.com")
    d3 = by_source["d_records.jsonl#L3"]
    assert (d3["title"], d3["published"], d3["published_source"]) == ("Third bus story", dt.date(2019, 5, 6), "record")
    assert (d3["outlet"], d3["outlet_source"], d3["outlet_domain"]) == ("BBC News", "record", "bbc.co.uk")
    e1 = by_source["e_records.csv#0"]
    assert (e1["title"], e1["published_source"], e1["outlet"]) == ("CSV story, with a comma", "record", "Reuters")
    assert by_source["g_records.parquet#0"]["published"] == dt.date(2020, 1, 2)
    warc = by_source["i_crawl.warc.gz#0"]
    assert warc["url"] == "https://www.bbc.co.uk/news/uk-2018-1" and warc["title"] == "Crawled bus story"
    assert (warc["outlet"], warc["outlet_source"]) == ("Example Gazette", "html")
    for a in result.articles:
        if a["source"] != "a_seed.txt":
            assert a["text"].startswith("The city council voted"), a["source"]
            assert "Privacy policy" not in a["text"]


def test_removed_offsets_point_at_their_text_for_every_format(tmp_path):
    from newsclean.cleaners.pipeline import normalised_lines_for
    raw = tmp_path / "raw"
    raw.mkdir()
    _build(raw)
    extra = "<p>RELATED: Mayor promises faster trains by next summer</p><p>Photo: Getty Images</p>"
    (raw / "j_debris.html").write_text(page("Debris page", body_extra=extra), encoding="utf-8")
    (raw / "k_debris.jsonl").write_text(json.dumps({"html": page("Debris record", body_extra=extra)}) + "\n", encoding="utf-8")
    sources, _ = discover(raw)
    result = clean_sources(raw, sources, Settings())
    by_doc = {a["doc_id"]: a["source"] for a in result.articles}
    checked = set()
    for r in result.removed:
        lines = normalised_lines_for(raw, by_doc[r["doc_id"]])
        assert lines[r["line"] - 1][r["start"]:r["end"]] == r["text"]
        checked.add(by_doc[r["doc_id"]])
    assert {"j_debris.html", "k_debris.jsonl#L1"} <= checked
