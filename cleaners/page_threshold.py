"""The debris threshold of one page, chosen to maximise the page's expected F1.

The dev pages are scored by each page's token F1, averaged over pages. With P(body) q_i and w_i
words per line, keeping a set S of lines has an expected F1 of about

    2 * sum_S(q_i * w_i) / (sum_S(w_i) + sum_all(q_i * w_i))

(expected overlap over expected lengths; Jansche 2005, "Maximum expected F-measure training").
Its maximum keeps the lines above some P(body): sort by q, take the best prefix. A page the model
is sure about gets a threshold near the ordinary one; on a page where it is unsure, recall is worth
more than a line's own odds say, and the threshold on P(debris) rises (at most to `ceiling`, so a
page of nothing but debris still has none kept and is quarantined).
"""
from __future__ import annotations

import numpy as np


def expected_f1_threshold(debris_proba: np.ndarray, words: np.ndarray, floor: float, ceiling: float) -> float:
    """The P(debris) from which a line of this page is debris: the one whose keeping set maximises
    the page's expected F1, clamped to [floor, ceiling]."""
    if ceiling <= floor or not len(debris_proba):
        return floor
    debris_proba = np.asarray(debris_proba, dtype=np.float64)
    order = np.argsort(debris_proba, kind="stable")
    debris_sorted = debris_proba[order]
    body_sorted = 1.0 - debris_sorted
    words_sorted = np.asarray(words, dtype=np.float64)[order]
    overlap = np.cumsum(body_sorted * words_sorted)  # expected true words kept, per prefix
    kept = np.cumsum(words_sorted)
    expected_f1 = 2 * overlap / np.maximum(kept + overlap[-1], 1e-9)
    k = int(np.argmax(expected_f1))
    # keep lines with P(debris) at most that of the best prefix's last line
    threshold = float(np.nextafter(debris_sorted[k], np.inf))
    return min(max(threshold, floor), ceiling)
