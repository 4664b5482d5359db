"""A big record file or archive is read as parts (newsclean.cleaners.readers.ranges): reading every
part in order yields exactly what reading the file whole yields, and a part seeks to its records
where the format allows."""
from __future__ import annotations

import csv
import gzip
import io
import json

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import zstandard

from newsclean.cleaners.readers import read_source
from newsclean.cleaners.readers.ranges import Part, split
from newsclean.cleaners.settings import Settings
from newsclean.cleaners.types import DocumentError
from tests.articles import BODY
from tests.test_streaming_readers import _warc


def _jsonl() -> bytes:
    rows = []
    for i in range(53):
        rows.append(json.dumps({"id": f"r{i}", "text": f"{i} {BODY}"}).encode())
        if i % 7 == 0:
            rows.append(b"")  # blank lines are numbered, and yield nothing
        if i % 11 == 0:
            rows.append(b"{not json")
    return b"\n".join(rows) + b"\n"


def _csv() -> bytes:
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow(["id", "text"])
    for i in range(41):
        w.writerow([f"r{i}", f"{i} {BODY}\nwith a second line"])
        if i % 9 == 0:
            w.writerow([])
    return out.getvalue().encode()


def _parquet() -> bytes:
    out = io.BytesIO()
    pq.write_table(pa.Table.from_pylist([{"id": f"r{i}", "text": f"{i} {BODY}"} for i in range(47)]), out, row_group_size=4)
    return out.getvalue()


FILES = {
    "dump.jsonl": _jsonl,
    "dump.jsonl.gz": lambda: gzip.compress(_jsonl()),
    "dump.ndjson.zst": lambda: zstandard.ZstdCompressor().compress(_jsonl()),
    "crawl.warc.gz": lambda: _warc(37),
    "dump.csv": _csv,
    "dump.csv.gz": lambda: gzip.compress(_csv()),
    "dump.parquet": _parquet,
}


def _key(item):
    if isinstance(item, DocumentError):
        return ("error", item.source, item.reason)
    return ("doc", item.source, item.data, item.text, item.format)


@pytest.mark.parametrize("name", list(FILES))
@pytest.mark.parametrize("every", [1, 5, 16])
def test_the_parts_yield_what_the_whole_file_yields(tmp_path, name, every):
    (tmp_path / name).write_bytes(FILES[name]())
    settings = Settings()
    whole = [_key(i) for i in read_source(tmp_path, name, settings)]
    parts = split(tmp_path, name, settings, every, min_bytes=0)
    assert len(parts) > 1 and parts[0].start == 0 and parts[-1].stop is None
    assert all(a.stop == b.start for a, b in zip(parts, parts[1:]))
    got = [_key(i) for part in parts for i in read_source(tmp_path, name, settings, part)]
    assert got == whole


@pytest.mark.parametrize("name,seeks", [("dump.jsonl", True), ("dump.jsonl.gz", False), ("crawl.warc.gz", True),
                                        ("dump.parquet", True), ("dump.csv", False)])
def test_a_part_seeks_where_the_format_allows(tmp_path, name, seeks):
    (tmp_path / name).write_bytes(FILES[name]())
    parts = split(tmp_path, name, Settings(), 5, min_bytes=0)
    assert all((p.offset is not None) == seeks for p in parts[1:])


def test_small_files_and_unsplit_formats_are_one_part(tmp_path):
    (tmp_path / "dump.jsonl").write_bytes(_jsonl())
    (tmp_path / "page.html").write_text("<html><body><p>x</p></body></html>")
    assert split(tmp_path, "dump.jsonl", Settings(), 5) == [Part("dump.jsonl")]  # under 8 MB
    assert split(tmp_path, "page.html", Settings(), 1, min_bytes=0) == [Part("page.html")]


def test_an_archive_cut_short_is_reported_in_its_last_part(tmp_path):
    data = _warc(20)
    (tmp_path / "crawl.warc.gz").write_bytes(data[:-300])
    parts = split(tmp_path, "crawl.warc.gz", Settings(), 6, min_bytes=0)
    items = [i for p in parts for i in read_source(tmp_path, "crawl.warc.gz", Settings(), p)]
    assert [_key(i) for i in items] == [_key(i) for i in read_source(tmp_path, "crawl.warc.gz", Settings())]
    assert isinstance(items[-1], DocumentError) and "cut short" in items[-1].reason
