"""A per-document time limit (Settings.doc_timeout_s) that stops the work and lets the run go on.

In a process's main thread (the flow's ProcessPoolTaskRunner workers, the CLI, tests) the limit is
a real-time interval timer, signal.setitimer(ITIMER_REAL) + SIGALRM, whose handler raises
DocumentTimeout in the running code.

Fallback, in any other thread (e.g. a ThreadPoolTaskRunner worker, where signals cannot be used):
a threading.Timer injects DocumentTimeout into the working thread with
PyThreadState_SetAsyncExc. Both only interrupt Python code: a single long call into C (one lxml
parse) is stopped when it returns to Python. Extractors spend their pathological time in Python
loops over the tree, so in practice both stop them.

DocumentTimeout derives from BaseException so that `except Exception` in library code cannot
swallow it; if some code swallows it anyway, `Limit.fired` still tells the caller.
"""
from __future__ import annotations

import ctypes
import signal
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Iterator


class DocumentTimeout(BaseException):
    """The document took longer than its time limit."""


@dataclass
class Limit:
    seconds: float
    mechanism: str = "none"  # "signal", "thread" or "none"
    fired: bool = False


def _can_use_signal() -> bool:
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


@contextmanager
def time_limit(seconds: float | None) -> Iterator[Limit]:
    """Raise DocumentTimeout in the body once `seconds` have passed (no limit when None or <= 0)."""
    limit = Limit(seconds or 0)
    if not seconds or seconds <= 0:
        yield limit
        return
    if _can_use_signal():
        limit.mechanism = "signal"

        def on_alarm(signum, frame):
            limit.fired = True
            raise DocumentTimeout(f"over {seconds:g} s")

        previous = signal.signal(signal.SIGALRM, on_alarm)
        signal.setitimer(signal.ITIMER_REAL, seconds)
        try:
            yield limit
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
        return

    limit.mechanism = "thread"
    target = threading.get_ident()
    lock = threading.Lock()
    done = False

    def fire() -> None:
        with lock:
            if not done:
                limit.fired = True
                ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(target), ctypes.py_object(DocumentTimeout))

    timer = threading.Timer(seconds, fire)
    timer.daemon = True
    timer.start()
    try:
        yield limit
    finally:
        with lock:
            done = True
        timer.cancel()
