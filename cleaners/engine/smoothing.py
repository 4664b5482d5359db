"""The line model's stage-2 smoothing features for a batch of documents at once.

newsclean.cleaners.model.features.stage2_features_many computes, for one document, each line's stage-1
P(debris) with its neighbours', window means, the body mass before and after it, the distance to
the nearest confident body line and to the document's main block. batch_smoothing gives exactly
the same smoothing columns (bit for bit) for every document of a batch from one set of numpy calls
per length class over the lines table (rows of document 0, then document 1, ...; `offsets` as
newsclean.cleaners.engine.features returns them), and batch_stage2 the whole stage-2 rows. The line model
(LineModel.analyse_many) reads the smoothing columns alone: its stage-2 rows share the stage-1
columns, prepared for the trees once.

Exactness. Running sums and running maxima restart at each document: the batch's values are laid
out one document per row of a padded (documents x longest document of the class) array, so numpy's sequential
cumsum and accumulate add the same terms in the same order as on the document alone (the padding
comes after the document's last line). Whole-document reductions (the body mass total, the
median, the main block's argmax) are the same numpy call on each document's slice: a loop over
documents, a few calls each, not over lines.
"""
from __future__ import annotations

import numpy as np

from newsclean.cleaners.engine.features import row_layout
from newsclean.cleaners.model.features import _IDX, _KEEP2, SMOOTH


class _Padded:
    """Where each row of the batch sits in a (documents x longest document) layout."""

    def __init__(self, offsets: np.ndarray):
        self.lengths = np.diff(np.asarray(offsets, dtype=np.int64))
        self.offsets, self.doc, self.local = row_layout(self.lengths)
        self.n_of = self.lengths[self.doc]
        self.width = int(self.lengths.max()) if len(self.lengths) else 0

    def lay_out(self, values: np.ndarray, pad: float) -> np.ndarray:
        """(k, n) rows of the batch -> (k, documents, width), `pad` after each document's end."""
        out = np.full(values.shape[:-1] + (len(self.lengths), self.width), pad, dtype=values.dtype)
        out[..., self.doc, self.local] = values
        return out

    def back(self, laid: np.ndarray) -> np.ndarray:
        return laid[..., self.doc, self.local]

    def running_sum(self, values: np.ndarray) -> np.ndarray:
        """Per document, the cumulative sum of `values` (k, n) with a 0 before its first line:
        (k, documents, width + 1), entry j the sum of the document's first j values."""
        laid = self.lay_out(values, 0)
        out = np.zeros(laid.shape[:-1] + (self.width + 1,), dtype=np.result_type(laid.dtype, np.float64)
                       if laid.dtype.kind == "f" else laid.dtype)
        np.cumsum(laid, axis=-1, out=out[..., 1:])
        return out

    def window_sums(self, values: np.ndarray, ws: tuple[int, ...]) -> list[np.ndarray]:
        """features._window_sums of each document's values, for the whole batch: (k, n) each."""
        c = self.running_sum(values)
        out = []
        for w in ws:
            hi = np.minimum(self.local + w + 1, self.n_of)
            lo = np.maximum(self.local - w, 0)
            out.append(c[..., self.doc, hi] - c[..., self.doc, lo])
        return out

    def slices(self):
        return zip(self.offsets[:-1].tolist(), self.offsets[1:].tolist())


def batch_stage2(X1: np.ndarray, ps: list[np.ndarray], offsets: np.ndarray) -> list[np.ndarray]:
    """[concatenation over documents of stage2_features_many(X1[a:b], [p[a:b] for p in ps])[j]
    for j in range(len(ps))]: the stage-1 columns, then the smoothing columns of every p
    (batch_smoothing), for every document."""
    return [stage2_rows(X1, sm) for sm in batch_smoothing(X1[:, _IDX["n_chars"]], ps, offsets)]


def stage2_rows(X1: np.ndarray, smooth: np.ndarray) -> np.ndarray:
    """The stage-2 rows (float32): the stage-1 columns the stage keeps, then one p's smoothing
    columns (a (n, len(SMOOTH)) slice of batch_smoothing's answer)."""
    keep = X1[:, _KEEP2]
    X2 = np.empty((X1.shape[0], keep.shape[1] + smooth.shape[1]), dtype=np.float32)
    X2[:, :keep.shape[1]] = keep
    X2[:, keep.shape[1]:] = smooth
    return X2


def batch_smoothing(n_chars: np.ndarray, ps: list[np.ndarray], offsets: np.ndarray) -> np.ndarray:
    """The smoothing columns (SMOOTH) of every p for every document, float32 (len(ps), n,
    len(SMOOTH)), as stage2_features_many computes them on each document alone. `n_chars`: the
    stage-1 column of that name (log1p of the line's length).

    The padded layout costs (documents x longest document) per call: one long page among short
    ones would make every document as long as it. So the documents go in groups of like length
    (_length_groups: each group's padding at most its rows again), each group laid out on its own;
    a document's rows are the same in any layout whose padding follows its last line."""
    offsets = np.asarray(offsets, dtype=np.int64)
    groups = _length_groups(np.diff(offsets))
    if len(groups) <= 1:
        return _padded_smoothing(n_chars, ps, offsets)
    lengths = np.diff(offsets)
    out = np.empty((len(ps), len(n_chars), len(SMOOTH)), dtype=np.float32)
    for docs in groups:
        sub_offsets = np.concatenate([[0], np.cumsum(lengths[docs])]).astype(np.int64)
        rows = np.repeat(offsets[docs] - sub_offsets[:-1], lengths[docs]) + np.arange(sub_offsets[-1])
        out[:, rows] = _padded_smoothing(n_chars[rows], [p[rows] for p in ps], sub_offsets)
    return out


def _length_groups(lengths: np.ndarray) -> list[np.ndarray]:
    """The documents (indexes, in batch order within a group) by length class: lengths within a
    factor of two (1, 2-3, 4-7, ...) share a group, so a group pads each document to under twice
    its length. Empty documents go with the shortest."""
    if not len(lengths):
        return []
    cls = np.floor(np.log2(np.maximum(lengths, 1))).astype(np.int64)
    return [np.flatnonzero(cls == c) for c in np.unique(cls)]


def _padded_smoothing(n_chars: np.ndarray, ps: list[np.ndarray], offsets: np.ndarray) -> np.ndarray:
    """batch_smoothing for documents laid out in one (documents x longest document) array."""
    n = len(n_chars)
    k = len(ps)
    P = np.stack(ps)  # (k, n)
    out = np.empty((k, n, len(SMOOTH)), dtype=np.float32)
    if n == 0:
        return out
    col = np.moveaxis(out, 2, 0)  # col[j]: a (k, n) view of smoothing column j
    lay = _Padded(offsets)
    local, n_of = lay.local, lay.n_of
    B = 1.0 - P  # body probability
    col[0] = P
    for j, s in enumerate((-1, 1, -2, 2, -3, 3), 1):  # p@s: the neighbour's p, 1 beyond the document
        _shifted(P, s, lay, 1.0, out=col[j])
    for j, (w, p_sum) in enumerate(zip((2, 5, 10), lay.window_sums(P, (2, 5, 10))), 7):
        n_sum = (np.minimum(local + w + 1, n_of) - np.maximum(local - w, 0)).astype(np.float64)
        col[j] = p_sum / n_sum
    # the largest body probability of the 3 lines before / after (0 beyond the document)
    bprev = np.zeros((k, n))
    bnext = np.zeros((k, n))
    for s in (1, 2, 3):
        np.maximum(bprev, _shifted(B, -s, lay, 0.0), out=bprev)
        np.maximum(bnext, _shifted(B, s, lay, 0.0), out=bnext)
    col[10] = bprev
    col[11] = bnext
    col[12] = np.minimum(bprev, bnext)
    lens = np.expm1(n_chars.astype(np.float64))
    BM = B * lens
    tot = np.empty((k, n))
    median = np.empty((k, n))
    body_share = np.empty((k, n))
    for a, b in lay.slices():  # whole-document reductions, each the call stage2_features_many makes
        if a == b:
            continue  # a class of empty documents: nothing to reduce (numpy would warn of an empty mean)
        tot[:, a:b] = np.maximum(BM[:, a:b].sum(axis=1), 1.0)[:, None]
        median[:, a:b] = np.median(P[:, a:b], axis=1)[:, None]
        body_share[:, a:b] = (P[:, a:b] < 0.5).mean(axis=1)[:, None]
    c = lay.back(lay.running_sum(BM)[..., 1:])
    col[13] = (c - BM) / tot
    col[14] = (tot - c) / tot
    col[15], col[16] = _confident_gaps(P, lay)
    col[17] = P - median
    col[18] = body_share
    # how much debris lies between the line and the article's main block (the heaviest window of
    # body mass): once past a share bar or a comment header, the rest is rarely the article
    heavy = lay.lay_out(lay.window_sums(BM, (5,))[0], -np.inf)
    main_local = np.argmax(heavy, axis=-1)  # (k, documents): the first maximum, as np.argmax
    main = main_local[:, lay.doc]  # (k, n)
    row_k = np.arange(k)[:, None]

    def from_main(values: np.ndarray) -> np.ndarray:
        run = lay.running_sum(values)  # entry j + 1: the sum up to and including line j
        here = run[..., lay.doc, local + 1]
        at_main = run[row_k, lay.doc[None, :], main + 1]
        return np.log1p(np.abs(here - at_main))

    col[19] = from_main((P >= 0.5).astype(np.int64))
    col[20] = from_main((P >= 0.8).astype(np.int64))
    col[21] = from_main((P >= 0.5) * lens)
    col[22] = np.sign(local.astype(np.float64) - main)
    col[23] = from_main((P < 0.5).astype(np.int64))
    return out


def _shifted(values: np.ndarray, s: int, lay: _Padded, beyond: float, out: np.ndarray | None = None) -> np.ndarray:
    """(k, n) `values` moved by s rows within each document (row i gets row i + s's value) and
    `beyond` where i + s falls outside i's document: a slice of the whole batch, then the few rows
    at the documents' edges set back."""
    out = np.empty(values.shape, dtype=values.dtype) if out is None else out
    n = values.shape[-1]
    m = max(n - abs(s), 0)  # rows whose neighbour s rows away is in the batch
    if s > 0:
        out[..., :m] = values[..., n - m:]
        out[..., m:] = beyond
        edge = np.flatnonzero(lay.local >= lay.n_of - s)  # the document's last s rows
    else:
        out[..., n - m:] = values[..., :m]
        out[..., :n - m] = beyond
        edge = np.flatnonzero(lay.local < -s)  # the document's first -s rows
    out[..., edge] = beyond
    return out


def _confident_gaps(P: np.ndarray, lay: _Padded) -> tuple[np.ndarray, np.ndarray]:
    """features._confident_gaps_many per document: log1p of the lines up to the nearest confident
    body line (P(debris) < 0.2) above and below each line, 10,000 where there is none."""
    far = 10_000.0
    idx = lay.local.astype(np.float64)
    conf = P < 0.2
    up_mark = np.maximum.accumulate(lay.lay_out(np.where(conf, idx, -1.0), -1.0), axis=-1)
    before = np.full(up_mark.shape, -1.0)
    before[..., 1:] = up_mark[..., :-1]  # last confident index < i
    laid = lay.lay_out(np.where(conf, idx, np.inf), np.inf)
    down_mark = np.minimum.accumulate(laid[..., ::-1], axis=-1)[..., ::-1]
    after = np.full(down_mark.shape, np.inf)
    after[..., :-1] = down_mark[..., 1:]  # first confident index > i
    before, after = lay.back(before), lay.back(after)
    up = np.where(before >= 0, idx - before, far)
    down = np.where(np.isfinite(after), after - idx, far)
    return np.log1p(up), np.log1p(down)
