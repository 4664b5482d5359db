"""Where RAW_DIR is: a local folder, or a prefix in object storage read through fsspec.

RAW_DIR is a path, or a URL. A URL whose scheme is not `file` (`s3://bucket/prefix`, `gs://...`,
`memory://...`) names objects: they are listed, fingerprinted and opened through fsspec (s3fs for
S3), which takes credentials and the endpoint from the environment as it always does
(AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_ENDPOINT_URL, or FSSPEC_S3_* settings). A path, or a
`file://` URL, is a local folder, read with every check of newsclean.cleaners.readers.source.

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


# OUT_DIR stays a local folder (its generations switch by renames, newsclean.cleaners.store).
REMOTE_OUT_UNSUPPORTED = "OUT_DIR {out_dir} is in object storage, which is not supported yet; give a local folder"


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
    tag = next((str(info[k]) for k in ("ETag", "etag", "md5", "VersionId", "generation") if info.get(k)), None)
    if tag is None:
        return int(when * 1e9) if isinstance(when, (int, float)) else 0
    digits = int.from_bytes(hashlib.blake2b(tag.encode(), digest_size=8).digest(), "big") % 1_000_000_000
    return seconds * 1_000_000_000 + digits


def list_objects(objects: Objects) -> list[tuple[str, int, int]]:
    """(source, size, change stamp) of every object under the prefix, sorted by source. Raises
    FileNotFoundError when the bucket or prefix does not exist, OSError when it cannot be listed."""
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
            out.append((rel, int(info.get("size") or 0), change_stamp(info)))
    return sorted(out)


def stats(raw_dir: str | Path, sources: list[str]) -> Iterator[tuple[int, int] | None]:
    """(size, mtime_ns) of each source, None for one that cannot be stat'ed: os.stat for a local
    file, one listing of the prefix for objects (size and change_stamp)."""
    where = location(raw_dir)
    if isinstance(where, Path):
        for source in sources:
            try:
                st = os.stat(os.path.join(raw_dir, source))
            except OSError:
                yield None
                continue
            yield st.st_size, st.st_mtime_ns
        return
    try:
        listed = {rel: (size, stamp) for rel, size, stamp in list_objects(where)}
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
    """A plain binary stream of one source for hashing (raises OSError)."""
    where = location(raw_dir)
    if isinstance(where, Path):
        return open(where / source, "rb")
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


def open_object(objects: Objects, source: str, max_file_bytes: int | None, limit_name: str):
    """An object as (raw stream, size), after the checks a person can act on: it vanished or
    cannot be opened, or is over `max_file_bytes` (by its size, before reading)."""
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
    return _ObjectReader(handle, size), size
