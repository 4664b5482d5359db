"""A big record file is many batches: the flow cuts it into parts of about batch_size records
(newsclean.cleaners.readers.ranges), cleans each part as a batch of its own, and writes exactly the
rows a whole-file read gives; an unchanged file is skipped on the next run, a changed one re-cleaned."""
from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from newsclean.cleaners.batch import clean_sources
from newsclean.cleaners.readers import ranges
from newsclean.cleaners.settings import Settings
from tests.articles import PARAGRAPHS

pytestmark = pytest.mark.prefect

N_RECORDS = 45
PAD = 200_000  # a field nobody reads: the file is over ranges.SPLIT_MIN_BYTES, its texts short


def _dump(path: Path, edited: int | None = None) -> None:
    with path.open("w", encoding="utf-8") as fh:
        for i in range(N_RECORDS):
            body = [f"Story {i}: " + PARAGRAPHS[i % len(PARAGRAPHS)], *PARAGRAPHS[:3]]
            if i == edited:
                body.append("An update added to this story later in the day, with a new quote from the council.")
            fh.write(json.dumps({"id": f"r{i}", "title": f"Headline number {i}", "padding": "x" * PAD,
                                 "text": "\n\n".join(["Watch LIVE", *body, "What do you think?"])}) + "\n")


def _flow():
    from prefect.task_runners import ThreadPoolTaskRunner

    from newsclean.flows.clean_corpus import clean_corpus
    return clean_corpus.with_options(task_runner=ThreadPoolTaskRunner(max_workers=2))


def _rows(table: pd.DataFrame, cols: list[str]) -> list[tuple]:
    return sorted(map(tuple, table[cols].astype(str).itertuples(index=False)))


def test_a_big_record_file_is_many_batches_with_the_whole_file_rows(tmp_path):
    raw, out = tmp_path / "raw", tmp_path / "out"
    raw.mkdir()
    _dump(raw / "dump.jsonl")
    assert (raw / "dump.jsonl").stat().st_size > ranges.SPLIT_MIN_BYTES
    settings = Settings(batch_size=10)
    parts = ranges.split(raw, "dump.jsonl", settings, settings.batch_size)
    assert len(parts) == 5 and all(p.offset is not None for p in parts)

    summary = _flow()(raw_dir=str(raw), out_dir=str(out), settings=settings)
    articles = pd.read_parquet(out / "articles.parquet")
    removed = pd.read_parquet(out / "removed.parquet")
    assert summary["docs_cleaned"] == N_RECORDS == len(articles)
    assert summary["durations_s"] and summary["incremental"]["sources_total"] == 1

    whole = clean_sources(raw, ["dump.jsonl"], settings)
    assert _rows(articles, ["doc_id", "source", "title", "text"]) == _rows(
        pd.DataFrame(whole.articles), ["doc_id", "source", "title", "text"])
    assert _rows(removed, ["doc_id", "line", "start", "end", "kind", "rule"]) == _rows(
        pd.DataFrame(whole.removed), ["doc_id", "line", "start", "end", "kind", "rule"])

    again = _flow()(raw_dir=str(raw), out_dir=str(out), settings=settings)
    assert again["incremental"]["sources_kept"] == 1 and again["docs_read"] == 0

    _dump(raw / "dump.jsonl", edited=17)
    changed = _flow()(raw_dir=str(raw), out_dir=str(out), settings=settings)
    articles = pd.read_parquet(out / "articles.parquet")
    assert changed["docs_read"] == N_RECORDS and len(articles) == N_RECORDS
    assert "An update added" in articles.set_index("source").loc["dump.jsonl#L18", "text"]
