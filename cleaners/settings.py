"""One typed settings object for the CLI, flows and tests. Its hash is part of pipeline_version,
with a hash of the code and data that make the output, so changing a setting or upgrading newsclean
re-cleans everything in an incremental run."""
from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

PACKAGE_VERSION = "0.1.0"
CODE_ROOT = Path(__file__).resolve().parent  # the cleaners package
# code, and the data it reads: the model's files, word lists, the outlet registry
CODE_SUFFIXES = frozenset({".py", ".txt", ".csv", ".json"})
# Settings that only change how the work is scheduled, never the output: not part of the hash.
ORCHESTRATION_ONLY = frozenset({"batch_size", "lockstep_docs"})


@dataclass(frozen=True)
class Settings:
    # Normalisation
    keep_curly_quotes: bool = False
    # Limits: a file over max_bytes is quarantined without being read whole.
    max_bytes: int = 50_000_000
    doc_timeout_s: float = 30.0
    # Decision thresholds (rules + model); see newsclean.cleaners.decide.
    # P(debris) from which the model alone removes a line: at least model_threshold, and on a page
    # the model is unsure about up to model_threshold_max, where keeping more maximises the page's
    # expected F1 (newsclean.cleaners.page_threshold; set it to model_threshold for one fixed threshold).
    model_threshold: float = 0.5
    model_threshold_max: float = 0.7
    # Model-only removal of what reads as article text (a sentence next to the body, or a line
    # between two body lines, i.e. a subheading, or a long prose paragraph inside the body) needs
    # this much confidence instead.
    model_threshold_prose: float = 0.9
    # Lines right below the last prose line that the model is this sure are body (P(debris) below
    # it) continue the body: a closing list, a table, the last short paragraphs.
    model_threshold_continue: float = 0.35
    use_model: bool = True
    # Corpus repetition: a short line seen in at least this many documents is a template.
    template_min_docs: int = 3
    # Near-duplicate clusters (newsclean.cleaners.syndication): two articles whose texts' shingles of
    # dup_shingle_words consecutive words have an estimated Jaccard similarity of at least
    # dup_threshold are linked, and a cluster is what links join.
    dup_threshold: float = 0.7
    dup_shingle_words: int = 5
    # Orchestration
    batch_size: int = 500
    # Documents of a batch cleaned in lock step: each decision pass of all of them is scored by the
    # line model in one call over one table of their lines (newsclean.cleaners.engine). More saves per-call
    # work and costs memory (~3-4 MB per document of ~500 lines); 1 cleans one document at a time.
    lockstep_docs: int = 32

    def __post_init__(self) -> None:
        if not 0.0 < self.dup_threshold <= 1.0:
            raise ValueError(f"dup_threshold must be in (0, 1], got {self.dup_threshold}")
        if self.dup_shingle_words < 1:
            raise ValueError(f"dup_shingle_words must be at least 1, got {self.dup_shingle_words}")

    def digest(self) -> str:
        """Hash of the settings that change output (not how the work is split into batches)."""
        values = {k: v for k, v in dataclasses.asdict(self).items() if k not in ORCHESTRATION_ONLY}
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
        """Defaults, then a TOML file's [newsclean] table (or its top level), then overrides."""
        values: dict = {}
        if path is not None:
            data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
            values.update(data.get("newsclean", data))
        values.update({k: v for k, v in overrides.items() if v is not None})
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = set(values) - known
        if unknown:
            raise ValueError(f"unknown settings: {', '.join(sorted(unknown))}")
        return cls(**values)


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
