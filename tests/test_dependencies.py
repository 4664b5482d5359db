"""pyproject declares what the code imports: every third-party module the package imports at load
time comes from a core dependency; an optional extra's modules are imported only inside functions
(when the feature that needs them is used), with an error naming the extra when they are missing;
the `dev` extra covers what the tests import."""
from __future__ import annotations

import ast
import re
import subprocess
import sys
import tomllib
from functools import cache
from importlib.metadata import packages_distributions

import pytest

from tests.conftest import ROOT

PACKAGE_FOLDERS = ("cleaners", "flows", "schemas", "newsclean")
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
RUNTIME_EXTRAS = {name for name in PROJECT["optional-dependencies"] if name not in ("dev", "bench")}


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def requirement_name(requirement: str) -> str:
    return canonical(re.match(r"[A-Za-z0-9._-]+", requirement).group())


def declared(group: str | None) -> set[str]:
    """The distributions a dependency group names (None: the core), extras of newsclean itself expanded."""
    requirements = PROJECT["dependencies"] if group is None else PROJECT["optional-dependencies"][group]
    names = set()
    for requirement in requirements:
        name = requirement_name(requirement)
        if name == "newsclean":
            for extra in re.search(r"\[(.*)\]", requirement).group(1).split(","):
                names |= declared(extra.strip())
        else:
            names.add(name)
    return names


def imports(folders, local: set[str]) -> dict[str, dict[str, list[str]]]:
    """Third-party top-level module -> {"eager": [where...], "lazy": [where...]}: eager at module
    level (run on import), lazy inside a function."""
    found: dict[str, dict[str, list[str]]] = {}

    def visit(node, path, in_function: bool):
        for child in ast.iter_child_nodes(node):
            names = []
            if isinstance(child, ast.Import):
                names = [a.name for a in child.names]
            elif isinstance(child, ast.ImportFrom) and child.level == 0 and child.module:
                names = [child.module]
            for name in names:
                top = name.split(".")[0]
                if top in sys.stdlib_module_names or top in local or top == "__future__":
                    continue
                where = f"{path.relative_to(ROOT)}:{child.lineno}"
                found.setdefault(top, {"eager": [], "lazy": []})["lazy" if in_function else "eager"].append(where)
            visit(child, path, in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)))

    for folder in folders:
        for path in sorted((ROOT / folder).rglob("*.py")):
            visit(ast.parse(path.read_text(encoding="utf-8")), path, False)
    return found


@cache
def _installed() -> dict[str, list[str]]:
    """Top-level module -> the installed distributions that provide it (one scan of the environment:
    packages_distributions reads every distribution's file list)."""
    return packages_distributions()


def distributions(module: str) -> set[str]:
    dists = _installed().get(module)
    assert dists, f"{module} is imported but no installed distribution provides it"
    return {canonical(d) for d in dists}


def test_package_imports_map_to_declared_distributions():
    core = declared(None)
    extras = set().union(*(declared(e) for e in RUNTIME_EXTRAS))
    wrong = []
    for module, where in sorted(imports(PACKAGE_FOLDERS, {"newsclean"}).items()):
        dists = distributions(module)
        if dists & core:
            continue
        if dists & extras and not where["eager"]:
            continue  # an extra's module, imported only when its feature runs
        wrong.append(f"{module} ({', '.join(sorted(dists))}) at {', '.join(where['eager'] or where['lazy'])}: "
                     + ("imported on load but only in an extra" if dists & extras else "not declared"))
    assert not wrong, wrong


def test_the_scale_out_extra_is_what_the_package_imports_lazily():
    found = imports(PACKAGE_FOLDERS, {"newsclean"})
    assert "prefect_dask" in found and not found["prefect_dask"]["eager"]
    assert declared("dask") == {"prefect-dask", "dask"}


def test_dev_extra_covers_what_the_tests_import():
    local = {p.stem for p in (ROOT / "tests").glob("*.py")} | {"tests", "newsclean"}
    available = declared(None) | declared("dev")
    missing = [f"{module} ({', '.join(sorted(distributions(module)))}) at {(where['eager'] + where['lazy'])[0]}"
               for module, where in sorted(imports(["tests"], local).items()) if not distributions(module) & available]
    assert not missing, missing


def test_dask_runner_without_its_extra_names_the_install_command(monkeypatch):
    from newsclean.flows.clean_corpus import MissingExtra, runner_for

    monkeypatch.setitem(sys.modules, "prefect_dask", None)  # an import of it fails as if not installed
    with pytest.raises(MissingExtra, match=re.escape("pip install 'newsclean[dask]'")):
        runner_for("dask")
    assert runner_for("thread") is not None  # the other runners need nothing more


@pytest.mark.prefect
def test_cli_with_dask_runner_without_its_extra_is_a_one_line_error(tmp_path):
    code = ("import sys; sys.modules['prefect_dask'] = None; from newsclean.flows.cli import main; "
            f"sys.argv = ['newsclean', 'run', {str(ROOT / 'raw')!r}, {str(tmp_path / 'out')!r}, '--task-runner', 'dask']; main()")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=180, cwd=ROOT)
    assert proc.returncode == 2, proc.stderr[-2000:]
    assert "pip install 'newsclean[dask]'" in proc.stderr and "Traceback" not in proc.stderr
