"""What newsclean relies on inside trafilatura, htmldate, ftfy and Prefect (newsclean.cleaners.upstream)
is there in the installed releases, pyproject.toml pins the ranges it was tested with, and when any
of it differs the run stops with a message that names the library, its version, the symbol and what
to do: never an empty field per page, never a quarantine row per page.

Each declared symbol is broken on purpose in turn: taken away, given another signature or type,
no longer called by the function it stands in for, or (for Prefect, read from its source files)
renamed or changed in its source.
"""
from __future__ import annotations

import ast
import importlib
import importlib.util
import inspect
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from newsclean.cleaners import upstream
from newsclean.cleaners.upstream import UpstreamMismatch

ROOT = Path(__file__).resolve().parent.parent
LIBRARIES = upstream.libraries()
IMPORTED = [(lib, sym) for lib in LIBRARIES.values() if not lib.by_source for sym in lib.symbols]
BY_SOURCE = [(lib, sym) for lib in LIBRARIES.values() if lib.by_source for sym in lib.symbols]


def _id(case) -> str:
    return case[1].path


@pytest.fixture
def unchecked(monkeypatch):
    """Every library checked again at its next use, as in a new process."""
    monkeypatch.setattr(upstream, "_checked", set())


def _actionable(lib, match: str = "") -> str:
    """The parts every message has: library and version, the problem, the range and the command."""
    version = re.escape(upstream.installed_version(lib.distribution))
    return (rf"^{re.escape(lib.distribution)} {version}: .*{match}.*newsclean is tested with "
            rf"{re.escape(lib.distribution + lib.tested)}: .*pip install '{re.escape(lib.distribution + lib.tested)}'")


# ---- the installed releases, the declared ranges and pyproject.toml


def _pyproject_requirements() -> dict[str, str]:
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
    out = {}
    for dep in deps:
        name = re.match(r"[A-Za-z0-9_.-]+", dep)[0]
        out[name.lower()] = dep[len(name):].split(";")[0].strip()
    return out


@pytest.mark.parametrize("name", sorted(LIBRARIES))
def test_the_installed_release_is_in_the_tested_range_that_pyproject_pins(name):
    lib = LIBRARIES[name]
    low, high = lib.bounds()
    installed = upstream.installed_version(lib.distribution)
    assert installed is not None and low <= upstream.version_tuple(installed) < high, (installed, lib.tested)
    # every release pip may install is one the guard accepts, and no other
    assert _pyproject_requirements()[lib.distribution.lower()] == lib.tested


@pytest.mark.parametrize("name", sorted(LIBRARIES))
def test_every_declared_symbol_is_there(name):
    upstream.check(LIBRARIES[name])


@pytest.mark.parametrize("case", BY_SOURCE, ids=_id)
def test_what_is_read_from_prefect_s_source_is_what_importing_it_gives(case):
    _, sym = case
    assert upstream._problem_imported(sym) is None


@pytest.mark.parametrize("module", sorted({sym.module for _, sym in BY_SOURCE} | {"trafilatura.core", "htmldate.core"}))
def test_the_source_reader_finds_what_the_parser_finds(module):
    """upstream.source_definitions (the tokenizer) against ast on whole modules: every class and
    function, its parameters in order, its source."""
    text = upstream.module_file(module).read_text(encoding="utf-8")
    found = upstream.source_definitions(text)
    expected = {}

    def walk(node, prefix):
        for n in getattr(node, "body", ()):
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                a = getattr(n, "args", None)
                params = None if a is None else tuple(x.arg for x in (*a.posonlyargs, *a.args, *([a.vararg] if a.vararg else []),
                                                                      *a.kwonlyargs, *([a.kwarg] if a.kwarg else [])))
                expected[prefix + n.name] = (params, ast.get_source_segment(text, n))
                walk(n, prefix + n.name + ".")

    walk(ast.parse(text), "")
    assert len(expected) > 10
    for name, (params, source) in expected.items():
        assert found[name].params == params, name
        assert source in found[name].source, name


def test_the_cleaners_and_flows_use_no_other_library_internal_than_the_declared_ones():
    """Every name cleaners/, schemas/ and flows/ take from trafilatura, htmldate or ftfy (an import, or
    an attribute of an imported module) is declared in newsclean.cleaners.upstream."""
    declared = {(sym.module, sym.name.split(".")[0]) for lib in LIBRARIES.values() for sym in lib.symbols}
    watched = ("trafilatura", "htmldate", "ftfy")
    undeclared = set()
    for path in sorted(p for folder in ("cleaners", "schemas", "flows") for p in (ROOT / folder).rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        aliases: dict[str, str] = {}  # local name -> module
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for a in node.names:
                    if a.name.split(".")[0] in watched:
                        aliases[a.asname or a.name.split(".")[0]] = a.name if a.asname else a.name.split(".")[0]
            elif isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] in watched:
                for a in node.names:
                    if _is_submodule(node.module, a.name):
                        aliases[a.asname or a.name] = f"{node.module}.{a.name}"
                    elif (node.module, a.name) not in declared:
                        undeclared.add(f"{path.relative_to(ROOT)}: {node.module}.{a.name}")
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases:
                module = aliases[node.value.id]
                if not _is_submodule(module, node.attr) and (module, node.attr) not in declared:
                    undeclared.add(f"{path.relative_to(ROOT)}: {module}.{node.attr}")
    assert not undeclared, "declare these in newsclean.cleaners.upstream (or use a documented function):\n" + "\n".join(sorted(undeclared))


def _is_submodule(module: str, name: str) -> bool:
    """Whether module.name is a module (its own names are checked where they are used)."""
    return hasattr(importlib.import_module(module), "__path__") and importlib.util.find_spec(f"{module}.{name}") is not None


# ---- each check fails loudly


def test_a_release_outside_the_tested_range_stops_with_what_to_install(monkeypatch):
    lib = LIBRARIES["trafilatura"]
    monkeypatch.setattr(upstream, "installed_version", lambda name: "2.4.0")
    with pytest.raises(UpstreamMismatch, match=r"^trafilatura 2\.4\.0: outside the tested range >=2\.3\.1,<2\.4\. "
                                               r".*pip install 'trafilatura>=2\.3\.1,<2\.4'"):
        upstream.check(lib)


def test_a_library_that_is_not_installed_stops_with_what_to_install(monkeypatch):
    monkeypatch.setattr(upstream, "installed_version", lambda name: None)
    with pytest.raises(UpstreamMismatch, match=r"^htmldate is not installed\. .*pip install 'htmldate"):
        upstream.check(LIBRARIES["htmldate"])


@pytest.mark.parametrize("case", IMPORTED, ids=_id)
def test_a_missing_symbol_stops_with_its_name(case, monkeypatch):
    lib, sym = case
    monkeypatch.delattr(importlib.import_module(sym.module), sym.name)
    with pytest.raises(UpstreamMismatch, match=_actionable(lib, re.escape(f"{sym.path} is missing (newsclean uses it in "))):
        upstream.check(lib)


@pytest.mark.parametrize("case", [c for c in IMPORTED if c[1].params or c[1].keywords], ids=_id)
def test_a_changed_signature_stops_with_both_signatures(case, monkeypatch):
    lib, sym = case

    def changed(something_else):
        raise AssertionError("not called by the check")

    monkeypatch.setattr(importlib.import_module(sym.module), sym.name, changed)
    with pytest.raises(UpstreamMismatch, match=_actionable(lib, re.escape(f"{sym.path} takes (something_else)"))):
        upstream.check(lib)


@pytest.mark.parametrize("case", [c for c in IMPORTED if c[1].kind is not None], ids=_id)
def test_a_table_of_another_type_stops_with_both_types(case, monkeypatch):
    lib, sym = case
    monkeypatch.setattr(importlib.import_module(sym.module), sym.name, object())
    with pytest.raises(UpstreamMismatch, match=_actionable(lib, re.escape(f"{sym.path} is a object, not a {sym.kind.__name__}"))):
        upstream.check(lib)


@pytest.mark.parametrize("case", [c for c in IMPORTED if c[1].called_by], ids=_id)
def test_a_caller_that_no_longer_calls_the_stood_in_function_stops(case, monkeypatch):
    lib, sym = case
    module, _, function = sym.called_by.rpartition(".")

    def rewritten(*args, **kwargs):
        return None

    rewritten.__signature__ = inspect.signature(getattr(importlib.import_module(module), function))  # its own
    monkeypatch.setattr(importlib.import_module(module), function, rewritten)
    assert upstream._problem_imported(sym) == f"{sym.called_by} no longer calls {sym.name} by name"
    with pytest.raises(UpstreamMismatch, match=_actionable(lib, re.escape(f"{sym.called_by} no longer calls "))):
        upstream.check(lib)  # (this symbol, or another the same caller calls)


def _prefect_source_with(monkeypatch, tmp_path, module: str, old: str, new: str) -> None:
    """Prefect's `module` as upstream reads it: its source with `old` replaced by `new`."""
    source = upstream.module_file(module).read_text(encoding="utf-8")
    assert old in source
    changed = tmp_path / "changed.py"
    changed.write_text(source.replace(old, new), encoding="utf-8")
    real = upstream.module_file
    monkeypatch.setattr(upstream, "module_file", lambda name: changed if name == module else real(name))


@pytest.mark.parametrize("case", BY_SOURCE, ids=_id)
def test_a_renamed_prefect_symbol_stops_with_its_name(case, monkeypatch, tmp_path):
    lib, sym = case
    last = sym.name.split(".")[-1]
    kind = "class" if "." not in sym.name and sym.name[0].isupper() else "def"
    _prefect_source_with(monkeypatch, tmp_path, sym.module, f"{kind} {last}(", f"{kind} {last}_renamed(")
    with pytest.raises(UpstreamMismatch, match=_actionable(lib, re.escape(f"{sym.path} is missing"))):
        upstream.check(lib)


def test_a_changed_prefect_signature_stops(monkeypatch, tmp_path):
    lib = LIBRARIES["prefect"]
    _prefect_source_with(monkeypatch, tmp_path, "prefect.server.api.server", "    ephemeral: bool = False,\n", "    temporary: bool = False,\n")
    with pytest.raises(UpstreamMismatch, match=_actionable(lib, r"prefect\.server\.api\.server\.create_app takes \(settings, temporary")):
        upstream.check(lib)


def test_a_changed_prefect_server_command_stops(monkeypatch, tmp_path):
    lib = LIBRARIES["prefect"]
    _prefect_source_with(monkeypatch, tmp_path, "prefect.server.api.server", '"PREFECT__SERVER_FINAL": "1"', '"PREFECT__SERVER_LAST": "1"')
    with pytest.raises(UpstreamMismatch, match=_actionable(lib, r"_run_uvicorn_command no longer holds \"PREFECT__SERVER_FINAL\": \"1\"")):
        upstream.check(lib)


# ---- the code paths consult the guard before they use what it checks


def test_the_html_metadata_stops_instead_of_leaving_fields_empty(unchecked, monkeypatch):
    import htmldate.core as hd

    from newsclean.cleaners import extract_html as eh

    tree = eh.parse_html("<html><head><title>A title</title></head><body><p>Text.</p></body></html>")
    monkeypatch.delattr(hd, "search_page")
    with pytest.raises(UpstreamMismatch, match=r"^htmldate .*htmldate\.core\.search_page is missing"):
        eh.page_metadata(tree)


def test_a_changed_library_stops_the_batch_instead_of_quarantining_each_page(unchecked, monkeypatch, tmp_path):
    import trafilatura.utils

    from newsclean.cleaners.batch import clean_sources
    from newsclean.cleaners.settings import Settings

    (tmp_path / "page.html").write_text("<html><head><title>Buses</title></head><body><h1>Buses run late</h1>"
                                        + "<p>The council said the buses would run late all week.</p>" * 5 + "</body></html>")
    assert clean_sources(tmp_path, ["page.html"], Settings()).articles  # as installed: cleaned
    monkeypatch.setattr(upstream, "_checked", set())
    monkeypatch.delattr(trafilatura.utils, "repair_faulty_html")
    with pytest.raises(UpstreamMismatch, match=r"trafilatura\.utils\.repair_faulty_html is missing"):
        clean_sources(tmp_path, ["page.html"], Settings())


def test_a_changed_ftfy_stops_the_import_of_the_line_normaliser():
    code = ("import ftfy.chardata as c; del c.WIDTH_MAP\n"
            "import newsclean.cleaners.lines\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert proc.returncode != 0
    assert re.search(r"UpstreamMismatch: ftfy [\d.]+: ftfy\.chardata\.WIDTH_MAP is missing .*pip install 'ftfy", proc.stderr)


def test_an_unreadable_mojibake_pattern_stops_instead_of_slowing_down(monkeypatch):
    from newsclean.cleaners import lines

    monkeypatch.setattr(lines, "BADNESS_RE", re.compile("ab|c"))  # an alternative of ASCII only
    with pytest.raises(UpstreamMismatch, match=r"^ftfy .*BADNESS_RE has an alternative without a mandatory non-ASCII class"):
        lines._mojibake_required()


@pytest.fixture
def launches(monkeypatch):
    """The temporary server's launches and stops, without a server."""
    from newsclean.flows import prefect_api

    seen = []
    monkeypatch.delenv("PREFECT_API_URL", raising=False)
    monkeypatch.setattr(prefect_api.TemporaryAPI, "_launch", lambda self: seen.append("launch"))
    monkeypatch.setattr(prefect_api.TemporaryAPI, "stop", lambda self: seen.append("stop"))
    return seen


def test_a_changed_prefect_stops_the_server_it_started(unchecked, monkeypatch, launches):
    from newsclean.flows import prefect_api

    monkeypatch.setattr(upstream, "installed_version", lambda name: "3.9.1" if name == "prefect" else None)
    with pytest.raises(UpstreamMismatch, match=r"^prefect 3\.9\.1: outside the tested range"):
        prefect_api.start_temporary_api()
    assert launches == ["launch", "stop"]


def test_the_cli_says_it_in_one_line(unchecked, monkeypatch, tmp_path, launches):
    from typer.testing import CliRunner

    from newsclean.flows.cli import app

    real = upstream.installed_version
    monkeypatch.setattr(upstream, "installed_version", lambda name: "3.9.1" if name == "prefect" else real(name))
    (tmp_path / "raw").mkdir()
    result = CliRunner().invoke(app, ["run", str(tmp_path / "raw"), str(tmp_path / "out")])
    assert result.exit_code == 2
    out = result.output + (result.stderr if result.stderr_bytes is not None else "")
    assert re.search(r"error: prefect 3\.9\.1: outside the tested range >=3\.8\.8,<3\.9\. .*pip install 'prefect>=3\.8\.8,<3\.9'", out)
    assert "Traceback" not in out
    assert launches == ["launch", "stop"]
