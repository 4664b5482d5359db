"""newsclean: scraped news in, a clean and validated text corpus out.

The Python API (newsclean.api): clean_text, clean_html (one document -> Article), clean_texts,
clean_htmls (many, in lock step -> Article or DocumentError each), clean_corpus (a folder, as
`newsclean run`), and DocumentError, raised for a document that holds no article.

The design card's folders (cleaners/, schemas/, flows/) are installed under this one import
namespace (pyproject's package-dir mapping): newsclean.cleaners, newsclean.schemas, newsclean.flows.
"""
from __future__ import annotations

from importlib import import_module as _import_module
from importlib import metadata as _metadata
from pathlib import Path as _Path

# From a source checkout (no install), the folders sit beside this package rather than inside it:
# let the namespace find them there, so `PYTHONPATH=checkout python -m newsclean.flows.cli` runs
# that checkout's code. An installed wheel holds them inside and needs nothing.
_here = _Path(__file__).resolve().parent
if not (_here / "cleaners").is_dir() and (_here.parent / "cleaners" / "__init__.py").is_file():
    __path__.append(str(_here.parent))  # noqa: F821 (a package's __path__)

try:
    __version__ = _metadata.version("newsclean")
except _metadata.PackageNotFoundError:  # a source checkout that was never installed
    __version__ = "0+unknown"

# The API's names, imported on first use: `import newsclean` stays cheap for the command line and
# for worker processes, which never need the cleaner's models loaded through it.
_EXPORTS = {
    "Article": "newsclean.api",
    "RemovedSpan": "newsclean.api",
    "clean_text": "newsclean.api",
    "clean_html": "newsclean.api",
    "clean_texts": "newsclean.api",
    "clean_htmls": "newsclean.api",
    "clean_corpus": "newsclean.api",
    "DocumentError": "newsclean.cleaners.types",
    "Settings": "newsclean.cleaners.settings",
}
__all__ = ["__version__", *_EXPORTS]


def __getattr__(name: str):
    if name in _EXPORTS:
        value = getattr(_import_module(_EXPORTS[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'newsclean' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})
