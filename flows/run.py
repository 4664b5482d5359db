"""One run of the `clean-corpus` flow as `newsclean run` starts it; newsclean.clean_corpus starts
the same. run_clean_corpus imports Prefect: call newsclean.flows.env.configure() first."""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

from newsclean.cleaners.readers import storage
from newsclean.cleaners.settings import Settings
from newsclean.flows import prefect_api
from newsclean.flows.prefect_api import TemporaryAPI


class RunFoldersError(ValueError):
    """RAW_DIR or OUT_DIR cannot be used; the message names the folder and why."""


def check_dirs(raw_dir: str | Path, out_dir: str | Path) -> None:
    """RAW_DIR is a folder or a prefix of objects (a URL: newsclean.cleaners.readers.storage), and
    OUT_DIR is a local folder (created when missing) that can be written to, or a prefix in object
    storage whose bucket exists (newsclean.cleaners.remote_out)."""
    try:
        problem = storage.check_folder(raw_dir)
    except storage.StorageError as exc:
        raise RunFoldersError(f"RAW_DIR {raw_dir}: {exc}") from None
    if problem:
        raise RunFoldersError(problem)
    if storage.is_remote(out_dir):
        from newsclean.cleaners import remote_out  # the tables' modules: only for an OUT_DIR in object storage

        problem = remote_out.problem(str(out_dir))
        if problem:
            raise RunFoldersError(problem)
        return
    out_dir = storage.location(out_dir)
    raw = storage.location(raw_dir)
    if isinstance(raw, Path) and raw.resolve() == out_dir.resolve():
        raise RunFoldersError(f"OUT_DIR {out_dir} is RAW_DIR: the output would be read as input; give OUT_DIR a folder of its own")
    if out_dir.exists() and not out_dir.is_dir():
        raise RunFoldersError(f"OUT_DIR {out_dir} is a file, not a folder; give another path or move the file")
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=out_dir, prefix=".write-test-"):
            pass
    except OSError as exc:
        raise RunFoldersError(f"OUT_DIR {out_dir} is not writable ({exc.strerror or exc})") from None


def run_clean_corpus(raw_dir: str | Path, out_dir: str | Path, settings: Settings, *, task_runner: str = "process",
                     dask_address: str | None = None, full: bool = False, api: TemporaryAPI | None = None) -> dict:
    """The clean-corpus flow on RAW_DIR into OUT_DIR on the given task runner; returns its summary.
    It reports to `api` (a temporary server the caller started early, prefect_api.start_temporary_api)
    when given, else to the configured API or Prefect's own temporary one. Raises ValueError for an
    unknown task runner, clean_corpus.MissingExtra when the dask runner is asked for without it."""
    from newsclean.flows.clean_corpus import clean_corpus, runner_for

    _quiet_resource_tracker()
    runner = runner_for(task_runner, dask_address)
    with prefect_api.use_api(api):  # before a Dask LocalCluster or worker processes start
        flow = clean_corpus.with_options(task_runner=runner)
        return flow(raw_dir=str(raw_dir), out_dir=str(out_dir), settings=settings, full=full)


# A worker killed on Ctrl-C (clean_corpus._stopping_workers_on_interrupt) leaves its semaphores to
# multiprocessing's resource tracker, which removes them and warns about each "leaked semaphore" on
# stderr: expected after an interrupt, and nothing a person can act on. The tracker is a process of
# its own, started with the pool: the filter reaches it through its environment.
_TRACKER_FILTER = "ignore:resource_tracker:UserWarning"


def _quiet_resource_tracker() -> None:
    current = os.environ.get("PYTHONWARNINGS", "")
    if _TRACKER_FILTER not in current.split(","):
        os.environ["PYTHONWARNINGS"] = ",".join(filter(None, [current, _TRACKER_FILTER]))
