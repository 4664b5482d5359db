"""The rules' declared conditions (newsclean.cleaners.rules.base.when) over a batch's lines, in one pass.

A text-only rule may declare a necessary condition on its line as a polars expression over the
lines frame: `text`, `lower` (the text in lower case), `n_chars` (its length in characters) and
`n_words` (len(shape.words(text)) where the text is ASCII, null elsewhere). All the conditions of a
rule set are evaluated together over the batch's new lines (polars runs them in its own threads, in
Rust), and the rules are called only on the lines where theirs holds
(newsclean.cleaners.rules._Proposer.prime). A condition that is also sufficient on ASCII texts
(`when(..., proposes=...)`) spares the call there altogether: the building blocks below
(ends_sentence, on_ascii) are exact on ASCII texts and never claim more than the truth on others.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Callable, Sequence

import numpy as np
import polars as pl


# Line.lower's fold after lower(): the letters re.IGNORECASE equates with ASCII ones
_FOLD_FROM, _FOLD_TO = ["ı", "ſ", "\u0307"], ["i", "s", ""]


# newsclean.cleaners.shape.WORD on ASCII text: [^\W_] is an ASCII letter or digit there, and the
# curly apostrophe cannot occur
_ASCII_WORD = r"[A-Za-z0-9]+(?:'[A-Za-z0-9]+)*"
# the ASCII characters str.isspace() holds for (str.split's separators, re's \s)
ASCII_SPACE = r"\t\n\x0b\x0c\r\x1c-\x1f "


def lines_frame(texts: Sequence[str]) -> pl.DataFrame:
    """The columns a condition may read, one row per text: `text`, `lower` (lower case, folded as
    newsclean.cleaners.rules.base.Line.lower folds it), `n_chars`, and `n_words` (its words as
    newsclean.cleaners.shape.words finds them, counted where the text is ASCII; null elsewhere)."""
    text = pl.Series("text", texts, dtype=pl.String)
    lower = text.str.to_lowercase().str.replace_many(_FOLD_FROM, _FOLD_TO).alias("lower")
    frame = pl.DataFrame([text, lower, text.str.len_chars().alias("n_chars")])
    return frame.with_columns(pl.when(pl.col("text").str.contains(r"^[\x00-\x7F]*$"))
                              .then(pl.col("text").str.count_matches(_ASCII_WORD)).alias("n_words"))


def ends_sentence() -> pl.Expr:
    """newsclean.cleaners.shape.ends_sentence on ASCII texts (closing quotes and brackets stripped, a
    final ". ! ?"); on others True only where it holds too (the marks and closers of other scripts
    are not looked for, so it may say False where a line ends in "。" or ".”")."""
    return pl.col("text").str.strip_chars_end("'\")]").str.contains(r"[.!?]$")


def on_ascii(exact: pl.Expr) -> pl.Expr:
    """`exact` where the text is ASCII (where `n_words` is counted), True elsewhere: a test written
    for ASCII texts that may say nothing about others."""
    return exact | pl.col("n_words").is_null()


def _looked(frame: pl.DataFrame, conditions: Sequence[Callable[[], pl.Expr]]) -> pl.DataFrame:
    """One row per text of the lines frame: whether each condition holds (c0, c1, ...), then `n_words`."""
    return frame.select([*(pl.lit(True).and_(c()).fill_null(True).alias(f"c{k}") for k, c in enumerate(conditions)),
                         "n_words"])


@lru_cache(maxsize=1)
def _ascii_function_words() -> pl.Series:
    """newsclean.cleaners.shape.FUNCTION_WORDS' ASCII words (an ASCII text's words can be no others)."""
    from newsclean.cleaners.shape import FUNCTION_WORDS

    return pl.Series(sorted(w for w in FUNCTION_WORDS if w.isascii()), dtype=pl.String).implode()


def function_words_of_sentences(frame: pl.DataFrame) -> dict[int, int]:
    """By row of the lines frame, how many of the text's words (as `n_words` counts them) are
    FUNCTION_WORDS once lower-cased, for the ASCII texts that end a sentence only: those whose words
    shape.is_sentence_like weighs (it asks for the sentence mark first). `lower` is the text
    lower-cased there (Line.lower's fold touches no ASCII letter), and an ASCII letter's case
    changes no word bound."""
    counted = (frame.with_row_index("row").filter(pl.col("n_words").is_not_null() & ends_sentence())
               .select("row", pl.col("lower").str.extract_all(_ASCII_WORD)
                       .list.eval(pl.element().is_in(_ascii_function_words())).list.sum().alias("n_function")))
    return dict(zip(counted.get_column("row").to_list(), counted.get_column("n_function").to_list()))


def condition_matrix(texts: Sequence[str], conditions: Sequence[Callable[[], pl.Expr]]) -> np.ndarray:
    """bool (len(texts), len(conditions)): whether each condition holds on each text."""
    if not texts or not conditions:
        return np.ones((len(texts), len(conditions)), dtype=bool)
    return _looked(lines_frame(texts), conditions).drop("n_words").to_numpy().astype(bool, copy=False)


def first_look(texts: Sequence[str], conditions: Sequence[Callable[[], pl.Expr]]) -> tuple[list[int | None], list[int | None], dict[int, int]]:
    """In one columnar pass over `texts`: per text, the conditions that hold as the bits of an int
    (bit k: conditions[k]; None for every text when there are no conditions), its number of
    words (len(newsclean.cleaners.shape.words(text))) where the text is ASCII, else None (the words
    of other scripts are found in Python; where a condition may decide its rule,
    newsclean.cleaners.rules.base.when, the text is ASCII), and by position in `texts`, how many of
    those words are function words where the ASCII text ends a sentence (function_words_of_sentences)."""
    if not texts:
        return [], [], {}
    frame = lines_frame(texts)
    looked = _looked(frame, conditions)
    n_words = looked.get_column("n_words").to_list()
    n_function = function_words_of_sentences(frame)
    if not conditions:
        return [None] * len(texts), n_words, n_function
    matrix = looked.drop("n_words").to_numpy().astype(bool, copy=False)
    weights = np.left_shift(np.int64(1), np.arange(len(conditions), dtype=np.int64))
    return (matrix.astype(np.int64) @ weights).tolist(), n_words, n_function
