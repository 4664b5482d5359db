"""Write a file so that readers see the old content or the new, never half of it."""
from __future__ import annotations

import os
import tempfile
from pathlib import Path


def atomic_write_text(text: str, path: Path) -> None:
    """Write to a temporary name in the same folder, fsync, then rename over `path`."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
