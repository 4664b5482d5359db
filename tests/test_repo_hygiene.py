"""The repository holds the project, not the machine or the work that made it: no file names a
folder of the machine it was written on (code finds its data through arguments, the environment or
its own location), none keeps a log of numbered rounds of past work (history lives in git), and the
README stays user documentation of bounded length."""
from __future__ import annotations

import gzip
import re
import subprocess
from pathlib import Path

import pytest

from tests.conftest import ROOT

README_MAX_LINES = 300

# An absolute path into a machine's own folders: a workspace, a home directory, the temporary
# folder (a script takes its scratch place from an argument or tempfile). Not preceded by a
# character that makes it part of a URL or of a relative path ("example.com/home/", "../tmp/").
MACHINE_PATH = re.compile(r"(?<![\w.~/-])/(?:work|home|Users|root|tmp)/|\b[A-Za-z]:\\Users\\")
# A numbered round of work (the word round, session, iteration or sprint and a number): what a change
# log says, not a description of what the project is.
NUMBERED_ROUND = re.compile(r"\b(?:round|session|iteration|sprint)\s*#?\d+\b", re.I)
# Scraped pages kept as inputs and fixtures: their words are the pages' own (a design blog's mood
# boards, numbered), so only the machine-path check reads them.
PAGE_DATA = ("raw/", "tests/data/", "tests/golden/")


def _listed() -> list[str]:
    """Every file git tracks, and new ones not ignored (not yet added); every file under the
    checkout but hidden folders and outputs when this is not a git checkout."""
    try:
        out = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                             cwd=ROOT, capture_output=True, text=True, check=True).stdout
        names = [n for n in out.split("\0") if n]
    except (OSError, subprocess.CalledProcessError):
        skip = {"__pycache__", "clean", "out"}
        names = [p.relative_to(ROOT).as_posix() for p in ROOT.rglob("*")
                 if p.is_file() and not any(part.startswith(".") or part in skip for part in p.relative_to(ROOT).parts)]
    return sorted(n for n in set(names) if (ROOT / n).is_file())


def _text(name: str) -> str | None:
    """A file's text (a .gz file's content), or None for a binary file."""
    data = (ROOT / name).read_bytes()
    if data[:2] == b"\x1f\x8b":
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError):
            return None
    if b"\0" in data[:8192]:
        return None
    return data.decode("utf-8", errors="replace")


@pytest.fixture(scope="module")
def texts() -> dict[str, str]:
    files = _listed()
    assert {"README.md", "Makefile", "cleaners/shared_data.py", "tests/test_repo_hygiene.py"} <= set(files)
    return {name: text for name in files if (text := _text(name)) is not None}


def _hits(pattern: re.Pattern, texts: dict[str, str]) -> list[str]:
    hits = []
    for name, text in texts.items():
        for m in pattern.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            hits.append(f"{name}:{line}: {text[max(0, m.start() - 30):m.end() + 30]!r}")
    return hits


def test_no_file_holds_an_absolute_machine_path(texts):
    hits = _hits(MACHINE_PATH, texts)
    assert not hits, ("absolute machine paths (use newsclean.cleaners.shared_data, an argument, tempfile, "
                      "or a placeholder in an example):\n" + "\n".join(hits))


def test_no_file_keeps_a_log_of_numbered_rounds(texts):
    hits = _hits(NUMBERED_ROUND, {n: t for n, t in texts.items() if not n.startswith(PAGE_DATA)})
    assert not hits, "numbered rounds of past work (history lives in git):\n" + "\n".join(hits)


def test_the_patterns_catch_what_they_are_for():
    machine = ["see /" + "work/main/x", "cd /" + "home/alice/repo", '"/' + "tmp/scratch", "/" + "Users/bob/x",
               "C:" + "\\Users\\bob"]
    fine = ["https://example.com/home/news", "../../../tmp/evil", "s3://bucket/raw", "/data/raw", "~/work/x"]
    assert all(MACHINE_PATH.search(s) for s in machine)
    assert not any(MACHINE_PATH.search(s) for s in fine)
    rounds = ["Round " + "12: faster", "in session " + "3 we", "iteration " + "#4", "round" + "12"]
    fine_words = ["--rounds 5", "the first round's output", "rounds 14.5 cold", "a session-scoped fixture"]
    assert all(NUMBERED_ROUND.search(s) for s in rounds)
    assert not any(NUMBERED_ROUND.search(s) for s in fine_words)


def test_readme_is_user_documentation_of_bounded_length():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MAX_LINES, f"README.md has {len(lines)} lines; keep it to {README_MAX_LINES}: " \
                                           "how it decides goes in docs/, measurements in bench/RESULTS.md"
