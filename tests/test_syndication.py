"""Near-duplicate clusters (newsclean.cleaners.syndication) and the articles' language
(newsclean.cleaners.language): syndicated copies of real articles join their original's cluster,
articles that tell the same event in other words and unrelated pages stay apart, the
representative is the first published (else first seen), and an incremental run gives the
clusters of a full one without hashing carried-over texts again."""
from __future__ import annotations

import datetime as dt
import gzip
import json
import random
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest

from newsclean.cleaners import store, syndication
from newsclean.cleaners.batch import clean_sources
from newsclean.cleaners.language import identify
from newsclean.cleaners.settings import Settings
from newsclean.schemas.validate import check_tables
from tests.conftest import GOLDEN, SEEDS_RAW
from tests.syndicated import OUTLETS, cut_last_paragraphs, syndicated_copy

DEVSET_SUBSET = Path(__file__).parent / "data" / "devset_subset" / "pages.jsonl.gz"


def _seeds() -> list[dict]:
    return [json.loads(line) for line in GOLDEN.read_text(encoding="utf-8").splitlines() if line.strip()]


def _row(i: int, text: str, source: str | None = None, published: dt.date | None = None) -> dict:
    return {"doc_id": f"{i:016x}", "source": source or f"doc-{i:02d}.txt", "text": text, "published": published}


STORY = ("The regional transport authority confirmed on Monday that the new tram line between the harbour "
         "and the university will open in September, two months later than planned, after safety inspectors "
         "asked for changes to the signalling system at three junctions along the route.")

OTHER_STORY = """Bakery wins national bread award

A family bakery on the high street has won the national bread award for its sourdough loaf, the judges announced on Friday after a blind tasting of more than two hundred entries from across the country.

The owners said they had used the same starter for eleven years and that the prize money would pay for a second oven, so that the shop can open on Sundays from next month.

The judges praised the crust and the open crumb of the loaf, and said the bakery had shown that a small shop could compete with the largest producers.
"""


# ----------------------------------------------------------------------------- the parts

@pytest.mark.parametrize("threshold", [0.5, 0.7, 0.9])
def test_banding_makes_a_pair_at_the_threshold_a_candidate(threshold):
    b, r = syndication.band_params(threshold)
    assert b * r <= syndication.NUM_PERM
    assert 1 - (1 - threshold ** r) ** b >= syndication.CANDIDATE_RECALL
    # the most selective such banding: one more row per band would miss pairs at the threshold
    b2 = syndication.NUM_PERM // (r + 1)
    assert b2 == 0 or 1 - (1 - threshold ** (r + 1)) ** b2 < syndication.CANDIDATE_RECALL


def test_a_threshold_outside_0_1_is_refused():
    with pytest.raises(ValueError, match="dup_threshold"):
        Settings(dup_threshold=1.5)
    with pytest.raises(ValueError, match="dup_shingle_words"):
        Settings(dup_shingle_words=0)


def test_shingles_ignore_case_and_punctuation_not_word_order():
    h = syndication.shingle_hashes
    assert np.array_equal(h("The tram, the HARBOUR; and the university!", 5), h("the tram the harbour and the university", 5))
    assert not np.array_equal(h("the tram the harbour and the university", 5), h("the harbour the tram and the university", 5))
    assert len(h("three short words", 5)) == 1  # a text shorter than a shingle is one
    assert len(h("!!! ... ???", 5)) == 0


def test_representative_is_the_first_published_else_the_first_seen():
    rows = [_row(1, STORY, "wire.jsonl#L12"), _row(2, STORY, "wire.jsonl#L2"), _row(3, STORY, "a/later.txt")]
    # no dates: the first seen, records in file order ("#L2" before "#L12"), files in path order
    assert [c for c, _ in syndication.cluster_rows(rows)] == [f"{3:016x}"] * 3
    rows[0]["published"] = dt.date(2024, 5, 2)
    rows[1]["published"] = dt.date(2024, 5, 3)
    assert [c for c, _ in syndication.cluster_rows(rows)] == [f"{1:016x}"] * 3  # a date beats none
    rows[1]["published"] = dt.date(2024, 5, 2)  # a tie: the first seen of the two
    assert [c for c, _ in syndication.cluster_rows(rows)] == [f"{2:016x}"] * 3
    assert [s for _, s in syndication.cluster_rows(rows)] == [1.0, 1.0, 1.0]


def test_a_unique_article_is_its_own_cluster_and_empty_signatures_never_link():
    rows = [_row(1, STORY), _row(2, OTHER_STORY), _row(3, "!!! ???"), _row(4, "... ---")]
    assert syndication.cluster_rows(rows) == [(r["doc_id"], 1.0) for r in rows]


def test_clusters_are_the_components_of_links_at_the_threshold():
    """A chain: b is a copy of a, c a copy of b with more cut; c is in a's cluster through b even
    where its own similarity to a is lower."""
    paras = [f"Paragraph {i}: " + " ".join(f"word{i}x{k}" for k in range(30)) for i in range(10)]
    a = "\n\n".join(paras)
    b = "\n\n".join(paras[:9])
    c = "\n\n".join(paras[1:8])
    (ra, sa), (rb, sb), (rc, sc) = syndication.cluster_rows([_row(1, a), _row(2, b), _row(3, c)])
    assert ra == rb == rc == f"{1:016x}"
    assert sa == 1.0 and 0.8 <= sb < 1.0 and sc < sb


# ----------------------------------------------------------------------------- real articles

@pytest.fixture(scope="module")
def syndicated_corpus(tmp_path_factory) -> tuple[Path, list[str], dict[str, str]]:
    """The five sample articles and three copies of each by other outlets. Returns RAW_DIR, its
    sources and each copy's original."""
    raw = tmp_path_factory.mktemp("syndicated") / "raw"
    shutil.copytree(SEEDS_RAW, raw)
    (raw / "wire").mkdir()
    rng = random.Random(7)
    original = {}
    for seed in _seeds():
        for k in range(3):
            name = f"wire/{seed['source'][:3]}-{k}.txt"
            (raw / name).write_text(syndicated_copy(seed["title"], seed["text"], rng, outlet=OUTLETS[k]), encoding="utf-8")
            original[name] = seed["source"]
    sources = sorted(p.relative_to(raw).as_posix() for p in raw.rglob("*.txt"))
    return raw, sources, original


def test_copies_built_from_real_articles_are_cut_and_edited():
    seed = _seeds()[0]
    copy = syndicated_copy(seed["title"], seed["text"], random.Random(1), outlet=OUTLETS[0])
    paragraphs = seed["text"].split("\n\n")
    assert paragraphs[-1] not in copy and paragraphs[0][:80] in copy  # the end cut, the start kept
    assert f"Copyright 2018 {OUTLETS[0]}" in copy and seed["title"] not in copy.splitlines()
    kept = cut_last_paragraphs(paragraphs, 0.15)
    assert sum(p in copy for p in kept) < len(kept)  # words edited in some kept paragraphs


def test_syndicated_copies_join_their_originals_and_the_sample_articles_stay_apart(syndicated_corpus):
    """The five sample articles tell one event (the Parkland shooting) in different words: five
    clusters. Each copy (another headline, outlet debris and signature, cut, edited) joins its
    original's, whose earlier source makes it the representative."""
    raw, sources, original = syndicated_corpus
    out = clean_sources(raw, sources, Settings())
    assert not out.quarantine
    by_source = {a["source"]: a for a in out.articles}
    clusters = dict(zip(by_source, syndication.cluster_rows(out.articles)))
    seeds = [s["source"] for s in _seeds()]
    assert len({clusters[s][0] for s in seeds}) == 5
    assert all(clusters[s] == (by_source[s]["doc_id"], 1.0) for s in seeds)
    for copy, orig in original.items():
        assert clusters[copy][0] == by_source[orig]["doc_id"], copy
        assert 0.7 <= clusters[copy][1] < 1.0, copy
    assert {a["language"] for a in out.articles} == {"en"}


def test_unrelated_dev_pages_stay_apart():
    """93 development pages from many sites (some of one site, with its template): no two of them
    are one story, so every page is its own cluster."""
    with gzip.open(DEVSET_SUBSET, "rt", encoding="utf-8") as fh:
        pages = [json.loads(line) for line in fh]
    rows = [_row(i, p["truth"], f"page-{i:03d}.txt") for i, p in enumerate(pages) if p.get("truth", "").strip()]
    assert len(rows) > 80
    assert syndication.cluster_rows(rows) == [(r["doc_id"], 1.0) for r in rows]


# ----------------------------------------------------------------------------- language

@pytest.mark.parametrize("text, code", [
    (STORY, "en"),
    ("Der Stadtrat hat am Dienstagabend nach einer langen Debatte den Haushalt für das kommende Jahr beschlossen.", "de"),
    ("El consejo de ministros aprobó este martes un plan de inversiones para modernizar el transporte público.", "es"),
    ("Le conseil municipal a adopté mardi soir le budget de la ville pour l'année prochaine après un long débat.", "fr"),
])
def test_language_is_an_iso_639_1_code_with_a_probability(text, code):
    lang, score = identify(text)
    assert lang == code and 0.5 < score <= 1.0


def test_run_json_and_the_report_say_per_language_which_rule_sets_read_it(tmp_path):
    """run.json's `languages` (language.coverage) and the report's languages table say, from the
    language column, which articles were cleaned without the English-only rules and the cue
    rules' word lists."""
    import pyarrow as pa

    from newsclean.cleaners import language
    from newsclean.flows.report import build as report_build

    langs = ["en", "en", "de", "de", "de", "ja", None]
    counts = language.language_counts(langs)
    summary = language.coverage(counts)
    assert summary["by_language"] == {
        "de": {"articles": 3, "cue_rules": True, "english_only_rules": False},
        "en": {"articles": 2, "cue_rules": True, "english_only_rules": True},
        "ja": {"articles": 1, "cue_rules": False, "english_only_rules": False},
        "none": {"articles": 1, "cue_rules": False, "english_only_rules": False},
    }
    assert summary["not_english"] == 5 and summary["outside_cue_rule_languages"] == 2
    assert summary["english_only_rules"] == ["headline_shape", "short_fragment"]
    pq.write_table(pa.table({"language": pa.array(langs, pa.string())}), tmp_path / "articles.parquet")
    rows = report_build._languages(tmp_path / "articles.parquet", ["language"], len(langs))
    assert {r["language"]: {"articles": r["n"], "cue_rules": r["cue_rules"], "english_only_rules": r["english_only_rules"]}
            for r in rows} == summary["by_language"]


def test_a_text_without_language_has_none():
    assert identify("12 345 678 90 12 34 56") == (None, None)


# ----------------------------------------------------------------------------- the tables

def _articles(out: Path) -> pd.DataFrame:
    return (store.read_table(out, "articles")[["source", "doc_id", "dup_cluster", "dup_similarity", "language"]]
            .sort_values("source").reset_index(drop=True))


def _clusters_by_source(out: Path) -> dict[str, tuple[str, float]]:
    arts = store.read_table(out, "articles")
    source_of = dict(zip(arts["doc_id"], arts["source"]))
    return {s: (source_of[c], sim) for s, c, sim in zip(arts["source"], arts["dup_cluster"], arts["dup_similarity"])}


def test_a_representative_that_is_no_article_fails_the_table_checks(tmp_path):
    from tests.test_schemas import article

    rows = [article(1), article(2, dup_cluster=f"{1:016x}", dup_similarity=0.9), article(3, dup_cluster=f"{9:016x}", dup_similarity=0.8)]
    pq.write_table(store.to_arrow("articles", rows), tmp_path / "articles.parquet")
    pq.write_table(store.to_arrow("removed", []), tmp_path / "removed.parquet")
    pq.write_table(store.to_arrow("quarantine", []), tmp_path / "quarantine.parquet")
    problems = check_tables(tmp_path)
    assert problems == [f"dup_cluster_is_an_article: 1 dup_cluster values are not the doc_id of an article that "
                        f"represents itself, e.g. ['{9:016x}']"]


@pytest.fixture(scope="module")
def flow_fn():
    from prefect.task_runners import ThreadPoolTaskRunner

    from newsclean.flows.clean_corpus import clean_corpus
    return clean_corpus.with_options(task_runner=ThreadPoolTaskRunner(max_workers=2))


def _record_copy(seed: dict, rng: random.Random, outlet: str, published: str) -> str:
    return json.dumps({"url": f"https://{outlet.lower().replace(' ', '')}.example/{seed['source'][:3]}",
                       "outlet": outlet, "published": published,
                       "text": syndicated_copy(seed["title"], seed["text"], rng, outlet=outlet)})


@pytest.mark.prefect
@pytest.mark.slow
def test_incremental_runs_give_the_clusters_of_a_full_run(tmp_path, syndicated_corpus, flow_fn):
    raw_src, _, original = syndicated_corpus
    raw, out = tmp_path / "raw", tmp_path / "out"
    shutil.copytree(raw_src, raw)
    seeds = {s["source"]: s for s in _seeds()}
    first = flow_fn(raw_dir=str(raw), out_dir=str(out))
    syn = first["syndication"]
    assert (syn["documents"], syn["clusters"], syn["documents_in_clusters"]) == (20, 5, 20)
    assert syn["signatures_new"] == 20 and syn["signatures_carried"] == 0
    assert first["languages"]["articles"] == {"en": 20} and first["languages"]["outside_cue_rule_languages"] == 0
    assert first["languages"]["by_language"] == {"en": {"articles": 20, "cue_rules": True, "english_only_rules": True}}
    clusters = _clusters_by_source(out)
    for copy, orig in original.items():
        assert clusters[copy][0] == orig
    index = pq.read_table(store.live_path(out, syndication.INDEX_DIR) / "documents.parquet").to_pandas()
    assert sorted(index["doc_id"]) == sorted(store.read_table(out, "articles")["doc_id"])
    # the report shows the largest clusters with their outlets, and the language mix
    report = (out / "report.html").read_text(encoding="utf-8")
    assert report.count("<tr data-cluster=") == 5 and "(5 clusters of two or more articles, 20 articles in them)" in report
    assert all(name in report for name in OUTLETS[:3])
    assert '<tr data-language="en"><td>en</td><td class="num">20</td><td class="num">100.0%</td><td>read it</td><td>apply</td></tr>' in report

    # the same page under another URL and outlet (a record file): an article of its own, in the cluster
    seed0, seed1, seed2 = (seeds[s] for s in sorted(seeds)[:3])
    rng = random.Random(3)
    same = syndicated_copy(seed1["title"], seed1["text"], random.Random(11), outlet=OUTLETS[5])
    (raw / "wire" / "feeds.jsonl").write_text("\n".join([
        _record_copy(seed2, rng, OUTLETS[4], "2018-02-20"),  # published before its original: the new representative
        json.dumps({"url": "https://a.example/story", "outlet": "Outlet A", "text": same}),
        json.dumps({"url": "https://b.example/story", "outlet": "Outlet B", "text": same}),
    ]) + "\n", encoding="utf-8")
    (raw / seed0["source"]).unlink()  # the representative of its cluster goes: another is elected
    (raw / "wire" / "001-2.txt").write_text(OTHER_STORY, encoding="utf-8")  # another story now: leaves its cluster
    second = flow_fn(raw_dir=str(raw), out_dir=str(out))
    syn = second["syndication"]
    # only what this run cleaned (the records, the edited file, any whose corpus context moved) is hashed
    assert second["docs_quarantined"] == 0 and syn["signatures_new"] == second["docs_cleaned"] >= 4
    assert syn["signatures_from_text"] == 0 and syn["signatures_carried"] == syn["documents"] - syn["signatures_new"]
    assert syn["documents"] == 20 - 1 + 3
    clusters = _clusters_by_source(out)
    assert seed0["source"] not in clusters
    assert {clusters[f"wire/000-{k}.txt"][0] for k in range(3)} == {"wire/000-0.txt"}  # first seen of the rest
    assert clusters["wire/001-2.txt"] == ("wire/001-2.txt", 1.0)
    assert clusters[seed2["source"]][0] == "wire/feeds.jsonl#L1"
    assert clusters["wire/feeds.jsonl#L2"][0] == clusters["wire/feeds.jsonl#L3"][0] == seed1["source"]
    arts = store.read_table(out, "articles").set_index("source")
    assert arts.loc["wire/feeds.jsonl#L2", "doc_id"] != arts.loc["wire/feeds.jsonl#L3", "doc_id"]

    # ... and the same clusters as a from-scratch run
    fresh = flow_fn(raw_dir=str(raw), out_dir=str(tmp_path / "fresh"))
    assert fresh["syndication"]["signatures_carried"] == 0
    pd.testing.assert_frame_equal(_articles(out), _articles(tmp_path / "fresh"))

    # nothing changed: the index is reused whole, the tables stay byte-identical
    before = {n: (out / f"{n}.parquet").read_bytes() for n in store.TABLES}
    third = flow_fn(raw_dir=str(raw), out_dir=str(out))
    assert third["docs_cleaned"] == 0 and third["syndication"]["signatures_carried"] == third["syndication"]["documents"]
    assert {n: (out / f"{n}.parquet").read_bytes() for n in store.TABLES} == before

    # an index lost (or made by other code): the carried articles' signatures come from their text
    shutil.rmtree(store.live_path(out, syndication.INDEX_DIR))
    fourth = flow_fn(raw_dir=str(raw), out_dir=str(out))
    assert fourth["syndication"]["signatures_from_text"] == fourth["syndication"]["documents"]
    pd.testing.assert_frame_equal(_articles(out), _articles(tmp_path / "fresh"))
    assert store.live_path(out, syndication.INDEX_DIR).is_dir()


def _reference_components(sigs: np.ndarray, threshold: float) -> list[frozenset[int]]:
    """Every pair that shares a band key, verified one by one, joined with a plain union-find."""
    b, r = syndication.band_params(threshold)
    keys = syndication.band_keys(sigs, b, r)
    parent = list(range(len(sigs)))

    def root(x: int) -> int:
        while parent[x] != x:
            x = parent[x]
        return x

    for band in keys:
        buckets: dict[int, list[int]] = {}
        for row, key in enumerate(band.tolist()):
            buckets.setdefault(key, []).append(row)
        for rows in buckets.values():
            for k, a in enumerate(rows):
                for c in rows[k + 1:]:
                    if np.count_nonzero(sigs[a] == sigs[c]) >= threshold * sigs.shape[1] - 1e-9:
                        parent[root(a)] = root(c)
    groups: dict[int, set[int]] = {}
    for row in range(len(sigs)):
        groups.setdefault(root(row), set()).add(row)
    return sorted(map(frozenset, groups.values()), key=min)


@pytest.mark.parametrize("seed", range(4))
def test_components_are_those_of_all_verified_candidate_pairs_in_any_order(seed):
    """The array union-find (which skips pairs already joined) gives the components of every
    candidate pair verified, and the same for the documents in another order."""
    rng = np.random.default_rng(seed)
    base = rng.integers(0, 2**32, size=(40, syndication.NUM_PERM), dtype=np.uint32)
    rows = [base[rng.integers(40)].copy() for _ in range(160)]
    for row in rows:  # each a near copy of one of 40 texts: a share of its values replaced
        k = rng.choice(syndication.NUM_PERM, size=int(rng.uniform(0, 0.45) * syndication.NUM_PERM), replace=False)
        row[k] = rng.integers(0, 2**32, size=len(k), dtype=np.uint32)
    sigs = np.vstack(rows)
    threshold = 0.7
    b, r = syndication.band_params(threshold)
    roots, _, _ = syndication.components(sigs, syndication.band_keys(sigs, b, r), threshold)
    got = sorted((frozenset(np.flatnonzero(roots == x).tolist()) for x in np.unique(roots)), key=min)
    assert got == _reference_components(sigs, threshold)
    assert any(len(g) > 2 for g in got) and any(len(g) == 1 for g in got)
    perm = rng.permutation(len(sigs))
    shuffled, _, _ = syndication.components(sigs[perm], syndication.band_keys(sigs[perm], b, r), threshold)
    again = sorted((frozenset(perm[np.flatnonzero(shuffled == x)].tolist()) for x in np.unique(shuffled)), key=min)
    assert again == got


def _write_signature_part(stage: Path, index: int, ids: list[int], sigs: np.ndarray) -> None:
    folder = stage / syndication.PARTS_DIR
    folder.mkdir(parents=True, exist_ok=True)
    np.savez(folder / f"part-{index:05d}.npz", doc_id=np.array([f"{i:016x}" for i in ids], dtype="S16"),
             source=np.array([f"doc-{i:04d}.txt" for i in ids]), published=np.full(len(ids), syndication.NO_DATE, np.int32),
             signatures=sigs)


def test_the_index_in_bounded_partitions_gives_the_clusters_of_one_pass_in_any_reading_order(tmp_path, monkeypatch):
    """build_index spreads the band rows over partition files and verifies them one file at a time:
    the clusters are those of the in-memory clustering of the same signatures, with a partition
    of a few rows as with one of all, and whatever order the parts are read in."""
    rng = np.random.default_rng(5)
    base = rng.integers(0, 2**32, size=(30, syndication.NUM_PERM), dtype=np.uint32)
    sigs = np.vstack([base[rng.integers(30)] for _ in range(300)])
    for row in sigs:
        k = rng.choice(syndication.NUM_PERM, size=int(rng.uniform(0, 0.45) * syndication.NUM_PERM), replace=False)
        row[k] = rng.integers(0, 2**32, size=len(k), dtype=np.uint32)
    sigs[7] = syndication.EMPTY  # a text of no shingle
    b, r = syndication.band_params(0.7)
    expected = syndication.cluster(sigs, syndication.band_keys(sigs, b, r), np.full(300, syndication.NO_DATE, np.int32),
                                   [f"doc-{i:04d}.txt" for i in range(300)], 0.7)
    want = {f"{i:016x}": (f"{int(expected.representative[i]):016x}", float(expected.similarity[i])) for i in range(300)}
    assert 30 < len(set(expected.representative.tolist())) < 200  # clusters, and documents alone

    def built(stage: Path, order: list[int]) -> dict:
        for p, start in enumerate(order):
            ids = list(range(start, start + 50))
            _write_signature_part(stage, p, ids, sigs[ids])
        counts = syndication.build_index(stage, None, None, 5, 0.7)
        index = pq.read_table(stage / syndication.INDEX_DIR / "documents.parquet").to_pydict()
        return counts, dict(zip(index["doc_id"], zip(index["dup_cluster"], index["dup_similarity"])))

    counts, whole = built(tmp_path / "one", list(range(0, 300, 50)))
    assert counts["band_partitions"] == 1 and whole == want
    monkeypatch.setattr(syndication, "BAND_ROWS_PER_PARTITION", 500)
    counts, parted = built(tmp_path / "many", list(range(250, -1, -50)))
    assert counts["band_partitions"] > 10 and parted == want
    assert not (tmp_path / "many" / syndication.BANDS_DIR).exists()


def test_only_a_copy_in_content_and_address_or_metadata_is_left_out(tmp_path):
    """A record, page or file is left out as a copy (a quarantine row naming the original) only
    when its content and its URL or metadata are the original's, however its file writes it (key
    order, spacing, another record format). The same text under another URL or outlet is an
    article of its own, in the original's dup_cluster. Plain files have nothing but their bytes:
    two files with the same bytes are one document."""
    seed = _seeds()[0]
    text = seed["title"] + "\n\n" + seed["text"]
    a = {"url": "https://a.example/story", "outlet": "Outlet A", "text": text}
    b = {"url": "https://b.example/story", "outlet": "Outlet B", "text": text}
    (tmp_path / "feed.jsonl").write_text("\n".join([
        json.dumps(a), json.dumps(b),
        json.dumps(dict(reversed(list(a.items()))), indent=None, separators=(",", ":")),  # a again, written otherwise
    ]) + "\n", encoding="utf-8")
    pd.DataFrame([a | {"outlet": "Outlet C"}, b]).to_csv(tmp_path / "more.csv", index=False)  # C is new, b a copy
    page = "<html><head><link rel='canonical' href='{}'><title>{}</title></head><body><article>{}</article></body></html>"
    body = "".join(f"<p>{p}</p>" for p in seed["text"].split("\n\n"))
    (tmp_path / "page-a.html").write_text(page.format("https://d.example/story", seed["title"], body), encoding="utf-8")
    (tmp_path / "page-b.html").write_text(page.format("https://d.example/story", seed["title"], body), encoding="utf-8")
    (tmp_path / "page-c.html").write_text(page.format("https://e.example/story", seed["title"], body), encoding="utf-8")
    (tmp_path / "plain-1.txt").write_text(text, encoding="utf-8")
    (tmp_path / "plain-2.txt").write_text(text, encoding="utf-8")
    sources = ["feed.jsonl", "more.csv", "page-a.html", "page-b.html", "page-c.html", "plain-1.txt", "plain-2.txt"]
    out = clean_sources(tmp_path, sources, Settings())
    kept = [row["source"] for row in out.articles]
    assert kept == ["feed.jsonl#L1", "feed.jsonl#L2", "more.csv#0", "page-a.html", "page-c.html", "plain-1.txt"]
    left_out = {q["source"]: q for q in out.quarantine}
    assert set(left_out) == {"feed.jsonl#L3", "more.csv#1", "page-b.html", "plain-2.txt"}
    for copy, original in (("feed.jsonl#L3", "feed.jsonl#L1"), ("more.csv#1", "feed.jsonl#L2"),
                           ("page-b.html", "page-a.html"), ("plain-2.txt", "plain-1.txt")):
        assert left_out[copy]["stage"] == "validate" and f" as {original} (doc_id " in left_out[copy]["error"]
    clusters = syndication.cluster_rows(out.articles)
    assert len({c for c, _ in clusters}) == 1 and min(s for _, s in clusters) >= 0.7
