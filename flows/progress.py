"""A progress hook the CLI sets and the flow calls as batches finish (no-op by default)."""
from __future__ import annotations

from typing import Callable

_listener: Callable[[str, int, int], None] | None = None


def listen(callback: Callable[[str, int, int], None] | None) -> None:
    """callback(stage, done, total) is called from the flow's process."""
    global _listener
    _listener = callback


def report(stage: str, done: int, total: int) -> None:
    if _listener is not None:
        _listener(stage, done, total)
