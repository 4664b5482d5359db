"""The HTML path's body chosen over the whole page (settings.html_body = "page").

trafilatura picks one part of the page as the article; by default the cleaner decides the lines of
that part only, so what trafilatura dropped is lost. With html_body = "page", extract_html also
returns the page's visible text as a table of blocks with their markup and trafilatura's choice as
evidence (newsclean.cleaners.html_blocks.page_blocks: tag, depth, link share, class and id cues,
<article>/<main>/<aside>/<nav>/<footer> ancestry, whether trafilatura's body and its recall-mode body
hold each block, the blocks around it, its topic fit). A block model (LightGBM, trained on the dev
pages by newsclean.cleaners.model.train_page_body; cleaners/model/files/page_body/) gives each
block P(article); the blocks at or above the threshold, in page order, are the body candidate the
line cleaner then decides, as it decides trafilatura's (newsclean.cleaners.pipeline.choose_body_steps).
Text trafilatura dropped wrongly comes back; debris inside its body goes.
"""
from __future__ import annotations

import json
import unicodedata
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path
from typing import Callable, Iterator

import numpy as np

from newsclean.cleaners.policy import is_list_item

MODEL_DIR = Path(__file__).resolve().parent / "model" / "files" / "page_body"
MODEL_NAME = "page_body"  # page_body.lgb.txt and page_body.json in MODEL_DIR
PAGE_MODE = "whole-page blocks"  # HtmlExtraction.mode of a body chosen here
BODY_BELOW_OPENER = 0.1  # this share of trafilatura's body below a comments header: the article goes on past it


_USING: ContextVar[tuple[dict, Callable[[np.ndarray], np.ndarray]] | None] = ContextVar("page_body_model", default=None)


@contextmanager
def using(meta: dict, predict: Callable[[np.ndarray], np.ndarray]) -> Iterator[None]:
    """Within the block, the page-body model is `predict` (a feature matrix -> P(article) per row)
    with `meta` (its "features" and "threshold"), e.g. a cross-validation fold's, in place of the
    packaged one."""
    token = _USING.set((meta, predict))
    try:
        yield
    finally:
        _USING.reset(token)


def _active():
    """(meta, predict) of the model in use: `using`'s, else the packaged one."""
    return _USING.get() or _model()


@lru_cache(maxsize=1)
def _model():
    """(page_body.json, P(article) per row of a feature matrix): the packaged block model, compiled
    where it can be (newsclean.cleaners.model.compiled)."""
    from newsclean.cleaners.model.compiled import file_predictor

    meta = json.loads((MODEL_DIR / f"{MODEL_NAME}.json").read_text(encoding="utf-8"))
    return meta, file_predictor(MODEL_DIR / f"{MODEL_NAME}.lgb.txt")


def block_proba(blocks) -> np.ndarray:
    """P(article) of each block of a page_blocks table (0 rows: an empty array)."""
    if blocks.height == 0:
        return np.zeros(0)
    meta, predict = _active()
    columns = set(blocks.columns)  # (a polars frame builds its list of names on each access)
    missing = [name for name in meta["features"] if name not in columns]
    if missing:
        raise ValueError(f"the page-body model reads columns the block table lacks ({', '.join(missing[:3])}); "
                         "retrain it with `python -m newsclean.cleaners.model.train_page_body`")
    X = blocks.select(meta["features"]).to_numpy().astype(np.float64)
    return predict(X)


def kept_blocks(blocks) -> np.ndarray:
    """bool per block: the article's blocks (P(article) at or above the model's threshold), and a
    reader thread's opener over posts kept below the article (with_thread_opener)."""
    meta, _ = _active()
    return with_thread_opener(blocks, block_proba(blocks) >= float(meta["threshold"]))


def with_thread_opener(blocks, keep: np.ndarray) -> np.ndarray:
    """`keep` with a reader thread's opener kept ("59 Comments on ...", html_blocks.thread_opener)
    where the block model dropped it but kept posts below it, and trafilatura's body does not go on
    below it (under BODY_BELOW_OPENER of it lies there: a sidebar's "Recent comments" naming the
    post's title shares a few of its words): the line cleaner then ends the article at the opener
    and removes the thread below it as `comments` (newsclean.cleaners.decide.CLOSES_ARTICLE), each
    line recorded with its kind."""
    from newsclean.cleaners.html_blocks import thread_opener  # only a run with html_body = "page" imports it

    in_body = blocks["in_body"].to_numpy()
    opener = thread_opener(blocks["text"].to_list(), in_body)
    if opener is None or keep[opener] or not keep[opener + 1:].any():
        return keep
    body = in_body * blocks["chars"].to_numpy()
    if body[opener + 1:].sum() >= BODY_BELOW_OPENER * max(float(body.sum()), 1.0):
        return keep
    keep = keep.copy()
    keep[opener] = True
    return keep


def page_body(blocks) -> str:
    """The article's blocks in page order, one paragraph each ("" when the model keeps none),
    written as trafilatura writes its body: a list item as "- item", a table row's kept cells as one
    row framed by pipes ("| cell | cell |"), so that the line cleaner reads lists and tables as such
    (newsclean.cleaners.tables, newsclean.cleaners.policy.in_list)."""
    return "\n\n".join(written_blocks(blocks, kept_blocks(blocks)))


def _visible(text: str) -> bool:
    """Not only format characters (a block of zero-width spaces)."""
    return any(unicodedata.category(c) != "Cf" for c in text)


def written_blocks(blocks, keep: np.ndarray) -> list[str]:
    """The kept blocks' paragraphs (see page_body)."""
    from newsclean.cleaners.html_blocks import TAGS  # here: a run without html_body = "page" never imports it

    li = TAGS.index("li")
    out: list[str] = []
    row_key, cells = -1, []
    for text, tag, row, k in zip(blocks["text"].to_list(), blocks["tag"].to_list(), blocks["row_group"].to_list(),
                                 keep.tolist()):
        if not k or not _visible(text):
            continue
        if row != row_key and cells:
            out.append("| " + " | ".join(cells) + " |")
            cells = []
        row_key = row
        if row >= 0:
            cells.append(text.replace("|", "\\|"))
        elif tag == li and not is_list_item(text):
            out.append("- " + text)
        else:
            out.append(text)
    if cells:
        out.append("| " + " | ".join(cells) + " |")
    return out
