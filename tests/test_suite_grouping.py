"""`make test` runs the suite with pytest-xdist's `--dist loadgroup` (conftest): each module's tests
stay on one worker, so a module fixture (a CLI run, a corpus, a Prefect server) is built once.
If the grouping stops working (it did silently with pytest 9.2, see pyproject), every module's
fixtures are built on both workers and the suite runs over its time budget; this catches it.
A test that crashes its worker ends the run with a failure instead of hanging it (the Makefile's
--max-worker-restart=0), and one that hangs fails after pyproject's `timeout` (pytest-timeout)."""
from __future__ import annotations

import re
import subprocess
import sys
from collections import defaultdict

from tests.conftest import ROOT


def test_each_module_runs_on_one_worker(tmp_path):
    modules = ["tests/test_tables.py", "tests/test_markdown.py"]
    proc = subprocess.run([sys.executable, "-m", "pytest", "-n", "2", "--dist", "loadgroup", "-v", "-p", "no:cacheprovider",
                           "--basetemp", str(tmp_path / "t"), *modules], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-3000:]
    workers = defaultdict(set)
    for worker, module in re.findall(r"^\[(gw\d+)\] \[ *\d+%\] PASSED (tests/[\w/]+\.py)::", proc.stdout, re.M):
        workers[module].add(worker)
    assert set(workers) == set(modules), proc.stdout[-3000:]
    assert all(len(w) == 1 for w in workers.values()), dict(workers)


def _make_test_options() -> list[str]:
    """The options `make test` gives pytest (the Makefile's test recipe)."""
    recipe = re.search(r"^test:.*\n\t(.+)$", (ROOT / "Makefile").read_text(encoding="utf-8"), re.M).group(1)
    return recipe.split("-m pytest", 1)[1].split()


def _run_under_make_options(tmp_path, module: str, source: str, *extra: str) -> subprocess.CompletedProcess:
    """pytest run as `make test` runs it (its options but -q, and `extra`) on one test module
    written from `source` into tmp_path, with tmp_path as its root (the suite's config unread)."""
    path = tmp_path / module
    path.write_text(source, encoding="utf-8")
    options = [o for o in _make_test_options() if o != "-q"]
    return subprocess.run([sys.executable, "-m", "pytest", *options, "-p", "no:cacheprovider", *extra,
                           "--rootdir", str(tmp_path), str(path)], cwd=tmp_path, capture_output=True, text=True, timeout=120)


def test_a_crashed_worker_fails_the_run_instead_of_hanging_it(tmp_path):
    assert "--max-worker-restart=0" in _make_test_options()
    proc = _run_under_make_options(
        tmp_path, "test_crash.py",
        "import ctypes, pytest\n"
        "@pytest.mark.xdist_group('g')\n"
        "def test_crash():\n"
        "    ctypes.string_at(0)  # a native fault: the worker dies\n"
        "@pytest.mark.xdist_group('g')\n"
        "def test_after_in_its_group():\n"
        "    pass\n"
        "def test_elsewhere():\n"
        "    pass\n", "-p", "no:faulthandler")
    assert proc.returncode == 1, proc.stdout[-3000:]
    assert "crashed while running" in proc.stdout, proc.stdout[-3000:]


def test_a_hung_test_fails_with_its_stack_and_the_run_goes_on(tmp_path):
    """pytest-timeout is on for the suite (pyproject's `timeout`, by SIGALRM, which the document
    time limit defers and sets again): under the Makefile's options a test that never ends fails
    with its stack, even one that ran a time limit first, and the others run. (The limit is
    lowered here with -o.)"""
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["pytest"]["ini_options"]
    assert 300 <= config["timeout"] <= 1200 and config["timeout_method"] == "signal"
    proc = _run_under_make_options(
        tmp_path, "test_hang.py",
        "import time\n"
        "from newsclean.cleaners.timelimit import time_limit\n"
        "def test_hangs():\n"
        "    with time_limit(60):\n"
        "        pass\n"
        "    time.sleep(600)\n"
        "def test_elsewhere():\n"
        "    pass\n", "-o", "timeout=3")
    assert proc.returncode == 1, proc.stdout[-3000:]
    assert "Failed: Timeout" in proc.stdout and "time.sleep(600)" in proc.stdout, proc.stdout[-3000:]
    assert "1 failed, 1 passed" in proc.stdout, proc.stdout[-3000:]
