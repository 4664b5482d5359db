"""Record files and archives are read record by record from a stream: `max_bytes` bounds one record,
never the file, memory is bounded by a record, and a file cut short keeps the records before the cut."""
from __future__ import annotations

import bz2
import gzip
import io
import json
import lzma
import tracemalloc
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import zstandard
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from newsclean.cleaners.batch import clean_sources
from newsclean.cleaners.readers import discover, read_source
from newsclean.cleaners.settings import Settings
from newsclean.cleaners.types import DocumentError, RawDocument
from tests.articles import BODY, page

COMPRESS = {".gz": gzip.compress, ".zst": lambda b: zstandard.ZstdCompressor().compress(b),
            ".xz": lzma.compress, ".bz2": bz2.compress}


def _jsonl(n: int, pad: int = 0) -> bytes:
    return b"".join(json.dumps({"id": f"r{i}", "text": BODY + " " * pad}).encode() + b"\n" for i in range(n))


def _warc(pages: int, big: int | None = None) -> bytes:
    out = io.BytesIO()
    w = WARCWriter(out, gzip=True)
    for i in range(pages):
        body = page(charset=None).encode("utf-8")
        if i == big:
            body += b"<!-- " + b"x" * 200_000 + b" -->"
        http = StatusAndHeaders("200 OK", [("Content-Type", "text/html; charset=utf-8")], protocol="HTTP/1.1")
        w.write_record(w.create_warc_record(f"https://www.reuters.com/world/story-{i}", "response",
                                            payload=io.BytesIO(body), http_headers=http))
    return out.getvalue()


def test_a_damaged_gzip_member_read_as_extra_records_takes_no_place(tmp_path):
    # Record 2's gzip data is damaged in the middle (tests/data/warc/damaged-member.warc.gz, six
    # pages): warcio decodes it into a record that is no page and reads the rest of the member as a
    # record of its own. Record 2 is quarantined, and the records after it keep their places.
    import shutil
    shutil.copy(Path(__file__).parent / "data" / "warc" / "damaged-member.warc.gz", tmp_path / "crawl.warc.gz")
    items = list(read_source(tmp_path, "crawl.warc.gz", Settings()))
    assert [i.source for i in items if isinstance(i, RawDocument)] == [f"crawl.warc.gz#{k}" for k in (0, 1, 3, 4, 5)]
    errors = [i for i in items if isinstance(i, DocumentError)]
    assert [e.source for e in errors] == ["crawl.warc.gz#2"] and "re-download" in errors[0].reason.lower()


def test_a_damaged_archive_says_so_in_quarantine_not_as_raw_bytes_on_the_terminal(tmp_path, capfd, caplog):
    # warcio writes a note with the raw bytes after a record that does not end where its header
    # says straight to stderr, and logs a damaged header's bytes as an "invalid WARC-Target-URI":
    # binary noise on a terminal. The reader keeps it quiet; the quarantine row says it in words.
    import logging
    import shutil

    shutil.copy(Path(__file__).parent / "data" / "warc" / "damaged-member.warc.gz", tmp_path / "crawl.warc.gz")
    caplog.set_level(logging.DEBUG)
    items = list(read_source(tmp_path, "crawl.warc.gz", Settings()))
    out, err = capfd.readouterr()
    assert out == "" and err == ""
    assert not [r for r in caplog.records if r.name.startswith("warcio") and r.levelno >= logging.WARNING]
    assert [e.source for e in items if isinstance(e, DocumentError)] == ["crawl.warc.gz#2"]


def test_random_damage_to_an_archive_never_loops_nor_misnumbers_a_page(tmp_path):
    # 300 damages (1-59 random bytes anywhere in one of the eight gzip members of
    # tests/data/warc/eight-pages.warc.gz, drawn with a fixed seed): reading always ends, with at
    # most one row per record and one for a cut-short end; no page is read twice or numbered past
    # the archive's eight records. (Draws 145, 244 and 277 damage a member that warcio decodes into
    # extra records.)
    import random

    data = (Path(__file__).parent / "data" / "warc" / "eight-pages.warc.gz").read_bytes()
    starts = [i for i in range(len(data)) if data[i:i + 3] == b"\x1f\x8b\x08"]
    assert len(starts) == 8
    rng = random.Random(1)
    for draw in range(300):
        k = rng.randrange(8)
        at = rng.randrange(starts[k], starts[k + 1] if k < 7 else len(data))
        width = rng.randrange(1, 60)
        damaged = bytearray(data)
        damaged[at:at + width] = bytes(rng.randrange(256) for _ in range(len(damaged[at:at + width])))
        (tmp_path / "a.warc.gz").write_bytes(bytes(damaged))
        items = []
        try:
            for item in read_source(tmp_path, "a.warc.gz", Settings()):
                items.append(item)
                assert len(items) <= 9, f"draw {draw}: the reader does not end"
        except DocumentError:  # its opening bytes damaged: the file no longer reads as a WARC, quarantined whole
            assert not items, f"draw {draw}"
        pages = [int(i.source.rpartition("#")[2]) for i in items if isinstance(i, RawDocument)]
        assert len(set(pages)) == len(pages) and all(n < 8 for n in pages), f"draw {draw}: {pages}"
        assert all(int(i.source.rpartition("#")[2]) <= 8 for i in items if i.source), f"draw {draw}"


def test_a_record_file_larger_than_max_bytes_is_read_whole(tmp_path):
    (tmp_path / "dump.jsonl").write_bytes(_jsonl(100))
    small = Settings(max_bytes=5_000)
    assert (tmp_path / "dump.jsonl").stat().st_size > 10 * small.max_bytes
    items = list(read_source(tmp_path, "dump.jsonl", small))
    assert len(items) == 100 and all(isinstance(i, RawDocument) for i in items)


def test_max_bytes_bounds_one_record_and_the_next_goes_on(tmp_path):
    data = _jsonl(2) + json.dumps({"id": "big", "text": "x" * 20_000}).encode() + b"\n" + _jsonl(1)
    (tmp_path / "dump.jsonl").write_bytes(data)
    items = list(read_source(tmp_path, "dump.jsonl", Settings(max_bytes=5_000)))
    assert [type(i).__name__ for i in items] == ["RawDocument", "RawDocument", "DocumentError", "RawDocument"]
    assert items[2].source == "dump.jsonl#L3" and "max_bytes limit of 5,000" in items[2].reason
    assert items[3].source == "dump.jsonl#L4"


def test_a_whole_file_cap_is_opt_in(tmp_path):
    (tmp_path / "dump.jsonl").write_bytes(_jsonl(10))
    assert len(list(read_source(tmp_path, "dump.jsonl", Settings()))) == 10
    with pytest.raises(DocumentError, match="over the max_file_bytes limit of 1,000"):
        list(read_source(tmp_path, "dump.jsonl", Settings(max_file_bytes=1_000)))


@pytest.mark.parametrize("suffix", list(COMPRESS))
def test_compressed_record_files_stream(tmp_path, suffix):
    (tmp_path / f"dump.jsonl{suffix}").write_bytes(COMPRESS[suffix](_jsonl(30)))
    (tmp_path / f"page.html{suffix}").write_bytes(COMPRESS[suffix](page().encode()))
    sources, skipped = discover(tmp_path)
    assert sources == [f"dump.jsonl{suffix}", f"page.html{suffix}"] and not skipped
    items = list(read_source(tmp_path, f"dump.jsonl{suffix}", Settings(max_bytes=5_000)))
    assert [i.source for i in items] == [f"dump.jsonl{suffix}#L{n}" for n in range(1, 31)]
    (doc,) = read_source(tmp_path, f"page.html{suffix}", Settings())
    assert doc.format == "html" and doc.data == page().encode()


@pytest.mark.parametrize("suffix", list(COMPRESS))
def test_a_compressed_dump_cut_short_keeps_the_records_before_the_cut(tmp_path, suffix):
    whole = COMPRESS[suffix](_jsonl(6000))  # bzip2 decompresses in blocks of 900 kB: several of them
    (tmp_path / f"dump.jsonl{suffix}").write_bytes(whole[: len(whole) // 2])
    items = list(read_source(tmp_path, f"dump.jsonl{suffix}", Settings()))
    *docs, last = items
    assert docs and all(isinstance(d, RawDocument) for d in docs)
    assert isinstance(last, DocumentError) and last.source == f"dump.jsonl{suffix}#L{len(docs) + 1}"
    assert "truncated" in last.reason or "not a valid" in last.reason


def test_an_extensionless_compressed_file_is_read_by_content(tmp_path):
    (tmp_path / "export").write_bytes(COMPRESS[".zst"](_jsonl(3)))
    (tmp_path / "twice").write_bytes(gzip.compress(gzip.compress(_jsonl(1))))
    assert [i.source for i in read_source(tmp_path, "export", Settings())] == [f"export#L{n}" for n in (1, 2, 3)]
    with pytest.raises(DocumentError, match="compressed twice"):
        list(read_source(tmp_path, "twice", Settings()))


def test_an_archive_larger_than_max_bytes_is_read_and_an_oversized_record_alone_is_refused(tmp_path):
    (tmp_path / "crawl.warc.gz").write_bytes(_warc(60, big=4))
    small = Settings(max_bytes=20_000)
    assert (tmp_path / "crawl.warc.gz").stat().st_size > small.max_bytes
    items = list(read_source(tmp_path, "crawl.warc.gz", small))
    assert len(items) == 60
    errors = [i for i in items if isinstance(i, DocumentError)]
    assert [e.source for e in errors] == ["crawl.warc.gz#4"] and "max_bytes limit of 20,000" in errors[0].reason
    out = clean_sources(tmp_path, ["crawl.warc.gz"], small)
    assert len(out.articles) + len(out.quarantine) == 60


def test_parquet_is_read_row_group_by_row_group(tmp_path):
    rows = [{"id": f"r{i}", "text": BODY} for i in range(25)]
    pq.write_table(pa.Table.from_pylist(rows), tmp_path / "dump.parquet", row_group_size=10)
    assert pq.ParquetFile(tmp_path / "dump.parquet").num_row_groups == 3
    items = list(read_source(tmp_path, "dump.parquet", Settings()))
    assert [i.source for i in items] == [f"dump.parquet#{n}" for n in range(25)]


@pytest.mark.parametrize("name,make", [("dump.jsonl", lambda: _jsonl(6000, pad=2000)),
                                       ("dump.jsonl.zst", lambda: COMPRESS[".zst"](_jsonl(6000, pad=2000))),
                                       ("crawl.warc.gz", lambda: _warc(1500))])
def test_memory_is_bounded_by_a_record_not_the_file(tmp_path, name, make):
    data = make()
    (tmp_path / name).write_bytes(data)
    del data
    tracemalloc.start()
    try:
        n = 0
        for item in read_source(tmp_path, name, Settings()):
            n += isinstance(item, RawDocument)
            del item
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    size = (tmp_path / name).stat().st_size
    assert n >= 1500
    # the file is 10-20 MB (uncompressed); what the reader holds at once is a buffer and a record
    assert peak < 6_000_000, f"peak {peak:,} bytes reading a {size:,}-byte file"


def _members(data: bytes) -> list[bytes]:
    """The gzip members of a record-by-record .warc.gz, in order."""
    import zlib

    out = []
    while data:
        d = zlib.decompressobj(16 + zlib.MAX_WBITS)
        d.decompress(data)
        used = len(data) - len(d.unused_data)
        out.append(data[:used])
        data = d.unused_data
    return out


@pytest.mark.parametrize("damage", ["header", "deflate"])
def test_a_damaged_archive_record_alone_is_quarantined_and_the_rest_goes_on(tmp_path, damage):
    members = _members(_warc(6))
    if damage == "header":  # a record whose header is not a WARC header
        members[2] = gzip.compress(b"HTTP/1.1 200 OK\r\nthis is no WARC header\r\n\r\n" + b"x" * 500)
    else:  # a record whose compressed bytes are damaged in the middle
        m = bytearray(members[2])
        m[len(m) // 2: len(m) // 2 + 40] = b"\x00" * 40
        members[2] = bytes(m)
    (tmp_path / "crawl.warc.gz").write_bytes(b"".join(members))
    items = list(read_source(tmp_path, "crawl.warc.gz", Settings()))
    docs = [i.source for i in items if isinstance(i, RawDocument)]
    errors = [i for i in items if isinstance(i, DocumentError)]
    assert docs == ["crawl.warc.gz#0", "crawl.warc.gz#1", "crawl.warc.gz#3", "crawl.warc.gz#4", "crawl.warc.gz#5"]
    assert [e.source for e in errors] == ["crawl.warc.gz#2"] and "re-download" in errors[0].reason.lower()
