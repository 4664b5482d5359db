"""A line that ftfy cannot repair whole is repaired piece by piece (newsclean.cleaners.lines._mended):
a paragraph that mixes double-encoded words with text that was never garbled, or keeps a stray C1
control where the rest of its character was lost, comes out clean instead of failing the articles
table's text_is_clean check (which quarantines the whole document)."""
from __future__ import annotations

import ftfy
import ftfy.bad_codecs  # noqa: F401  (registers the sloppy-windows-1252 codec that mojibake comes from)
from hypothesis import given, settings
from hypothesis import strategies as st

import newsclean
from newsclean.cleaners import lines as L
from newsclean.schemas.tables import text_problem


def garbled(text: str) -> str:
    """`text` as a page that decoded its UTF-8 bytes as Windows-1252 shows it."""
    return text.encode("utf-8").decode("sloppy-windows-1252")


POLISH = "Sprzeciwiamy się wszelkim próbom podważania wiarygodności fundacji"
QUOTE = "podkreśliła prezes Akcji Katolickiej w Polsce"
# A template's correct en dash between two double-encoded pieces of one paragraph
MIXED = garbled(POLISH) + " \u2013 " + garbled(QUOTE)


def test_ftfy_alone_leaves_mojibake_in_a_mixed_line():
    # the premise: ftfy re-decodes a line whole or not at all, and the correct dash stops it
    assert L.has_mojibake(ftfy.fix_text(MIXED))


def test_a_mixed_line_is_repaired_piece_by_piece():
    assert L.normalise_line(MIXED) == POLISH + " \u2013 " + QUOTE


def test_a_stray_c1_control_left_by_a_lost_character_goes():
    # U+009D: the last byte of a right double quote whose first two bytes were already replaced
    line = "a 90 day \u201cwear \u2019em & love \u2019em\u201d\x9d guarantee."
    assert L.has_mojibake(ftfy.fix_text(line))
    assert L.normalise_line(line) == "a 90 day \"wear 'em & love 'em\" guarantee."
    assert L.normalise_line("Operaci\u00f3n limpieza\x8f (S\u00e4uberungsaktion)", True) == \
        "Operaci\u00f3n limpieza (S\u00e4uberungsaktion)"


def test_a_word_that_lost_a_byte_is_left_as_ftfy_leaves_the_line():
    # one byte of "Москва" is gone: no piece decodes, so the line (and its document) stays as it was
    line = garbled("Москва \u2014 столица России")[1:]
    assert L.normalise_line(line) == L._normalised(line, False)
    assert L.has_mojibake(L.normalise_line(line))


def test_lookalikes_are_left_alone():
    for line in ["S\u00c3O PAULO \u00e9 a maior cidade do Brasil", "\u00c4rger \u00fcber die Stra\u00dfe",
                 "caf\u00e9 na\u00efve r\u00e9sum\u00e9", "Москва \u2014 столица России", "a \u2013 b \u2014 c \u2026"]:
        assert L.normalise_line(line) == L._normalised(line, False), line


def test_a_line_over_the_bound_is_not_cut_into_pieces(monkeypatch):
    monkeypatch.setattr(L, "MEND_MAX_CHARS", len(MIXED) - 1)
    assert L.normalise_line(MIXED) == L._normalised(MIXED, False)


def test_the_article_passes_the_text_check():
    body = [POLISH + " " + POLISH + ".", MIXED + ".", garbled(QUOTE) + " " + POLISH + " i wi\u0119cej."]
    article = newsclean.clean_text("\n\n".join(body))
    assert text_problem(article.text) is None
    assert "wiarygodno\u015bci fundacji \u2013 podkre\u015bli\u0142a" in article.text


_WORDS = st.sampled_from(["wiarygodności", "się", "próbom", "über", "café", "“quoted”", "it’s", "Москва",
                          "price", "and", "the", "\u2013", "\u2014", "\x9d", "\x8f", "\x85", "\u00a0"])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(_WORDS, st.booleans()), min_size=1, max_size=16), st.booleans())
def test_normalising_a_normalised_line_changes_nothing(words, keep_curly):
    line = " ".join(garbled(w) if bad else w for w, bad in words)
    once = L.normalise_line(line, keep_curly)
    assert L.normalise_line(once, keep_curly) == once
