"""The learned word lexicon: counted across sites from labels, read by the line features."""
import json

import numpy as np
import pytest

from newsclean.cleaners.model import FILES, LineModel
from newsclean.cleaners.model import features as fx
from newsclean.cleaners.model import lexicon

SITES = lexicon.MIN_SITES + 2  # enough sites for a word to enter the lexicon
BODY = "The council said the new bridge would open next spring, officials confirmed on Tuesday."


def _docs(n_sites: int, debris: str, per_site: int = 1):
    """n_sites sites, per_site documents each: one debris line, one body line."""
    return [([debris, BODY], np.array([1, 0]), np.ones(2), f"site{s}")
            for s in range(n_sites) for _ in range(per_site)]


def col(X, name):
    return X[:, fx.FEATURE_NAMES.index(name)]


def test_debris_words_lean_positive_body_words_negative():
    lex = lexicon.build(_docs(SITES, "Subscribe to our newsletter"))
    assert lex["subscribe"] > 1 and lex["newsletter"] > 1
    assert lex["council"] < -1 and lex["bridge"] < -1
    # a word on both sides of every page says nothing
    both = lexicon.build([(["Read the story", "Read what the council said about the bridge."],
                           np.array([1, 0]), np.ones(2), f"s{i}") for i in range(SITES)])
    assert abs(both["read"]) < 0.2


def test_words_of_too_few_sites_never_enter():
    # one site's menu wording, on many of its pages: not a lexicon word
    lex = lexicon.build(_docs(lexicon.MIN_SITES - 1, "Kwizzbank offers", per_site=20))
    assert "kwizzbank" not in lex
    lex = lexicon.build(_docs(lexicon.MIN_SITES, "Kwizzbank offers", per_site=2))
    assert "kwizzbank" in lex


def test_counted_once_per_document_and_labelled_lines_only():
    docs = _docs(SITES, "Share this")
    once = lexicon.build(docs)
    assert once["share"] > 0
    repeated = lexicon.build([(lines * 30, np.tile(y, 30), np.tile(w, 30), g) for lines, y, w, g in docs])
    assert once == repeated
    unlabelled = lexicon.build([(lines, y, np.zeros(2), g) for lines, y, w, g in docs])
    assert unlabelled == {}
    assert not any(t.isdigit() for t in lexicon.build(_docs(SITES, "Page 2 of 10")))
    # calendar words are left to the date features: a weekday in a sentence is no dateline
    assert {"friday", "march"}.isdisjoint(lexicon.build(_docs(SITES, "Friday, March 3")))


def test_save_load_is_plain_json(tmp_path):
    lex = lexicon.build(_docs(SITES, "Cookie settings"))
    assert lex
    lexicon.save(lex, tmp_path)
    assert json.loads((tmp_path / lexicon.FILE).read_text(encoding="utf-8")) == lex
    assert lexicon.load(tmp_path) == lex
    assert lexicon.load(tmp_path / "nowhere") is None


def test_line_features_mean_max_min_known():
    lex = {"subscribe": 2.0, "newsletter": 1.0, "council": -1.5}
    lines = ["Subscribe to the newsletter", "!!!", "The council met", "Nothing known here", "Subscribe"]
    X = fx.doc_features(lines, lexicon=lex)
    np.testing.assert_allclose(col(X, "lex_mean"), [1.5, 0, -1.5, 0, 2.0])
    np.testing.assert_allclose(col(X, "lex_max"), [2.0, 0, -1.5, 0, 2.0])
    np.testing.assert_allclose(col(X, "lex_min"), [1.0, 0, -1.5, 0, 2.0])
    np.testing.assert_allclose(col(X, "lex_known"), [0.5, 0, 1 / 3, 0, 1.0])
    assert col(X, "lex_mean@-1")[2] == 0 and col(X, "lex_mean@+1")[3] == 2.0  # neighbours see it
    without = fx.doc_features(lines)
    assert not col(without, "lex_mean").any() and not col(without, "lex_known").any()


@pytest.mark.parametrize("word", ["cookies", "newsletter", "privacy", "copyright"])
def test_packaged_lexicon_is_loaded_and_knows_common_debris_words(word):
    assert (FILES / lexicon.FILE).exists()
    model = LineModel.default()
    assert model.lexicon is not None and len(model.lexicon) >= 1000
    assert model.lexicon[word] > 0
    meta = json.loads((FILES / "model.json").read_text(encoding="utf-8"))
    assert meta["lexicon"]["words"] == len(model.lexicon)
