"""What newsclean relies on in other libraries beyond their documented APIs, declared in one place and
checked before it is used.

newsclean calls trafilatura, htmldate, ftfy and Prefect through their public APIs, except where a
private symbol saves a material share of the time; each such symbol is listed here with what it is
for. Per library: the version range it was tested with (pyproject.toml pins the same range) and the
symbols relied upon: the module attribute, the parameters a callable must take, the type a table
must have, and, for a function newsclean stands in for inside another library function, the caller
that must look it up by name when it runs (or the stand-in would never be called). The documented
functions the same code paths call are listed too, so a changed signature is caught here and not
read as a bad page.

`require(name)` checks a library once per process, at first use, and raises UpstreamMismatch naming
the library, its installed version, the symbol and what to do. Nothing falls back silently: an
upstream rename stops the run instead of leaving every page without a title or a date.
tests/test_upstream_internals.py breaks each check on purpose and ties the ranges to pyproject.toml.
"""
from __future__ import annotations

import importlib
import importlib.util
import inspect
import io
import re
import tokenize
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any


class UpstreamMismatch(BaseException):
    """An installed library is not what newsclean was checked against. A BaseException, as
    DocumentTimeout is, so that the per-document `except Exception` handlers (one bad page becomes a
    quarantine row) let it through: it stops the run instead of failing every page one by one."""


@dataclass(frozen=True)
class Symbol:
    module: str
    name: str  # an attribute of the module; "Class.method" for a method
    why: str  # where newsclean uses it and what for
    params: tuple[str, ...] | None = None  # a callable's leading parameters, in order
    keywords: tuple[str, ...] = ()  # parameters newsclean passes by name
    kind: type | None = None  # a table's type
    called_by: str | None = None  # "module.function" that must look `name` up when it runs
    holds: tuple[str, ...] = ()  # strings its source must contain
    documented: bool = False  # part of the library's documented API

    @property
    def path(self) -> str:
        return f"{self.module}.{self.name}"


@dataclass(frozen=True)
class Library:
    distribution: str
    tested: str  # ">=LOW,<HIGH", the requirement pyproject.toml gives
    symbols: tuple[Symbol, ...]
    # check the symbols in the source files, without importing them (Prefect's server module costs
    # the CLI ~3 s to import, which its launch avoids)
    by_source: bool = False

    def bounds(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        m = re.fullmatch(r">=([\d.]+),<([\d.]+)", self.tested)
        if m is None:
            raise ValueError(f"{self.distribution}: tested range {self.tested!r} is not '>=LOW,<HIGH'")
        return version_tuple(m[1]), version_tuple(m[2])


_XPATH_LISTS = ("OVERALL_DISCARD_XPATH", "REMOVE_COMMENTS_AND_LISTS_XPATH", "RAW_TREE_PRUNE_XPATH",
                "TEASER_DISCARD_XPATH", "DISCARD_IMAGE_ELEMENTS", "BODY_XPATH")
_FTFY_TABLES = ("HTML_ENTITY_RE", "SINGLE_QUOTE_RE", "DOUBLE_QUOTE_RE", "LIGATURES", "WIDTH_MAP", "CONTROL_CHARS")


def _libraries() -> dict[str, Library]:
    from lxml.html import HTMLParser

    load = "extract_html._load_html: parses the page's UTF-8 bytes with trafilatura's own steps (~0.5 ms a page)"
    author = "extract_html.page_author: trafilatura's author search in one pass over the tree (~1.5 against ~5.4 ms a page)"
    return {lib.distribution: lib for lib in (
        Library("trafilatura", ">=2.3.1,<2.4", (
            Symbol("trafilatura", "bare_extraction", "extract_html: the body", ("filecontent", "url"),
                   keywords=("include_comments", "favor_recall"), documented=True),
            Symbol("trafilatura", "extract_metadata", "extract_html.page_metadata: title, author, url, date, sitename",
                   ("filecontent", "default_url"), documented=True),
            Symbol("trafilatura", "load_html", "extract_html._load_html: unusual pages", ("htmlobject",), documented=True),
            Symbol("trafilatura.utils", "HTML_PARSER", load, kind=HTMLParser),
            Symbol("trafilatura.utils", "is_dubious_html", load, ("beginning",)),
            Symbol("trafilatura.utils", "repair_faulty_html", load, ("htmlstring", "beginning")),
            Symbol("trafilatura.metadata", "extract_author", author, ("tree",),
                   called_by="trafilatura.metadata.extract_metadata"),
            Symbol("trafilatura.metadata", "AUTHOR_XPATHS", author, kind=list),
            Symbol("trafilatura.metadata", "AUTHOR_DISCARD_XPATHS", author, kind=list),
            Symbol("trafilatura.metadata", "normalize_authors", author, ("current_authors", "author_string")),
            *(Symbol("trafilatura.metadata", name, "extract_html.page_metadata: skipped, the fields are never read "
                     "(a third of extract_metadata's cost)", params, called_by="trafilatura.metadata.extract_metadata")
              for name, params in (("extract_catstags", ("metatype", "tree")), ("extract_license", ("tree",)))),
            Symbol("trafilatura.metadata", "find_date", "extract_html.page_metadata: htmldate not run inside "
                   "extract_metadata (with_date=False); the date ranker asks htmldate_pick where the page's own "
                   "dates leave the answer open (~2/3 of pages never need it)", ("htmlobject",),
                   called_by="trafilatura.metadata.extract_metadata"),
            Symbol("trafilatura.settings", "set_date_params", "extract_html.htmldate_pick: the settings "
                   "extract_metadata gives htmldate's find_date", ("extensive",)),
            *(Symbol("trafilatura.xpaths", name, "xpath_gate: the regular-expression XPaths as Python loops", kind=list)
              for name in _XPATH_LISTS),
            Symbol("trafilatura.core", "compare_extraction", "readability_gate: the gate takes its place",
                   ("cleaned_tree", "raw_tree", "body", "text", "options"), called_by="trafilatura.core._extract_and_compare"),
            Symbol("trafilatura.external", "compare_extraction", "readability_gate: the code its bound was checked "
                   "against (REVIEWED_SOURCE)", ("cleaned_tree", "raw_tree", "body", "text", "options")),
            Symbol("trafilatura.external", "_prefer_readability", "readability_gate: the bound's argument",
                   ("body", "algo_body", "algo_text", "len_text", "len_algo", "options"),
                   called_by="trafilatura.external.compare_extraction"),
            Symbol("trafilatura.external", "try_readability", "readability_gate: skipped where it cannot be chosen",
                   ("htmlinput",), called_by="trafilatura.external.compare_extraction", documented=True),
        )),
        Library("htmldate", ">=1.11,<1.12", (
            Symbol("htmldate", "find_date", "extract_html.page_date: the publication date", ("htmlobject",),
                   keywords=("extensive_search", "original_date", "url", "max_date"), documented=True),
            Symbol("htmldate.core", "search_page", "extract_html.page_date: its last resort, a hunt for any date-like "
                   "string, off (DATE_PAGE_SEARCH)", ("htmlstring", "options"), called_by="htmldate.core.find_date"),
        )),
        Library("ftfy", ">=6.3,<6.4", (
            *(Symbol("ftfy", name, "lines, extract_html: the repairs", ("text",), documented=True)
              for name in ("fix_text", "fix_encoding")),
            *(Symbol("ftfy.fixes", name, "lines, extract_html: the repairs", ("text",), documented=True)
              for name in ("fix_c1_controls", "uncurl_quotes")),
            Symbol("ftfy.badness", "is_bad", "lines.has_mojibake and has_mojibake_many: the answer for a text with a "
                   "lone surrogate, which RE2 and polars cannot take (the tests' reference for all others)", ("text",),
                   documented=True),
            Symbol("ftfy.badness", "BADNESS_RE", "lines.has_mojibake and has_mojibake_many: read into the characters "
                   "without which is_bad is False, and into the same pattern with explicit classes, which RE2 and "
                   "polars run in is_bad's place (lines._explicit_pattern); the articles schema: where the mojibake "
                   "is", kind=re.Pattern),
            *(Symbol("ftfy.chardata", name, "lines._repair: the characters fix_text may change, to skip it on lines "
                     "without any (most lines)", kind=re.Pattern if name.endswith("_RE") else dict)
              for name in _FTFY_TABLES),
        )),
        Library("prefect", ">=3.8.8,<3.9", (
            Symbol("prefect.server.api.server", "create_app", "flows.prefect_api.TemporaryAPI: the app the CLI's "
                   "own launch of Prefect's temporary server serves", ("settings", "ephemeral", "webserver_only", "final")),
            Symbol("prefect.server.api.server", "SubprocessASGIServer._run_uvicorn_command", "flows.prefect_api: the "
                   "command and environment the CLI's launch copies", ("self",),
                   holds=("prefect.server.api.server:create_app", '"PREFECT_UI_ENABLED": "0"',
                          '"PREFECT__SERVER_EPHEMERAL": "1"', '"PREFECT__SERVER_FINAL": "1"')),
            Symbol("prefect.server.api.server", "SubprocessASGIServer.start", "flows.prefect_api.share_api_with_workers: "
                   "the temporary server Prefect's client started in this process", ("self",)),
            Symbol("prefect.server.api.server", "SubprocessASGIServer.api_url", "flows.prefect_api.share_api_with_workers"),
            Symbol("prefect.context", "refresh_global_settings_context", "flows.prefect_api.use_api: every thread "
                   "reads the server's address", ()),
        ), by_source=True),
    )}


_LIBRARIES: dict[str, Library] | None = None


def libraries() -> dict[str, Library]:
    global _LIBRARIES
    if _LIBRARIES is None:
        _LIBRARIES = _libraries()
    return _LIBRARIES


def version_tuple(version: str) -> tuple[int, ...]:
    """The leading numbers of a version ("2.3.1.post1" -> (2, 3, 1)), without trailing zeros."""
    numbers = [int(n) for n in re.match(r"\d+(?:\.\d+)*", version)[0].split(".")]
    while len(numbers) > 1 and numbers[-1] == 0:
        numbers.pop()
    return tuple(numbers)


def installed_version(distribution: str) -> str | None:
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return None


def _mismatch(lib: Library, version: str | None, problem: str) -> UpstreamMismatch:
    name, tested = lib.distribution, lib.tested
    head = f"{name} {version}: {problem}" if version else f"{name} is not installed"
    return UpstreamMismatch(
        f"{head}. newsclean is tested with {name}{tested}: install a "
        f"release in that range (pip install '{name}{tested}'), or adapt newsclean to this one: check what "
        f"newsclean.cleaners.upstream lists for {name}, change what differs, then the range there and in pyproject.toml")


def _parameters(fn: Any) -> list[str]:
    return list(inspect.signature(fn).parameters)


def _resolve(sym: Symbol) -> Any:
    obj = importlib.import_module(sym.module)
    for part in sym.name.split("."):
        obj = getattr(obj, part)
    return obj


def _problem_imported(sym: Symbol) -> str | None:
    """What is wrong with `sym` in the imported library, or None."""
    try:
        obj = _resolve(sym)
    except (ImportError, AttributeError):
        return f"{sym.path} is missing"
    if sym.kind is not None and not isinstance(obj, sym.kind):
        return f"{sym.path} is a {type(obj).__name__}, not a {sym.kind.__name__}"
    if sym.params is not None or sym.keywords:
        try:
            names = _parameters(obj)
        except (TypeError, ValueError):
            return f"{sym.path} is not a function"
        if sym.params is not None and names[:len(sym.params)] != list(sym.params):
            return f"{sym.path} takes ({', '.join(names)}), not ({', '.join(sym.params)}, ...)"
        absent = [k for k in sym.keywords if k not in names]
        if absent:
            return f"{sym.path} takes no {', '.join(absent)} (it takes {', '.join(names)})"
    if sym.called_by is not None:
        module, _, function = sym.called_by.rpartition(".")
        try:
            caller = inspect.unwrap(getattr(importlib.import_module(module), function))
        except (ImportError, AttributeError):
            return f"{sym.called_by}, which should call {sym.path}, is missing"
        if sym.name.rpartition(".")[2] not in caller.__code__.co_names:
            return f"{sym.called_by} no longer calls {sym.name} by name"
    if sym.holds:
        source = inspect.getsource(obj)
        absent = [s for s in sym.holds if s not in source]
        if absent:
            return f"{sym.path} no longer holds {', '.join(absent)}"
    return None


def module_file(module: str) -> Path | None:
    """A module's source file, found without importing it or its package's other modules."""
    top, _, rest = module.partition(".")
    spec = importlib.util.find_spec(top)
    if spec is None or spec.origin is None:
        return None
    base = Path(spec.origin).parent
    for candidate in (base.joinpath(*rest.split(".")).with_suffix(".py"), base.joinpath(*rest.split("."), "__init__.py")):
        if rest and candidate.is_file():
            return candidate
    return Path(spec.origin) if not rest else None


@dataclass(frozen=True)
class Definition:
    """A class or function as its module's source reads."""
    params: tuple[str, ...] | None  # a function's parameters, in order; None for a class
    source: str


def source_definitions(text: str) -> dict[str, Definition]:
    """Every class and function a module's source defines, by dotted name ("Class.method"), read
    with the tokenizer: Python 3.11's ast.parse fails at random deep in a thread ("AST constructor
    recursion depth mismatch", CPython issue 106905), which is where a flow run checks Prefect."""
    lines = text.splitlines(keepends=True)
    toks = [t for t in tokenize.generate_tokens(io.StringIO(text).readline)
            if t.type not in (tokenize.COMMENT, tokenize.NL, tokenize.INDENT, tokenize.DEDENT)]
    out: dict[str, Definition] = {}
    open_defs: list[tuple[str, int, int, tuple[str, ...] | None]] = []  # dotted name, column, first line, params

    def close(before_line: int, column: int) -> None:
        while open_defs and open_defs[-1][1] >= column:
            name, _, first, params = open_defs.pop()
            out[name] = Definition(params, "".join(lines[first - 1:before_line - 1]))

    at_start = True
    for k, tok in enumerate(toks):
        starts, at_start = at_start, tok.type == tokenize.NEWLINE
        if not starts:
            continue
        if tok.type == tokenize.ENDMARKER:
            close(len(lines) + 1, 0)
            break
        close(tok.start[0], tok.start[1])
        j = k + 1 if tok.string == "async" else k
        if toks[j].string not in ("def", "class") or toks[j + 1].type != tokenize.NAME:
            continue
        params = _parameters_at(toks, j + 2) if toks[j].string == "def" else None
        dotted = ".".join([d[0] for d in open_defs[-1:]] + [toks[j + 1].string])
        open_defs.append((dotted, tok.start[1], tok.start[0], params))
    return out


def _parameters_at(toks: list, k: int) -> tuple[str, ...]:
    """The parameter names of the parenthesised list that starts at toks[k]."""
    names, depth, expect = [], 0, False
    for tok in toks[k:]:
        if tok.type == tokenize.OP and tok.string in "([{":
            depth += 1
            expect = depth == 1
        elif tok.type == tokenize.OP and tok.string in ")]}":
            depth -= 1
            if depth == 0:
                break
        elif depth == 1 and tok.type == tokenize.OP and tok.string in (",", "*", "**"):
            expect = True
        elif depth == 1 and expect and tok.type == tokenize.NAME:
            names.append(tok.string)
            expect = False
        else:
            expect = False
    return tuple(names)


def _problem_in_source(sym: Symbol, sources: dict[str, dict[str, Definition] | None]) -> str | None:
    """What is wrong with `sym` as its module's source file reads, or None (Symbol.kind and
    called_by are not used by the libraries checked this way)."""
    if sym.module not in sources:
        path = module_file(sym.module)
        sources[sym.module] = source_definitions(path.read_text(encoding="utf-8")) if path is not None else None
    definitions = sources[sym.module]
    if definitions is None:
        return f"{sym.module} is missing"
    found = definitions.get(sym.name)
    if found is None:
        return f"{sym.path} is missing"
    if sym.params is not None:
        if found.params is None:
            return f"{sym.path} is not a function"
        if found.params[:len(sym.params)] != sym.params:
            return f"{sym.path} takes ({', '.join(found.params)}), not ({', '.join(sym.params)}, ...)"
    absent = [s for s in sym.holds if s not in found.source]
    if absent:
        return f"{sym.path} no longer holds {', '.join(absent)}"
    return None


def check(lib: Library) -> None:
    """Raise UpstreamMismatch unless the installed `lib` is in its tested range and has every symbol."""
    version = installed_version(lib.distribution)
    if version is None:
        raise _mismatch(lib, None, "not installed")
    low, high = lib.bounds()
    if not low <= version_tuple(version) < high:
        raise _mismatch(lib, version, f"outside the tested range {lib.tested}")
    sources: dict[str, Any] = {}
    for sym in lib.symbols:
        problem = _problem_in_source(sym, sources) if lib.by_source else _problem_imported(sym)
        if problem is not None:
            raise _mismatch(lib, version, f"{problem} (newsclean uses it in {sym.why})")


_checked: set[str] = set()


def require(*names: str) -> None:
    """Check each named library once per process (see `check`)."""
    for name in names:
        if name not in _checked:
            check(libraries()[name])
            _checked.add(name)


def mismatch(name: str, problem: str) -> UpstreamMismatch:
    """The error for a finer check a module makes itself (a reviewed source's hash)."""
    lib = libraries()[name]
    return _mismatch(lib, installed_version(lib.distribution), problem)
