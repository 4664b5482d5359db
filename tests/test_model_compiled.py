"""The compiled boosters (newsclean.cleaners.model.compiled) score exactly as LightGBM does, and fall back to it."""
from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path

import numpy as np
import pytest

from newsclean.cleaners.model import FILES, LineModel
from newsclean.cleaners.model import compiled

lgb = pytest.importorskip("lightgbm")
DEVSET = Path(__file__).parent / "data" / "devset_subset" / "pages.jsonl.gz"  # in the repo


def _small_booster(tmp_path: Path, objective: str = "binary", seed: int | None = None) -> tuple[object, Path]:
    """A 25-tree booster on random rows, saved and read back; with a seed, one of a bag (row and
    feature sampling on, so boosters of different seeds differ)."""
    rng = np.random.default_rng(3)
    X = rng.normal(size=(400, 6))
    X[:, 2] = np.round(X[:, 2])  # many exact zeros and ties
    X[rng.random(X.shape) < 0.05] = np.nan
    y = (np.nan_to_num(X[:, 0]) + np.nan_to_num(X[:, 2]) > 0.3).astype(int)
    params = {"objective": objective, "num_leaves": 7, "min_data_in_leaf": 5, "verbose": -1, "num_threads": 1}
    if seed is not None:
        params.update(seed=seed, bagging_fraction=0.7, bagging_freq=1, feature_fraction=0.8)
    if objective == "lambdarank":
        y = rng.integers(0, 3, size=len(y))
        ds = lgb.Dataset(X, y, group=[40] * 10)
    else:
        ds = lgb.Dataset(X, y)
    b = lgb.train(params, ds, num_boost_round=25)
    path = tmp_path / f"small-{objective}{'' if seed is None else f'-{seed}'}.lgb.txt"
    b.save_model(str(path))
    return lgb.Booster(model_file=str(path)), path


@pytest.mark.parametrize("objective", ["binary", "lambdarank"])
def test_small_model_bit_identical(tmp_path, monkeypatch, objective):
    pytest.importorskip("lleaves")
    monkeypatch.setenv(compiled.ENV_CACHE, str(tmp_path / "cache"))
    booster, path = _small_booster(tmp_path, objective)
    predict = compiled.predictor(lambda: booster, path)
    assert getattr(predict, "compiled", False)
    rng = np.random.default_rng(5)
    X = rng.normal(size=(300, 6)).astype(np.float32)  # the line features are float32
    X[::7, 1] = 0.0
    X[::11, 3] = np.float32(1e-36)  # LightGBM reads |x| <= 1e-35 as zero
    X[::13, 4] = np.nan
    assert np.array_equal(predict(X), booster.predict(X, num_threads=1))
    probe = compiled.probe_rows(path.read_text(), 6)
    assert np.array_equal(predict(probe), booster.predict(probe, num_threads=1))
    # the second load reads the cached object code
    assert len(list((tmp_path / "cache").glob("*.o"))) == 1
    again = compiled.predictor(lambda: booster, path)
    assert np.array_equal(again(X), booster.predict(X, num_threads=1))


def test_cached_compilation_needs_no_booster(tmp_path, monkeypatch):
    """Only a compilation that passed the probe check is cached, so a cache hit scores without
    ever reading the booster (a worker with a warm cache never imports LightGBM)."""
    pytest.importorskip("lleaves")
    monkeypatch.setenv(compiled.ENV_CACHE, str(tmp_path / "cache"))
    booster, path = _small_booster(tmp_path)
    calls = []
    first = compiled.predictor(lambda: calls.append(1) or booster, path)
    assert calls and getattr(first, "compiled", False)  # a fresh compilation is checked against LightGBM

    def no_booster():
        raise AssertionError("the booster was read")

    cached = compiled.predictor(no_booster, path)
    X = np.random.default_rng(4).normal(size=(40, 6))
    assert getattr(cached, "compiled", False) and np.array_equal(cached(X), booster.predict(X, num_threads=1))


def test_a_compilation_that_fails_its_check_is_never_cached(tmp_path, monkeypatch):
    pytest.importorskip("lleaves")
    monkeypatch.setenv(compiled.ENV_CACHE, str(tmp_path / "cache"))
    booster, path = _small_booster(tmp_path)
    other, _ = _small_booster(tmp_path, "lambdarank")  # same features, other trees: the probe differs
    with pytest.warns(RuntimeWarning, match="compiled model unavailable"):
        predict = compiled.predictor(lambda: other, path)
    assert not getattr(predict, "compiled", False)
    assert not list((tmp_path / "cache").glob("*.o"))


def test_packaged_model_scores_without_lightgbm_once_compiled():
    """A process whose compiled-model cache is warm loads and runs the packaged model without
    importing LightGBM (its import, with scikit-learn's, is about 2 s of every worker's start)."""
    import subprocess

    pytest.importorskip("lleaves")
    LineModel.load(FILES)  # warms the cache (the default folder, as the child process uses)
    code = ("import sys; from newsclean.cleaners.model import LineModel, FILES; m = LineModel.load(FILES); "
            "p, t = m.analyse(['Headline of the story', 'A first sentence of the body, long enough to read.']); "
            "assert len(p) == 2; print('lightgbm' in sys.modules)")
    root = Path(__file__).resolve().parents[1]
    out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "False"


def test_cache_key_follows_the_model_bytes():
    pytest.importorskip("lleaves")
    assert compiled._cache_key(b"tree a") != compiled._cache_key(b"tree b")
    assert compiled._cache_key(b"tree a") == compiled._cache_key(b"tree a")


def test_fallbacks(tmp_path, monkeypatch):
    booster, path = _small_booster(tmp_path)
    X = np.random.default_rng(1).normal(size=(20, 6))
    monkeypatch.setenv(compiled.ENV_SWITCH, "0")
    off = compiled.predictor(lambda: booster, path)
    assert not getattr(off, "compiled", False)
    assert np.array_equal(off(X), booster.predict(X, num_threads=1))
    monkeypatch.setenv(compiled.ENV_SWITCH, "1")
    assert not getattr(compiled.predictor(lambda: booster, None), "compiled", False)  # no file: LightGBM
    monkeypatch.setitem(sys.modules, "lleaves", None)  # not installed
    missing = compiled.predictor(lambda: booster, path)
    assert not getattr(missing, "compiled", False)
    assert np.array_equal(missing(X), booster.predict(X, num_threads=1))


def test_unwritable_cache_still_compiles(tmp_path, monkeypatch):
    pytest.importorskip("lleaves")
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    monkeypatch.setenv(compiled.ENV_CACHE, str(blocked / "cache"))
    booster, path = _small_booster(tmp_path)
    predict = compiled.predictor(lambda: booster, path)
    X = np.random.default_rng(2).normal(size=(50, 6))
    assert np.array_equal(predict(X), booster.predict(X, num_threads=1))


def test_packaged_model_identical_on_dev_pages(monkeypatch):
    """The shipped boosters, compiled, give LightGBM's exact scores on real documents."""
    pytest.importorskip("lleaves")
    if not DEVSET.exists():
        pytest.skip("dev pages not available")
    from newsclean.cleaners.lines import normalise_lines

    fast = LineModel.load(FILES)
    assert all(getattr(p, "compiled", False) for p in fast._predict.values())
    monkeypatch.setenv(compiled.ENV_SWITCH, "0")
    plain = LineModel.load(FILES)
    assert not any(getattr(p, "compiled", False) for p in plain._predict.values())
    with gzip.open(DEVSET, "rt", encoding="utf-8") as fh:
        pages = [json.loads(line) for _, line in zip(range(30), fh)]
    for page in pages:
        lines = [ln for ln in normalise_lines(page["text"]) if ln]
        p_fast, t_fast = fast.analyse(lines)
        p_plain, t_plain = plain.analyse(lines)
        assert np.array_equal(p_fast, p_plain) and t_fast == t_plain
        assert np.array_equal(fast.title_proba(lines), plain.title_proba(lines))
        X = np.random.default_rng(len(lines)).normal(size=(64, plain.booster("title_gate").num_feature()))
        assert np.array_equal(fast._predict["title_gate"](X), plain.booster("title_gate").predict(X, num_threads=1))


def test_cache_folder_is_pruned(tmp_path):
    import os

    for i in range(compiled._CACHE_FILES + 5):
        f = tmp_path / f"m{i}.o"
        f.write_bytes(b"x")
        os.utime(f, (i, i))
    compiled._prune(tmp_path)
    left = sorted(int(f.stem[1:]) for f in tmp_path.glob("*.o"))
    assert left == list(range(5, compiled._CACHE_FILES + 5))  # the newest kept


def test_warm_up_freezes_and_raises_the_threshold():
    """warm_up (for a worker's start) loads the model and freezes what is alive; run in a child
    process, since it changes the process's garbage-collector settings."""
    import subprocess

    code = ("import gc; from newsclean.cleaners.model import warm_up, GC_YOUNG_THRESHOLD; m = warm_up(); "
            "assert m is not None and gc.get_freeze_count() > 1000, gc.get_freeze_count(); "
            "assert gc.get_threshold()[0] == GC_YOUNG_THRESHOLD; print('ok')")
    root = Path(__file__).resolve().parents[1]
    out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr[-2000:]


def test_lightgbm_input_reads_tiny_values_as_zero():
    """float32 (bit test) and float64 paths agree with the plain rule |x| <= 1e-35f -> 0."""
    zero = float(np.float32(1e-35))
    special = np.array([0.0, -0.0, 1e-45, -1e-45, 1e-38, zero, -zero, np.nextafter(np.float32(zero), np.float32(1)),
                        1e-30, -1.0, 1.0, np.inf, -np.inf, np.nan], dtype=np.float32)
    rng = np.random.default_rng(9)
    X = rng.choice(special, size=(50, 7)).astype(np.float32)
    want = X.astype(np.float64)
    want[np.abs(want) <= zero] = 0.0
    for got in (compiled.lightgbm_input(X), compiled.lightgbm_input(X.astype(np.float64)),
                compiled.lightgbm_input(np.asfortranarray(X))):
        assert got.dtype == np.float64 and got.flags["C_CONTIGUOUS"]
        assert np.array_equal(got, want, equal_nan=True)
        assert np.array_equal(np.signbit(got[got == 0]) & (np.abs(want[got == 0]) > 0), np.zeros((got == 0).sum(), bool))


def test_parts_round_trip_through_save(tmp_path):
    """model.parts() gives what train.save writes and LineModel.load reads back: the same scores."""
    from newsclean.cleaners.model import train

    model = LineModel.load(FILES)
    parts = model.parts()
    from newsclean.cleaners.model import member_name

    chains = {member_name(stage, i) for stage in ("stage1", "stage2") for i in range(len(model._chains))}
    assert chains == {"stage1", "stage2"}  # the shipped student: one chain
    assert set(parts) == chains | {"title", "title_gate", "lexicon"}
    train.save(parts, tmp_path / "copy", model.meta)
    again = LineModel.load(tmp_path / "copy")
    lines = ["Headline of the story", "A first sentence of the body, long enough to read.", "Share this"]
    p1, t1 = model.analyse(lines)
    p2, t2 = again.analyse(lines)
    assert np.array_equal(p1, p2) and t1 == t2


def test_rows_scored_in_blocks_score_as_all_at_once():
    """The compiled boosters convert and score rows a block at a time (compiled.scored_in_blocks):
    over many blocks, float32 or float64 rows, with tiny values read as zero, the scores are
    LightGBM's own on the whole array."""
    import numpy as np

    from newsclean.cleaners.model import LineModel
    from newsclean.cleaners.model import compiled

    model = LineModel.default()
    name = model._chains[0][0]
    width = len(model._fx.FEATURE_NAMES)
    block = compiled._BLOCK_BYTES // (8 * width)
    rng = np.random.default_rng(3)
    X = rng.normal(size=(2 * block + 7, width)).astype(np.float32)
    X[0, :5] = np.float32(1e-36)  # within LightGBM's zero threshold
    X[block, :5] = np.float32(-1e-36)  # the first row of the second block
    want = model.booster(name).predict(X, num_threads=1)
    calls = []
    got = compiled.scored_in_blocks(lambda rows: calls.append(len(rows)) or model.booster(name).predict(rows, num_threads=1), X)
    assert calls == [block, block, 7]
    assert np.array_equal(got, want)
    assert np.array_equal(model._predict[name](X), want)
    assert np.array_equal(model._predict[name](X.astype(np.float64)), want)


def test_joined_rows_score_as_the_joined_array():
    """The headline's rows (compiled.JoinedRows: line features of some rows beside their title
    columns, never written out whole) are converted a block at a time into the boosters' buffer:
    over many blocks, tiny values read as zero on either side, the same scores as the joined array,
    compiled and through LightGBM, whole and in any subset of rows."""
    model = LineModel.default()
    booster = model.booster("title")
    extra = len(model._fx.TITLE_EXTRA)
    width = booster.num_feature() - extra  # the stage-2 rows' columns
    block = compiled._BLOCK_BYTES // (8 * (width + extra))
    rng = np.random.default_rng(11)
    left = rng.normal(size=(3 * block, width)).astype(np.float32)
    rows = np.sort(rng.choice(len(left), size=2 * block + 5, replace=False))
    right = rng.normal(size=(len(rows), extra)).astype(np.float32)
    left[rows[0], :3] = np.float32(1e-36)
    right[block, :3] = np.float32(-1e-36)  # the first row of the second block
    joined = compiled.JoinedRows(left, rows, right)
    whole = np.hstack([left[rows], right])
    assert joined.shape == whole.shape and len(joined) == len(whole)
    assert np.array_equal(np.asarray(joined), whole)
    pick = np.array([5, 0, block + 1, len(rows) - 1])
    assert np.array_equal(np.asarray(joined[pick]), whole[pick])
    assert np.array_equal(np.asarray(joined[3:block + 9]), whole[3:block + 9])
    want = booster.predict(compiled.lightgbm_input(whole), num_threads=1)
    calls = []
    got = compiled.scored_in_blocks(lambda X: calls.append(len(X)) or booster.predict(X, num_threads=1), joined)
    assert calls == [block, block, 5]
    assert np.array_equal(got, want)
    assert np.array_equal(model._predict["title"](joined), want)
    assert np.array_equal(model._predict["title"](joined[pick]), model._predict["title"](whole[pick]))
