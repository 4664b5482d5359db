"""Tag lists: "Tags: a, b, c" and runs of capitalised names with no grammar between them."""
from __future__ import annotations

import re
from operator import itemgetter

from newsclean.cleaners import shape
from newsclean.cleaners.rules.base import Doc, Line, Proposal, when, whole_line, starts_with

# (with the same labels in the other languages of the cue rules)
_PREFIX = re.compile(r"^(?:tags?|tagged(?: with)?|topics?|filed under|keywords?|categories|category|subjects?"
                     r"|schlagw(?:ö|oe)rter|schlagworte|stichw(?:ö|oe)rter|themen|kategorien?|abgelegt unter"
                     r"|mots-cl(?:é|e)s|(?:é|e)tiquettes|cat(?:é|e)gories?|etiquetas|categor(?:í|i)as?|temas"
                     r"|argomenti|categori[ae]|trefwoorden|categorie(?:ë|e)n|onderwerpen|tagi|kategori[ae]|tematy)"
                     r"\s*[:|]\s*\S", re.I)
# The header of a tag box, alone on its line ("Tags", "Schlagwörter:", "Mots-clés"), and a blog's
# category footer ("Posted in News | Tagged economy, jobs", "This entry was posted in News on …").
_HEADER = re.compile(r"^(?:tags?|tagged|keywords|schlagw(?:ö|oe)rter|schlagworte|stichw(?:ö|oe)rter|mots-cl(?:é|e)s"
                     r"|(?:é|e)tiquettes|etiquetas|tagi|trefwoorden)\s*:?$", re.I)
_CATEGORY_FOOTER = re.compile(r"^(?:posted\s+in\s+(?-i:[A-Z])[\w&'’ -]*(?:\s*[,|]\s*[\w&'’ -]+)+$"
                              r"|this\s+(?:entry|post)\s+was\s+(?:posted|filed)\s+(?:in|under)\b"
                              # the same footer as blogs write it in the other languages: "Dieser Beitrag wurde
                              # veröffentlicht in …", "Erstellt am … und abgelegt unter …", "Esta entrada fue publicada en …"
                              r"|dieser\s+(?:beitrag|eintrag)\s+wurde\s+(?:veröffentlicht|abgelegt)\s+(?:in|unter)\b"
                              r"|(?:(?:dieser|der)\s+(?:beitrag|eintrag)\s+wurde|erstellt|veröffentlicht|geschrieben)\b.{0,120}?"
                              r"\b(?:abgelegt\s+unter|(?:wurde|ist)\s+unter\s.{0,200}\sabgelegt|gekennzeichnet\s+mit|verschlagwortet\s+mit)\b"
                              r"|(?:cette\s+entrée|ce\s+billet)\s+a\s+été\s+publiée?\s+dans\b|esta\s+entrada\s+(?:fue|ha\s+sido)\s+publicada\s+en\b"
                              r"|questa\s+voce\s+è\s+stata\s+pubblicata\s+in\b|esta\s+entrada\s+foi\s+publicada\s+em\b"
                              r"|dit\s+(?:bericht|item)\s+is\s+geplaatst\s+in\b|ten\s+wpis\s+(?:został\s+)?opublikowan[oy]\s+w\b)", re.I)


@starts_with(_PREFIX)
def tag_prefix(line: Line, doc: Doc) -> Proposal | None:
    if line.n_words <= 40 and _PREFIX.search(line.text):
        return whole_line("tag_list", "tag_prefix")
    return None


@starts_with(_HEADER, _CATEGORY_FOOTER)
def tag_header(line: Line, doc: Doc) -> Proposal | None:
    if (line.n_words <= 15 and _HEADER.search(line.text)) or (line.n_words <= 40 and _CATEGORY_FOOTER.search(line.text)):
        return whole_line("tag_list", "tag_header")
    return None


def _name_run(line: Line) -> bool:
    ws = line.words  # (words are never empty: w[0] is shape.is_capitalised's w[:1])
    return (
        not line.ends_sentence
        and all(map(str.isupper, map(itemgetter(0), ws)))
        and shape.STOP_WORDS.isdisjoint(map(str.lower, ws))
        and not any(c in line.text for c in ":;?!")
    )


# An ASCII lower-case letter or digit that starts a word (shape.words): at the start of the line or
# after an ASCII character that is neither a letter, a digit nor an apostrophe (which may join it to
# the word before). A name run's words all start with a capital.
_LOWER_WORD_START = r"(?:^|[\x00-\x26\x28-\x2f\x3a-\x40\x5b-\x60\x7b-\x7f])[a-z0-9]"
# ... and after an apostrophe that joins it to no word before (a quote's opening one): with both,
# exactly where shape.words finds a word of an ASCII text that starts with a lower-case letter or a digit
_ASCII_LOWER_WORD_START = _LOWER_WORD_START + r"|(?:^|[^A-Za-z0-9])'[a-z0-9]"


def _may_be_name_run(min_chars: int):
    """_name_run's test that no word starts with a lower-case letter or a digit, and the line's
    length: a word is a maximal run, so n words take 2n - 1 characters at least; on an ASCII text
    all of _name_run's tests (where no word starts with a lower-case letter or a digit, every word
    starts with a capital)."""
    import polars as pl

    from newsclean.cleaners.engine.rule_conditions import ends_sentence, on_ascii

    stop_word = pl.col("lower").str.contains(_ASCII_STOP_WORD)
    return (~pl.col("text").str.contains(_LOWER_WORD_START) & (pl.col("n_chars") >= min_chars)
            & on_ascii(~pl.col("text").str.contains(_ASCII_LOWER_WORD_START) & ~ends_sentence()
                       & ~pl.col("text").str.contains("[:;?!]") & ~stop_word))


# A function word as one of shape.words' words of an ASCII text in lower case: not inside a longer
# run of letters and digits, nor joined to one by an apostrophe (a quote's opening or closing one
# joins nothing)
_ASCII_STOP_WORD = ("(?:^|[^a-z0-9']|(?:^|[^a-z0-9])')(?:" + "|".join(sorted(map(re.escape, shape.STOP_WORDS), key=len, reverse=True))
                    + ")(?:$|[^a-z0-9']|'(?:$|[^a-z0-9]))")


def _may_be_long_name_run():
    """name_run's tests: _may_be_name_run for 6 or more words, not a list item; exactly its tests on
    an ASCII text."""
    import polars as pl

    from newsclean.cleaners.engine.rule_conditions import on_ascii

    # shape.LIST_BULLET's ASCII bullets
    return _may_be_name_run(11) & on_ascii((pl.col("n_words") >= 6) & ~pl.col("text").str.contains("^[*+o-] "))


@when(_may_be_long_name_run, proposes=whole_line("tag_list", "name_run"))
def name_run(line: Line, doc: Doc) -> Proposal | None:
    """Six or more capitalised words and not one function word: names listed, not a sentence. Not
    a list item ("- Klein Tools RT210 GFCI Outlet Tester": one product's name under its bullet)."""
    if line.n_words >= 6 and not line.ends_sentence and not shape.LIST_BULLET.match(line.text) and _name_run(line):
        return whole_line("tag_list", "name_run")
    return None


def _may_be_separated_items():
    """separated_items' tests: two or more of ",|;" (its shortcut), and no item (after the line's
    start or a separator, and spaces) starting with a lower-case letter or a digit."""
    import polars as pl

    text = pl.col("text")
    return text.str.contains("(?s)[,|;].*[,|;]") & ~text.str.contains("(?:^|[,|;]) *[a-z0-9]")


@when(_may_be_separated_items)
def separated_items(line: Line, doc: Doc) -> Proposal | None:
    """Three or more short capitalised items separated by commas or pipes, no sentence punctuation."""
    if line.ends_sentence or line.text.count(",") + line.text.count("|") + line.text.count(";") < 2:
        return None  # three items need two separators (a shortcut; same result)
    if line.n_words > 30:
        return None
    items = [p.strip() for p in re.split(r"\s*[,|;]\s*", line.text) if p.strip()]
    if len(items) >= 3 and all(len(p.split()) <= 3 and p[:1].isupper() for p in items) and shape.stop_share(line.words) < 0.1:
        return whole_line("tag_list", "separated_items")
    return None


def _may_be_short_name_run():
    """short_name_run's tests: _may_be_name_run for 3 or more words; exactly its tests on an ASCII
    text (three to five words)."""
    import polars as pl

    from newsclean.cleaners.engine.rule_conditions import on_ascii

    return _may_be_name_run(5) & on_ascii(pl.col("n_words").is_between(3, 5))


@when(_may_be_short_name_run, proposes=whole_line("tag_list", "short_name_run", strong=False))
def short_name_run(line: Line, doc: Doc) -> Proposal | None:
    """Weak: three to five capitalised words with no grammar, outside the body."""
    if 3 <= line.n_words < 6 and not line.ends_sentence and _name_run(line):
        return whole_line("tag_list", "short_name_run", strong=False)
    return None
