"""Record files: `.jsonl`/`.ndjson` (one record per line), `.json` (an array of records), `.csv`
or `.tsv`, and `.parquet`. Each record is one document.

A record holds its content in one of CONTENT_FIELDS (the first present and non-empty; HTML markup
is read as HTML, newsclean.cleaners.readers.markup), plus optional metadata: `id`, `url`,
`title`, `published` or `date`, `outlet` or `site`, `author` (see newsclean.cleaners.metadata.resolve). The
record's metadata travels in RawDocument.meta and wins over anything inferred.

Sources name the record: "news.jsonl#L12" (1-based line of a JSON-lines file) and "news.csv#3"
(0-based record index in a .json array, .csv or .parquet; CSV records may span several lines).
A bad record is yielded as a DocumentError with that source, so the file's other records go on.
"""
from __future__ import annotations

import csv
import io
import json
import sys
from pathlib import Path
from typing import Any, BinaryIO, Iterator, Mapping

import orjson

from newsclean.cleaners.encoding import decode, detect_encoding, looks_binary
from newsclean.cleaners.metadata.nested import nested_value
from newsclean.cleaners.readers.markup import looks_like_html
from newsclean.cleaners.readers.ranges import Part
from newsclean.cleaners.readers.source import CHUNK, read_whole
from newsclean.cleaners.settings import Settings
from newsclean.cleaners.types import DocumentError, RawDocument

# The article's field, first present wins: ours, then those of common scraper exports (news-please
# "maintext"; "body", "article", "full_text" in many datasets; "raw_html")
CONTENT_FIELDS = ("text", "html", "content", "maintext", "body", "article", "full_text", "article_text", "raw_html")
HTML_FIELDS = frozenset({"html", "raw_html"})
_LIST_KEYS = ("records", "data", "articles", "items", "documents", "docs", "rows")


def _jsonable(value: Any) -> Any:
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return str(value)


def record_bytes(record: Mapping[str, Any]) -> bytes:
    """A record's canonical bytes (sorted keys, no spacing): what its doc_id is computed from, in
    every record format, so a record is one document however its file writes it."""
    return orjson.dumps(record, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS, default=_jsonable)


def to_document(record: Any, source: str) -> RawDocument | DocumentError:
    """One record as a RawDocument, or a DocumentError saying what is wrong with it."""
    if not isinstance(record, Mapping):
        return DocumentError("read", f"record is a JSON {type(record).__name__}, not an object; each record must be an object with a text, html or content field", source=source)
    # a field's value may be wrapped in an object, as WordPress's REST API gives "content": {"rendered": "<p>…"}
    field, content = next(((f, v) for f in CONTENT_FIELDS if isinstance(v := nested_value(record.get(f)), (str, bytes))
                           and str(v).strip()), (None, None))
    if field is None:
        present = [f for f in CONTENT_FIELDS if f in record]
        why = f"its {', '.join(present)} field is empty or not a string" if present else f"it has none of the fields {', '.join(CONTENT_FIELDS)} (fields: {', '.join(map(str, list(record)[:8])) or 'none'})"
        return DocumentError("read", f"record has no content: {why}; add the article text or HTML", source=source)
    if isinstance(content, bytes):
        try:
            content = decode(content)
        except DocumentError as err:
            return DocumentError(err.stage, err.reason, source=source)
    fmt = "html" if field in HTML_FIELDS or looks_like_html(content) else "text"
    meta = {k: v for k, v in record.items() if k not in CONTENT_FIELDS}
    return RawDocument(source=source, data=record_bytes(record), format=fmt, text=content, meta=meta)


def _strip_bom(data: bytes) -> bytes:
    return data[3:] if data.startswith(b"\xef\xbb\xbf") else data


def _lines(stream: BinaryIO, limit: int, part: Part | None = None) -> Iterator[tuple[int, bytes | None]]:
    """(1-based line number, the line's bytes) of a JSON-lines stream, one line in memory at a
    time; a line over `limit` bytes is skipped unread (its bytes None). With a part, its lines only:
    from its offset, or after skipping the lines before it."""
    number = 0
    if part is not None and part.start:
        if part.offset is not None:
            stream.seek(part.offset)
            number = part.start
        else:
            while number < part.start and (skipped := stream.readline(CHUNK)):
                number += skipped.endswith(b"\n")
    stop = part.stop if part is not None else None
    while stop is None or number < stop:
        line = stream.readline(limit + 1)
        if not line:
            return
        number += 1
        if len(line) > limit and not line.endswith(b"\n"):
            while (rest := stream.readline(CHUNK)) and not rest.endswith(b"\n"):
                pass
            yield number, None
            continue
        yield number, _strip_bom(line) if number == 1 else line


def _cut_short(err: DocumentError, source: str, where: str, started: bool) -> DocumentError:
    """A failure reading the file mid-way (a compressed file cut short, a file that grew): the
    records read so far stand, the rest is one quarantine row at the record where reading stopped.
    Before any record it is the file's failure."""
    if not started:
        raise err
    return DocumentError(err.stage, f"{err.reason} (reading stopped here; the records before it were read)", source=where)


def read_jsonl(path: Path, source: str, stream: BinaryIO, settings: Settings, part: Part | None = None) -> Iterator[RawDocument | DocumentError]:
    number = part.start if part is not None else 0
    lines = _lines(stream, settings.max_bytes, part)
    while True:
        try:
            number, line = next(lines, (number, b""))
        except DocumentError as err:
            yield _cut_short(err, source, f"{source}#L{number + 1}", number > 0 or part is not None)
            return
        if line == b"":
            return
        where = f"{source}#L{number}"
        if line is None:
            yield DocumentError("read", f"line {number} is over the max_bytes limit of {settings.max_bytes:,} bytes; "
                                        "split the record or raise the limit", source=where)
            continue
        line = line.strip()
        if not line:
            continue
        try:
            record = orjson.loads(line)
        except orjson.JSONDecodeError as exc:
            try:  # not UTF-8? decode it like any text, then parse
                record = json.loads(decode(line))
            except (ValueError, DocumentError):
                yield DocumentError("read", f"line {number} is not valid JSON ({exc}); fix or remove that line", source=where)
                continue
        yield to_document(record, where)


def _records_of_json(value: Any) -> list | None:
    if isinstance(value, list):
        return value
    if isinstance(value, dict):
        if any(f in value for f in CONTENT_FIELDS):
            return [value]
        for key in _LIST_KEYS:
            if isinstance(value.get(key), list):
                return value[key]
    return None


def read_json(path: Path, source: str, stream: BinaryIO, settings: Settings) -> Iterator[RawDocument | DocumentError]:
    # one JSON value: parsed whole, so the file is bounded like one document (.jsonl streams)
    data = read_whole(stream, settings.max_bytes)
    try:
        value = orjson.loads(_strip_bom(data))
    except orjson.JSONDecodeError:
        try:
            value = json.loads(decode(data))
        except ValueError as exc:
            raise DocumentError("read", f"not valid JSON ({exc}); a .json file must hold an array of records (use .jsonl for one record per line)") from None
    records = _records_of_json(value)
    if records is None:
        raise DocumentError("read", "the JSON holds no records: expected an array of objects with a text, html or content field")
    for index, record in enumerate(records):
        yield to_document(record, f"{source}#{index}")


def _text_stream(stream: BinaryIO) -> io.TextIOWrapper:
    """A CSV stream as text: its encoding decided on its head (newsclean.cleaners.encoding)."""
    head = stream.peek(1 << 16)[: 1 << 16] if hasattr(stream, "peek") else b""
    if looks_binary(head):
        raise DocumentError("decode", "file is binary (not text); remove it from the corpus or convert it to text")
    cut = head.rfind(b"\n")
    encoding, skip = detect_encoding(head[: cut + 1] if cut > 0 else head)
    if skip:
        stream.read(skip)
    # a few damaged bytes in UTF-8 text are dropped, as newsclean.cleaners.encoding.decode drops them
    return io.TextIOWrapper(stream, encoding=encoding, errors="ignore" if encoding == "utf-8" else "replace", newline="")


def csv_records(stream: BinaryIO) -> Iterator[tuple[int, list[str] | csv.Error | DocumentError]]:
    """(record index, its cells) of a CSV stream, blank rows left out; the first item is the header
    (index -1). A malformed row (csv.Error) or a read failure (DocumentError) ends it."""
    text = _text_stream(stream)
    csv.field_size_limit(min(sys.maxsize, 2**31 - 1))
    first = text.buffer.peek(4096)[:4096].decode(text.encoding, "replace").split("\n", 1)[0]
    delimiter = max(",\t;|", key=first.count) if any(d in first for d in ",\t;|") else ","
    reader = csv.reader(text, csv.excel, delimiter=delimiter)
    try:
        header = next(reader)
    except StopIteration:
        return
    except csv.Error as exc:
        raise DocumentError("read", f"the CSV header cannot be read ({exc}); check the file is CSV") from None
    yield -1, [h.strip().lstrip("\ufeff") for h in header]
    index = 0
    while True:
        try:
            row = next(reader)
        except StopIteration:
            return
        except (csv.Error, DocumentError) as exc:  # the reader cannot resynchronise after this
            yield index, exc
            return
        if any(cell.strip() for cell in row):
            yield index, row
            index += 1


def read_csv(path: Path, source: str, stream: BinaryIO, settings: Settings, part: Part | None = None) -> Iterator[RawDocument | DocumentError]:
    start, stop = (part.start, part.stop) if part else (0, None)
    header: list[str] = []
    for index, row in csv_records(stream):
        if index < 0:
            header = row
            continue
        if index < start:
            continue
        if stop is not None and index >= stop:
            return
        where = f"{source}#{index}"
        if isinstance(row, csv.Error):
            yield DocumentError("read", f"CSV record {index} is malformed ({row}); the rest of the file is not read. Fix the quoting", source=where)
            return
        if isinstance(row, DocumentError):
            yield _cut_short(row, source, where, True)
            return
        if len(row) != len(header):
            yield DocumentError("read", f"record has {len(row)} fields but the header has {len(header)}; check its quoting and delimiters", source=where)
            continue
        if sum(map(len, row)) > settings.max_bytes:
            yield DocumentError("read", f"record is over the max_bytes limit of {settings.max_bytes:,}; split it or raise the limit", source=where)
            continue
        record = {k: (v if v != "" else None) for k, v in zip(header, row)}
        yield to_document(record, where)


def _parquet_file(stream: BinaryIO, settings: Settings):
    import pyarrow.parquet as pq

    if not stream.seekable():  # a compressed .parquet: Parquet reads its footer first
        stream = io.BytesIO(read_whole(stream, settings.max_bytes))
    try:
        return pq.ParquetFile(stream, pre_buffer=False)  # see newsclean.cleaners.store.iter_batches
    except Exception as exc:
        raise DocumentError("read", f"not a readable Parquet file ({type(exc).__name__}: {exc}); re-export it") from None


def read_parquet(path: Path, source: str, stream: BinaryIO, settings: Settings, part: Part | None = None) -> Iterator[RawDocument | DocumentError]:
    """Row group by row group: a batch of rows in memory at a time. A part starts at a row group."""
    pf = _parquet_file(stream, settings)
    start, stop = (part.start, part.stop) if part else (0, None)
    first_group = part.offset if part is not None and part.offset is not None else 0
    index = sum(pf.metadata.row_group(g).num_rows for g in range(first_group))
    for group in range(first_group, pf.num_row_groups):
        if stop is not None and index >= stop:
            return
        try:
            rows = [row for batch in pf.iter_batches(batch_size=1000, row_groups=[group]) for row in batch.to_pylist()]
        except Exception as exc:  # a damaged row group: its rows are quarantined as one range, the rest go on
            n = pf.metadata.row_group(group).num_rows
            yield DocumentError("read", f"Parquet row group {group} (records {index} to {index + n - 1}) cannot be read "
                                        f"({type(exc).__name__}: {exc}); re-export the file", source=f"{source}#{index}")
            index += n
            continue
        for record in rows:
            if index >= start and (stop is None or index < stop):
                yield to_document(record, f"{source}#{index}")
            index += 1


READERS = {
    ".jsonl": read_jsonl,
    ".ndjson": read_jsonl,
    ".json": read_json,
    ".csv": read_csv,
    ".tsv": read_csv,  # the delimiter is sniffed from the header line
    ".parquet": read_parquet,
}
