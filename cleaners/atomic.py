"""Write a file so that readers see the old content or the new, never half of it."""
from __future__ import annotations

import os
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Iterator


@contextmanager
def atomic_file(path: Path, mode: str = "wb", *, fsync: bool = True, encoding: str | None = None) -> Iterator[IO]:
    """A file to write `path` through: a temporary name in the same folder, (with `fsync`) flushed
    to disk, then renamed over `path` when the block ends; removed instead if the block raises.
    fsync=False for a file nothing needs after a crash (a run's spool, its staging parts)."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, mode, encoding=encoding) as fh:
            yield fh
            if fsync:
                fh.flush()
                os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def atomic_write_text(text: str, path: Path, *, permissions: int | None = None) -> None:
    """`text` written to `path` in UTF-8 through atomic_file; with `permissions` (e.g. 0o644 for a
    packaged data file), the file gets them before it takes the name (a temporary file is private)."""
    with atomic_file(path, "w", encoding="utf-8") as fh:
        fh.write(text)
        if permissions is not None:
            os.fchmod(fh.fileno(), permissions)
