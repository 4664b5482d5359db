"""The Python API (newsclean.clean_text, clean_html, clean_corpus): the same articles as a run."""
from __future__ import annotations

import dataclasses
import datetime as dt
import json
import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

import newsclean
from newsclean.cleaners.batch import clean_sources
from newsclean.cleaners.pipeline import normalised_lines_for
from newsclean.cleaners.settings import Settings
from tests.conftest import ROOT, SEEDS_RAW
from tests.seedcheck import differences, plain

SEEDS = sorted(p.name for p in SEEDS_RAW.glob("*.txt"))
ALL_DEBRIS = "Home\nNews\nSport\n\nWatch LIVE\n\nWhat do you think? Leave a comment below."
PAGE = (b"<html><head><title>Council backs bigger bus network</title></head><body><nav><a href='/'>Home</a></nav>"
        b"<article><h1>Council backs bigger bus network</h1><p>The city council voted on Tuesday to expand the "
        b"downtown bus network after months of debate over costs and routes.</p><p>Council members said the new "
        b"routes would serve neighbourhoods that have gone without reliable service for years.</p></article></body></html>")


def seed_text(name: str) -> str:
    return (SEEDS_RAW / name).read_text(encoding="utf-8")


def fields_of(article) -> dict:
    return {"title": article.title, "text": article.text, "outlet": article.outlet,
            "outlet_domain": article.outlet_domain, "published": article.published}


def spans_of(article) -> list[dict]:
    return [dataclasses.asdict(s) for s in article.removed]


@pytest.mark.parametrize("name", SEEDS)
def test_clean_text_gives_the_golden_output(name, expected_seeds):
    article = newsclean.clean_text(seed_text(name))
    assert differences(fields_of(article), spans_of(article), expected_seeds[name]) == []


# set over the whole corpus after its batches (newsclean.cleaners.syndication): not one document's
CORPUS_LEVEL = ("dup_cluster", "dup_similarity")


def test_clean_text_gives_what_a_batch_of_the_run_gives():
    """Every column of the articles row and every removed row, from the code a run's batches use."""
    batch = clean_sources(SEEDS_RAW, SEEDS, Settings())
    assert batch.quarantine == []
    for row in batch.articles:
        article = newsclean.clean_text(seed_text(row["source"]))
        for column, value in row.items():
            if column == "n_removed":
                assert len(article.removed) == value
            elif column not in ("source", "cleaned_at", *CORPUS_LEVEL):
                assert getattr(article, column) == value, column
        assert not any(hasattr(article, c) for c in CORPUS_LEVEL)  # a corpus's, not one document's
        removed = [{k: r[k] for k in ("line", "start", "end", "kind", "rule", "text", "whole_line")}
                   for r in batch.removed if r["doc_id"] == row["doc_id"]]
        assert spans_of(article) == removed


def test_result_is_typed_and_frozen():
    article = newsclean.clean_text(seed_text(SEEDS[0]))
    assert isinstance(article, newsclean.Article)
    assert all(isinstance(s, newsclean.RemovedSpan) for s in article.removed) and article.removed
    with pytest.raises(dataclasses.FrozenInstanceError):
        article.text = ""
    assert isinstance(article.removed, tuple) and isinstance(article.notes, tuple)


def test_removed_spans_point_at_the_lines_they_name():
    spans = 0
    for name in SEEDS:
        lines = normalised_lines_for(SEEDS_RAW, name)
        for span in newsclean.clean_text(seed_text(name)).removed:
            assert lines[span.line - 1][span.start:span.end] == span.text
            assert span.rule and span.kind
            spans += 1
    assert spans > 5


def test_a_document_with_no_article_raises_document_error():
    assert newsclean.DocumentError is __import__("newsclean.cleaners.types", fromlist=["x"]).DocumentError
    with pytest.raises(newsclean.DocumentError) as err:
        newsclean.clean_text(ALL_DEBRIS)
    assert err.value.stage == "decide" and "no article body" in err.value.reason
    with pytest.raises(newsclean.DocumentError):
        newsclean.clean_html(b"<html><body><nav><a href='/'>Home</a> <a href='/news'>News</a></nav></body></html>")


def test_settings_as_object_dict_or_none():
    text = seed_text(SEEDS[2]).replace("'", "\u2019")
    straight = newsclean.clean_text(text)
    assert "\u2019" not in straight.text
    curly = newsclean.clean_text(text, settings={"keep_curly_quotes": True})
    assert "\u2019" in curly.text
    assert newsclean.clean_text(text, settings=Settings(keep_curly_quotes=True)) == curly
    assert curly.pipeline_version != straight.pipeline_version
    with pytest.raises(ValueError, match="unknown settings: no_such_setting"):
        newsclean.clean_text(text, settings={"no_such_setting": 1})


def test_url_is_metadata_as_a_record_gives_it():
    article = newsclean.clean_text(seed_text(SEEDS[0]), url="https://www.bbc.co.uk/news/2018/02/23/officers")
    assert article.url == "https://www.bbc.co.uk/news/2018/02/23/officers"
    assert (article.outlet, article.outlet_domain, article.outlet_source) == ("BBC News", "bbc.co.uk", "url")
    assert (article.published, article.published_source) == (dt.date(2018, 2, 23), "url")
    assert article.text == newsclean.clean_text(seed_text(SEEDS[0])).text


def test_clean_html_from_bytes_or_str():
    page = newsclean.clean_html(PAGE, url="https://www.bbc.co.uk/news/uk-123")
    assert page.title == "Council backs bigger bus network"
    assert page.text.startswith("The city council voted on Tuesday") and "Home" not in page.text
    assert (page.outlet, page.outlet_source) == ("BBC News", "url")
    assert newsclean.clean_html(PAGE.decode("utf-8"), url="https://www.bbc.co.uk/news/uk-123") == page


def test_a_text_holding_markup_goes_the_html_path_as_a_txt_file_does():
    assert newsclean.clean_text(PAGE.decode("utf-8")).text == newsclean.clean_html(PAGE).text


def test_importing_newsclean_loads_no_cleaner():
    code = "import sys, newsclean; print(sorted(m for m in sys.modules if m.startswith('newsclean')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT).stdout
    assert out.strip() == "['newsclean']"


def test_version_option_prints_the_package_version():
    proc = subprocess.run([sys.executable, "-m", "newsclean.flows.cli", "--version"], capture_output=True, text=True,
                          timeout=60, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == f"newsclean {newsclean.__version__}\n"


# --- a whole folder: the CLI's run and clean_corpus, compared with each other and with clean_text

@pytest.fixture(scope="module")
def cli_run(tmp_path_factory, prefect_server) -> Path:
    out = tmp_path_factory.mktemp("cli-out")
    # a client of the session's Prefect server: the run's own temporary server (tests/test_cli.py
    # runs one) would add ~8 CPU-s to the suite
    proc = subprocess.run([str(Path(sys.executable).with_name("newsclean")), "run", str(SEEDS_RAW), str(out)],
                          capture_output=True, text=True, timeout=300, env=prefect_server[1], cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return out


COMPARED = ("title", "text", "published", "outlet", "outlet_domain", "author")


@pytest.mark.prefect
@pytest.mark.parametrize("name", SEEDS)
def test_clean_text_gives_the_text_and_metadata_of_the_cli(cli_run, name):
    arts = pd.read_parquet(cli_run / "articles.parquet")
    (row,) = arts[arts["source"] == name].to_dict("records")
    article = newsclean.clean_text(seed_text(name))
    assert {c: plain(getattr(article, c)) for c in COMPARED} == {c: plain(row[c]) for c in COMPARED}
    assert article.doc_id == row["doc_id"]
    rem = pd.read_parquet(cli_run / "removed.parquet")
    assert sorted((s.line, s.start, s.end, s.kind, s.rule, s.text) for s in article.removed) == sorted(
        (r.line, r.start, r.end, r.kind, r.rule, r.text) for r in rem[rem["doc_id"] == row["doc_id"]].itertuples())


@pytest.mark.prefect
def test_clean_corpus_runs_the_flow_the_cli_runs(cli_run, tmp_path):
    summary = newsclean.clean_corpus(SEEDS_RAW, tmp_path / "out")
    run_json = json.loads((tmp_path / "out" / "run.json").read_text(encoding="utf-8"))
    assert {k: summary[k] for k in run_json} == run_json
    assert (summary["docs_read"], summary["docs_cleaned"], summary["docs_quarantined"]) == (5, 5, 0)
    ours = pd.read_parquet(tmp_path / "out" / "articles.parquet").sort_values("source").reset_index(drop=True)
    cli = pd.read_parquet(cli_run / "articles.parquet").sort_values("source").reset_index(drop=True)
    columns = ["source", "doc_id", *COMPARED, "outlet_source", "published_source", "pipeline_version"]
    pd.testing.assert_frame_equal(ours[columns], cli[columns])


def test_clean_corpus_refuses_a_missing_folder_or_unknown_setting(tmp_path):
    with pytest.raises(ValueError, match="does not exist"):
        newsclean.clean_corpus(tmp_path / "nowhere", tmp_path / "out")
    with pytest.raises(ValueError, match="unknown settings"):
        newsclean.clean_corpus(SEEDS_RAW, tmp_path / "out", no_such_setting=1)


def test_bytes_are_read_as_a_txt_file_holding_them():
    text = seed_text(SEEDS[2]).replace("'", "\u2019").replace(" - ", " \u2013 ")
    article = newsclean.clean_text(text)
    for data in (text.encode("utf-8"), text.encode("utf-16"), text.encode("cp1252"), bytearray(text.encode("utf-8"))):
        again = newsclean.clean_text(data)
        assert (again.title, again.text, again.removed) == (article.title, article.text, article.removed)


def test_a_missing_value_is_a_document_error_and_a_non_document_a_type_error():
    # a table's empty text field comes as None, or as NaN from pandas
    for missing in (None, float("nan")):
        for clean in (newsclean.clean_text, newsclean.clean_html):
            with pytest.raises(newsclean.DocumentError) as err:
                clean(missing)
            assert err.value.stage == "read" and "missing value" in err.value.reason
    for clean in (newsclean.clean_text, newsclean.clean_html):
        with pytest.raises(TypeError, match=f"{clean.__name__} takes a document as str or bytes, not int"):
            clean(42)
    text = seed_text(SEEDS[0])
    column = pd.Series([text, None, float("nan")], dtype=object)
    first, *missing = newsclean.clean_texts(column.tolist())
    assert first == newsclean.clean_text(text)
    assert [(e.stage, e.reason) for e in missing] == [("read", newsclean.api.MISSING)] * 2
    with pytest.raises(TypeError, match="clean_htmls takes a document"):
        newsclean.clean_htmls([PAGE, ["not", "a", "page"]])
