"""The learned line cleaner: P(debris) per line and the headline line of a document.

    model = LineModel.default()                       # cached load of the packaged files
    ctx = stats.doc_context(lines, site_key)          # cleaners.corpus (or None: no corpus pass)
    p = model.debris_proba(lines, ctx)                # numpy array, one P(debris) per line
    t = model.title_index(lines, p)                   # index of the headline line, or None

`lines` are a document's non-empty normalised lines in order (cleaners.lines). The packaged model
is three LightGBM boosters in LightGBM's text format plus model.json (version, feature names,
thresholds); loading them runs no code. `python -m cleaners.model.train` rebuilds them.
"""
from __future__ import annotations

import json
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path
from typing import Callable, Iterator

import numpy as np

from cleaners.corpus import DocContext

MODEL_VERSION = "line-model-1"
FILES = Path(__file__).resolve().parent / "files"
# Defaults written into model.json at training time; Settings may override the thresholds.
DEFAULTS = {"debris_threshold": 0.5, "title_threshold": 0.02}


class LineModel:
    def __init__(self, boosters: dict, meta: dict | None = None):
        self.stage1 = boosters["stage1"]
        self.stage2 = boosters["stage2"]
        self.title = boosters.get("title")
        self.meta = dict(DEFAULTS, **(meta or {}))
        from cleaners.model import features as fx

        self._fx = fx
        if "features" in self.meta and self.meta["features"] != fx.FEATURE_NAMES:
            raise ValueError("model files do not match this code's features; retrain with `newsclean train`")

    @classmethod
    def load(cls, folder: Path) -> "LineModel":
        import lightgbm as lgb

        folder = Path(folder)
        meta = json.loads((folder / "model.json").read_text(encoding="utf-8"))
        boosters = {name: lgb.Booster(model_file=str(folder / f"{name}.lgb.txt"))
                    for name in ("stage1", "stage2", "title") if (folder / f"{name}.lgb.txt").exists()}
        return cls(boosters, meta)

    @classmethod
    def default(cls) -> "LineModel":
        """The packaged model (cached), or the one made active with `using(...)`."""
        active = _ACTIVE.get()
        return active[0] if active is not None and active[0] is not None else _default()

    @property
    def version(self) -> str:
        return str(self.meta.get("version", MODEL_VERSION))

    @property
    def debris_threshold(self) -> float:
        return float(self.meta["debris_threshold"])

    def _stages(self, lines: list[str], context: DocContext | None):
        X1 = self._fx.doc_features(lines, context)
        p1 = self.stage1.predict(X1, num_threads=1)
        X2 = self._fx.stage2_features(X1, p1)
        p2 = self.stage2.predict(X2, num_threads=1)
        return X2, p1, p2

    def debris_proba(self, lines: list[str], context: DocContext | None = None) -> np.ndarray:
        """P(debris) for each line (float64, same order)."""
        if not lines:
            return np.zeros(0)
        return self._stages(lines, context)[2]

    def analyse(self, lines: list[str], context: DocContext | None = None) -> tuple[np.ndarray, int | None]:
        """P(debris) per line and the headline's index (None when no line looks like the title)."""
        if not lines:
            return np.zeros(0), None
        X2, p1, p2 = self._stages(lines, context)
        return p2, self._title_from(X2, p1, lines, context)

    def title_index(self, lines: list[str], proba: np.ndarray | None = None,
                    context: DocContext | None = None) -> int | None:
        """Index of the headline line among `lines`, or None. (`proba` is accepted for symmetry
        with debris_proba; the title model reads stage 1's body map, which it was trained on.)"""
        if not lines or self.title is None:
            return None
        X2, p1, _ = self._stages(lines, context)
        return self._title_from(X2, p1, lines, context)

    def title_proba(self, lines: list[str], context: DocContext | None = None) -> np.ndarray:
        """P(headline) for each line."""
        if not lines or self.title is None:
            return np.zeros(len(lines))
        X2, p1, _ = self._stages(lines, context)
        return self._title_scores(X2, p1, lines, context)

    def _title_scores(self, X2: np.ndarray, p1: np.ndarray, lines: list[str], context) -> np.ndarray:
        XT = self._fx.title_features(X2, p1, lines, getattr(context, "url", None))
        cand = self._fx.title_candidates(XT)
        out = np.zeros(len(lines))
        if cand.any():
            out[cand] = self.title.predict(XT[cand], num_threads=1)
        return out

    def _title_from(self, X2: np.ndarray, p1: np.ndarray, lines: list[str],
                    context: DocContext | None) -> int | None:
        if self.title is None or not len(p1):
            return None
        pt = self._title_scores(X2, p1, lines, context)
        i = int(np.argmax(pt))
        return i if pt[i] >= float(self.meta["title_threshold"]) else None


@lru_cache(maxsize=1)
def _default() -> LineModel:
    return LineModel.load(FILES)


ContextFn = Callable[[list[str]], DocContext]
_ACTIVE: ContextVar[tuple[LineModel | None, ContextFn | None] | None] = ContextVar("line_model", default=None)


@contextmanager
def using(model: LineModel | None = None, context: ContextFn | None = None) -> Iterator[None]:
    """Within the block, LineModel.default() is `model` (e.g. a cross-validation fold's) and
    `active_context(lines)` gives `context(lines)` (e.g. the corpus pass's counts for the document
    being cleaned) to callers that were not handed a context."""
    token = _ACTIVE.set((model, context))
    try:
        yield
    finally:
        _ACTIVE.reset(token)


def active_context(lines: list[str]) -> DocContext | None:
    active = _ACTIVE.get()
    if active is None or active[1] is None:
        return None
    return active[1](lines)
