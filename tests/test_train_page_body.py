"""newsclean.cleaners.model.train_page_body trains a block model the pipeline can load, from any
folder laid out as shared/devset is (here the HTML fixture pages, their extraction as the truth)."""
from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path

import newsclean.cleaners.page_body as page_body
from newsclean.cleaners.extract_html import extract_html
from newsclean.cleaners.model import train_page_body

PAGES = Path(__file__).parent / "data" / "html_pages"


def test_training_writes_a_model_page_body_reads(tmp_path, monkeypatch):
    devset = tmp_path / "devset"
    (devset / "html").mkdir(parents=True)
    rows = {}
    for row in map(json.loads, (PAGES / "expected.jsonl").read_text(encoding="utf-8").splitlines()):
        rows.setdefault(row["file"], row)
    with gzip.open(devset / "pages.jsonl.gz", "wt", encoding="utf-8") as fh:
        for name, row in sorted(rows.items()):
            shutil.copy(PAGES / name, devset / "html" / name)
            fh.write(json.dumps({"id": row["id"], "url": row["url"], "html": f"html/{name}",
                                 "truth": row["extraction"]["text"]}) + "\n")
    out = tmp_path / "model"
    train_page_body.train(devset, out, log=lambda *_: None)
    meta = json.loads((out / "page_body.json").read_text(encoding="utf-8"))
    assert meta["pages"] == len(rows) and meta["blocks"] > 100
    assert meta["threshold"] == train_page_body.THRESHOLD

    monkeypatch.setenv("NEWSCLEAN_MODEL_CACHE", str(tmp_path / "compiled"))  # not the user's cache
    monkeypatch.setattr(page_body, "MODEL_DIR", out)
    page_body._model.cache_clear()
    monkeypatch.setattr(page_body, "_model", page_body._model.__wrapped__)
    name = sorted(rows)[0]
    ext = extract_html(gzip.open(PAGES / name).read(), url=rows[name]["url"], blocks=True)
    assert page_body.block_proba(ext.blocks).shape == (ext.blocks.height,)
    assert page_body.page_body(ext.blocks)  # the model trained on this page keeps some of it
