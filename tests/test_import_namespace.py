"""The design card's folders are installed under one import namespace (newsclean.cleaners,
newsclean.schemas, newsclean.flows), so no code may import them by their bare folder names: another
package called `flows` or `schemas` would shadow them."""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("cleaners", "flows", "schemas")


def _python_files():
    for folder in (*FOLDERS, "newsclean", "tests", "bench"):
        yield from (ROOT / folder).rglob("*.py")


def test_no_bare_folder_imports():
    offenders = []
    for path in _python_files():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            offenders += [f"{path.relative_to(ROOT)}:{node.lineno} {n}" for n in names
                          if n.split(".")[0] in FOLDERS]
    assert not offenders, offenders


def test_namespace_resolves_to_the_folders(tmp_path):
    # from another directory, so the checkout is not on sys.path by accident
    code = ("import newsclean.cleaners, newsclean.flows, newsclean.schemas, sys;"
            "print(newsclean.cleaners.__file__); print(newsclean.flows.__file__);"
            "print(newsclean.schemas.__file__); print('cleaners' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True,
                         check=True).stdout.split("\n")
    for line, folder in zip(out, FOLDERS):
        assert Path(line).resolve() == ROOT / folder / "__init__.py"
    assert out[3] == "False"  # nothing loaded the bare name
