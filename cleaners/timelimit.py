"""A per-document time limit (Settings.doc_timeout_s) that stops the work and lets the run go on.

In a process's main thread (the flow's ProcessPoolTaskRunner workers, the CLI, tests) the limit is
a real-time interval timer, signal.setitimer(ITIMER_REAL) + SIGALRM, whose handler raises
DocumentTimeout in the running code. A real-time timer the caller had set (a watchdog, a test
runner's time-out) is deferred while the limit runs, never lost: it is set again on leaving the
block with what was left of it.

Fallback, in any other thread (e.g. a ThreadPoolTaskRunner or Dask worker thread, where signals
cannot be used): the process's one watcher thread injects DocumentTimeout into the working thread
with PyThreadState_SetAsyncExc. Both only interrupt Python code: a single long call into C (one lxml
parse) is stopped when it returns to Python. Extractors spend their pathological time in Python
loops over the tree, so in practice both stop them.

Once expired, both fire again at a short interval until the block is left, so a timeout that
something swallowed is raised again. DocumentTimeout derives from BaseException so that
`except Exception` in library code cannot swallow it; if some code swallows it anyway (Python
ignores exceptions raised in gc callbacks and __del__), `Limit.fired` still tells the caller.

Where Python cannot raise an exception (a __del__, a gc callback) it hands it to
sys.unraisablehook instead. Inside a limit that hook is wrapped (_ReportHook): a DocumentTimeout
landing there is not reported (the limit fires again; nothing is wrong to report), and while any
other such report is written the limit waits, so a slow hook (pytest's formats a whole traceback)
is never cut short by the next tick.
"""
from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time
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


# the threads (by ident) whose unraisable exception is being reported (_ReportHook): a limit does
# not interrupt a report; it fires at its next tick instead
_REPORTING: set[int] = set()


class _ReportHook:
    """sys.unraisablehook inside time limits: the hook it wraps (`inner`), except that a
    DocumentTimeout raised where Python cannot raise it (a __del__, a gc callback) is not reported
    (the limit that raised it fires again), and that no limit interrupts the report."""

    def __init__(self, inner) -> None:
        self.inner = inner

    def __call__(self, unraisable) -> None:
        if isinstance(unraisable.exc_value, DocumentTimeout):
            return
        ident = threading.get_ident()
        _REPORTING.add(ident)
        try:
            self.inner(unraisable)
        finally:
            _REPORTING.discard(ident)


def _report_hook_installed() -> None:
    """Wrap whatever sys.unraisablehook is now in a _ReportHook (once: it stays, harmless outside
    a limit, since only a limit raises DocumentTimeout; a test runner that sets its own hook later
    gets it wrapped at the next limit)."""
    if not isinstance(sys.unraisablehook, _ReportHook):
        sys.unraisablehook = _ReportHook(sys.unraisablehook)


def _rearm(outer: tuple[float, float], elapsed: float) -> None:
    """Set the caller's own real-time timer again (a watchdog, a test runner's time-out), which the
    limit's timer replaced: with what was left of it, and at once if it came due inside the block
    (so it is deferred to the block's end, never lost)."""
    delay, interval = outer
    if delay > 0:
        signal.setitimer(signal.ITIMER_REAL, max(delay - elapsed, 1e-6), interval)


@contextmanager
def time_limit(seconds: float | None) -> Iterator[Limit]:
    """Raise DocumentTimeout in the body once `seconds` have passed (no limit when None or <= 0),
    and again every _interval(seconds) until the body is left."""
    limit = Limit(seconds or 0)
    if not seconds or seconds <= 0:
        yield limit
        return
    _report_hook_installed()
    active = [True]
    if _can_use_signal():
        limit.mechanism = "signal"

        def on_alarm(signum, frame):
            if active[0]:
                limit.fired = True
                if threading.get_ident() in _REPORTING:
                    return  # a report is being written: the next tick raises
                raise DocumentTimeout(f"over {seconds:g} s")

        previous = signal.signal(signal.SIGALRM, on_alarm)
        outer = signal.setitimer(signal.ITIMER_REAL, seconds, _interval(seconds))
        started = time.monotonic()
        try:
            yield limit
        finally:
            try:
                active[0] = False  # from here on a late tick does nothing
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
                signal.signal(signal.SIGALRM, previous)
                _rearm(outer, time.monotonic() - started)
        return

    limit.mechanism = "thread"
    entry = _Watch(threading.get_ident(), time.monotonic() + seconds, _interval(seconds), limit)
    watcher = _watcher()
    watcher.add(entry)
    try:
        yield limit
    finally:
        if watcher is _WATCHER:  # not in a child forked inside the block: its watcher is another
            watcher.remove(entry)
        # An exception injected just before the removal and not yet raised must not surface later
        # in the caller's code: clear it (the caller still sees limit.fired).
        ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(entry.target), None)


@dataclass
class _Watch:
    target: int  # the working thread's ident
    due: float  # time.monotonic() at which the limit fires (next)
    interval: float
    limit: Limit


class _Watcher:
    """One daemon thread per process that fires every thread-mechanism limit when due. A thread per
    limit would cost a thread start per document step, and each start waits for the new thread to
    be scheduled: up to half of a thread-runner batch's time on short documents (bench/
    thread_time_limit.py)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.wake = threading.Condition(self.lock)
        self.watches: dict[int, _Watch] = {}
        self.waits_until = float("inf")  # when the thread's current wait ends
        self.thread = threading.Thread(target=self._run, name="newsclean-time-limit", daemon=True)
        self.thread.start()

    def add(self, watch: _Watch) -> None:
        with self.lock:
            self.watches[id(watch)] = watch
            if watch.due < self.waits_until:  # only an earlier deadline needs the thread woken
                self.wake.notify()

    def remove(self, watch: _Watch) -> None:
        with self.lock:  # after this the watch cannot fire: firing happens under the lock
            self.watches.pop(id(watch), None)

    def _run(self) -> None:
        with self.lock:
            while True:
                now = time.monotonic()
                for watch in self.watches.values():
                    if watch.due <= now:
                        watch.limit.fired = True
                        if watch.target not in _REPORTING:  # a report being written: the next tick
                            ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(watch.target),
                                                                       ctypes.py_object(DocumentTimeout))
                        watch.due = now + watch.interval  # and again until the block is left
                self.waits_until = min((w.due for w in self.watches.values()), default=float("inf"))
                self.wake.wait(None if self.waits_until == float("inf") else self.waits_until - now)


_WATCHER: _Watcher | None = None
_WATCHER_LOCK = threading.Lock()


def _watcher() -> _Watcher:
    global _WATCHER
    with _WATCHER_LOCK:  # limits are entered in many threads: one starts the watcher
        if _WATCHER is None:
            _WATCHER = _Watcher()
        return _WATCHER


def _forget_watcher() -> None:
    """In a forked child the watcher's thread does not exist: the first limit there starts one."""
    global _WATCHER, _WATCHER_LOCK
    _WATCHER, _WATCHER_LOCK = None, threading.Lock()


os.register_at_fork(after_in_child=_forget_watcher)
