"""Train the line model from the development pages. Deterministic (fixed seeds, one thread order).

    python -m newsclean.cleaners.model.train [--devset DIR] [--out DIR]     # what `newsclean train` runs

Training data, both input kinds:
  (a) full-page text: shared/devset/pages.jsonl.gz, every line labelled by aligning the page's
      token sequence to the true body (newsclean.cleaners.model.labels), plus the snippet-labelled pages of
      trafilatura-pages.jsonl.gz (partial supervision: a line with a `with` snippet is body, one
      with a `without` snippet debris, the rest unlabelled and ignored);
  (b) mostly-clean text built from the same pages: the true body's paragraphs (the headline on top
      in most) with a few of the page's own debris lines sprinkled in at the top, bottom and
      between paragraphs.

Four kinds of LightGBM booster, saved in LightGBM's text format (no code runs when they are loaded).
One seed's row and feature sampling moves a few pages' doubtful paragraphs, and a seed bag (the mean
of BAG chains trained with different seeds) is steadier and better than any one of them, but costs
BAG times the trees and smoothing features on every page. So the bag is the teacher: one stage1 ->
stage2 chain (the student, STUDENT_ROUNDS trees) learns a target that is TEACHER_SHARE the bag's
P(debris), as the bag gives it on pages it did not train on (its out-of-fold stage 1 and stage 2),
and the rest the label; the last line of each kind-(b) text weighs STUDENT_LAST_LINE_WEIGHT times
in its training. The title rankers and gates are still trained BAG times, on the teacher's body map,
and merged into one booster each (newsclean.cleaners.model.bagging):
  stage1  P(debris) from the line features;
  stage2  P(debris) from the line features plus the stage-1 probabilities along the document
          (neighbours, windows, confident body on both sides): the smoothing pass. It is trained on
          out-of-fold stage-1 probabilities so it learns how stage 1 errs on unseen pages. Only
          stage 2 reads the page's English share (doc_english_share): stage 1 is trained with it
          constant, so it learns the lines, and stage 2 how its errors differ by the page's language;
  title       a ranker (lambdarank, one query per page) over candidate lines: which line is the
              headline (every copy of it counts); features add how the line recurs inside other
              lines (breadcrumbs, "<title> | Outlet", alt text) and its URL-slug overlap;
  title_gate  P(headline) per line (binary, trained also on texts without a headline line): when
              the ranker's best score is below title_threshold, the gate's best line is taken if
              its P reaches title_gate_threshold, else the text has no headline line.
"""
from __future__ import annotations

import argparse
import gzip
import json
import time
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import lightgbm as lgb
import numpy as np

from newsclean.cleaners.corpus import CorpusStats, DocContext
from newsclean.cleaners.model import bagging, lexicon
from newsclean.cleaners.model import features as fx
from newsclean.cleaners.model import labels as lb
from newsclean.cleaners.shared_data import devset_dir, require_devset

DEVSET = devset_dir()  # $NEWSCLEAN_DEVSET, else $NEWSCLEAN_SHARED/devset, else ../shared/devset beside the checkout
MODEL_DIR = Path(__file__).resolve().parent
SEED = 20261121

PARAMS = dict(
    objective="binary", learning_rate=0.1, num_leaves=24, max_depth=-1, min_data_in_leaf=40,
    feature_fraction=0.8, bagging_fraction=0.8, bagging_freq=1, lambda_l2=1.0,
    seed=SEED, deterministic=True, force_row_wise=True, num_threads=2, verbose=-1, max_bin=63,
)
ROUNDS = {"stage1": 150, "stage2": 100, "title": 100, "title_gate": 60}  # lean: prediction cost grows with trees
# Members of the seed bag: one seed's bagging and feature sampling moves a few pages' doubtful
# paragraphs in or out, and a single model's cross-validated F1 by up to 0.007 between seeds; the
# mean of four members is steadier (0.0008 between seeds) and better (+0.0015) (bench/RESULTS.md).
BAG = 4
BAG_SEED_STEP = 1000  # member i trains with seed + i * BAG_SEED_STEP
# The student chain distilled from the bag. Over the CV2 folds of two training seeds it scores at
# least as the bag did (F1 0.9469 against 0.9457, leak 0.040 against 0.043) at 3/8 of its trees; the
# teacher as on unseen pages, half the target and 1.5 times one chain's trees were the best of the
# variants measured (bench/RESULTS.md, "Accuracy").
TEACHER_SHARE = 0.5
STUDENT_ROUNDS = {"stage1": 225, "stage2": 150}
# On short, already-clean texts the student scored the last line higher than the bag (a last
# paragraph lost where the bag kept it): a kind-(b) text's last line, body or inserted debris, weighs
# this many times more in the student's training, so it follows the teacher there.
STUDENT_LAST_LINE_WEIGHT = 3.0


def student_weights(docs: list["TrainDoc"], w: np.ndarray, bounds: np.ndarray) -> np.ndarray:
    """The rows' weights for the student: w, with each kind-(b) text's last line STUDENT_LAST_LINE_WEIGHT times."""
    out = w.copy()
    last = np.array([bounds[i + 1] - 1 for i, d in enumerate(docs) if d.kind == "clean"], dtype=np.int64)
    out[last] *= STUDENT_LAST_LINE_WEIGHT
    return out


@dataclass
class TrainDoc:
    lines: list[str]
    y: np.ndarray  # 1 = debris, 0 = body
    w: np.ndarray  # per-line weight (0: unlabelled)
    title: int | None
    key: str | None  # site key for corpus stats
    group: str  # CV group (site)
    kind: str  # "page", "snip", "clean"
    use_ctx: bool = True
    url: str | None = None
    ctx: DocContext | None = field(default=None, repr=False)
    titles: tuple[int, ...] = ()  # every copy of the headline (title is the first)


def site_key(url: str | None) -> str | None:
    """A site key from a URL (or the trafilatura set's 'kind::site-name.html' names)."""
    if not url:
        return None
    u = url.split("::", 1)[-1]
    u = u.split("//", 1)[-1].split("/", 1)[0].lower()
    if u.startswith("www."):
        u = u[4:]
    if "::" in url:  # trafilatura file names: host, then '-' or '.' and a slug
        u = u.split("-", 1)[0]
        u = u[: -5] if u.endswith(".html") else u
    return u or None


def _group(url: str | None, ident: str) -> str:
    k = site_key(url) or ident
    parts = k.split(".")
    return ".".join(parts[-2:]) if len(parts) >= 2 else k


def norm_lines(text: str) -> list[str]:
    """The pipeline's normalised non-empty lines (newsclean.cleaners.lines), or the local fallback."""
    try:
        from newsclean.cleaners.lines import normalise_lines
    except ImportError:  # pragma: no cover
        return lb.simple_lines(text)
    return [s for s in normalise_lines(text) if s]


def load_jsonl(path: Path) -> list[dict]:
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


WEIGHTING = "lin"  # CV2 model-only F1: lin 0.923, log 0.919


def _weights(lines: list[str], base: np.ndarray) -> np.ndarray:
    """Longer lines carry more of the page's tokens (the metric counts tokens), so they weigh more."""
    n_tok = np.fromiter((len(s.split()) for s in lines), dtype=np.float64, count=len(lines))
    if WEIGHTING == "sqrt":
        return base * np.sqrt(n_tok)
    if WEIGHTING == "lin":
        return base * n_tok
    return base * (1.0 + np.log1p(n_tok))


def page_docs(pages: list[dict]) -> list[TrainDoc]:
    out = []
    for p in pages:
        lines = norm_lines(p["text"])
        lab, w = lb.body_labels(lines, p["truth"])
        titles = tuple(lb.title_indices(lines, p.get("title")))
        out.append(TrainDoc(lines, (1 - lab).astype(np.int8), w,
                            titles[0] if titles else None, site_key(p.get("url")),
                            _group(p.get("url"), p["id"]), "page", url=p.get("url"), titles=titles))
    return out


def page_html(page: dict, devset: Path) -> bytes | None:
    """A dev page's HTML (its `html` field names a gzipped file under the devset folder)."""
    ref = page.get("html")
    if not ref or not (devset / ref).exists():
        return None
    with gzip.open(devset / ref, "rb") as f:
        return f.read()


def snippet_docs(pages: list[dict], devset: Path = DEVSET) -> list[TrainDoc]:
    """The snippet-labelled pages: partial body labels from their snippets, and the headline
    lines their own markup agrees on (labels.markup_title_indices) as silver title labels."""
    out = []
    for p in pages:
        lines = norm_lines(p["text"])
        s = lb.snippet_labels(lines, p.get("with", []), p.get("without", []))
        if not (s >= 0).any():
            continue
        y = np.where(s == 1, 0, 1).astype(np.int8)
        w = (s >= 0).astype(np.float64) * 2.0
        titles = tuple(lb.markup_title_indices(lines, page_html(p, devset)))
        out.append(TrainDoc(lines, y, w, titles[0] if titles else None, site_key(p.get("url")),
                            _group(p.get("url"), p["id"]), "snip", titles=titles))
    return out


SHORT_SHARE = 0.0  # kind-(b) texts cut to their first paragraphs; 0.3 raised in-sample leak on the gate pages


def clean_docs(docs: list[TrainDoc], pages: list[dict], seed: int) -> list[TrainDoc]:
    """Kind (b): the true body (paragraph lines), the headline on top in most, and a few of the
    page's own debris lines at the top, the bottom and between paragraphs."""
    rng = np.random.default_rng(seed)
    out = []
    for d, p in zip(docs, pages):
        body = [s for s in norm_lines(p["truth"])]
        if not body:
            continue
        debris = [s for i, (s, y, w) in enumerate(zip(d.lines, d.y, d.w))
                  if y == 1 and w > 0 and len(s) < 300 and i != d.title]
        if SHORT_SHARE and len(body) > 3 and rng.random() < SHORT_SHARE:  # short texts too: a few paragraphs
            body = body[: int(rng.integers(2, 6))]
        lines, y = list(body), [0] * len(body)
        k = int(rng.integers(0, 7)) if debris else 0
        picks = rng.choice(len(debris), size=min(k, len(debris)), replace=False) if k else []
        for j in picks:
            r = rng.random()
            pos = 0 if r < 0.35 else len(lines) if r < 0.7 else int(rng.integers(1, max(len(lines), 2)))
            lines.insert(pos, debris[j])
            y.insert(pos, 1)
        title = None
        if p.get("title") and rng.random() < 0.7:
            t = norm_lines(p["title"])
            if len(t) == 1:
                # above the body, possibly below some leading debris
                lead = 0
                while lead < len(y) and y[lead] == 1 and rng.random() < 0.5:
                    lead += 1
                lines.insert(lead, t[0])
                y.insert(lead, 1)
                title = lead
        yy = np.asarray(y, dtype=np.int8)
        out.append(TrainDoc(lines, yy, np.ones(len(lines)), title, d.key, d.group,
                            "clean", use_ctx=bool(rng.random() < 0.5),
                            url=p.get("url") if rng.random() < 0.5 else None,
                            titles=() if title is None else (title,)))
    return out


def snippet_clean_docs(docs: list[TrainDoc], seed: int) -> list[TrainDoc]:
    """Kind (b) from the snippet pages: their body lines in order, debris lines sprinkled in."""
    rng = np.random.default_rng(seed + 1)
    out = []
    for d in docs:
        body = [s for s, y, w in zip(d.lines, d.y, d.w) if y == 0 and w > 0]
        debris = [s for s, y, w in zip(d.lines, d.y, d.w) if y == 1 and w > 0]
        if len(body) < 2:
            continue
        lines, y = list(body), [0] * len(body)
        for s in debris[: int(rng.integers(0, 5))]:
            r = rng.random()
            pos = 0 if r < 0.4 else len(lines) if r < 0.8 else int(rng.integers(1, len(lines)))
            lines.insert(pos, s)
            y.insert(pos, 1)
        out.append(TrainDoc(lines, np.asarray(y, dtype=np.int8), np.ones(len(lines)),
                            None, d.key, d.group, "clean", use_ctx=False))
    return out


def build_corpus(docs: list[TrainDoc]) -> CorpusStats:
    return CorpusStats.build((d.lines, d.key) for d in docs if d.kind != "clean")


def attach_context(docs: list[TrainDoc], stats: CorpusStats, seed: int) -> None:
    rng = np.random.default_rng(seed + 2)
    for d in docs:
        use = d.use_ctx and (d.kind == "clean" or rng.random() >= 0.15)
        d.ctx = stats.doc_context(d.lines, d.key, d.url) if use else DocContext.empty(len(d.lines), d.url)


def matrices(docs: list[TrainDoc], lexicons: list[dict] | None = None) -> tuple[list[np.ndarray], np.ndarray, np.ndarray]:
    X = [fx.doc_features(d.lines, d.ctx, lexicon=lexicons[i] if lexicons else None) for i, d in enumerate(docs)]
    y = np.concatenate([d.y for d in docs]).astype(np.float64)
    w = np.concatenate([_weights(d.lines, d.w) for d in docs])
    return X, y, w


def _fit(X: np.ndarray, y: np.ndarray, w: np.ndarray, rounds: int, names: list[str],
         params: dict | None = None) -> lgb.Booster:
    keep = w > 0
    ds = lgb.Dataset(X[keep], label=y[keep], weight=w[keep], feature_name=names, free_raw_data=True)
    return lgb.train(params or PARAMS, ds, num_boost_round=rounds)


def bag_params(params: dict) -> list[dict]:
    """The bag members' parameters: params with member i's seed."""
    return [dict(params, seed=params["seed"] + i * BAG_SEED_STEP) for i in range(BAG)]


def _bagged(fit_one: Callable[[dict], lgb.Booster], params: dict) -> lgb.Booster:
    """BAG boosters, each fitted by fit_one(a member's params), averaged into one."""
    return bagging.average_boosters([fit_one(p) for p in bag_params(params)])


def _fold_of(group: str, k: int) -> int:
    # salted, so the inner folds are independent of an outer cross-validation split by site
    return zlib.crc32(("inner:" + group).encode()) % k


def title_labels(docs: list[TrainDoc]) -> tuple[np.ndarray, np.ndarray]:
    y, w = [], []
    for d in docs:
        t = np.zeros(len(d.lines))
        t[list(d.titles or ([] if d.title is None else [d.title]))] = 1
        y.append(t)
        # pages whose headline is not a line of the text teach nothing about which line it is; a
        # snippet page without a markup headline may still have one, so it teaches nothing either
        has = d.title is not None or d.kind == "clean"
        w.append(np.full(len(d.lines), 1.0 if has else 0.0))
    return np.concatenate(y), np.concatenate(w)


def _out_of_fold(X: np.ndarray, y: np.ndarray, w: np.ndarray, folds: np.ndarray, inner_folds: int, rounds: int,
                 names: list[str], params: dict) -> np.ndarray:
    """Each inner fold's rows scored by a booster fitted on the other folds."""
    out = np.zeros(len(y))
    for k in range(inner_folds):
        tr = folds != k
        out[~tr] = _fit(X[tr], y[tr], w[tr], rounds, names, params).predict(X[~tr], num_threads=2)
    return out


def train_models(docs: list[TrainDoc], inner_folds: int = 2, log=print) -> dict:
    """Fit the word lexicon, the teacher bag, the student's stage1 and stage2 (on its out-of-fold
    stage-1 probabilities) and the title models."""
    t0 = time.time()
    # the word lexicon, out of fold: a document's lex_* features come from the lexicon of the other
    # inner fold, so stage 1 learns how far to trust the lexicon on words it was not counted from
    doc_fold = [_fold_of(d.group, inner_folds) for d in docs]

    def lex_of(folds: set[int]) -> dict:  # kind-(b) texts repeat their pages' lines: not counted twice
        return lexicon.build((d.lines, d.y, d.w, d.group) for d, f in zip(docs, doc_fold) if d.kind != "clean" and f in folds)
    lex_all = lex_of(set(range(inner_folds)))
    lex_k = [lex_of(set(range(inner_folds)) - {k}) for k in range(inner_folds)]
    Xs, y, w = matrices(docs, [lex_k[f] for f in doc_fold])
    log(f"  lexicon: {len(lex_all)} words")
    X1 = np.vstack(Xs)
    # the page's English share reaches stage 2 only (Xs, which stage2_matrix reads, keep it): stage 1
    # sees it constant and never splits on it. Read by both stages, it cost the dev pages' F1 ~0.002
    X1[:, fx.FEATURE_NAMES.index("doc_english_share")] = 0.0
    sizes = np.array([len(x) for x in Xs])
    doc_of_row = np.repeat(np.arange(len(docs)), sizes)
    log(f"  features: {X1.shape} in {time.time() - t0:.1f}s")
    folds = np.array([_fold_of(d.group, inner_folds) for d in docs])[doc_of_row]
    bounds = np.concatenate([[0], np.cumsum(sizes)])

    def stage2_matrix(p1: np.ndarray) -> np.ndarray:
        return np.vstack([fx.stage2_features(Xs[i], p1[bounds[i]:bounds[i + 1]]) for i in range(len(docs))])

    # the teacher: the bag's members, each a stage 1 and a stage 2 trained on that stage 1's
    # out-of-fold probabilities as one seed would train them, scored as on pages they did not see
    # (each inner fold by boosters fitted on the others)
    oofs, oofs2 = [], []
    for i, params in enumerate(bag_params(PARAMS)):
        oof = _out_of_fold(X1, y, w, folds, inner_folds, ROUNDS["stage1"], fx.FEATURE_NAMES, params)
        oofs.append(oof)
        oofs2.append(_out_of_fold(stage2_matrix(oof), y, w, folds, inner_folds, ROUNDS["stage2"], fx.STAGE2_NAMES, params))
        log(f"  teacher member {i} done {time.time() - t0:.1f}s")
    target1 = TEACHER_SHARE * np.mean(oofs, axis=0) + (1 - TEACHER_SHARE) * y
    target2 = TEACHER_SHARE * np.mean(oofs2, axis=0) + (1 - TEACHER_SHARE) * y
    # the student: one chain on those soft targets (cross-entropy takes a probability as label), its
    # stage 2 trained on its own out-of-fold stage 1
    student = dict(PARAMS, objective="cross_entropy")
    ws = student_weights(docs, w, bounds)
    oof = _out_of_fold(X1, target1, ws, folds, inner_folds, STUDENT_ROUNDS["stage1"], fx.FEATURE_NAMES, student)
    chains = {"stage1": _fit(X1, target1, ws, STUDENT_ROUNDS["stage1"], fx.FEATURE_NAMES, student),
              "stage2": _fit(stage2_matrix(oof), target2, ws, STUDENT_ROUNDS["stage2"], fx.STAGE2_NAMES, student)}
    log(f"  student done {time.time() - t0:.1f}s")
    # title models on the stage-2 features of the teacher's out-of-fold stage-1 probabilities, the
    # steadiest body map an unseen page gets, which the student's stage 1 learns to give (so the
    # headline models are the ones the bag of chains trained)
    oof = np.mean(oofs, axis=0)
    X2 = stage2_matrix(oof)
    ty, tw = title_labels(docs)
    XT = np.vstack([fx.title_features(X2[bounds[i]:bounds[i + 1]], oof[bounds[i]:bounds[i + 1]],
                                      docs[i].lines, docs[i].ctx.url if docs[i].ctx else None)
                    for i in range(len(docs))])
    cand = np.concatenate([fx.title_candidates(XT[bounds[i]:bounds[i + 1]], docs[i].lines) for i in range(len(docs))])
    keep = (tw > 0) & cand
    titles = _fit_title(XT, ty, keep, doc_of_row)
    log(f"  title done {time.time() - t0:.1f}s")
    return {**chains, **titles, "lexicon": lex_all}


TITLE_PARAMS = dict(min_data_in_leaf=20)


def _fit_title(XT: np.ndarray, ty: np.ndarray, keep: np.ndarray, doc_of_row: np.ndarray) -> dict[str, lgb.Booster]:
    """The headline models over candidate lines: a ranker (lambdarank, one query per document),
    which asks the right question, which line of this page is its headline; and a binary gate,
    P(headline) for a line, trained on every document including those without a headline line,
    which says whether the ranker's pick is a headline at all."""
    rows = np.flatnonzero(keep)
    docs = doc_of_row[rows]
    pos = np.bincount(docs, weights=ty[rows], minlength=int(doc_of_row.max()) + 1)
    rows = rows[pos[docs] > 0]  # a page without its headline among the lines has nothing to rank
    sizes = np.bincount(doc_of_row[rows])
    sizes = sizes[sizes > 0]
    rank = _bagged(lambda params: lgb.train(
        params, lgb.Dataset(XT[rows], label=ty[rows], group=sizes, feature_name=fx.TITLE_NAMES),
        num_boost_round=ROUNDS["title"]),
        dict(PARAMS, objective="lambdarank", lambdarank_truncation_level=10, **TITLE_PARAMS))
    gate = _bagged(lambda params: lgb.train(
        params, lgb.Dataset(XT[keep], label=ty[keep], feature_name=fx.TITLE_NAMES),
        num_boost_round=ROUNDS["title_gate"]),
        dict(PARAMS, scale_pos_weight=5.0))
    return {"title": rank, "title_gate": gate}


def build_docs(devset: Path, pages: list[dict] | None = None, seed: int = SEED,
               with_snippets: bool = True) -> tuple[list[TrainDoc], CorpusStats]:
    pages = pages if pages is not None else load_jsonl(require_devset(devset) / "pages.jsonl.gz")
    docs = page_docs(pages)
    allpages = list(docs)
    extra: list[TrainDoc] = []
    if with_snippets:
        snip = snippet_docs(load_jsonl(devset / "trafilatura-pages.jsonl.gz"), devset)
        extra += snip + snippet_clean_docs(snip, seed)
        allpages += snip
    extra += clean_docs(docs, pages, seed)
    all_docs = docs + extra
    stats = build_corpus(allpages)
    attach_context(all_docs, stats, seed)
    return all_docs, stats


def save(models: dict, out: Path, meta: dict) -> None:
    """The boosters as LightGBM text files, the lexicon as JSON, and model.json."""
    out.mkdir(parents=True, exist_ok=True)
    for name, part in models.items():
        if name == "lexicon":
            lexicon.save(part, out)
        else:
            part.save_model(str(out / f"{name}.lgb.txt"))
    (out / "model.json").write_text(json.dumps(meta, indent=2, sort_keys=True) + "\n", encoding="utf-8")


def _describe(devset: Path, snippets: bool) -> str:
    where = "shared/devset" if devset.resolve() == DEVSET.resolve() else str(devset)
    return f"{where} (pages.jsonl.gz{' + trafilatura-pages.jsonl.gz' if snippets else ''})"


MODEL_FILE_SUFFIXES = (".txt", ".json")  # boosters, the lexicon, model.json (the package folder holds an __init__.py too)


def differing_files(trained: Path, packaged: Path) -> list[str]:
    """Names of the model files (MODEL_FILE_SUFFIXES) that differ between two model folders, or
    that only one holds."""
    names = sorted({p.name for folder in (trained, packaged) for p in folder.iterdir() if p.suffix in MODEL_FILE_SUFFIXES})
    return [name for name in names
            if not (trained / name).is_file() or not (packaged / name).is_file()
            or (trained / name).read_bytes() != (packaged / name).read_bytes()]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="newsclean train", description=__doc__.split("\n")[0])
    ap.add_argument("--devset", type=Path, default=DEVSET, help="folder with pages.jsonl.gz and trafilatura-pages.jsonl.gz")
    ap.add_argument("--out", type=Path, default=MODEL_DIR / "files", help="where the model files go")
    ap.add_argument("--no-snippets", action="store_true", help="leave out the snippet-labelled pages")
    ap.add_argument("--check", action="store_true",
                    help="train into a temporary folder and compare it with --out byte for byte (exit 1 if any "
                         "file differs): whether the code still reproduces the packaged model")
    a = ap.parse_args(argv)
    if a.check:
        import tempfile

        with tempfile.TemporaryDirectory(prefix="newsclean-train-") as tmp:
            main(["--devset", str(a.devset), "--out", tmp, *(["--no-snippets"] if a.no_snippets else [])])
            diff = differing_files(Path(tmp), a.out)
        print(f"{a.out}: " + ("reproduced byte for byte" if not diff else f"{len(diff)} file(s) differ: {', '.join(diff)}"))
        return 1 if diff else 0
    t0 = time.time()
    docs, _ = build_docs(a.devset, with_snippets=not a.no_snippets)
    print(f"training docs: {len(docs)} ({sum(d.kind == 'page' for d in docs)} pages)")
    models = train_models(docs)
    from newsclean.cleaners.model import MODEL_VERSION, DEFAULTS
    save(models, a.out, dict(DEFAULTS, version=MODEL_VERSION, features=fx.FEATURE_NAMES,
                             stage2_features=fx.STAGE2_NAMES, title_features=fx.TITLE_NAMES,
                             seed=SEED, rounds=dict(ROUNDS, **STUDENT_ROUNDS), title_bag=BAG,
                             teacher={"bag": BAG, "bag_seed_step": BAG_SEED_STEP, "rounds": ROUNDS,
                                      "share": TEACHER_SHARE},
                             student_last_line_weight=STUDENT_LAST_LINE_WEIGHT, weighting=WEIGHTING,
                             lexicon={"words": len(models["lexicon"]), "min_sites": lexicon.MIN_SITES,
                                      "min_docs": lexicon.MIN_DOCS, "prior": lexicon.PRIOR},
                             trained_on=_describe(a.devset, not a.no_snippets)))
    print(f"saved to {a.out} in {time.time() - t0:.0f}s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
