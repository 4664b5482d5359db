"""Related headlines: "RELATED:" links, the header of a related-stories box, and teaser headlines of
other stories.

The cues a site prints before links to its other stories ("Read also", "Lesen Sie auch", "À lire
aussi", "Lea también", "Czytaj też" ...) are a small closed vocabulary per language, like stop
words: RELATED_CUES lists them for the languages the dev pages hold most (English, German, French,
Spanish, Italian, Portuguese, Dutch, Polish). A cue followed by a separator and a headline is a
link; a cue alone on its line heads a box, and the headline-shaped line right under it is a link.
"""
from __future__ import annotations

import re
from bisect import bisect_left
from functools import lru_cache

from newsclean.cleaners import shape
from newsclean.cleaners.rules.base import Doc, Line, Proposal, in_context, when, whole_line, starts_with

# Phrases that introduce links to other stories (lower case; matched case-insensitively).
RELATED_CUES = r"""
      related(?:\ (?:articles?|stories|story|coverage|content|links?|reading|news|posts?|topics|(?:internet|external|web)\ links))?
    | read\ (?:also|next|this)(?:\ from\ [\w .]+)? | also\ read | see\ also | also\ see | further\ reading
    | more\ stories | recommended(?:\ for\ you|\ reading)?
    | (?:also|auch)(?=\ (?:on|auf|bei)\ (?:(?-i:[A-Z])|[\w-]+\.[a-z]{2,}\b))  # "Also on HuffPost", "Auch auf gofeminin.de"
    | (?:from\ )?around\ the\ web | (?:promoted|sponsored|partner)\ (?:stories|links|content|posts)
    | you\ (?:may|might)\ also\ (?:like|be\ interested\ in) | editor'?s\ picks?
    | lesen\ sie\ (?:auch|dazu(?:\ auch)?|hier|mehr) | lies\ auch | mehr\ zum\ thema | auch\ interessant
    | (?:meist|viel)\ gelesen(?:e)?(?:\ artikel)? | mehr\ (?:zu|zum|zur|über)\ (?-i:[A-Z])[\w.'’-]*(?:\ [\w.'’-]+){0,3} | mehr\ von(?:\ ?(?-i:[A-Z])[\w.'’-]*(?:\ [\w.'’-]+){0,2})?
    | (?:das|dies(?:es)?)(?:\ thema)?\ könnte\ (?:sie|dich|euch)\ (?:auch\ |ebenfalls\ )?interessieren | lesenswert | weitere\ (?:artikel|beiträge|meldungen|nachrichten)
    | verwandte\ (?:artikel|beiträge|themen) | siehe\ auch | passend\ zum\ thema
    | schon\ gelesen\?? | zum\ weiterlesen | auch\ lesen | (?:weitere|mehr)\ (?:aktuelle\ )?themen | empfohlene\ (?:artikel|beiträge)
    | from\ (?:the|our)\ archives? | (?:[\w-]+\ )?aus\ (?:dem|unserem)\ (?:[\w.]+-)?archiv
    | (?:à\ |a\ )?lire\ (?:aussi|également|egalement) | (?:à\ |a\ )?voir\ aussi | sur\ le\ même\ (?:sujet|thème)
    | articles?\ (?:liés|similaires|connexes) | dans\ la\ même\ rubrique | vous\ aimerez\ (?:peut-être\ )?aussi
    | le[ae]r?\ (?:también|tambien|además|ademas|más|mas) | ve[ar]\ (?:también|tambien) | mira\ también
    | (?:también\ )?(?:te|le)\ (?:puede|podría)\ interesar | (?:noticias|notas)\ relacionadas
    | artículos\ relacionados | contenidos?\ relacionados? | lectura\ recomendada
    | más\ sobre\ (?-i:[A-Z])[\w.'’-]*(?:\ [\w.'’-]+){0,3}
    | leggi\ anche | vedi\ anche | (?:ti\ )?potrebbe\ interessarti | (?:articoli|notizie)\ correlat[ei]
    | leia\ (?:também|tambem|mais) | veja\ (?:também|tambem) | (?:notícias|artigos)\ relacionad[oa]s
    | lees\ ook | zie\ ook | gerelateerde\ artikelen | ook\ interessant
    | (?:prze)?czytaj\ (?:też|także|również) | zobacz\ (?:też|także|również) | powiązane\ artykuły
"""
_PREFIX = re.compile(
    r"""^(?:""" + RELATED_CUES + r"""
        | more\ (?:on|from|about)\ [\w .'’]+ | read\ more | more | watch(?:\ live|\ now|\ (?:the\ )?video)? | video
        | listen(?:\ now|\ live)? | up\ next | next | previously | trending | top\ stories | latest
        | lea | puedes\ ver | vea\ también | ver\ también
        # "Read more" / "Watch" before a link in the other languages
        | mehr\ dazu | mir[ae] | dowiedz\ się\ więcej | czytaj\ więcej | en\ savoir\ plus | saiba\ mais | scopri\ di\ più | lees\ meer
    )(?:\s*[:|»>]+|\s+[–—-]+)\s*\S""",
    re.IGNORECASE | re.VERBOSE,
)
# A cue alone on its line ("Lesen Sie auch", "À lire aussi :", "LIRE AUSSI SUR REGARDS.FR"): the
# header of a box of links, with at most the outlet named after it. Not one ending in a full stop:
# "More on FoxNews.com." is an outlet's signature.
_HEADER = re.compile(
    r"""^(?:[:»>•|]+\s*)?(?:""" + RELATED_CUES + r""")  # after a marker too (":: Aus dem Archiv:")
        (?:\ (?:on|at|from|in|auf|aus|bei|zu|zum|zur|sur|en|su|op|na|em)(?:\ [\w.'’-]+(?:\ [\w.'’-]+)?)?)?
        \s*(?:…|\.\.\.)?\s*[:»>]*$""",
    re.IGNORECASE | re.VERBOSE,
)


@starts_with(_PREFIX)
def link_prefix(line: Line, doc: Doc) -> Proposal | None:
    """ "RELATED: …", "Read more: …", "See also: …", "Lesen Sie auch: …", "Lea también: …"."""
    if line.n_words <= 40 and _PREFIX.search(line.text):
        return whole_line("related_headline", "link_prefix")
    return None


# A pager's link to the previous or next story, as a theme prints it: the label, then the story's
# headline, often glued on ("Previous articleMeta shuts down …", "Next Post: …", "Vorheriger
# BeitragNeuerscheinung …", "Older Post20 UC Essay Examples"); a bare label glued to a headline only
# with the label again at its end or doubled ("NextPreparing Your HVAC System for StormsNext",
# "PrevPreviousBest Way To Store Coffee Beans"), since "NextEra Energy" or "Next2Sun" are names;
# or a line of labels alone ("PreviousNext", "Newer Post Older Post Home"; a lone "Next" is left to
# the navigation rules).
_PAGER_WORD = r"(?:prev(?:ious)?|next|older|newer)"
_PAGER_NOUN = r"(?:posts?|articles?|stor(?:y|ies)|entry)"
_PAGER_LABEL = (rf"(?:{_PAGER_WORD}\ ?{_PAGER_NOUN}|(?:vorheriger|voriger|nächster|(?:vorschau\ auf\ den\ )?nächsten)\ ?(?:artikel|beitrag)"
                r"|article\ (?:précédent|suivant)|(?:artículo|entrada)\ (?:anterior|siguiente)"
                r"|(?:siguiente|anterior)\ (?:artículo|entrada)|articolo\ (?:precedente|successivo))")
_PAGER = re.compile(
    rf"""^(?:(?i:{_PAGER_LABEL})(?:\s*[:|»>–—-]+\s*|\s+|(?=[A-Z0-9"“‘'«„]))\S          # a label with its noun, then the headline
        | (?i:prevprevious)(?=[A-Z0-9"“‘'])                                                     # "PrevPrevious…"
        | (?i:next)(?=[A-Z0-9"“‘']).*\S(?i:next)$ | (?i:prev(?:ious)?)(?=[A-Z0-9"“‘']).*\S(?i:prev(?:ious)?)$  # "Next…Next"
        | (?:(?i:{_PAGER_LABEL}|{_PAGER_WORD}(?:\ ?page)?|home)\s*[»>]*\s*){{2,}}$ | (?i:{_PAGER_LABEL})\s*[»>]*\s*$  # labels alone
    )""",
    re.VERBOSE,
)
PAGER_SENTENCE_MIN_WORDS = 6  # a sentence that starts like a label ("Previous Post Office managers said …") stays


@starts_with(_PAGER)
def pager_link(line: Line, doc: Doc) -> Proposal | None:
    """A pager's link to the previous or next story (see _PAGER)."""
    if line.n_words > 40 or not _PAGER.search(line.text):
        return None
    if line.text.rstrip().endswith(".") and line.n_words >= PAGER_SENTENCE_MIN_WORDS:
        return None
    return whole_line("related_headline", "pager_link")


@starts_with(_HEADER)
def related_header(line: Line, doc: Doc) -> Proposal | None:
    """ "Related stories", "Lesen Sie auch", "Sur le même sujet": the header of a box of links."""
    if _is_header(line.text):
        return whole_line("related_headline", "related_header")
    return None


def _may_follow_header(line: Line) -> bool:
    """The test on the line itself: a headline, 2-20 words, not ending a sentence (prose under a
    header is not a link, and stays)."""
    return 2 <= line.n_words <= 20 and not line.ends_sentence


@lru_cache(maxsize=1 << 16)
def _is_header(text: str) -> bool:
    """related_header's test, by text: every headline-shaped line asks it of the line above."""
    return len(text) <= 120 and _HEADER.search(text) is not None and len(shape.words(text)) <= 8


def clear_caches() -> None:
    _is_header.cache_clear()


_UNDER_HEADER_MAX_LINKS = 6  # a box lists a handful of links; a longer run is the article's own list
# A video player's label above the clip's own title ("Video", then "Driver caught on camera"): only
# the one headline right under it (a spec sheet's "Video" heads rows such as "4K at 60 fps").
_MEDIA_LABEL = re.compile(r"^(?:videos?|watch)\s*:?$", re.I)
_CLIP_TITLE_MIN_WORDS = 5  # a clip's title is a headline; a spec row ("4K at 60 fps") is shorter


def _may_follow_header_expr():
    """_may_follow_header's tests: no sentence end (of its marks, the one a line ends in most: a
    full stop), 2 or more words (3 characters at least: a word is a maximal run, so two are apart);
    exactly its tests on an ASCII text."""
    import polars as pl

    from newsclean.cleaners.engine.rule_conditions import ends_sentence, on_ascii

    return (~pl.col("text").str.ends_with(".") & (pl.col("n_chars") >= 3)
            & on_ascii(pl.col("n_words").is_between(2, 20) & ~ends_sentence()))


def _in_related_neighbourhood(doc: Doc) -> list[int]:
    """The indexes of the lines right under a video label or at most _UNDER_HEADER_MAX_LINKS lines
    under a box header (_related_neighbourhood): where under_related_header may propose."""
    under_label, near_header = doc.memo("related_neighbourhood", _related_neighbourhood)
    n = len(doc.lines)
    return sorted(k for k in under_label | near_header if k < n)


@when(_may_follow_header_expr, exact_gate=True)
@in_context(gate=_may_follow_header, candidates=_in_related_neighbourhood)
def under_related_header(line: Line, doc: Doc) -> Proposal | None:
    """A headline in the run of headlines right under a related-stories header ("Related
    coverage", then three links) is a link to another story. The run ends at the first line that
    is no headline: the article's prose goes on under the box. Under a video label, only the
    clip's title."""
    # the neighbourhood first, from one look at the document: most lines have neither a video label
    # right above nor a header within a few lines, and counting a line's words costs more
    under_label, near_header = doc.memo("related_neighbourhood", _related_neighbourhood)
    if line.index in under_label:
        if _may_follow_header(line) and line.n_words >= _CLIP_TITLE_MIN_WORDS and shape.is_headline_shaped(line.text, line.n_words):
            return whole_line("related_headline", "under_related_header")
    if line.index not in near_header:
        return None
    headers = doc.memo("related_headers", _header_indexes)
    h = bisect_left(headers, line.index) - 1  # the nearest header above the line
    if _may_follow_header(line) and all(_may_follow_header(doc.lines[k]) for k in range(headers[h] + 1, line.index)):
        return whole_line("related_headline", "under_related_header")
    return None


def _related_neighbourhood(doc: Doc) -> tuple[frozenset[int], frozenset[int]]:
    """The indexes of the lines right under a video label, and of those at most
    _UNDER_HEADER_MAX_LINKS lines under a box header: where under_related_header may propose."""
    under_label = frozenset(ln.index + 1 for ln in doc.lines if _MEDIA_LABEL.match(ln.text))
    near_header = frozenset(k for h in doc.memo("related_headers", _header_indexes)
                            for k in range(h + 1, h + 1 + _UNDER_HEADER_MAX_LINKS))
    return under_label, near_header


def _header_indexes(doc: Doc) -> list[int]:
    """Indexes of the document's box headers (every headline-shaped line asks for the nearest one
    above it: Doc.memo keeps them per document)."""
    return [ln.index for ln in doc.lines if _is_header(ln.text)]


def _may_be_headline_shaped():
    """headline_shape's tests: no full stop at the end before closing quotes (shape.is_headline_shaped),
    5 or more words (9 characters at least: a word is a maximal run, so two are apart); on an
    ASCII text exactly its tests (5-30 words, a capital, a digit or a quote first, not a paragraph:
    shape.is_paragraph's white-space tokens and a sentence end with text after it)."""
    import polars as pl

    from newsclean.cleaners.engine.rule_conditions import ASCII_SPACE, on_ascii

    text = pl.col("text")
    # more than PARAGRAPH_WORDS white-space tokens (a counted repeat: a tenth of counting them all)
    many_tokens = f"^[{ASCII_SPACE}]*(?:[^{ASCII_SPACE}]+[{ASCII_SPACE}]+){{{shape.PARAGRAPH_WORDS}}}[^{ASCII_SPACE}]"
    paragraph = text.str.contains(many_tokens) & text.str.contains(f"[.!?][\"')\\]]*[{ASCII_SPACE}]+[^{ASCII_SPACE}]")
    return (~text.str.contains("\\.[\"'”’]*$") & (pl.col("n_chars") >= 9)
            & on_ascii(pl.col("n_words").is_between(5, 30) & text.str.contains("^[A-Z0-9'\"]") & ~paragraph))


@when(_may_be_headline_shaped, proposes=whole_line("related_headline", "headline_shape", strong=False))
def headline_shape(line: Line, doc: Doc) -> Proposal | None:
    """Weak: a headline-shaped line. Outside the body, it is a teaser for another story."""
    if line.n_words >= 5 and shape.is_headline_shaped(line.text, line.n_words):
        return whole_line("related_headline", "headline_shape", strong=False)
    return None
