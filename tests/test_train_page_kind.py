"""Cross-validation of the page-kind models (newsclean.cleaners.model.train_page_kind.cross_validate):
rows scored alongside (`also`) get the prediction of the model that did not train on their site."""
from __future__ import annotations

import numpy as np

from newsclean.cleaners.model import train_page_kind as tpk
from newsclean.cleaners.text_page_features import TEXT_FEATURE_NAMES


def _rows(n: int = 140) -> tpk.PageRows:
    rng = np.random.default_rng(7)
    kinds = np.array([tpk.CLASSES[i % len(tpk.CLASSES)] for i in range(n)])
    X = rng.normal(size=(n, len(TEXT_FEATURE_NAMES)))
    X[:, 0] = np.abs(X[:, 0]) + 1  # "lines": every text has a body, so every row is judged
    X[:, 1] += np.array([tpk.CLASSES.index(k) for k in kinds])  # something to learn
    sites = np.array([f"site{i % 20}.example" for i in range(n)])
    return tpk.PageRows(X, kinds, sites, np.array([f"p{i}" for i in range(n)]), TEXT_FEATURE_NAMES)


def test_rows_scored_alongside_get_their_sites_out_of_fold_prediction(monkeypatch):
    monkeypatch.setattr(tpk, "ROUNDS", 10)  # small models: what is tested is which fold scores a row
    monkeypatch.setattr(tpk, "BAG", 1)
    rows = _rows()
    assert TEXT_FEATURE_NAMES[0] == "lines"
    pick = np.arange(0, len(rows.kind), 9)
    also = tpk.PageRows(rows.X[pick], rows.kind[pick], rows.group[pick], rows.ids[pick], rows.names)
    report = tpk.cross_validate(rows, also=also)
    assert np.allclose(report["also_oof"], report["oof"][pick])
    assert (report["also_kind"] == report["oof_kind"][pick]).all()


def test_the_packaged_text_model_was_trained_on_the_packaged_line_models_rows():
    """The text page-kind model's rows are the line model's output (its P(debris), its features):
    a line model of another version reads pages otherwise, so the page-kind model trained on the
    old one's rows is stale until `train_page_kind --text` is run again."""
    import json

    from newsclean.cleaners.page_kind import KIND_FILES, TEXT_MODEL

    meta = json.loads((KIND_FILES / f"{TEXT_MODEL}.json").read_text(encoding="utf-8"))
    assert meta.get("line_model") == tpk.line_model_version(), (
        f"{TEXT_MODEL}.json was trained on {meta.get('line_model')!r} rows: run "
        "`python -m newsclean.cleaners.model.train_page_kind --text` after retraining the line model")
