"""OUT_DIR in object storage (moto's S3 server on 127.0.0.1): a run reads raw objects and an
archive from the bucket, writes its tables there under the names a local OUT_DIR has them
(pandas, polars and duckdb read them by URL), switches OUT/_current last, and re-runs incrementally, also
from a fresh working copy (another machine). A publish that dies before its pointer leaves the
previous generation whole and current."""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pandas as pd
import polars
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from newsclean.cleaners import remote_out, store
from newsclean.cleaners.manifest import MANIFEST
from newsclean.cleaners.readers import storage
from tests.test_raw_object_storage import (SETTINGS, TABLES, _cli, _corpus, _flow, _table, _upload,  # noqa: F401
                                           _write_local, s3_env)

# moto's buckets live in its process for as long as it runs, past one server: a bucket of this
# module's own, not the one tests/test_raw_object_storage.py makes in the same worker
BUCKET = "news-out"
OUT_URL = f"s3://{BUCKET}/tables"


@pytest.fixture(scope="module")
def s3(s3_env):
    import s3fs

    fs = s3fs.S3FileSystem()
    fs.mkdir(BUCKET)
    return fs


@pytest.fixture
def work_dir(tmp_path, monkeypatch):
    """Working copies of OUT URLs under the test's folder, not the user's cache."""
    folder = tmp_path / "work"
    monkeypatch.setenv(storage.WORK_DIR_ENV, str(folder))
    return folder


def _generations(s3fs_, prefix: str) -> set[str]:
    s3fs_.invalidate_cache()
    return {p.rpartition("/")[2] for p in s3fs_.ls(f"{prefix}/{store.GENERATIONS}", detail=False)}


@pytest.mark.prefect
@pytest.mark.slow
def test_a_run_writes_its_tables_to_a_bucket_and_reruns_incrementally(s3, s3_env, tmp_path, work_dir, prefect_server):
    files = _corpus(tmp_path)
    local, out_local = tmp_path / "raw", tmp_path / "out-local"
    _write_local(local, files)
    _upload(s3, files, f"{BUCKET}/in")
    raw_url = f"s3://{BUCKET}/in"

    first = _flow()(raw_dir=raw_url, out_dir=OUT_URL, settings=SETTINGS)
    on_disk = _flow()(raw_dir=str(local), out_dir=str(out_local), settings=SETTINGS)
    assert first["out_dir"] == OUT_URL and first["outputs"]["articles"] == f"{OUT_URL}/articles.parquet"
    assert first["docs_cleaned"] == on_disk["docs_cleaned"] and first["docs_quarantined"] == on_disk["docs_quarantined"]
    for name in TABLES:  # pandas reads each table from the bucket by its name, as from the folder
        assert _table(OUT_URL, name) == _table(out_local, name), name
    pointer = json.loads(s3.cat_file(f"{BUCKET}/tables/{remote_out.POINTER}"))
    generation = pointer["generation"]
    assert set(pointer["files"]) == {f"{name}.parquet" for name in TABLES} | {MANIFEST}
    for name in pointer["files"]:  # the final names are the generation's files
        assert s3.cat_file(f"{BUCKET}/tables/{name}") == s3.cat_file(f"{BUCKET}/tables/{store.GENERATIONS}/{generation}/{name}")
    summary = json.loads(s3.cat_file(f"{BUCKET}/tables/run.json"))
    assert summary["out_dir"] == OUT_URL and summary["outputs"]["report"] == f"{OUT_URL}/report.html"
    assert s3.exists(f"{BUCKET}/tables/report.html")
    frame = polars.read_parquet(f"{OUT_URL}/articles.parquet",
                                storage_options={"aws_endpoint_url": s3_env["AWS_ENDPOINT_URL"], "aws_region": "us-east-1",
                                                 "aws_access_key_id": "testing", "aws_secret_access_key": "testing",
                                                 "aws_allow_http": "true"})
    assert frame.height == first["docs_cleaned"]
    # and duckdb, through the same fsspec file system (no extension to download)
    import duckdb

    con = duckdb.connect()
    con.register_filesystem(s3)
    assert con.execute(f"select count(*) from read_parquet('{OUT_URL}/articles.parquet')").fetchone()[0] == first["docs_cleaned"]

    # another machine: a fresh working copy downloads the live generation and cleans nothing
    fresh = {**prefect_server[1], **s3_env, storage.WORK_DIR_ENV: str(tmp_path / "other-machine")}  # the session's Prefect server
    proc = _cli("run", raw_url, OUT_URL, "--batch-size", str(SETTINGS.batch_size), env=fresh)
    assert proc.returncode == 0, proc.stderr[-3000:]
    again = json.loads(s3.cat_file(f"{BUCKET}/tables/run.json"))["incremental"]
    assert again["sources_to_clean"] == 0 and again["sources_kept"] == first["incremental"]["sources_total"]
    for name in TABLES:
        assert _table(OUT_URL, name) == _table(out_local, name), name
    second = json.loads(s3.cat_file(f"{BUCKET}/tables/{remote_out.POINTER}"))["generation"]
    assert second != generation and _generations(s3, f"{BUCKET}/tables") == {generation, second}

    # an edited object is cleaned again; the tables are those of the same run on disk
    seed = next(k for k in files if k.startswith("seeds/"))
    edited = files[seed].replace(b"e", b"E", 1)
    s3.pipe(f"{BUCKET}/in/{seed}", edited)
    (local / seed).write_bytes(edited)
    changed = _flow()(raw_dir=raw_url, out_dir=OUT_URL, settings=SETTINGS)
    _flow()(raw_dir=str(local), out_dir=str(out_local), settings=SETTINGS)
    assert changed["incremental"]["changed"] == 1 and changed["incremental"]["sources_to_clean"] >= 1
    for name in TABLES:
        assert _table(OUT_URL, name) == _table(out_local, name), name
    third = json.loads(s3.cat_file(f"{BUCKET}/tables/{remote_out.POINTER}"))["generation"]
    assert _generations(s3, f"{BUCKET}/tables") == {second, third}, "older generations are removed"


def _commit(work: Path, rows: int) -> str:
    """A local generation of `rows` articles (the other tables empty), committed into `work`."""
    stage = work / store.STAGING / f"s{rows}"
    stage.mkdir(parents=True)
    for name in TABLES:
        table = store.to_arrow(name, [])
        if name == "articles":
            table = pa.Table.from_pylist([{"doc_id": f"d{i}", "source": f"s{i}.txt"} for i in range(rows)])
        pq.write_table(table, stage / f"{name}.parquet")
    (stage / MANIFEST).write_text(json.dumps({"rows": rows}), encoding="utf-8")
    store.commit(stage, work)
    return os.readlink(work / store.GENERATIONS / store.CURRENT)


def test_a_publish_that_dies_before_its_pointer_leaves_the_previous_generation_current(s3, tmp_path, work_dir):
    url = f"s3://{BUCKET}/crash"
    work = storage.out_folder(url)
    work.mkdir(parents=True)
    assert remote_out.pull(url, work) is None  # nothing published yet

    first = _commit(work, 2)
    remote_out.publish(work, url)
    assert remote_out.current(url)["generation"] == first

    second = _commit(work, 3)
    write = type(s3)._pipe_file  # what s3fs's pipe() calls for each object

    async def dying(fs, path, *args, **kwargs):
        if str(path).endswith(remote_out.POINTER):
            raise ConnectionError("the run died here")
        return await write(fs, path, *args, **kwargs)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(type(s3), "_pipe_file", dying)
        with pytest.raises(ConnectionError):
            remote_out.publish(work, url)
    # the pointer still names the first generation, whose files are all there
    assert remote_out.current(url)["generation"] == first
    assert _generations(s3, f"{BUCKET}/crash") == {first, second}
    assert len(pd.read_parquet(f"{url}/{store.GENERATIONS}/{first}/articles.parquet")) == 2

    # the next run starts from the first generation: its working copy is brought back to it
    assert remote_out.pull(url, work) == first
    assert len(pd.read_parquet(work / "articles.parquet")) == 2
    third = _commit(work, 4)
    remote_out.publish(work, url)
    assert remote_out.current(url)["generation"] == third
    assert _generations(s3, f"{BUCKET}/crash") == {first, third}, "the dead run's upload is removed"
    assert len(pd.read_parquet(f"{url}/articles.parquet")) == 4

    # a working copy elsewhere gets the same files; an OUT emptied by hand empties the working copy
    other = tmp_path / "elsewhere"
    other.mkdir()
    assert remote_out.pull(url, other) == third and len(pd.read_parquet(other / "articles.parquet")) == 4
    s3.rm(f"{BUCKET}/crash", recursive=True)
    assert remote_out.pull(url, other) is None
    assert not (other / "articles.parquet").exists() and not (other / store.GENERATIONS).exists()
    shutil.rmtree(other)


def test_an_out_url_whose_bucket_is_missing_is_a_one_line_error(s3, s3_env, tmp_path, work_dir):
    proc = _cli("run", str(tmp_path), "s3://no-such-bucket/out", env={**s3_env, storage.WORK_DIR_ENV: str(work_dir)},
                timeout=120)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.strip() == "error: OUT_DIR s3://no-such-bucket/out cannot be written: its bucket no-such-bucket does not exist"
