"""py3langid's naive Bayes model scored over many texts at once, with the same results.

py3langid walks each text's bytes through its n-gram automaton one byte at a time in Python
(`visit_counts`, ~0.2 µs a byte), then scores the counted features against a float16 table. Here
the walk is a few numpy steps over every byte of a batch together: the automaton's state after a
byte depends only on the last `window` bytes (its deepest state spells that many bytes, and every
transition leads to the longest suffix that is a state), so each byte's state is found by walking
the `window` bytes that end there, all bytes of the batch side by side. The feature counts come
out in the order py3langid's Counter holds them (first visit), and each text is scored by the same
float32 product py3langid computes (its float16 table read as float32, which numpy does anyway),
so the label and the probability are identical (tests/test_language.py compares them with
py3langid's own `classify` on thousands of texts).
"""
from __future__ import annotations

import math
import unicodedata
from dataclasses import dataclass
from typing import Sequence

import numpy as np

# states reached per byte in one numpy step: bounds a batch's temporary arrays (~40 bytes a byte)
_CHUNK_BYTES = 1 << 20


def encoded(text: str) -> bytes:
    """The bytes py3langid reads of a text: all-capital text in lower case, NFC, UTF-8 (lone
    surrogates kept as their bytes)."""
    if text.isupper():
        text = text.lower()
    return unicodedata.normalize("NFC", text).encode("utf-8", errors="surrogatepass")


def automaton_window(nextmove: np.ndarray, nextmove_row: np.ndarray) -> int:
    """The depth of the automaton's deepest state (breadth first from the start state): the
    bytes that settle the state after any byte. -1 when some state cannot be reached (a layout
    this module does not know)."""
    rowbase = nextmove_row.astype(np.int64) << 8
    depth = np.full(len(nextmove_row), -1, dtype=np.int64)
    depth[0] = 0
    frontier, d = np.array([0]), 0
    every_byte = np.arange(256)
    while len(frontier):
        reached = nextmove[(rowbase[frontier][:, None] + every_byte).ravel()].astype(np.int64)
        frontier = np.unique(reached[depth[reached] < 0])
        d += 1
        depth[frontier] = d
    return -1 if (depth < 0).any() else int(depth.max())


@dataclass(frozen=True)
class NGramModel:
    """The arrays of py3langid's model (newsclean.cleaners.language.unpacked_tables)."""

    nextmove: np.ndarray  # unsigned: the next state, at rowbase[state] + byte (memory-mapped: shared)
    rowbase: np.ndarray  # int64: each state's row of nextmove, times 256
    out_feat: np.ndarray  # int32: the feature a state counts, -1 for none
    ptc: np.ndarray  # float32 (features, classes): log P(feature | class)
    pc: np.ndarray  # float32 (classes,): log P(class)
    classes: tuple[str, ...]
    aliases: tuple[tuple[int, int], ...]  # (first place, later place) of each label listed twice
    window: int

    @classmethod
    def from_tables(cls, tables: dict[str, np.ndarray]) -> "NGramModel":
        classes = tuple(tables["classes"].tolist())
        return cls(np.asarray(tables["nextmove"]), np.asarray(tables["nextmove_row"]).astype(np.int64) << 8,
                   np.asarray(tables["out_feat"]).astype(np.int32), np.asarray(tables["ptc32"]),
                   np.asarray(tables["pc"], dtype=np.float32), classes, _alias_pairs(classes), int(tables["window"]))

    def states(self, data: np.ndarray, offset: np.ndarray) -> np.ndarray:
        """The state after each byte of `data` (int32 bytes; `offset`: each byte's place in its own
        text, so no walk reaches back into the text before)."""
        state = np.zeros(len(data), dtype=self.nextmove.dtype)
        for back in range(self.window - 1, 0, -1):  # the byte `back` places before each, if its text has it
            stepped = self.nextmove[self.rowbase[state[back:]] + data[:-back]]
            state[back:] = np.where(offset[back:] >= back, stepped, state[back:])
        return self.nextmove[self.rowbase[state] + data]

    def classify_many(self, texts: Sequence[str]) -> list[tuple[str, float]]:
        """(label, probability) for each text, as py3langid's `classify` with norm_probs gives it."""
        out: list[tuple[str, float]] = []
        chunk: list[bytes] = []
        size = 0
        for text in texts:
            chunk.append(encoded(text))
            size += len(chunk[-1])
            if size >= _CHUNK_BYTES:
                out += self._classify_encoded(chunk)
                chunk, size = [], 0
        return out + self._classify_encoded(chunk) if chunk else out

    def _classify_encoded(self, texts: list[bytes]) -> list[tuple[str, float]]:
        lengths = np.fromiter(map(len, texts), dtype=np.int64, count=len(texts))
        data = np.frombuffer(b"".join(texts), dtype=np.uint8).astype(np.int32)
        text_of = np.repeat(np.arange(len(texts), dtype=np.int64), lengths)
        offset = np.arange(len(data), dtype=np.int64) - (np.cumsum(lengths) - lengths)[text_of]
        feature = self.out_feat[self.states(data, offset)]
        counted = feature >= 0
        n_features = len(self.ptc)
        key = text_of[counted] * n_features + feature[counted]  # in byte order: each text's in turn
        # each distinct (text, feature) once, at its first visit, with its count
        order = np.argsort(key, kind="stable")
        ranked = key[order]
        starts = np.flatnonzero(np.r_[True, ranked[1:] != ranked[:-1]]) if len(key) else order
        counts = np.zeros(len(key), dtype=np.float32)
        counts[order[starts]] = np.diff(np.r_[starts, len(key)])
        firsts = np.flatnonzero(counts)  # the first visits, in byte order
        counts, key = counts[firsts], key[firsts]
        bounds = np.searchsorted(key // n_features, np.arange(len(texts) + 1))
        features = key % n_features
        return [self._decided(counts[a:b], features[a:b], int(n))
                for a, b, n in zip(bounds[:-1].tolist(), bounds[1:].tolist(), lengths.tolist())]

    def _decided(self, counts: np.ndarray, features: np.ndarray, n_bytes: int) -> tuple[str, float]:
        """py3langid's scoring of one text's counted features (norm_probs): the naive Bayes
        log-posterior, tempered by the square root of the text's bytes, as probabilities; a label
        listed twice (a script alias) holds their sum at its first place."""
        if len(counts):
            scores = np.log1p(counts) @ self.ptc[features] + self.pc
        else:
            scores = np.zeros(len(self.classes), dtype=np.float32)
        scores *= 1.0 / math.sqrt(n_bytes or 1)
        np.exp(scores - scores.max(), out=scores)
        scores /= scores.sum()
        for first, again in self.aliases:
            scores[first] += scores[again]
            scores[again] = 0.0
        best = int(scores.argmax())
        return self.classes[best], float(scores[best])


def _alias_pairs(classes: tuple[str, ...]) -> tuple[tuple[int, int], ...]:
    """(first place, later place) of each label listed more than once."""
    first: dict[str, int] = {}
    pairs = []
    for i, label in enumerate(classes):
        if label in first:
            pairs.append((first[label], i))
        else:
            first[label] = i
    return tuple(pairs)
