"""One writer per OUT_DIR: a lock file, OUT/.newsclean.lock, held with an OS file lock (flock).

- Taking it is atomic and never blocks: a second run on the same OUT_DIR fails at once with
  LockedError, naming the run that holds it (pid, host, start time, flow run).
- Stale locks recover by themselves. The kernel releases a flock when its process dies, even on
  SIGKILL or a power cut, so a lock file left behind by a dead run is not held and the next run
  simply takes it (and says so in its log). No pid guessing, no timeouts.
- Re-entrant within one process: the CLI takes the lock before Prefect starts (so a second run
  fails in about a second, not after Prefect's start-up) and the flow takes it again, which is
  what protects runs started by a schedule, a deployment or a worker.

flock is reliable on local file systems. On NFS, Linux maps it to POSIX byte-range locks, which
work with NFSv4 servers; on exotic shared file systems use a Prefect global concurrency limit
instead (see the README).
"""
from __future__ import annotations

import datetime as dt
import fcntl
import json
import os
import socket
import threading
from pathlib import Path

LOCK_NAME = ".newsclean.lock"

_held: dict[str, list] = {}  # resolved path -> [fd, depth]
_guard = threading.Lock()


class LockedError(RuntimeError):
    """Another run holds OUT_DIR."""


def _describe(path: Path) -> str:
    try:
        info = json.loads(path.read_text(encoding="utf-8") or "{}")
    except (OSError, ValueError):
        info = {}
    who = ", ".join(f"{k} {info[k]}" for k in ("pid", "host", "started", "run") if info.get(k))
    return who or "unknown holder"


class RunLock:
    """Context manager. `stale` is set after acquire() when a dead run's lock file was taken over."""

    def __init__(self, out_dir: Path | str, run: str | None = None):
        self.path = Path(out_dir).resolve() / LOCK_NAME
        self.run = run
        self.stale: str | None = None

    def acquire(self) -> "RunLock":
        key = str(self.path)
        with _guard:
            if key in _held:
                _held[key][1] += 1
                return self
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                raise LockedError(f"OUT_DIR {self.path.parent} is being written by another newsclean run "
                                  f"({_describe(self.path)}); wait for it to finish") from None
            previous = os.read(fd, 4096).decode("utf-8", "replace").strip()
            if previous:
                self.stale = previous  # a run died holding it: the kernel released its flock
            info = {"pid": os.getpid(), "host": socket.gethostname(),
                    "started": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"), "run": self.run}
            os.lseek(fd, 0, os.SEEK_SET)
            os.ftruncate(fd, 0)
            os.write(fd, json.dumps(info).encode())
            os.fsync(fd)
            _held[key] = [fd, 1]
        return self

    def release(self) -> None:
        key = str(self.path)
        with _guard:
            entry = _held.get(key)
            if entry is None:
                return
            entry[1] -= 1
            if entry[1] > 0:
                return
            fd = entry[0]
            del _held[key]
            try:
                os.ftruncate(fd, 0)  # an empty file means "released cleanly"
            except OSError:
                pass
            fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)

    def __enter__(self) -> "RunLock":
        return self.acquire()

    def __exit__(self, *exc) -> None:
        self.release()


def is_locked(out_dir: Path | str) -> bool:
    """True when some process (this one included) holds OUT_DIR's lock."""
    path = Path(out_dir).resolve() / LOCK_NAME
    if str(path) in _held:
        return True
    if not path.exists():
        return False
    fd = os.open(path, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)  # closing drops a lock we may just have taken
    return False
