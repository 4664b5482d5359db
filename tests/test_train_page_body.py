"""newsclean.cleaners.model.train_page_body trains a block model the pipeline can load, and
`newsclean eval --html` scores the HTML path, from any folder laid out as shared/devset is (here the
HTML fixture pages, their extraction as the truth)."""
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
    devset = _devset(tmp_path)
    rows = {row["html"].split("/")[-1]: row for row in train_page_body.load_pages(devset)}
    out = tmp_path / "model"
    train_page_body.train(devset, out, log=lambda *_: None)
    meta = json.loads((out / "page_body.json").read_text(encoding="utf-8"))
    assert meta["pages"] == len(rows) and meta["blocks"] > 100
    assert meta["threshold"] == train_page_body.THRESHOLD

    monkeypatch.setenv("NEWSCLEAN_MODEL_CACHE", str(tmp_path / "compiled"))  # not the user's cache
    from newsclean.cleaners.model.compiled import file_predictor

    name = sorted(rows)[0]
    ext = extract_html(gzip.open(PAGES / name).read(), url=rows[name]["url"], blocks=True)
    with page_body.using(meta, file_predictor(out / "page_body.lgb.txt")):
        assert page_body.block_proba(ext.blocks).shape == (ext.blocks.height,)
        assert page_body.page_body(ext.blocks)  # the model trained on this page keeps some of it


def _devset(tmp_path: Path) -> Path:
    """The HTML fixture pages laid out as shared/devset is, their extraction as the truth."""
    devset = tmp_path / "devset"
    (devset / "html").mkdir(parents=True)
    rows = {}
    for row in map(json.loads, (PAGES / "expected.jsonl").read_text(encoding="utf-8").splitlines()):
        rows.setdefault(row["file"], row)
    with gzip.open(devset / "pages.jsonl.gz", "wt", encoding="utf-8") as fh:
        for name, row in sorted(rows.items()):
            shutil.copy(PAGES / name, devset / "html" / name)
            fh.write(json.dumps({"id": row["id"], "url": row["url"], "html": f"html/{name}", "title": None,
                                 "published": None, "author": None, "truth": row["extraction"]["text"],
                                 "boilerplate_snippets": []}) + "\n")
    return devset


def test_newsclean_eval_scores_the_html_path_and_cross_validates_the_page_body(tmp_path, capsys, monkeypatch):
    from newsclean.cleaners.model.evaluate import main

    monkeypatch.setenv("NEWSCLEAN_MODEL_CACHE", str(tmp_path / "compiled"))
    devset = _devset(tmp_path)
    pred = tmp_path / "pred.jsonl"
    assert main(["--html", "--devset", str(devset), "--no-snippet-eval", "--pred", str(pred)]) == 0
    out = capsys.readouterr().out
    assert "html, trafilatura body" in out and "F1 " in out and "date exact" in out
    assert len(pred.read_text(encoding="utf-8").splitlines()) == 8
    # the trafilatura body is the truth here: the default HTML path scores near 1 on it
    assert main(["--html", "--html-body", "page", "--cv", "2", "--devset", str(devset), "--no-snippet-eval",
                 "--pred", str(pred)]) == 0
    out = capsys.readouterr().out
    assert "page body cv2" in out and "fold 0" in out and "fold 1" in out
