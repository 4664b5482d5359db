"""A big record file or archive as parts: ranges of its records that are read, and cleaned, apart.

A crawl archive holds tens of thousands of pages and a scraper's dump as many records; read as one
unit, such a file is one batch on one core. `split` scans a file once (record boundaries only: no
record is parsed into a document) and cuts it into parts of about `every` records. A part names the
records [start, stop) in the reader's own numbering (JSON lines, WARC records, CSV records, Parquet
rows) and, where the format allows, where the first one starts (a byte offset, or a Parquet row
group), so that reading a part seeks there instead of reading what comes before. Where it cannot
seek (a compressed JSON-lines or CSV file), reading a part skips the records before it unparsed.

Documents keep their sources (`crawl.warc.gz#1234`, `dump.jsonl#L77`): a part changes how a file is
read, never what it yields. Reading every part of a file in order yields exactly what reading the
file whole yields.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from newsclean.cleaners.readers.source import CHUNK
from newsclean.cleaners.settings import Settings

# Files smaller than this are read whole: scanning them costs more than it gives back.
SPLIT_MIN_BYTES = 8 << 20


@dataclass(frozen=True)
class Part:
    """Records [start, stop) of `source` (stop None: to the end). `offset`: where record `start`
    begins (a byte offset; for Parquet, the row group that holds row `start`), or None when the
    reader must skip the records before it."""

    source: str
    start: int = 0
    stop: int | None = None
    offset: int | None = None

    @property
    def whole(self) -> bool:
        return self.start == 0 and self.stop is None

    def __str__(self) -> str:
        return self.source if self.whole else f"{self.source} (records {self.start} to {'end' if self.stop is None else self.stop - 1})"


def _kind(source: str) -> tuple[str | None, str | None]:
    """(record format, compression suffix) of a file name, by the reader that takes it: the format is
    "jsonl", "warc", "csv", "parquet", or None for a file that is not split. A `.warc.gz` is read by
    warcio itself (gzipped record by record, it seeks to its members): no compression suffix."""
    from newsclean.cleaners.readers import compressed, reader_for, records, warc

    reader, suffix = reader_for(source), None
    if reader is compressed.read:
        reader, suffix = reader_for(compressed.inner_name(source)), compressed.compression(source)
    kinds = {records.read_jsonl: "jsonl", warc.read: "warc", records.read_csv: "csv", records.read_parquet: "parquet"}
    return kinds.get(reader), suffix


def worth_splitting(raw_dir: str | Path, source: str, min_bytes: int = SPLIT_MIN_BYTES, size: int | None = None) -> bool:
    """Whether `split` may cut the file: a record format it splits, and at least `min_bytes`.
    `size`: the file's size when the caller has it (the manifest's), else it is looked up."""
    from newsclean.cleaners.readers import storage

    try:
        if _kind(source)[0] is None:
            return False
        return (size if size is not None and size >= 0 else storage.size(raw_dir, source)) >= min_bytes
    except OSError:
        return False  # read whole, where the failure is quarantined with the reader's reason


def split(raw_dir: str | Path, source: str, settings: Settings, every: int, min_bytes: int = SPLIT_MIN_BYTES,
          spool: str | Path | None = None) -> list[Part]:
    """The parts of RAW_DIR/source, each of about `every` records: one part (the whole file) for a
    file under `min_bytes`, a format that is not split, or one with at most `every` records.
    Raises DocumentError as reading would (the file is then read whole, and quarantined there).
    `spool`: the run's folder of fetched objects, where the parts' readers find this one."""
    from newsclean.cleaners.readers import compressed
    from newsclean.cleaners.readers.source import open_source

    whole = [Part(source)]
    kind, suffix = _kind(source)
    if every < 1 or not worth_splitting(raw_dir, source, min_bytes):
        return whole
    with open_source(raw_dir, source, settings.max_file_bytes, spool=spool) as stream:
        if suffix is not None and kind != "parquet":
            starts = _starts(kind, compressed.decompressing(stream, suffix), every, seekable=False)
        else:
            starts = _starts(kind, stream, every, seekable=True)
    starts = [(0, starts[0][1] if starts else 0)] + [s for s in starts if s[0] > 0]
    if len(starts) < 2:
        return whole
    return [Part(source, a, b, offset) for (a, offset), (b, _) in zip(starts, starts[1:] + [(None, None)])]


def _starts(kind: str, stream, every: int, seekable: bool) -> list[tuple[int, int | None]]:
    """(record number, offset or None) of every `every`-th record, the first included."""
    if kind == "jsonl":
        return _jsonl_starts(stream, every, seekable)
    if kind == "warc":
        return _warc_starts(stream, every)
    if kind == "csv":
        return _csv_starts(stream, every)
    return _parquet_starts(stream, every)


def _jsonl_starts(stream, every: int, seekable: bool) -> list[tuple[int, int | None]]:
    """Lines, counted a chunk at a time (no line is parsed)."""
    out: list[tuple[int, int | None]] = [(0, 0 if seekable else None)]
    lines, pos, last = 0, 0, b"\n"
    while chunk := stream.read(CHUNK):
        at = -1
        while (at := chunk.find(b"\n", at + 1)) >= 0:
            lines += 1
            if lines % every == 0:
                out.append((lines, pos + at + 1 if seekable else None))
        pos += len(chunk)
        last = chunk[-1:]
    if out[-1][0] == lines and lines and last == b"\n":
        out.pop()  # nothing after the last cut
    return out


def _warc_starts(stream, every: int) -> list[tuple[int, int | None]]:
    """Record offsets from warcio (payloads are read past, not into documents). An offset is kept
    only where a reader can start: a gzip member's start, or any record of an uncompressed WARC."""
    from newsclean.cleaners.readers.warc import archive_iterator

    head = stream.peek(2)[:2]
    out: list[tuple[int, int | None]] = []
    records = archive_iterator(stream, arc2warc=True)
    for index, _ in enumerate(records):
        if index % every == 0:
            out.append((index, records.get_record_offset()))
    if head == b"\x1f\x8b":  # each offset must open a gzip member (not one stream over the whole file)
        for k, (index, offset) in enumerate(out):
            stream.seek(offset)
            if stream.read(2) != b"\x1f\x8b":
                out[k] = (index, None)
    return out


def _csv_starts(stream, every: int) -> list[tuple[int, int | None]]:
    """Records as the CSV reader counts them (no offsets: a record may span lines)."""
    from newsclean.cleaners.readers.records import csv_records

    out: list[tuple[int, int | None]] = []
    for index, _ in enumerate(csv_records(stream)):
        if index % every == 0:
            out.append((index, None))
    return out


def _parquet_starts(stream, every: int) -> list[tuple[int, int | None]]:
    """Row groups, gathered to about `every` rows a part (a part starts at a row group)."""
    import pyarrow.parquet as pq

    meta = pq.ParquetFile(stream).metadata
    out: list[tuple[int, int | None]] = []
    row, since = 0, every
    for group in range(meta.num_row_groups):
        if since >= every:
            out.append((row, group))
            since = 0
        n = meta.row_group(group).num_rows
        row += n
        since += n
    return out
