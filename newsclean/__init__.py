"""newsclean: scraped news in, a clean and validated text corpus out.

The design card's folders (cleaners/, schemas/, flows/) are installed under this one import
namespace (pyproject's package-dir mapping): newsclean.cleaners, newsclean.schemas, newsclean.flows.
"""
from __future__ import annotations

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
