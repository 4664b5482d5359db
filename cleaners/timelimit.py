"""A per-document time limit (Settings.doc_timeout_s) that stops the work and lets the run go on.

In a process's main thread (the flow's ProcessPoolTaskRunner workers, the CLI, tests) the limit is
a real-time interval timer, signal.setitimer(ITIMER_REAL) + SIGALRM, whose handler raises
DocumentTimeout in the running code.

Fallback, in any other thread (e.g. a ThreadPoolTaskRunner or Dask worker thread, where signals
cannot be used): a watcher thread injects DocumentTimeout into the working thread with
PyThreadState_SetAsyncExc. Both only interrupt Python code: a single long call into C (one lxml
parse) is stopped when it returns to Python. Extractors spend their pathological time in Python
loops over the tree, so in practice both stop them.

Once expired, both fire again at a short interval until the block is left, so a timeout that
something swallowed is raised again. DocumentTimeout derives from BaseException so that
`except Exception` in library code cannot swallow it; if some code swallows it anyway (Python
ignores exceptions raised in gc callbacks and __del__), `Limit.fired` still tells the caller.
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


def _interval(seconds: float) -> float:
    """After the first expiry the limit fires again at this interval until the block is left, so
    a timeout that something swallowed (an `except BaseException`, a gc or __del__ callback where
    Python ignores exceptions) is raised again."""
    return min(max(seconds / 4, 0.05), 1.0)


@contextmanager
def time_limit(seconds: float | None) -> Iterator[Limit]:
    """Raise DocumentTimeout in the body once `seconds` have passed (no limit when None or <= 0),
    and again every _interval(seconds) until the body is left."""
    limit = Limit(seconds or 0)
    if not seconds or seconds <= 0:
        yield limit
        return
    active = [True]
    if _can_use_signal():
        limit.mechanism = "signal"

        def on_alarm(signum, frame):
            if active[0]:
                limit.fired = True
                raise DocumentTimeout(f"over {seconds:g} s")

        previous = signal.signal(signal.SIGALRM, on_alarm)
        signal.setitimer(signal.ITIMER_REAL, seconds, _interval(seconds))
        try:
            yield limit
        finally:
            try:
                active[0] = False  # from here on a late tick does nothing
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
                signal.signal(signal.SIGALRM, previous)
        return

    limit.mechanism = "thread"
    target = threading.get_ident()
    lock = threading.Lock()
    done = threading.Event()

    def fire() -> None:
        if done.wait(seconds):
            return
        while True:
            with lock:
                if done.is_set():
                    return
                limit.fired = True
                ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(target), ctypes.py_object(DocumentTimeout))
            if done.wait(_interval(seconds)):
                return

    watcher = threading.Thread(target=fire, name="newsclean-time-limit", daemon=True)
    watcher.start()
    try:
        yield limit
    finally:
        try:
            with lock:
                done.set()
        finally:
            done.set()
            # An exception injected just before `done` and not yet raised must not surface later
            # in the caller's code: clear it (the caller still sees limit.fired).
            ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(target), None)
