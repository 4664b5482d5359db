"""Compiled evaluation of the packaged LightGBM boosters (lleaves), LightGBM the fallback.

    predict = predictor(booster, model_file)    # X (n, features) -> np.ndarray, as booster.predict
    p = predict(X)
    head = first_trees_predictor(booster, model_file, 4)   # the first quarter of the trees alone

lleaves (an LLVM compiler for LightGBM's text models) turns each booster into native code that
scores the same rows ~3x faster than `Booster.predict` (one core, no per-call set-up). The object
code is cached in a user cache folder, keyed by the model file's SHA-256, the lleaves and llvmlite
versions and the host CPU, so it is compiled once per machine (about 1 s per booster; the cache
file is written under a temporary name and renamed, so concurrent workers never read half a file).

The result must equal LightGBM's, bit for bit: trees are summed in LightGBM's order (no cache
blocking, fblocksize = the number of trees), and once compiled the code is checked against
`Booster.predict` on probe rows built from every split threshold of the model (each threshold,
its floating-point neighbours, zero, NaN) before the object code enters the cache, so loading
from the cache needs no LightGBM at all. Anything amiss (lleaves not installed, no compiler,
a probe that differs) and the booster's own `predict` is used, with one warning.

NEWSCLEAN_COMPILED_MODEL=0 turns the compiled path off; NEWSCLEAN_MODEL_CACHE sets the cache folder
(default: $XDG_CACHE_HOME/newsclean/compiled-model, i.e. ~/.cache/...).
"""
from __future__ import annotations

import hashlib
import os
import re
import tempfile
import threading
import warnings
from functools import lru_cache
from pathlib import Path
from typing import Callable

import numpy as np

Predict = Callable[[np.ndarray], np.ndarray]
ENV_SWITCH = "NEWSCLEAN_COMPILED_MODEL"
ENV_CACHE = "NEWSCLEAN_MODEL_CACHE"
# Inlining the trees into one function would score ~25% faster still, but compiling the 150-tree
# booster that way takes ~40 s instead of ~1 s: not worth it on a fresh machine or in CI.
_INLINE = False
_PROBE_ROWS = 512
_CACHE_FILES = 64  # object files kept in the cache folder (5 per model: its chain's two boosters, title, the title's first member and gate)
_ZERO = float(np.float32(1e-35))  # LightGBM's kZeroThreshold
_ZERO_BITS = np.float32(1e-35).view(np.uint32)
_warned: set[str] = set()


def enabled() -> bool:
    return os.environ.get(ENV_SWITCH, "1").strip().lower() not in ("0", "false", "no", "off")


def cache_dir() -> Path:
    if os.environ.get(ENV_CACHE):
        return Path(os.environ[ENV_CACHE])
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "newsclean" / "compiled-model"


def _warn_once(key: str, message: str) -> None:
    if key not in _warned:
        _warned.add(key)
        warnings.warn(message, RuntimeWarning, stacklevel=3)


def _cache_key(model_bytes: bytes) -> str:
    import llvmlite
    import llvmlite.binding as llvm
    from importlib.metadata import version

    try:
        features = llvm.get_host_cpu_features().flatten()
    except RuntimeError:
        features = ""
    h = hashlib.sha256(model_bytes)
    for part in (version("lleaves"), llvmlite.__version__, llvm.get_process_triple(), llvm.get_host_cpu_name(),
                 features, f"inline={_INLINE}", "fblocksize=all"):
        h.update(b"\0" + part.encode())
    return h.hexdigest()[:32]


def _compile(model_file: Path, cache: Path | None, verify: Callable[[object], None]):
    """The lleaves model of `model_file`: read from `cache` when it exists, else compiled, checked
    with `verify` (which raises on a mismatch) and only then stored under `cache`, so a cached file
    is always one that passed the check."""
    import lleaves

    model = lleaves.Model(model_file=str(model_file))
    if cache is not None and cache.exists():
        model.compile(cache=str(cache), fblocksize=model.num_trees(), finline=_INLINE)
        return model
    tmp = None
    if cache is not None:
        try:
            cache.parent.mkdir(parents=True, exist_ok=True)
            fd, name = tempfile.mkstemp(prefix=cache.name + ".", suffix=".tmp", dir=cache.parent)
            os.close(fd)
            os.unlink(name)  # lleaves writes the object file where none exists yet
            tmp = Path(name)
        except OSError:
            tmp = None  # no writable cache: compile in memory only
    try:
        model.compile(cache=str(tmp) if tmp else None, fblocksize=model.num_trees(), finline=_INLINE)
        verify(model)
        if tmp is not None and tmp.exists():
            os.replace(tmp, cache)
            _prune(cache.parent)
    finally:
        if tmp is not None and tmp.exists():
            tmp.unlink()
    return model


def _prune(folder: Path, keep: int = _CACHE_FILES) -> None:
    """Keep the newest `keep` object files (each retrained model adds its own)."""
    try:
        files = sorted(folder.glob("*.o"), key=lambda f: f.stat().st_mtime, reverse=True)
        for old in files[keep:]:
            old.unlink(missing_ok=True)
    except OSError:
        pass


_SPLIT = re.compile(r"^split_feature=(.*)$", re.M)
_THRESHOLD = re.compile(r"^threshold=(.*)$", re.M)


def probe_rows(model_text: str, n_features: int, rows: int = _PROBE_ROWS, seed: int = 0) -> np.ndarray:
    """Rows whose every value sits at a split of the model: each feature's thresholds, the next
    float below and above each, zero, NaN and far values, drawn at random per column (seeded)."""
    values: list[set[float]] = [{0.0, -0.0, -1.0, 1e30, -1e30, float("nan"), _ZERO, -_ZERO, 1e-40}
                                for _ in range(n_features)]
    for fs, ts in zip(_SPLIT.findall(model_text), _THRESHOLD.findall(model_text)):
        for f, t in zip(fs.split(), ts.split()):
            t = float(t)
            values[int(f)].update((t, float(np.nextafter(t, -np.inf)), float(np.nextafter(t, np.inf)),
                                   float(np.float32(t)), float(np.nextafter(np.float32(t), np.float32(np.inf)))))
    rng = np.random.default_rng(seed)
    X = np.empty((rows, n_features), dtype=np.float64)
    for j, vs in enumerate(values):
        X[:, j] = rng.choice(np.array(sorted(vs, key=lambda v: (np.isnan(v), v))), size=rows)
    return X


def lightgbm_input(X: np.ndarray) -> np.ndarray:
    """X as the float64 rows LightGBM's predictor sees: a value within kZeroThreshold (1e-35f) of
    zero reads as zero there (lleaves compares the value itself)."""
    X = np.asarray(X)
    X64 = np.empty(X.shape, dtype=np.float64)
    _convert_into(X, X64)
    return X64


def _convert_into(X: np.ndarray, out: np.ndarray) -> None:
    """lightgbm_input(X) written into `out` (float64, X's shape). For float32 X (the line features)
    the tiny values are found on the bits: 0 < |x| <= 1e-35f, i.e. 0 < bits(|x|) <= bits(1e-35f)."""
    if X.dtype == np.float32 and X.ndim == 2:
        bits = X.view(np.uint32) & np.uint32(0x7FFFFFFF)
        bits -= np.uint32(1)  # 0 wraps to the top: only 1..bits(1e-35f) fall below
        tiny = bits < _ZERO_BITS
        np.copyto(out, X)
        if tiny.any():
            out[tiny] = 0.0
        return
    np.copyto(out, X)
    np.copyto(out, 0.0, where=np.abs(out) <= _ZERO)


def _copy_into(X: np.ndarray, out: np.ndarray) -> None:
    np.copyto(out, X)


class JoinedRows:
    """The rows np.hstack([left[rows], right]) without writing them out: a booster converts them a
    block at a time into its float64 buffer (scored_in_blocks), as it would the joined array. The
    headline's rows are the line features of its candidates (most lines of a page) beside their
    title features: a copy of the candidates' line features costs more than scoring them."""

    def __init__(self, left: np.ndarray, rows: np.ndarray, right: np.ndarray):
        self.left, self.rows, self.right = left, rows, right
        self.shape = (len(rows), left.shape[1] + right.shape[1])

    def __len__(self) -> int:
        return len(self.rows)

    def __getitem__(self, which) -> "JoinedRows":
        """The rows `which` (a slice or an index array), joined alike."""
        return JoinedRows(self.left, self.rows[which], self.right[which])

    def __array__(self, dtype=None, copy=None) -> np.ndarray:
        out = np.empty(self.shape, dtype=np.result_type(self.left.dtype, self.right.dtype))
        self.write(0, len(self.rows), out, _copy_into)
        return out if dtype is None else out.astype(dtype, copy=False)

    def write(self, a: int, b: int, out: np.ndarray, convert: Callable[[np.ndarray, np.ndarray], None]) -> None:
        """Rows a:b into `out` (b - a rows), each side through `convert(side_rows, out_columns)`."""
        width = self.left.shape[1]
        convert(self.left[self.rows[a:b]], out[:, :width])
        convert(self.right[a:b], out[:, width:])


# Rows are converted to float64 and scored a block at a time, in one buffer per process and width
# that stays in the CPU's cache: converting a whole batch at once (hundreds of MB over a run) spent
# more time in fresh pages (and, where numpy asks the kernel for huge pages, their compaction) than
# in the copy itself.
_BLOCK_BYTES = 1 << 20
_buffers = threading.local()  # per thread (a task runner's threads score at once): width -> buffer


def scored_in_blocks(predict_rows: Predict, X: np.ndarray | JoinedRows) -> np.ndarray:
    """predict_rows(lightgbm_input(X)), converting and scoring X a block of rows at a time (see
    _BLOCK_BYTES)."""
    joined = X if isinstance(X, JoinedRows) else None
    if joined is None:
        X = np.asarray(X)
    n, width = X.shape
    block = max(64, _BLOCK_BYTES // (8 * max(width, 1)))
    mine = _buffers.__dict__
    buf = mine.get(width)
    if buf is None:
        buf = mine[width] = np.empty((block, width), dtype=np.float64)
    parts = []
    for a in range(0, max(n, 1), block):  # (no rows: one empty block, scored as before)
        m = min(block, n - a)
        if joined is None:
            _convert_into(X[a:a + m], buf[:m])
        else:
            joined.write(a, a + m, buf[:m], _convert_into)
        parts.append(predict_rows(buf[:m]))
    return np.concatenate(parts)


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    return a.shape == b.shape and bool(np.array_equal(a, b))


def read_booster(model_file: Path | str):
    """The LightGBM booster of a text model file (imports LightGBM: call it only when needed)."""
    import lightgbm as lgb

    return lgb.Booster(model_file=str(model_file))


def file_predictor(model_file: Path) -> Predict:
    """predictor of a packaged model file: its booster read from the file only if need be."""
    return predictor(lambda: read_booster(model_file), model_file)


def predictor(load_booster: Callable[[], object], model_file: Path | str | None) -> Predict:
    """`booster.predict(X, num_threads=1)`, compiled when possible (see the module docstring).
    `load_booster` returns the LightGBM booster; it is called only when the booster is needed: to
    check a fresh compilation, or as the fallback. A cached compilation needs neither, so a process
    with a warm cache never imports LightGBM (1.5-2 s of its start-up, measured)."""
    def fallback(X: np.ndarray | JoinedRows) -> np.ndarray:
        return load_booster().predict(np.asarray(X), num_threads=1)

    if model_file is None or not enabled():
        return fallback
    model_file = Path(model_file)
    try:
        import lleaves  # noqa: F401
    except ImportError:
        return fallback
    cache = None
    try:
        text = model_file.read_bytes()
        cache = cache_dir() / f"{model_file.stem}-{_cache_key(text)}.o"

        def verify(model) -> None:
            booster = load_booster()
            n_features = model.num_feature()
            if n_features != booster.num_feature():
                raise ValueError(f"lleaves reads {n_features} features, LightGBM {booster.num_feature()}")
            probe = probe_rows(text.decode("utf-8"), n_features)
            if not _same(model.predict(lightgbm_input(probe), n_jobs=1), booster.predict(probe, num_threads=1)):
                raise ValueError("compiled predictions differ from LightGBM's on the probe rows")

        model = _compile(model_file, cache, verify)

        def predict(X: np.ndarray) -> np.ndarray:
            return scored_in_blocks(lambda rows: model.predict(rows, n_jobs=1), X)
    except Exception as err:  # any failure: LightGBM as it is
        if cache is not None:
            try:
                cache.unlink(missing_ok=True)  # the next process compiles afresh
            except OSError:
                pass
        _warn_once(str(model_file), f"compiled model unavailable for {model_file.name} ({err}); using LightGBM")
        return fallback

    predict.compiled = True  # type: ignore[attr-defined]
    return predict


def first_trees_predictor(load_booster: Callable[[], object], model_file: Path | str | None, parts: int) -> Predict:
    """The raw score of a booster's first 1/parts of its trees (of a bag merged by
    newsclean.cleaners.model.bagging: its first member's), as `booster.predict(X, num_iteration=those
    trees)` for a model of one tree per iteration; compiled as predictor compiles a model file,
    from a text model of those trees alone (bagging.first_trees) written to a temporary file for the
    compiler. Without a model file, or when the text cannot be cut, the booster's own predict."""
    from newsclean.cleaners.model.bagging import first_trees

    def fallback(X: np.ndarray | JoinedRows) -> np.ndarray:
        booster = load_booster()
        return booster.predict(np.asarray(X), num_iteration=max(1, booster.num_trees() // parts), num_threads=1)

    if model_file is None or not enabled():
        return fallback
    model_file = Path(model_file)
    try:
        text = model_file.read_text(encoding="utf-8")
        trees = max(1, len(re.search(r"^tree_sizes=(.*)$", text, re.M).group(1).split()) // parts)
        head = first_trees(text, trees)
    except (OSError, ValueError, AttributeError) as err:
        _warn_once(f"{model_file}:first", f"first trees of {model_file.name} unavailable ({err}); using LightGBM")
        return fallback
    with tempfile.TemporaryDirectory(prefix="newsclean-trees-") as tmp:
        path = Path(tmp) / model_file.name.replace(".lgb.txt", f".first{trees}.lgb.txt")
        path.write_text(head, encoding="utf-8")
        # the compiled code is kept in memory (and the cache folder); the text is not read again
        return predictor(lru_cache(maxsize=1)(lambda: _booster_of_text(head)), path)


def _booster_of_text(text: str):
    import lightgbm as lgb

    return lgb.Booster(model_str=text)
