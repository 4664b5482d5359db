"""Where RAW_DIR is: a local folder, or a prefix in object storage read through fsspec (and where a
run on OUT_DIR writes: out_folder).

RAW_DIR is a path, or a URL. A URL whose scheme is not `file` (`s3://bucket/prefix`, `gs://...`,
`memory://...`) names objects: they are listed, fingerprinted and opened through fsspec (s3fs for
S3), which takes credentials and the endpoint from the environment as it always does
(AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_ENDPOINT_URL, or FSSPEC_S3_* settings). A path, or a
`file://` URL, is a local folder, read with every check of newsclean.cleaners.readers.source.

An object is fingerprinted from the listing (its ETag, or version, and size: object_fingerprint),
not by reading it. A run reads each object it needs once: the first reader (the corpus pass, or the
cleaning) copies it into the run's spool, a local folder, and every later reader opens that copy
(open_object's `spool`).

Everything else is the same for both: a source is a path relative to RAW_DIR (an object's key under
the prefix), and readers get a seekable buffered stream either way.
"""
from __future__ import annotations

import datetime as dt
import hashlib
import io
import os
import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Iterator
from urllib.parse import unquote, urlsplit

from newsclean.cleaners.types import DocumentError

# How much an object's stream fetches per request: large enough that a sequential read is a few
# big range requests, not one per buffered read.
BLOCK = 8 << 20
QUOTE = '"'  # S3 gives an ETag in quotes
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*)://")


class StorageError(OSError):
    """RAW_DIR names object storage that cannot be used (no backend installed for it)."""


def scheme(location: str | Path) -> str | None:
    """The URL scheme of a RAW_DIR or OUT_DIR string ("s3", "file", ...); None for a plain path."""
    match = _SCHEME.match(location) if isinstance(location, str) else None
    return match.group(1).lower() if match else None


def is_remote(location: str | Path) -> bool:
    """Whether `location` names object storage (a URL whose scheme is not file)."""
    return scheme(location) not in (None, "file")


@dataclass(frozen=True)
class Objects:
    """A prefix in object storage: `fs` an fsspec filesystem, `root` the prefix without its scheme
    (e.g. "bucket/raw"), `url` as given."""

    fs: object
    root: str
    url: str

    def key(self, source: str) -> str:
        return f"{self.root}/{source}" if self.root else source

    def relative(self, key: str) -> str:
        return key[len(self.root) + 1:] if self.root else key


def location(raw_dir: str | Path) -> Path | Objects:
    """RAW_DIR as a local folder (Path) or a prefix in object storage (Objects)."""
    if not is_remote(raw_dir):
        if scheme(raw_dir) == "file":
            return Path(unquote(urlsplit(str(raw_dir)).path))
        return Path(raw_dir)
    import fsspec

    url = str(raw_dir)
    try:
        fs, root = fsspec.core.url_to_fs(url)
    except ImportError as exc:
        extra = " pip install 'newsclean[s3]'" if scheme(url) in ("s3", "s3a") else ""
        raise StorageError(f"reading {scheme(url)}:// needs its fsspec backend ({exc});{extra}".rstrip(";")) from None
    except ValueError as exc:  # an unknown protocol
        raise StorageError(f"{url} cannot be read: {exc}") from None
    return Objects(fs, root.rstrip("/"), url)


WORK_DIR_ENV = "NEWSCLEAN_WORK_DIR"


def out_folder(out_dir: str | Path) -> Path:
    """The local folder a run on OUT_DIR writes: OUT_DIR itself, or the working copy of an OUT_DIR
    in object storage (newsclean.cleaners.remote_out publishes it)."""
    return working_copy(str(out_dir)) if is_remote(out_dir) else location(out_dir)


def working_copy(out_url: str) -> Path:
    """The local working copy of an OUT_DIR in object storage: $NEWSCLEAN_WORK_DIR (by default
    ~/.cache/newsclean/out) / <the URL's last folder>-<a digest of the URL>."""
    url = out_url.rstrip("/")
    base = os.environ.get(WORK_DIR_ENV) or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "newsclean", "out")
    name = re.sub(r"[^A-Za-z0-9._-]+", "_", url.rpartition("/")[2] or "out")[:40]
    return Path(base) / f"{name}-{hashlib.sha256(url.encode()).hexdigest()[:16]}"


def plain(raw_dir: str | Path) -> str:
    """RAW_DIR as the string tasks pass on: a URL of objects as is, a file:// URL as its path."""
    return str(raw_dir) if is_remote(raw_dir) else str(location(raw_dir))


def display(raw_dir: str | Path) -> str:
    """RAW_DIR as the user gives it to another process: a URL as is, a folder resolved."""
    return str(raw_dir) if is_remote(raw_dir) else str(Path(raw_dir).resolve())


def change_stamp(info: dict) -> int:
    """An object's stand-in for a file's mtime_ns: its last-modified time to the second, the
    sub-second digits taken from its ETag (or version), so that an object rewritten within the
    same second with the same size still looks changed. 0 when the store gives neither."""
    when = next((info[k] for k in ("LastModified", "last_modified", "mtime", "updated", "created") if info.get(k)), None)
    if isinstance(when, str):
        try:
            when = dt.datetime.fromisoformat(when.replace("Z", "+00:00"))
        except ValueError:
            when = None
    if isinstance(when, dt.datetime):
        when = when.timestamp()
    seconds = int(when) if isinstance(when, (int, float)) else 0
    tag = _content_tag(info)
    if tag is None:
        return int(when * 1e9) if isinstance(when, (int, float)) else 0
    digits = int.from_bytes(hashlib.blake2b(tag.encode(), digest_size=8).digest(), "big") % 1_000_000_000
    return seconds * 1_000_000_000 + digits


def object_fingerprint(info: dict) -> str | None:
    """An object's content fingerprint from the store's own metadata, as 64 hex digits (the width of
    a file's sha256): its content tag (ETag or md5, else its version or generation) with its size.
    The store gives a new tag to every write of other bytes, so a changed object gets another
    fingerprint without being read. None when the store gives no tag (the bytes are hashed then)."""
    tag = _content_tag(info)
    if tag is None:
        return None
    size = int(info.get("size") or 0)
    return hashlib.sha256(f"object\0{tag.strip(QUOTE)}\0{size}".encode()).hexdigest()


def _content_tag(info: dict) -> str | None:
    """The store's tag of an object's content as listed (S3's ETag, another store's md5, version or generation)."""
    return next((str(info[k]) for k in ("ETag", "etag", "md5", "VersionId", "generation") if info.get(k)), None)


def list_objects(objects: Objects) -> list[tuple[str, int, int, str | None]]:
    """(source, size, change stamp, fingerprint) of every object under the prefix, sorted by source.
    Raises FileNotFoundError when the bucket or prefix does not exist, OSError when it cannot be listed."""
    fs = objects.fs
    fs.invalidate_cache()  # a listing is always fresh: a process runs many flows (tests, `serve`)
    found = fs.find(objects.root, detail=True, withdirs=False)
    if not found and not fs.exists(objects.root):
        raise FileNotFoundError(f"{objects.url} does not exist")
    out = []
    for key, info in found.items():
        if info.get("type") == "directory" or key.endswith("/"):
            continue  # a folder marker
        rel = objects.relative(key.rstrip("/"))
        if rel:
            out.append((rel, int(info.get("size") or 0), change_stamp(info), object_fingerprint(info)))
    return sorted(out)


def stats(raw_dir: str | Path, sources: list[str]) -> Iterator[tuple[int, int, str | None] | None]:
    """(size, mtime_ns, fingerprint) of each source, None for one that cannot be stat'ed: os.stat
    for a local file (no fingerprint: its bytes are hashed), one listing of the prefix for objects
    (size, change_stamp and object_fingerprint)."""
    where = location(raw_dir)
    if isinstance(where, Path):
        for source in sources:
            try:
                st = os.stat(os.path.join(raw_dir, source))
            except OSError:
                yield None
                continue
            yield st.st_size, st.st_mtime_ns, None
        return
    try:
        listed = {rel: (size, stamp, print_) for rel, size, stamp, print_ in list_objects(where)}
    except OSError:
        listed = {}
    for source in sources:
        yield listed.get(source)


def size(raw_dir: str | Path, source: str) -> int:
    """The size of one source; raises OSError when it cannot be had."""
    where = location(raw_dir)
    if isinstance(where, Path):
        return (where / source).stat().st_size
    try:
        return int(where.fs.info(where.key(source))["size"])
    except OSError:
        raise
    except Exception as exc:  # noqa: BLE001 - a store's own errors: as a file system's
        raise OSError(str(exc)) from exc


def open_bytes(raw_dir: str | Path, source: str):
    """A plain binary stream of one source for hashing and previews (raises OSError). A local file
    is opened as the readers open it (newsclean.cleaners.readers.source.open_source): a FIFO, which
    a plain open() would wait on for a writer forever, a device or a link out of RAW_DIR is an
    OSError saying so, and the readers then quarantine the source with that reason."""
    where = location(raw_dir)
    if isinstance(where, Path):
        from newsclean.cleaners.readers.source import open_source
        from newsclean.cleaners.types import DocumentError

        try:
            return open_source(where, source)
        except DocumentError as exc:
            raise OSError(exc.reason) from None
    try:
        return where.fs.open(where.key(source), "rb", block_size=BLOCK)
    except OSError:
        raise
    except Exception as exc:  # noqa: BLE001
        raise OSError(str(exc)) from exc


def is_file(raw_dir: str | Path, source: str) -> bool:
    where = location(raw_dir)
    if isinstance(where, Path):
        return (where / source).is_file()
    try:
        return bool(where.fs.isfile(where.key(source)))
    except Exception:  # noqa: BLE001 - unreachable counts as absent, as for a file
        return False


def source_path(raw_dir: str | Path, source: str) -> Path | PurePosixPath:
    """The path a reader is given beside its stream (readers use its name)."""
    where = location(raw_dir)
    return where / source if isinstance(where, Path) else PurePosixPath(where.key(source))


def check_folder(raw_dir: str | Path) -> str | None:
    """Why RAW_DIR cannot be read as a folder of input, in one line; None when it can."""
    where = location(raw_dir)
    if isinstance(where, Path):
        if not where.exists():
            return f"RAW_DIR {raw_dir} does not exist"
        if not where.is_dir():
            return f"RAW_DIR {raw_dir} is not a directory"
        return None
    try:
        where.fs.invalidate_cache()
        if where.fs.isdir(where.root):
            return None
        if where.fs.isfile(where.root):
            return f"RAW_DIR {raw_dir} is an object, not a prefix of objects"
        return f"RAW_DIR {raw_dir} does not exist (no bucket or no objects under that prefix)"
    except Exception as exc:  # noqa: BLE001 - a store's error (credentials, endpoint) as one line
        message = " ".join(str(exc).split()) or type(exc).__name__
        return f"RAW_DIR {raw_dir} cannot be listed ({message})"


def over_limit(size: int, limit: int, limit_name: str = "max_bytes") -> str:
    """Why a file is refused on its size alone."""
    return f"file is {size:,} bytes, over the {limit_name} limit of {limit:,}; split it or raise the limit"


class _ObjectReader(io.RawIOBase):
    """An object's bytes through an fsspec file, a read that fails saying so as a DocumentError."""

    def __init__(self, handle, size: int):
        self._handle, self.size = handle, size

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def seek(self, offset: int, whence: int = 0) -> int:
        return self._handle.seek(offset, whence)

    def tell(self) -> int:
        return self._handle.tell()

    def readinto(self, buffer) -> int:
        try:
            chunk = self._handle.read(len(buffer))
        except Exception as exc:  # noqa: BLE001 - the store's error, as this source's read failure
            raise DocumentError("read", f"object could not be read ({' '.join(str(exc).split()) or type(exc).__name__}); "
                                        "check the store and re-run") from None
        buffer[:len(chunk)] = chunk
        return len(chunk)

    def close(self) -> None:
        if not self.closed:
            self._handle.close()
        super().close()


# How open_object's errors for an object the store would not give begin (stage "read"): such an
# object keeps its fingerprint, so the next run reads it again by these (newsclean.flows.clean_corpus).
FETCH_ERRORS = ("object disappeared", "object is not readable", "object could not be opened", "object could not be read")


def open_object(objects: Objects, source: str, max_file_bytes: int | None, limit_name: str,
                spool: str | Path | None = None):
    """An object as (raw stream, size), after the checks a person can act on: it vanished or
    cannot be opened, or is over `max_file_bytes` (by its size, before reading). With a `spool`
    folder, the object's bytes come from its copy there, fetched first when no reader has yet."""
    copy = spooled(spool, objects.key(source)) if spool is not None else None
    if copy is not None and copy.exists():
        return _open_copy(copy, max_file_bytes, limit_name)
    try:
        handle = objects.fs.open(objects.key(source), "rb", block_size=BLOCK)
    except FileNotFoundError:
        raise DocumentError("read", "object disappeared between discovery and reading; re-run when the corpus is stable") from None
    except PermissionError:
        raise DocumentError("read", "object is not readable (access denied); check the credentials") from None
    except IsADirectoryError:
        raise DocumentError("read", "is a prefix of objects, not an object; rename it or move its objects up") from None
    except Exception as exc:  # noqa: BLE001
        raise DocumentError("read", f"object could not be opened ({' '.join(str(exc).split()) or type(exc).__name__}); "
                                    "check the store and re-run") from None
    size = int(handle.size)
    if max_file_bytes is not None and size > max_file_bytes:
        handle.close()
        raise DocumentError("read", over_limit(size, max_file_bytes, limit_name))
    reader = _ObjectReader(handle, size)
    if copy is None:
        return reader, size
    with reader:
        _fetch_into(reader, copy)
    return _open_copy(copy, max_file_bytes, limit_name)


def spooled(spool: str | Path, key: str) -> Path:
    """Where an object's copy lives in a run's spool folder (named by a hash of its key: keys hold
    any characters and may be longer than a file name)."""
    return Path(spool) / hashlib.sha256(key.encode("utf-8", "surrogateescape")).hexdigest()


def _fetch_into(reader: "_ObjectReader", copy: Path) -> None:
    """Stream an object into `copy`, BLOCK by BLOCK (memory bounded by a block, whatever its size),
    under a temporary name renamed into place, so a reader in another process never sees half of it."""
    from newsclean.cleaners.atomic import atomic_file

    copy.parent.mkdir(parents=True, exist_ok=True)
    with atomic_file(copy, fsync=False) as fh:  # the spool lasts one run
        buffer = bytearray(BLOCK)
        while n := reader.readinto(buffer):
            fh.write(memoryview(buffer)[:n])


def _open_copy(copy: Path, max_file_bytes: int | None, limit_name: str):
    """A spooled copy as (raw stream, size), refused on its size as the object would be."""
    handle = open(copy, "rb", buffering=0)
    size = os.fstat(handle.fileno()).st_size
    if max_file_bytes is not None and size > max_file_bytes:
        handle.close()
        raise DocumentError("read", over_limit(size, max_file_bytes, limit_name))
    return handle, size
