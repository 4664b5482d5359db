"""RAW_DIR in object storage: `s3://bucket/prefix` read through fsspec and s3fs from a real S3 API
(moto's server mode on 127.0.0.1, as s3fs tests itself) gives the tables a run over the same files on
local disk gives, big files cut into parts that seek in the object, incrementally: an unchanged
object is skipped, a changed one re-cleaned, a deleted one's rows dropped."""
from __future__ import annotations

import contextlib
import datetime as dt
import json
import logging
import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from newsclean.cleaners import store
from newsclean.cleaners.readers import discover, ranges, read_source, storage
from newsclean.cleaners.settings import Settings
from newsclean.cleaners.types import DocumentError, RawDocument
from newsclean.flows.prefect_api import free_port
from tests.articles import page
from tests.conftest import ROOT, SEEDS_RAW
from tests.test_flow_parts import N_RECORDS, _dump
from tests.test_streaming_readers import _warc

BUCKET = "news"
RAW_URL = f"s3://{BUCKET}/raw"
SETTINGS = Settings(batch_size=10)
# columns that say when a row was written, not what it is
WHEN = {"cleaned_at"}


@pytest.fixture(scope="module")
def s3_env():
    """A moto S3 server on 127.0.0.1 and the environment s3fs reads its endpoint and keys from."""
    import s3fs
    from moto.server import ThreadedMotoServer

    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # not a line per request
    port = free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    env = {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing", "AWS_DEFAULT_REGION": "us-east-1",
           "AWS_ENDPOINT_URL": f"http://127.0.0.1:{port}"}
    with pytest.MonkeyPatch.context() as mp:
        for key, value in env.items():
            mp.setenv(key, value)
        s3fs.S3FileSystem.clear_instance_cache()  # an instance made for another endpoint is not reused
        try:
            yield env
        finally:
            s3fs.S3FileSystem.clear_instance_cache()
            server.stop()


@pytest.fixture(scope="module")
def s3(s3_env):
    import s3fs

    fs = s3fs.S3FileSystem()
    fs.mkdir(BUCKET)
    return fs


def _corpus(tmp: Path) -> dict[str, bytes]:
    """Relative key -> bytes: the seeds, an HTML page, a JSONL file, a .warc.gz, a big JSONL
    (over ranges.SPLIT_MIN_BYTES) and a file no reader takes."""
    big = tmp / "dump.jsonl"
    _dump(big)
    records = [{"id": f"n{i}", "title": f"Council story {i}", "url": f"https://www.reuters.com/world/n-{i}",
                "html": page(f"Council votes on plan number {i}")} for i in range(3)]
    files = {f"seeds/{p.name}": p.read_bytes() for p in sorted(SEEDS_RAW.glob("*.txt"))}
    files.update({
        "pages/story.html": page().encode("utf-8"),
        "feeds/news.jsonl": "".join(json.dumps(r) + "\n" for r in records).encode("utf-8"),
        "crawl/crawl.warc.gz": _warc(3),
        "dumps/dump.jsonl": big.read_bytes(),
        "docs/paper.pdf": b"%PDF-1.4 not read",
    })
    return files


def _write_local(root: Path, files: dict[str, bytes]) -> None:
    for rel, data in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(data)


def _upload(fs, files: dict[str, bytes], prefix: str = f"{BUCKET}/raw") -> None:
    for rel, data in files.items():
        fs.pipe(f"{prefix}/{rel}", data)


def _flow():
    from prefect.task_runners import ThreadPoolTaskRunner

    from newsclean.flows.clean_corpus import clean_corpus
    return clean_corpus.with_options(task_runner=ThreadPoolTaskRunner(max_workers=2))


def _table(out: Path | str, name: str) -> list[tuple]:
    """A table's rows, sorted, without the columns that say when; `out` a folder or a URL."""
    frame = pd.read_parquet(f"{out}/{name}.parquet")
    frame = frame[[c for c in frame.columns if c not in WHEN]]
    return sorted(map(tuple, frame.astype(str).itertuples(index=False)))


TABLES = ("articles", "removed", "quarantine", "lines")


def test_objects_are_discovered_as_the_same_files_on_disk(s3, tmp_path):
    files = _corpus(tmp_path)
    local = tmp_path / "raw"
    _write_local(local, files)
    _upload(s3, files, f"{BUCKET}/discover")
    url = f"s3://{BUCKET}/discover"
    assert discover(url) == discover(local)
    assert "docs/paper.pdf" in dict(discover(url)[1])

    sizes = list(storage.stats(url, sorted(files)))
    assert [s for s, _, _ in sizes] == [len(files[k]) for k in sorted(files)]

    # the big JSON lines object is cut where the local file is, and each part seeks in the object
    parts = ranges.split(url, "dumps/dump.jsonl", SETTINGS, SETTINGS.batch_size)
    assert parts == ranges.split(local, "dumps/dump.jsonl", SETTINGS, SETTINGS.batch_size)
    assert len(parts) == 5 and all(p.offset is not None for p in parts)
    third = [d.source for d in read_source(url, "dumps/dump.jsonl", SETTINGS, parts[2])]
    assert third == [f"dumps/dump.jsonl#L{i + 1}" for i in range(parts[2].start, parts[2].stop)]


def test_an_object_over_max_file_bytes_or_gone_is_a_read_error(s3):
    s3.pipe(f"{BUCKET}/limits/a.txt", b"x" * 2000)
    url = f"s3://{BUCKET}/limits"
    with pytest.raises(DocumentError, match="over the max_file_bytes limit of 1,000"):
        list(read_source(url, "a.txt", Settings(max_file_bytes=1000)))
    with pytest.raises(DocumentError, match="disappeared between discovery and reading"):
        list(read_source(url, "gone.txt", Settings()))


def test_a_same_size_rewrite_of_an_object_changes_its_stamp(s3):
    key, url = f"{BUCKET}/stamp/a.txt", f"s3://{BUCKET}/stamp"
    s3.pipe(key, b"first version")
    (before,) = storage.stats(url, ["a.txt"])
    s3.pipe(key, b"other version")  # same size, most likely the same second
    (after,) = storage.stats(url, ["a.txt"])
    assert before[0] == after[0] and before[1] != after[1]


def test_a_change_stamp_keeps_the_second_and_takes_the_etag():
    when = dt.datetime(2026, 1, 2, 3, 4, 5, tzinfo=dt.timezone.utc)
    a = storage.change_stamp({"LastModified": when, "ETag": '"abc"'})
    b = storage.change_stamp({"LastModified": when, "ETag": '"abd"'})
    assert a // 10**9 == b // 10**9 == int(when.timestamp()) and a != b
    assert storage.change_stamp({"created": 12.5}) == 12_500_000_000


def test_memory_urls_read_through_the_same_readers():
    import fsspec

    fs = fsspec.filesystem("memory")
    fs.pipe("/newsclean-test/raw/a/story.txt", b"Council votes to expand the bus network.\n")
    fs.pipe("/newsclean-test/raw/b.html/inner.txt", b"a folder named like a page")
    for name in ("articles.parquet", "run.json", "removed.parquet"):  # an OUT_DIR copied into the prefix
        fs.pipe(f"/newsclean-test/raw/old/clean/{name}", b"PAR1")
    try:
        sources, skipped = discover("memory://newsclean-test/raw")
        assert sources == ["a/story.txt", "b.html/inner.txt"]
        assert skipped == [("b.html", "is a directory, not a file; rename it or move its files up"),
                           ("old/clean", "is a newsclean OUT_DIR (its own output tables); not read as input. "
                                         "Move OUT_DIR outside RAW_DIR")]
        (doc,) = read_source("memory://newsclean-test/raw", "a/story.txt", Settings())
        assert isinstance(doc, RawDocument) and doc.source == "a/story.txt"
    finally:
        fs.rm("/newsclean-test", recursive=True)


def test_a_file_url_is_the_local_folder(tmp_path):
    (tmp_path / "a.txt").write_text("Council votes to expand the bus network.\n", encoding="utf-8")
    assert storage.location(tmp_path.as_uri()) == tmp_path and not storage.is_remote(tmp_path.as_uri())
    assert discover(tmp_path.as_uri()) == discover(tmp_path)


def test_s3_without_s3fs_names_the_extra(monkeypatch):
    registry = sys.modules["fsspec.registry"]  # the module (fsspec.registry is its read-only view)
    monkeypatch.delitem(registry._registry, "s3", raising=False)
    monkeypatch.setitem(sys.modules, "s3fs", None)  # an import of it fails as if not installed
    with pytest.raises(storage.StorageError, match=r"pip install 'newsclean\[s3\]'"):
        storage.location("s3://bucket/raw")


@pytest.mark.prefect
@pytest.mark.slow
def test_a_run_over_objects_gives_the_local_run_tables_and_is_incremental(s3, tmp_path):
    files = _corpus(tmp_path)
    local, out_local, out = tmp_path / "raw", tmp_path / "out-local", tmp_path / "out-s3"
    _write_local(local, files)
    _upload(s3, files)

    def both() -> dict:
        """A run over the objects and one over the same files on disk: same tables, same plan."""
        on_disk = _flow()(raw_dir=str(local), out_dir=str(out_local), settings=SETTINGS)
        summary = _flow()(raw_dir=RAW_URL, out_dir=str(out), settings=SETTINGS)
        for name in TABLES:
            assert _table(out, name) == _table(out_local, name), name
        assert {k: summary[k] for k in ("docs_read", "docs_cleaned", "docs_quarantined")} == \
            {k: on_disk[k] for k in ("docs_read", "docs_cleaned", "docs_quarantined")}
        # the same plan; objects are fingerprinted from their ETags, files by hashing their bytes
        assert summary["incremental"]["files_hashed"] == 0
        assert {**summary["incremental"], "files_hashed": None} == {**on_disk["incremental"], "files_hashed": None}
        return summary

    first = both()
    assert first["docs_cleaned"] > N_RECORDS and first["incremental"]["full_reason"] == "no previous manifest"
    assert "raw text unavailable" not in (out / "report.html").read_text(encoding="utf-8")  # it read the objects

    again = both()
    assert again["incremental"]["sources_to_clean"] == 0 and again["incremental"]["files_hashed"] == 0

    seed = next(k for k in files if k.startswith("seeds/"))
    edited = files[seed].replace(b"e", b"E", 1)  # same size: the object's change stamp must tell
    assert len(edited) == len(files[seed]) and edited != files[seed]
    s3.pipe(f"{BUCKET}/raw/{seed}", edited)
    (local / seed).write_bytes(edited)
    changed = both()["incremental"]
    assert changed["changed"] == 1 and changed["new"] == 0

    s3.rm(f"{BUCKET}/raw/crawl/crawl.warc.gz")
    (local / "crawl" / "crawl.warc.gz").unlink()
    deleted = both()
    assert deleted["incremental"]["sources_deleted"] == 1
    for name in ("articles", "quarantine"):
        assert not pd.read_parquet(out / f"{name}.parquet")["source"].str.startswith("crawl/").any()


def _cli(*args: str, env: dict, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "newsclean.flows.cli", *args], capture_output=True, text=True,
                          timeout=timeout, env={**os.environ, **env}, cwd=ROOT)


@pytest.mark.prefect
@pytest.mark.slow
def test_the_cli_runs_over_a_bucket_prefix(s3, s3_env, tmp_path, prefect_server):
    files = {k: v for k, v in _corpus(tmp_path).items() if not k.startswith("dumps/")}
    local = tmp_path / "raw"
    _write_local(local, files)
    _upload(s3, files, f"{BUCKET}/cli")
    out, out_local = tmp_path / "out", tmp_path / "out-local"
    proc = _cli("run", f"s3://{BUCKET}/cli", str(out), env={**prefect_server[1], **s3_env})  # the session's Prefect server
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert json.loads((out / "run.json").read_text(encoding="utf-8"))["raw_dir"] == f"s3://{BUCKET}/cli"
    _flow()(raw_dir=str(local), out_dir=str(out_local), settings=Settings())
    for name in TABLES:
        assert _table(out, name) == _table(out_local, name), name


@pytest.mark.prefect
def test_a_missing_bucket_or_prefix_is_a_one_line_error(s3, s3_env, tmp_path):
    for raw in ("s3://no-such-bucket/raw", f"s3://{BUCKET}/no-such-prefix"):
        proc = _cli("run", raw, str(tmp_path / "out"), env=s3_env, timeout=120)
        assert proc.returncode == 2, proc.stderr[-2000:]
        assert "Traceback" not in proc.stderr and proc.stderr.strip().count("\n") == 0, proc.stderr
        assert proc.stderr.startswith(f"error: RAW_DIR {raw} does not exist")


@pytest.fixture
def gets(monkeypatch):
    """The GET requests s3fs sends, counted per key (the flow runs its tasks in threads here)."""
    import collections

    import s3fs

    counted: collections.Counter = collections.Counter()
    call = s3fs.S3FileSystem._call_s3

    async def counting(self, method, *args, **kwargs):
        if method == "get_object":
            counted[kwargs.get("Key")] += 1
        return await call(self, method, *args, **kwargs)

    monkeypatch.setattr(s3fs.S3FileSystem, "_call_s3", counting)
    return counted


@pytest.mark.prefect
@pytest.mark.slow
def test_a_run_fetches_each_object_once_and_fingerprints_it_from_the_listing(s3, tmp_path, gets):
    """The fingerprint, the corpus pass, the scan of a big file's parts and the cleaning share one
    fetch of each object (the run's spool); an object re-uploaded with the same bytes is not read
    again, a changed one is fetched once, and one the store would not give is read again next run."""
    files = _corpus(tmp_path)
    prefix = f"{BUCKET}/once"
    _upload(s3, files, prefix)
    url, out = f"s3://{prefix}", tmp_path / "out"
    sources, _ = discover(url)
    assert s3.size(f"{prefix}/dumps/dump.jsonl") > ranges.SPLIT_MIN_BYTES  # cut into parts, scanned first
    gets.clear()
    first = _flow()(raw_dir=url, out_dir=str(out), settings=SETTINGS)
    assert first["docs_cleaned"] > N_RECORDS and first["corpus"]["files_read"] == len(sources)
    assert first["incremental"]["files_hashed"] == 0
    # report.html previews the first bytes of the file no reader takes (not a source) every run
    assert gets.pop("once/docs/paper.pdf") == 1
    assert dict(gets) == {f"once/{source}": 1 for source in sources}, "each object is fetched once"
    assert not any((out / store.STAGING).iterdir()), "the spool goes with the run's staging folder"

    seed = next(s for s in sources if s.startswith("seeds/"))
    s3.pipe(f"{prefix}/{seed}", files[seed])  # the same bytes again: a new date, the same ETag
    gets.clear()
    same = _flow()(raw_dir=url, out_dir=str(out), settings=SETTINGS)["incremental"]
    gets.pop("once/docs/paper.pdf")
    assert same["sources_to_clean"] == 0 and same["files_hashed"] == 0 and not gets

    edited = files[seed].replace(b"e", b"E", 1)
    s3.pipe(f"{prefix}/{seed}", edited)
    gets.clear()
    changed = _flow()(raw_dir=url, out_dir=str(out), settings=SETTINGS)["incremental"]
    gets.pop("once/docs/paper.pdf")
    assert changed["changed"] == 1 and gets[f"once/{seed}"] == 1 and max(gets.values()) == 1

    # an object the store refuses is quarantined; the next run, with the store answering, reads it
    other = next(s for s in sources if s.startswith("seeds/") and s != seed)
    s3.pipe(f"{prefix}/{other}", files[other].replace(b"e", b"E", 1))
    with _refusing(f"once/{other}"):
        _flow()(raw_dir=url, out_dir=str(out), settings=SETTINGS)
    quarantine = pd.read_parquet(out / "quarantine.parquet")
    (error,) = quarantine.loc[quarantine["source"] == other, "error"]
    assert error.startswith(storage.FETCH_ERRORS)
    again = _flow()(raw_dir=url, out_dir=str(out), settings=SETTINGS)["incremental"]
    assert again["rechecked"] == 1 and again["changed"] == 0
    assert other in set(pd.read_parquet(out / "articles.parquet")["source"])


@contextlib.contextmanager
def _refusing(key: str):
    """While entered, every GET of `key` fails as a store refusing it would."""
    import s3fs

    call = s3fs.S3FileSystem._call_s3

    async def refusing(fs, method, *args, **kwargs):
        if method == "get_object" and kwargs.get("Key") == key:
            raise PermissionError(f"access denied to {key}")
        return await call(fs, method, *args, **kwargs)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(s3fs.S3FileSystem, "_call_s3", refusing)
        yield
