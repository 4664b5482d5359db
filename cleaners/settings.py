"""One typed settings object for the CLI, flows and tests. Its hash is part of pipeline_version,
with a hash of the code and data that make the output, so changing a setting or upgrading newsclean
re-cleans everything in an incremental run.

Settings is a pydantic model: values are checked and coerced where they come in (a TOML file, CLI
flags, a deployment's parameters), and the clean-corpus flow's `settings` parameter has a typed
schema, which Prefect's UI shows as a form."""
from __future__ import annotations

import hashlib
import json
import os
import tomllib
from functools import lru_cache
from importlib import metadata
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

try:  # the one version, pyproject's, as installed (newsclean.__version__ reads the same)
    PACKAGE_VERSION = metadata.version("newsclean")
except metadata.PackageNotFoundError:  # a source checkout that was never installed
    PACKAGE_VERSION = "0+unknown"
CODE_ROOT = Path(__file__).resolve().parent  # the cleaners package
# code, and the data it reads: the model's files, word lists, the outlet registry
CODE_SUFFIXES = frozenset({".py", ".txt", ".csv", ".json"})
# Settings that only change how the work is scheduled, never the output: not part of the hash.
ORCHESTRATION_ONLY = frozenset({"batch_size", "lockstep_docs", "piece_docs"})


class Settings(BaseModel):
    """newsclean's settings (README: "Settings")."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    # Normalisation
    keep_curly_quotes: bool = Field(False, description="keep typographic quotes instead of straightening them")
    # Limits: a document (a file that is one page or text, or one record of a record file or an
    # archive) over max_bytes is quarantined without being read whole; record files and archives
    # are read a record at a time, whatever their size. max_file_bytes caps a whole file (opt-in).
    max_bytes: int = Field(50_000_000, description="a document (a page or text file, or one record of a record file or archive) larger than this is quarantined without being read whole")
    max_file_bytes: int | None = Field(None, description="when set, a whole file larger than this is quarantined unread (record files and archives are otherwise read at any size)")
    doc_timeout_s: float = Field(30.0, description="a document that takes longer is stopped and quarantined")
    # Decision thresholds (rules + model); see newsclean.cleaners.decide.
    # P(debris) from which the model alone removes a line: at least model_threshold, and on a page
    # the model is unsure about up to model_threshold_max, where keeping more maximises the page's
    # expected F1 (newsclean.cleaners.page_threshold; set it to model_threshold for one fixed threshold).
    model_threshold: float = Field(0.5, description="P(debris) from which the line model alone removes a line")
    model_threshold_max: float = Field(0.7, description="on a page the model is unsure about, the threshold rises up to this")
    # Model-only removal of what reads as article text (a sentence next to the body, or a line
    # between two body lines, i.e. a subheading, or a long prose paragraph inside the body) needs
    # this much confidence instead.
    model_threshold_prose: float = Field(0.9, description="the same for what reads as article text")
    # Lines right below the last prose line that the model is this sure are body (P(debris) below
    # it) continue the body: a closing list, a table, the last short paragraphs.
    model_threshold_continue: float = Field(0.35, description="lines right below the body with P(debris) under this continue it")
    use_model: bool = Field(True, description="use the learned line model (false: rules only)")
    # An HTML page that the page-kind model (newsclean.cleaners.page_kind.kind_reason) judges is not
    # an article is quarantined with its kind; off (the default), every page is cleaned as an
    # article. Off by default: at the model's threshold ~3% of the dev set's articles (guides,
    # glossaries) and ~5% of trafilatura's evaluation articles would be quarantined (bench/RESULTS.md).
    quarantine_non_articles: bool = Field(False, description="quarantine a page that is not an article (a listing of teasers, a forum thread, a product, category, service or documentation page), with its kind: an HTML page judged from its markup (a fragment of HTML from its visible text's lines), a text from its lines' shapes")
    # The HTML path's body: trafilatura's choice (the default), or chosen block by block over the
    # whole page by the page-body model, with trafilatura's choice as evidence (newsclean.cleaners.
    # page_body): text trafilatura dropped comes back, debris inside its body goes; ~10-17 CPU-ms a page more.
    html_body: Literal["trafilatura", "page"] = Field("trafilatura", description="the HTML path's body: trafilatura's extraction (trafilatura), or the page's visible text blocks the page-body model keeps, with trafilatura's choice as evidence (page: less debris let through, ~1.5x the CPU)")
    # Corpus repetition: a short line seen in at least this many documents is a template.
    template_min_docs: int = Field(3, description="a line in this many documents counts as a template")
    # Output: lines.parquet holds every document's normalised lines, which removed.parquet's
    # (line, start, end) index, so the audit trail reads from OUT_DIR alone; off, it is written empty.
    audit_lines: bool = Field(True, description="write the normalised input lines to lines.parquet (false: lines.parquet is empty)")
    # Near-duplicate clusters (newsclean.cleaners.syndication): two articles whose texts' shingles of
    # dup_shingle_words consecutive words have an estimated Jaccard similarity of at least
    # dup_threshold are linked, and a cluster is what links join.
    dup_threshold: float = Field(0.7, gt=0.0, le=1.0, description="estimated Jaccard similarity of word shingles from which two articles are near duplicates (the same dup_cluster)")
    dup_shingle_words: int = Field(5, ge=1, description="words per shingle of the near-duplicate comparison")
    # Orchestration
    batch_size: int = Field(500, description="documents per Prefect task (scheduling only)")
    # Documents of a batch cleaned in lock step: each decision pass of all of them is scored by the
    # line model in one call over one table of their lines (newsclean.cleaners.engine). More saves per-call
    # work and costs memory (~3-4 MB per document of ~500 lines); 1 cleans one document at a time.
    lockstep_docs: int = Field(32, description="documents of a batch cleaned in lock step (speed and memory only)")
    # A batch is validated and written a piece at a time (newsclean.cleaners.batch.
    # clean_sources_in_pieces), each piece one part of each table: a worker holds one piece's rows,
    # ~0.2-0.5 MB per document, whatever the batch size. The default batch is one piece: each piece
    # pays pandera's fixed cost (~0.1 CPU-s).
    piece_docs: int = Field(500, ge=1, description="documents of a batch validated and written as one part of each table (memory only)")

    def digest(self) -> str:
        """Hash of the settings that change output (not how the work is split into batches)."""
        values = {k: v for k, v in self.model_dump().items() if k not in ORCHESTRATION_ONLY}
        blob = json.dumps(values, sort_keys=True).encode()
        return hashlib.sha256(blob).hexdigest()[:8]

    @property
    def pipeline_version(self) -> str:
        """newsclean's version, the hash of the settings that change output, and the hash of the
        code and data that make it (code_digest): an OUT_DIR cleaned by other code is re-cleaned
        even when the package version is the same (a git checkout, a retrained model)."""
        return f"{PACKAGE_VERSION}+{self.digest()}.{code_digest()}"

    @classmethod
    def load(cls, path: Path | None = None, **overrides) -> "Settings":
        """Defaults, then a TOML file's [newsclean] table (or its top level), then overrides.
        A bad name or value is a ValueError with a one-line message."""
        values: dict = {}
        if path is not None:
            data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
            values.update(data.get("newsclean", data))
        values.update({k: v for k, v in overrides.items() if v is not None})
        unknown = set(values) - set(cls.model_fields)
        if unknown:
            raise ValueError(f"unknown settings: {', '.join(sorted(unknown))}")
        try:
            return cls(**values)
        except ValidationError as exc:
            raise ValueError("; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']} (got {e['input']!r})"
                                       for e in exc.errors())) from None


@lru_cache(maxsize=1)
def _package_digest() -> str:
    h = hashlib.sha256()
    for path in sorted(p for p in CODE_ROOT.rglob("*") if p.suffix in CODE_SUFFIXES and "__pycache__" not in p.parts):
        h.update(path.relative_to(CODE_ROOT).as_posix().encode() + b"\x00")
        h.update(path.read_bytes())
    return h.hexdigest()


def code_digest() -> str:
    """Hash of the cleaners package's code and data files, and of the user's outlet registry
    (NEWSCLEAN_OUTLETS) when one is set: everything besides the settings that the output depends on.
    Computed once per process and registry, as the registry itself is read (load_registry): every
    article row carries it."""
    return _code_digest(os.environ.get("NEWSCLEAN_OUTLETS"))


@lru_cache(maxsize=4)
def _code_digest(registry: str | None) -> str:
    h = hashlib.sha256(_package_digest().encode())
    if registry:
        try:
            h.update(Path(registry).read_bytes())
        except OSError:  # a missing file is reported where the registry is read
            h.update(b"missing:" + registry.encode())
    return h.hexdigest()[:8]
