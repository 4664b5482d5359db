"""Input discovery and readers, one module per format. A reader turns one file into documents.

`discover` lists the files under RAW_DIR that some reader accepts, by name or, for a name that
says no format (a mirrored site's `news/story`, `page.php?id=3`), by content (newsclean.cleaners.readers.sniff);
`read_source` yields the
RawDocuments of one file (several for record files and archives), read from a stream record by
record (newsclean.cleaners.readers.source), so memory is bounded by a record, never by the file.
File-level failures raise DocumentError; per-record failures are yielded as DocumentError instances
so that one bad record never loses its file's other records.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import BinaryIO, Callable, Iterator

from newsclean.cleaners.readers import compressed, html, mail, records, sniff, storage, text, warc
from newsclean.cleaners.readers.ranges import Part
from newsclean.cleaners.readers.source import open_source, read_bounded  # noqa: F401 (read_bounded: the API)
from newsclean.cleaners.settings import Settings
from newsclean.cleaners.types import DocumentError, RawDocument

Reader = Callable[[Path, str, BinaryIO, Settings], Iterator["RawDocument | DocumentError"]]

# Suffix (lower case, longest first wins) -> reader.
READERS: dict[str, Reader] = {
    ".txt": text.read,
    ".md": text.read,  # Markdown, as Firecrawl, Jina Reader or crawl4ai save pages (newsclean.cleaners.markdown)
    ".markdown": text.read,
    ".html": html.read,
    ".htm": html.read,
    **records.READERS,  # .jsonl .ndjson .json .csv .parquet
    ".eml": mail.read,  # an e-mail: a newsletter or a mailed story (Python's email package)
    ".warc": warc.read,
    ".warc.gz": warc.read,
    **dict.fromkeys(compressed.SUFFIXES, compressed.read),  # .gz, .zst, .xz, .bz2 of any of the above
}


def reader_for(name: str) -> Reader | None:
    """The reader of a file by its name; None when the name says no format we read (see
    `source_reader`, which reads such files by content)."""
    lower = name.lower()
    for suffix in sorted(READERS, key=len, reverse=True):
        if lower.endswith(suffix):
            reader = READERS[suffix]
            if reader is compressed.read and reader_for(compressed.inner_name(name)) in (None, compressed.read):
                return None  # a .gz of something no reader takes (or a .gz.gz, a .tar.xz)
            return reader
    return None


def source_reader(name: str) -> Reader | None:
    """The reader of a discovered source: by its name, else by its content when the name is neither
    a mirror's asset nor a format newsclean cannot read (newsclean.cleaners.readers.sniff.name_kind)."""
    reader = reader_for(name)
    if reader is None and sniff.name_kind(name)[0] == "sniff":
        return sniff.read
    return reader


def display_name(name: str) -> str:
    """A file name as valid text: bytes that are not UTF-8 (kept by os as surrogates) become \\xNN."""
    try:
        name.encode("utf-8")
        return name
    except UnicodeEncodeError:
        return name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def discover(raw_dir: str | Path) -> tuple[list[str], list[tuple[str, str]]]:
    """(sources, skipped): sources are paths relative to raw_dir that a reader accepts, sorted;
    skipped are (source, reason) for entries that look like input but cannot be read safely.

    Never follows a symlink out of RAW_DIR (such links are reported), never descends into symlinked
    folders, and reports what it cannot use: folders named like input files, broken or looping
    links, names that are not valid UTF-8, folders it cannot list. RAW_DIR in object storage
    (newsclean.cleaners.readers.storage): the objects under its prefix, by the same names."""
    where = storage.location(raw_dir)
    if isinstance(where, storage.Objects):
        return _discover_objects(where)
    raw_dir = where
    root = raw_dir.resolve()
    sources, skipped = [], []

    def unlistable(err: OSError) -> None:
        where = Path(err.filename).relative_to(raw_dir).as_posix() if err.filename else "?"
        skipped.append((display_name(where), f"folder cannot be listed ({err.strerror or err}); fix its permissions"))

    for dirpath, dirnames, filenames in os.walk(raw_dir, followlinks=False, onerror=unlistable):
        dirnames.sort()
        base = Path(dirpath)
        if _is_output_dir(filenames):  # OUT_DIR inside RAW_DIR: never read our own tables as input
            rel = base.relative_to(raw_dir).as_posix()
            skipped.append((display_name(rel if rel != "." else str(raw_dir)), OUTPUT_DIR_REASON))
            dirnames[:] = []
            continue
        for name in dirnames:
            path = base / name
            rel = display_name(path.relative_to(raw_dir).as_posix())
            if path.is_symlink():
                target = _resolve(path)
                if target is None or not target.is_relative_to(root):
                    skipped.append((rel, f"symlink to a folder outside RAW_DIR ({target or 'unresolvable'}); not followed. Copy the files in if they belong to the corpus"))
            elif reader_for(name):
                skipped.append((rel, FOLDER_REASON))
        for name in sorted(filenames):
            path = base / name
            rel = path.relative_to(raw_dir).as_posix()
            if not _wanted(name, rel, skipped):
                continue
            if display_name(rel) != rel:
                skipped.append((display_name(rel), "file name is not valid UTF-8; rename the file"))
                continue
            if path.is_symlink():
                target = _resolve(path)
                if target is None:
                    skipped.append((rel, "symlink is broken or loops; fix or remove it"))
                    continue
                if not target.is_relative_to(root):
                    skipped.append((rel, f"symlink points outside RAW_DIR ({target}); not followed. Copy the file in if it belongs to the corpus"))
                    continue
            sources.append(rel)
    return sorted(sources), sorted(skipped)


OUTPUT_DIR_REASON = "is a newsclean OUT_DIR (its own output tables); not read as input. Move OUT_DIR outside RAW_DIR"
FOLDER_REASON = "is a directory, not a file; rename it or move its files up"


def _wanted(name: str, rel: str, skipped: list[tuple[str, str]]) -> bool:
    """Whether a file named `name` is input (by its name, or to be sniffed); a name that says a
    format newsclean cannot read is reported in `skipped`."""
    if reader_for(name) is None:
        kind, why = sniff.name_kind(name)
        if kind == "report":
            skipped.append((display_name(rel), f"not read: {why}"))
        return kind == "sniff"
    return True


def _discover_objects(objects: storage.Objects) -> tuple[list[str], list[tuple[str, str]]]:
    """discover() over the objects under a prefix: their keys are the folders and names (an object
    store has no links, devices or undecodable names)."""
    listed = [rel for rel, *_ in storage.list_objects(objects)]
    names_in: dict[str, set[str]] = {}
    for rel in listed:
        folder, _, name = rel.rpartition("/")
        names_in.setdefault(folder, set()).add(name)
    outputs = sorted(folder for folder, names in names_in.items() if _is_output_dir(list(names)))
    folders = {rel.rpartition("/")[0] for rel in listed}
    folders |= {f.rsplit("/", k)[0] for f in list(folders) for k in range(1, f.count("/") + 1)}
    sources, skipped = [], []
    for folder in sorted(folders - {""}):
        if reader_for(folder.rpartition("/")[2]) and not _under(folder, outputs):
            skipped.append((folder, FOLDER_REASON))
    skipped += [(folder or objects.url, OUTPUT_DIR_REASON) for folder in outputs]
    for rel in listed:
        if not _under(rel.rpartition("/")[0], outputs) and _wanted(rel.rpartition("/")[2], rel, skipped):
            sources.append(rel)
    return sources, sorted(skipped)


def _under(folder: str, outputs: list[str]) -> bool:
    return any(o == "" or folder == o or folder.startswith(o + "/") for o in outputs)


def _is_output_dir(filenames: list[str]) -> bool:
    """A folder newsclean wrote: its lock file, or run.json next to articles.parquet."""
    names = set(filenames)
    return ".newsclean.lock" in names or ("articles.parquet" in names and bool(names & {"run.json", "manifest.json"}))


def _resolve(path: Path) -> Path | None:
    """The fully resolved target, or None when the link is broken or loops."""
    try:
        return path.resolve(strict=True)
    except (OSError, RuntimeError):
        return None


def read_source(raw_dir: str | Path, source: str, settings: Settings, part: Part | None = None,
                spool: str | Path | None = None) -> Iterator[RawDocument | DocumentError]:
    """The documents of RAW_DIR/source, read from a stream: a record at a time for record files and
    archives, each bounded by max_bytes; the whole file is capped only with max_file_bytes. With a
    part (newsclean.cleaners.readers.ranges.split), the documents of that range of records.
    `spool`: the run's folder of fetched objects (newsclean.cleaners.readers.storage.open_object)."""
    reader = source_reader(source)
    if reader is None:
        raise DocumentError("read", "no reader for this file type")
    path = storage.source_path(raw_dir, source)
    with open_source(raw_dir, source, settings.max_file_bytes, spool=spool) as stream:
        if part is None or part.whole:
            yield from reader(path, source, stream, settings)
        else:
            yield from reader(path, source, stream, settings, part=part)
