"""`make test` runs the suite with pytest-xdist's `--dist loadgroup` (conftest): each module's tests
stay on one worker, so a module fixture (a CLI run, a corpus, a Prefect server) is built once.
If the grouping stops working (it did silently with pytest 9.2, see pyproject), every module's
fixtures are built on both workers and the suite runs over its time budget; this catches it."""
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
