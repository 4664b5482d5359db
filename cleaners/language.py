"""The language of a cleaned text, for the articles' `language` and `language_score` columns.

py3langid's naive Bayes model over byte n-grams, which the package ships (nothing is downloaded):
114 ISO 639-1 languages and 26 labels without a two-letter code. The column holds ISO 639-1 codes
only: a regional variety the model names by its three-letter code counts as its macrolanguage
(Egyptian Arabic `arz` is `ar`, Cantonese `yue` is `zh`); a label with no two-letter code, or
`zxx` (no linguistic content: numbers, symbols), gives no language.

The first MAX_CHARS characters decide: a news article's language is settled well within its
first paragraphs. The texts of a group are scored together (identify_many, newsclean.cleaners.
langid_batch: py3langid's results from a few numpy steps over all their bytes, ~0.2 ms a text
against ~0.65 for py3langid's walk byte by byte in Python).

Which of the cleaner's word lists and rules read which languages is said here too (CUE_LANGUAGES,
ENGLISH_ONLY_RULES), so a run can count its articles outside them (run.json `languages`).
"""
from __future__ import annotations

import hashlib
import io
import lzma
import os
import shutil
import tempfile
from collections import Counter
from functools import lru_cache
from pathlib import Path
from typing import Iterable, Sequence

import numpy as np

from newsclean.cleaners.langid_batch import NGramModel, automaton_window
from newsclean.cleaners.policy import EDGE_RULES

MAX_CHARS = 2_000

# py3langid labels without an ISO 639-1 code whose macrolanguage has one
_MACROLANGUAGE = {"arz": "ar", "ary": "ar", "yue": "zh", "wuu": "zh", "uzs": "uz", "gug": "gn", "sdh": "ku",
                  "fuv": "ff", "ltg": "lv", "kik": "ki"}

# The languages the cue rules' word lists read (navigation, calls to action, related links,
# captions, signatures, consent notices, bylines: cleaners/rules/), and those the text dates are
# read in (newsclean.cleaners.metadata.dates.DATE_LANGUAGES).
CUE_LANGUAGES = ("en", "de", "fr", "es", "it", "pt", "nl", "pl")
# Rules that judge prose by English function words: on an extracted HTML body they apply only where
# the body reads as English.
ENGLISH_ONLY_RULES = tuple(sorted(EDGE_RULES))


# The arrays the batched scoring reads (newsclean.cleaners.langid_batch), from py3langid's model file
# (an .npz, LZMA-compressed: ~0.5 s to unpack in every process), kept unpacked in the model cache
# folder (one .npy file each, memory-mapped: processes share the pages) once per machine and package
# version: the file's arrays (_TABLES), its feature table as float32 (`ptc32`, ~57 MB, in place of
# the file's float16 `ptc`) and the automaton's window, derived once (~0.6 s). ~93 MB in all.
_TABLES = ("ptc", "pc", "classes", "nextmove", "nextmove_row", "out_feat")
_STORED = ("ptc32", "pc", "classes", "nextmove", "nextmove_row", "out_feat", "window")


@lru_cache(maxsize=1)
def _identifier():
    """py3langid's own identifier, for a model file of a layout this code does not know (norm_probs:
    the score is a probability, a softmax over the languages, comparable across texts)."""
    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    return LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)


def unpacked_tables(model_file: Path) -> dict[str, np.ndarray] | None:
    """The arrays of _STORED, memory-mapped from the cache folder (newsclean.cleaners.model.
    compiled.cache_dir) when they were unpacked there before, else unpacked from the model file and
    stored there (a folder written under a temporary name and renamed: concurrent processes never
    read half of it). None when the file does not hold the arrays this module knows."""
    from importlib.metadata import version

    from newsclean.cleaners.model.compiled import cache_dir

    data = model_file.read_bytes()
    key = hashlib.sha256(data + b"\0" + version("py3langid").encode()).hexdigest()[:24]
    folder = cache_dir() / f"langid-{key}"
    try:
        return {name: np.load(folder / f"{name}.npy", mmap_mode="r") for name in _STORED}
    except (OSError, ValueError):
        pass  # not unpacked yet, or damaged: unpack again
    with lzma.open(io.BytesIO(data)) as src, np.load(io.BytesIO(src.read()), allow_pickle=False) as npz:
        if not set(_TABLES) <= set(npz.files):
            return None
        tables = {name: npz[name] for name in _TABLES}
    tables["ptc32"] = tables.pop("ptc").astype(np.float32)  # what numpy reads it as when it scores
    tables["window"] = np.array(automaton_window(tables["nextmove"], tables["nextmove_row"]))
    tmp = None
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        tmp = tempfile.mkdtemp(prefix=folder.name + ".", suffix=".tmp", dir=folder.parent)
        for name, values in tables.items():
            np.save(Path(tmp) / f"{name}.npy", values, allow_pickle=False)
        shutil.rmtree(folder, ignore_errors=True)  # a damaged copy
        os.replace(tmp, folder)
    except OSError:  # no writable cache (or another process just stored it): the arrays in memory serve
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
    return tables


@lru_cache(maxsize=1)
def _batch_model() -> NGramModel | None:
    """The model for scoring many texts at once, or None when the tables are of a layout this
    code does not know (py3langid's identifier scores each text then)."""
    from py3langid.langid import MODEL_DIR, MODEL_FILE

    tables = unpacked_tables(MODEL_DIR / MODEL_FILE)
    if tables is None or int(tables["window"]) < 1:
        return None
    return NGramModel.from_tables(tables)


def identify_many(texts: Sequence[str]) -> list[tuple[str | None, float | None]]:
    """identify for each text, all of them scored together (newsclean.cleaners.langid_batch)."""
    heads = [text[:MAX_CHARS] for text in texts]
    model = _batch_model()
    labelled = model.classify_many(heads) if model is not None else [_identifier().classify(head) for head in heads]
    return [_column_values(label, score) for label, score in labelled]


def identify(text: str) -> tuple[str | None, float | None]:
    """(ISO 639-1 code, the model's probability for it), or (None, None) when the text has no
    language the column can name."""
    return identify_many([text])[0]


def _column_values(label: str, score: float) -> tuple[str | None, float | None]:
    code = label if len(label) == 2 else _MACROLANGUAGE.get(label)
    if code is None:
        return None, None
    return code, round(float(score), 4)


def language_counts(languages: Iterable[str | None]) -> dict[str, int]:
    """Articles per language, most first; those without one under "none"."""
    counts = Counter(lang if isinstance(lang, str) else "none" for lang in languages)
    return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def rule_sets(language: str | None) -> dict[str, bool]:
    """Which of the cleaner's language-bound word lists and rules read a text of `language`: the
    cue rules' words (CUE_LANGUAGES) and ENGLISH_ONLY_RULES."""
    return {"cue_rules": language in CUE_LANGUAGES, "english_only_rules": language == "en"}


def coverage(counts: dict[str, int]) -> dict:
    """What the per-language counts mean for the cleaner: per language, its articles and whether
    the cue rules' word lists and ENGLISH_ONLY_RULES read it (`by_language`: a German article was
    cleaned without the English-only rules); and how many articles are in a language the cue
    rules do not read, or outside English."""
    total = sum(counts.values())
    english = counts.get("en", 0)
    return {
        "cue_rule_languages": list(CUE_LANGUAGES),
        "outside_cue_rule_languages": sum(n for lang, n in counts.items() if lang not in CUE_LANGUAGES),
        "english_only_rules": list(ENGLISH_ONLY_RULES),
        "not_english": total - english,
        "by_language": {lang: {"articles": n, **rule_sets(lang)} for lang, n in counts.items()},
    }
