"""The learned line cleaner: P(debris) per line and the headline line of a document.

    model = LineModel.default()                       # cached load of the packaged files
    ctx = stats.doc_context(lines, site_key)          # newsclean.cleaners.corpus (or None: no corpus pass)
    p = model.debris_proba(lines, ctx)                # numpy array, one P(debris) per line
    t = model.title_index(lines, p)                   # index of the headline line, or None
    p, t = model.analyse(lines, ctx)                  # both in one pass (what newsclean.cleaners.decide calls)

`lines` are a document's non-empty normalised lines in order (newsclean.cleaners.lines). The packaged model
is LightGBM boosters in LightGBM's text format: one stage1 -> stage2 chain distilled from a seed
bag of four (newsclean.cleaners.model.train), and one title ranker and one title gate, each four members'
trees merged (newsclean.cleaners.model.bagging). A model folder may hold a bag of chains (stage1, stage2;
stage1.1, stage2.1; ...): their P(debris) is averaged. With the boosters come the
word lexicon the line features read (lexicon.json, newsclean.cleaners.model.lexicon) and model.json (version,
feature names, thresholds); loading them runs no code. `python -m newsclean.cleaners.model.train` rebuilds them. Boosters
loaded from files score through newsclean.cleaners.model.compiled (the same trees compiled to native code with
lleaves, bit-identical to LightGBM, cached per machine; LightGBM itself when that is unavailable).
"""
from __future__ import annotations

import gc
import json
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from itertools import chain
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterator

import numpy as np

from newsclean.cleaners.corpus import DocContext
from newsclean.cleaners.model.headline import full_headline

if TYPE_CHECKING:
    from newsclean.cleaners.model.compiled import JoinedRows

MODEL_VERSION = "line-model-8"
FILES = Path(__file__).resolve().parent / "files"
# Defaults written into model.json at training time; Settings may override the thresholds.
# title_threshold is on the title ranker's raw score: below it the page has no headline line.
DEFAULTS = {"debris_threshold": 0.5, "title_threshold": -1.3, "title_gate_threshold": 0.02}
# On a page with more headline candidates, the whole ranker scores only the TITLE_SCREEN_KEEP that
# its first member scores highest (LineModel._title_screen). On the dev pages (`newsclean eval`,
# and the CV2 folds' models on their held-out halves) the whole ranker's best line, where it clears
# title_threshold, is at most 5th by its first member in sample and 14th out of fold (once; the
# rest at most 5th); below the threshold the gate decides and the ranker's pick is not read.
TITLE_SCREEN_KEEP = 32


BOOSTERS = ("stage1", "stage2", "title", "title_gate")
SUFFIX = ".lgb.txt"


def member_name(stage: str, i: int) -> str:
    """The booster name of a bag member's stage ("stage1", "stage2"): "stage1" for the first
    member, "stage1.2" for the third (a model folder may hold a bag of chains)."""
    return stage if i == 0 else f"{stage}.{i}"


def _is_booster_name(name: str) -> bool:
    base, _, member = name.partition(".")
    return base in BOOSTERS and (not member or (member.isdigit() and base in ("stage1", "stage2")))


class LineModel:
    def __init__(self, parts: dict, meta: dict | None = None, files: dict | None = None):
        """parts: boosters by name (trained in memory), and "lexicon" (word -> log-odds of debris,
        or None); files: booster name -> LightGBM text model file, read only when needed. The names
        are BOOSTERS', and "stage1.1", "stage2.1"... for the further members of a bag: each member
        scores its own stage 1 and stage 2 chain and the model averages them."""
        self.lexicon = parts.get("lexicon")
        self.meta = dict(DEFAULTS, **(meta or {}))
        from newsclean.cleaners.model import compiled
        from newsclean.cleaners.model import features as fx

        files = files or {}
        # name -> () -> Booster. A booster from a file is read on first use: with the compiled
        # model's cache warm, scoring never needs it, so a worker starts without LightGBM.
        self._boosters: dict[str, Callable[[], object]] = {}
        for name in sorted({*parts, *files} - {"lexicon"}):
            if not _is_booster_name(name):
                raise ValueError(f"unknown model part {name!r}")
            if parts.get(name) is not None:
                self._boosters[name] = (lambda b=parts[name]: b)
            elif name in files:
                self._boosters[name] = lru_cache(maxsize=1)(lambda path=files[name]: compiled.read_booster(path))
        # the bag's chains: (stage 1, stage 2) of each member
        self._chains = []
        while member_name("stage1", len(self._chains)) in self._boosters:
            i = len(self._chains)
            self._chains.append((member_name("stage1", i), member_name("stage2", i)))
        # name -> X -> predictions: Booster.predict(X, num_threads=1), or the same compiled to native
        # code (newsclean.cleaners.model.compiled: bit-identical, ~3x faster) for boosters loaded from files
        self._predict = {name: compiled.predictor(get, files.get(name)) for name, get in self._boosters.items()}
        # the headline ranker merged from a bag is its members' trees in order: the first member's
        # alone screen a page's candidates (_title_screen). Its size is model.json's title_bag ("bag"
        # in models whose chains were the bag's members, one per chain).
        title_bag = int(self.meta.get("title_bag", self.meta.get("bag", len(self._chains))))
        self._title_first = (compiled.first_trees_predictor(self._boosters["title"], files.get("title"), title_bag)
                             if "title" in self._boosters and title_bag > 1 else None)

        self._fx = fx
        if "features" in self.meta and self.meta["features"] != fx.FEATURE_NAMES:
            raise ValueError("model files do not match this code's features; retrain with `newsclean train`")

    def booster(self, name: str):
        """The LightGBM booster `name` (one of BOOSTERS), or None when the model has none."""
        get = self._boosters.get(name)
        return get() if get is not None else None

    def parts(self) -> dict:
        """The boosters (each read now if need be) and the lexicon: what LineModel(parts) and
        newsclean.cleaners.model.train.save take."""
        return {**{name: self.booster(name) for name in self._boosters}, "lexicon": self.lexicon}

    @property
    def has_title(self) -> bool:
        return "title" in self._boosters

    @classmethod
    def load(cls, folder: Path) -> "LineModel":
        from newsclean.cleaners.model import lexicon

        folder = Path(folder)
        meta = json.loads((folder / "model.json").read_text(encoding="utf-8"))
        files = {f.name[:-len(SUFFIX)]: f for f in folder.glob("*" + SUFFIX)}
        return cls({"lexicon": lexicon.load(folder)}, meta, files)

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
        keep: dict = {}
        X1 = self._fx.doc_features(lines, context, keep, self.lexicon)
        p1s = [self._predict[stage1](X1) for stage1, _ in self._chains]
        if len(self._chains) == 1:
            X2 = self._fx.stage2_features(X1, p1s[0])
            return X2, p1s[0], self._predict[self._chains[0][1]](X2), keep.get("tokens")
        # a bag: each member's stage 2 reads its own stage 1; the members' mean P(debris); the
        # headline reads the smoothing features of their mean stage 1, as it was trained
        p1 = np.mean(p1s, axis=0)
        *X2s, X2 = self._fx.stage2_features_many(X1, [*p1s, p1])
        p2s = [self._predict[stage2](X) for (_, stage2), X in zip(self._chains, X2s)]
        return X2, p1, np.mean(p2s, axis=0), keep.get("tokens")

    def debris_proba(self, lines: list[str], context: DocContext | None = None) -> np.ndarray:
        """P(debris) for each line (float64, same order)."""
        if not lines:
            return np.zeros(0)
        return self._stages(lines, context)[2]

    def analyse(self, lines: list[str], context: DocContext | None = None) -> tuple[np.ndarray, int | None]:
        """P(debris) per line and the headline's index (None when no line looks like the title)."""
        if not lines:
            return np.zeros(0), None
        X2, p1, p2, toks = self._stages(lines, context)
        t = self._titles_from(X2, p1, [lines], [context], [toks] if toks is not None else None)[0]
        if t is not None:
            # the headline is not body text: never let it count as the first body line
            p2[t] = max(p2[t], self.debris_threshold)
        return p2, t

    def analyse_many(self, docs: list[list[str]], contexts: list[DocContext | None] | None = None,
                     pages: list[bool] | None = None) -> list[tuple]:
        """analyse() for many documents at once: their lines are one table (newsclean.cleaners.engine), so the
        line features are computed in one batched pass and each booster scores every document's
        rows in one call. The same values as analyse() on each document. A document whose `pages`
        entry is true gets a third value: its page's rows for the page-kind features (newsclean.cleaners.
        text_page_features.page_rows: some of these features and P(debris))."""
        from newsclean.cleaners.engine.features import batch_features
        from newsclean.cleaners.engine.smoothing import batch_smoothing, stage2_rows
        from newsclean.cleaners.text_page_features import page_rows

        contexts = list(contexts) if contexts is not None else [None] * len(docs)
        if not any(docs):
            return [(np.zeros(0), None) for _ in docs]  # no lines: no page rows either
        X1, offsets, tokens = batch_features(docs, contexts, self.lexicon, want_tokens=self.has_title)
        spans = list(zip(offsets[:-1].tolist(), offsets[1:].tolist()))
        p1s = [self._predict[stage1](X1) for stage1, _ in self._chains]
        p1 = p1s[0] if len(self._chains) == 1 else np.mean(p1s, axis=0)
        # each document's smoothing features read its own rows only (newsclean.cleaners.engine.smoothing),
        # then every chain's stage 2 scores the batch's rows in one call: the stage-1 columns it
        # keeps and its own smoothing columns. The headline reads the rows of the mean stage 1
        # (a single chain's are its stage-2 rows).
        smooth = batch_smoothing(X1[:, self._fx._IDX["n_chars"]], [*p1s, p1] if len(self._chains) > 1 else [p1], offsets)
        X2 = stage2_rows(X1, smooth[-1])
        p2s = [self._predict[stage2](X2 if len(self._chains) == 1 else stage2_rows(X1, sm))
               for (_, stage2), sm in zip(self._chains, smooth)]
        p2 = p2s[0] if len(p2s) == 1 else np.mean(p2s, axis=0)
        titles = self._titles_from(X2, p1, docs, contexts, tokens)
        out = []
        for k, ((a, b), lines) in enumerate(zip(spans, docs)):
            if not lines:
                out.append((np.zeros(0), None))
                continue
            p = p2[a:b].copy()
            t = titles[k]
            if pages is not None and pages[k]:
                out.append((p, t, page_rows(X1[a:b], p2[a:b], self._fx._IDX)))
            else:
                out.append((p, t))
            if t is not None:
                p[t] = max(p[t], self.debris_threshold)
        return out

    def title_index(self, lines: list[str], proba: np.ndarray | None = None,
                    context: DocContext | None = None) -> int | None:
        """Index of the headline line among `lines`, or None. (`proba` is accepted for symmetry
        with debris_proba; the title model reads stage 1's body map, which it was trained on.)"""
        if not lines or not self.has_title:
            return None
        X2, p1, _, toks = self._stages(lines, context)
        return self._titles_from(X2, p1, [lines], [context], [toks] if toks is not None else None)[0]

    def title_proba(self, lines: list[str], context: DocContext | None = None) -> np.ndarray:
        """The headline score of each line: the title ranker's raw score (higher is more
        headline-like; compare within a page, or with title_threshold), -inf where a line cannot be
        a headline (too long, no words)."""
        if not lines or not self.has_title:
            return np.zeros(len(lines))
        X2, p1, _, toks = self._stages(lines, context)
        rows, XT = self._title_rows(X2, p1, [lines], np.array([0, len(lines)]), [context],
                                    [toks] if toks is not None else None)
        out = np.full(len(lines), -np.inf)
        if len(rows):
            out[rows] = self._predict["title"](XT)
        return out

    def _title_rows(self, X2: np.ndarray, p1: np.ndarray, docs: list[list[str]], offsets: np.ndarray,
                    contexts: list, tokens=None, drop_paragraphs: bool = False) -> tuple[np.ndarray, JoinedRows]:
        """(rows, XT) of a batch of documents (their rows one after another in X2 and p1, document
        k's at offsets[k]:offsets[k+1]): the lines that can be a headline (with drop_paragraphs,
        none that is a paragraph), as sorted row indices, and their title features, XT[k] row
        rows[k]'s; only those lines' are computed."""
        lines = list(chain.from_iterable(docs))
        cand = self._fx.title_candidates(X2, lines, offsets)  # reads stage-1 columns, which X2 starts with
        if drop_paragraphs:  # the candidates let through one not ending in a full stop
            cand &= ~self._fx.paragraphs(X2, lines, among=cand)
        rows = np.flatnonzero(cand)
        urls = [getattr(c, "url", None) for c in contexts]
        # the candidates' line features beside their title columns, joined block by block as the
        # boosters score them (compiled.JoinedRows), not copied out: XT[k] is row rows[k]'s
        from newsclean.cleaners.model.compiled import JoinedRows

        T = self._fx.title_columns_many(X2, p1, offsets, lines, urls, tokens, rows)
        return rows, JoinedRows(X2, rows, T)

    def _titles_from(self, X2: np.ndarray, p1: np.ndarray, docs: list[list[str]], contexts: list,
                     tokens=None) -> list[int | None]:
        """The headline's index in each document of a batch (None where none), the batch's
        candidate rows scored in one call of the screen and one of the ranker."""
        titles: list[int | None] = [None] * len(docs)
        if not self.has_title or not len(p1):
            return titles
        offsets = np.concatenate([[0], np.cumsum([len(d) for d in docs])]).astype(np.int64)
        rows, XT = self._title_rows(X2, p1, docs, offsets, contexts, tokens, drop_paragraphs=True)
        if not len(rows):
            return titles
        doc_of = np.searchsorted(offsets, rows, side="right") - 1
        ranked = self._title_screen(XT, doc_of)
        pt = self._predict["title"](XT[ranked])
        # each document's best ranked row: the first of equal scores, in line order
        seg = doc_of[ranked]
        starts = np.flatnonzero(np.r_[True, seg[1:] != seg[:-1]])
        best = np.maximum.reduceat(pt, starts)
        at_best = np.flatnonzero(pt == np.repeat(best, np.diff(np.r_[starts, len(seg)])))
        _, first_best = np.unique(seg[at_best], return_index=True)
        row_bounds = np.searchsorted(doc_of, np.arange(len(docs) + 1))  # each document's rows in `rows`
        threshold = float(self.meta["title_threshold"])
        best_rows = at_best[first_best]
        for b, score in zip(best_rows.tolist(), pt[best_rows].tolist()):
            k = int(seg[b])
            a, lines = int(offsets[k]), docs[k]
            ra, rb = int(row_bounds[k]), int(row_bounds[k + 1])
            doc_rows = rows[ra:rb] - a
            i = int(rows[ranked[b]]) - a
            cand = np.zeros(len(lines), dtype=bool)
            cand[doc_rows] = True
            body = np.flatnonzero(p1[a:a + len(lines)] < 0.5)
            first_body = int(body[0]) if len(body) else len(lines)  # stage 1's first body line
            if score < threshold:
                # not clearly a headline by rank: the gate (P(headline) per line, trained also on
                # texts that have none) picks its best line if any is likely enough, so a text
                # without a headline keeps its first sentence
                if "title_gate" not in self._boosters:
                    continue
                # a headline sits above the article: the gate weighs the lines down to stage 1's
                # first body line (a row of a timeline below it is no headline however it is worded)
                n_above = int(np.searchsorted(doc_rows, first_body, side="right"))  # rows up to it: the first rows
                pg = self._predict["title_gate"](XT[ra:ra + n_above] if n_above else XT[ra:rb])
                j = int(np.argmax(pg))
                if pg[j] < float(self.meta["title_gate_threshold"]):
                    continue
                i = int(doc_rows[j])
            i = full_headline(lines, i, cand)  # not a shortened copy of the headline
            # the same line again (a page repeats its headline): the copy right above the body,
            # where the decision step looks for the headline
            if X2[a + i, self._fx._IDX["dup_in_doc"]] > 1:
                copies = [j for j, s in enumerate(lines) if s == lines[i]]
                above = [j for j in copies if j < first_body]
                i = above[-1] if above else copies[0]
            titles[k] = i
        return titles

    def _title_screen(self, XT: np.ndarray, doc_of: np.ndarray) -> np.ndarray:
        """The rows of XT (in order) that the whole headline ranker scores: a document's rows
        (doc_of: each row's document, in order) all, or on a page of more than TITLE_SCREEN_KEEP
        candidates the TITLE_SCREEN_KEEP that the ranker's first member
        (newsclean.cleaners.model.bagging.first_trees: a quarter of a bag of four's trees) scores
        highest; the ranker's best line is among them (see the constant). The first member scores
        the screened documents' rows in one call."""
        everything = np.arange(len(XT))
        if self._title_first is None:
            return everything
        per_doc = np.bincount(doc_of)
        screened = per_doc[doc_of] > TITLE_SCREEN_KEEP
        if not screened.any():
            return everything
        at = np.flatnonzero(screened)
        first = self._title_first(XT if len(at) == len(XT) else XT[at])  # (no copy when every row is screened)
        # by document, then by the first member's score, highest first (ties in line order)
        order = np.lexsort((-first, doc_of[at]))
        d = doc_of[at][order]
        place = np.arange(len(order)) - np.searchsorted(d, d, side="left")  # rank within its document
        return np.sort(np.concatenate([everything[~screened], at[order[place < TITLE_SCREEN_KEEP]]]))


@lru_cache(maxsize=1)
def _default() -> LineModel:
    return LineModel.load(FILES)


GC_YOUNG_THRESHOLD = 7000  # Python's default is 700


def warm_up(freeze_gc: bool = True) -> LineModel | None:
    """Ready a worker process before its first document: load the packaged model (compiling it once
    per machine, see newsclean.cleaners.model.compiled) and score a tiny document, so its lookup tables are
    built; then, with freeze_gc, collect and gc.freeze() everything alive so far (modules, the model,
    tables), so the full garbage collections a long run triggers walk only what cleaning allocates,
    and raise the young generation's threshold to GC_YOUNG_THRESHOLD allocations (garbage
    collection 5.6% -> 0.3% of the text cleaner's CPU on the dev pages). Call it once at the start
    of a worker process, not per document; it changes the process's gc settings.
    Returns the model, or None when no model is packaged."""
    try:
        model = LineModel.default()
    except FileNotFoundError:
        model = None
    if model is not None:
        model.analyse(["Warm up", "The model scores a short document once before the first real one."])
    if freeze_gc:
        gc.collect()
        gc.freeze()
        # fewer, cheaper young collections: cleaning allocates many short-lived containers, few cycles
        gc.set_threshold(max(gc.get_threshold()[0], GC_YOUNG_THRESHOLD), 10, 10)
    return model


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
