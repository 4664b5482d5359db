"""A batch is cleaned, validated and written a piece of Settings.piece_docs documents at a time
(newsclean.cleaners.batch.clean_sources_in_pieces, the flow's clean-batch task), so a worker holds
one piece's rows whatever the batch size: the pieces together are exactly the whole batch's rows,
a document's rows never straddle two pieces, and a copy of a document read in an earlier piece is
still quarantined as a copy."""
from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import pyarrow.parquet as pq

from newsclean.cleaners import store, syndication
from newsclean.cleaners.batch import clean_sources, clean_sources_in_pieces
from newsclean.cleaners.settings import Settings
from tests.conftest import SEEDS_RAW

CLEANED_AT = dt.datetime(2026, 11, 29, tzinfo=dt.timezone.utc)


def _corpus(tmp_path: Path) -> tuple[Path, list[str]]:
    """The five seeds, then a byte copy of the first one (read last, so in the last piece)."""
    raw = tmp_path / "raw"
    shutil.copytree(SEEDS_RAW, raw)
    first = sorted(p.name for p in raw.glob("*.txt"))[0]
    shutil.copy(raw / first, raw / "zz_copy_of_the_first.txt")
    return raw, sorted(p.name for p in raw.glob("*.txt"))


def _doc_ids(rows: list[dict]) -> set[str]:
    return {r["doc_id"] for r in rows}


def test_the_pieces_are_the_whole_batch_and_a_document_is_in_one_piece(tmp_path):
    raw, sources = _corpus(tmp_path)
    settings = Settings(piece_docs=2, lockstep_docs=1)
    pieces = list(clean_sources_in_pieces(raw, sources, settings, CLEANED_AT))
    whole = clean_sources(raw, sources, Settings(), CLEANED_AT)

    assert [p.docs_read for p in pieces] == [2, 2, 2]
    assert sum(len(p.articles) for p in pieces) == len(whole.articles) == 5
    for name in ("articles", "removed", "quarantine", "lines"):
        assert [r for p in pieces for r in getattr(p, name)] == getattr(whole, name), name
    for piece in pieces:  # every removed or lines row sits with its article
        assert _doc_ids(piece.removed) <= _doc_ids(piece.articles)
        assert _doc_ids(piece.lines) <= _doc_ids(piece.articles)
    # the copy is read in the last piece, its original in the first: still a copy
    (copy,) = pieces[-1].quarantine
    assert copy["source"] == "zz_copy_of_the_first.txt" and copy["stage"] == "validate"
    assert copy["doc_id"] in _doc_ids(pieces[0].articles)


def test_a_piece_ends_with_its_lock_step_group(tmp_path):
    raw, sources = _corpus(tmp_path)
    pieces = list(clean_sources_in_pieces(raw, sources, Settings(piece_docs=1, lockstep_docs=4), CLEANED_AT))
    assert [p.docs_read for p in pieces] == [4, 2]  # pieces never split a group cleaned together
    one = list(clean_sources_in_pieces(raw, sources, Settings(), CLEANED_AT))
    assert [p.docs_read for p in one] == [6]


def test_the_flow_task_writes_a_part_per_piece_and_they_merge_into_the_batch(tmp_path):
    from newsclean.flows.clean_corpus import clean_batch

    raw, sources = _corpus(tmp_path)
    tables = {}
    for label, settings in (("pieces", Settings(piece_docs=2, lockstep_docs=1)), ("one", Settings())):
        stage = tmp_path / label
        counts = clean_batch.fn(str(raw), sources, settings.model_dump(), str(stage), 3, CLEANED_AT.isoformat())
        assert counts["docs_read"] == 6 and counts["docs_cleaned"] == 5 and counts["docs_quarantined"] == 1
        parts = sorted(p.stem for p in (stage / "articles").glob("part-*.parquet"))
        assert parts == [store.part_name(3, k) for k in range(len(parts))]
        assert sorted(p.stem for p in (stage / syndication.PARTS_DIR).glob("part-*.npz")) == parts
        tables[label] = {name: pq.read_table(store.merge_parts(stage, name)) for name in store.TABLES}
        tables[label + " parts"] = len(parts)
    assert tables["pieces parts"] == 3 and tables["one parts"] == 1
    for name in store.TABLES:
        assert tables["pieces"][name].equals(tables["one"][name]), name
