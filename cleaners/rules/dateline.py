"""Datelines: "WASHINGTON (AP) —", "Feb 24, 2018 (Reuters) -", "Posted Feb 24, 2018 by …".

A dateline glued to the first sentence is removed as a span; a line that is only a dateline is
removed whole. newsclean.cleaners.metadata reads the date and outlet back out of these spans.
"""
from __future__ import annotations

import re
import unicodedata

from newsclean.cleaners.rules.base import Doc, Line, Proposal, in_context, when, whole_line, starts_with

MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
# Month names in other languages (German, French, Spanish, Italian, Portuguese, Dutch, Polish,
# Russian and Ukrainian in the genitive; Hindi, Arabic), where they do not start like an English one.
# Only names dateparser reads (newsclean.cleaners.metadata.dates): not the Levantine Arabic ones ("كانون الثاني").
FOREIGN_MONTH = unicodedata.normalize("NFC", (  # NFC, as the lines are ("फ़" is two code points there)
    r"(?:jänner|märz|maerz|mai|okt(?:ober)?|dez(?:ember)?|janv(?:ier)?|févr(?:ier)?|fevrier|avr(?:il)?|juin|juil(?:let)?"
    r"|août|aout|octobre|déc(?:embre)?|ene(?:ro)?|abr(?:il)?|mayo|junio|julio|ago(?:sto)?|septiembre|setiembre|octubre"
    r"|noviembre|dic(?:iembre)?|gen(?:naio)?|febbraio|aprile|maggio|giugno|luglio|settembre|ottobre|dicembre"
    r"|janeiro|fevereiro|março|maio|junho|julho|setembro|outubro|dezembro|maart|mei|augustus"
    r"|stycznia|lutego|marca|kwietnia|maja|czerwca|lipca|sierpnia|września|października|listopada|grudnia"
    # Russian and Ukrainian, in the genitive a date writes them in ("12 марта 2025", "3 травня 2024")
    r"|января|февраля|марта|апреля|мая|июня|июля|августа|сентября|октября|ноября|декабря"
    r"|січня|лютого|березня|квітня|травня|червня|липня|серпня|вересня|жовтня|листопада|грудня"
    # Hindi (both spellings of the months written either way)
    r"|जनवरी|फ़रवरी|फरवरी|मार्च|अप्रैल|अप्रेल|मई|जून|जुलाई|अगस्त|सितंबर|सितम्बर|अक्टूबर|अक्तूबर|नवंबर|नवम्बर|दिसंबर|दिसम्बर"
    # Arabic: the Egyptian and Gulf names
    r"|يناير|فبراير|مارس|أبريل|ابريل|إبريل|مايو|يونيو|يونيه|يوليو|يوليه|أغسطس|اغسطس|سبتمبر|أكتوبر|اكتوبر|نوفمبر|ديسمبر)\.?"
))
WEEKDAY = r"(?:(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?:day|nesday|sday|urday|rsday)?\.?,?\s+)"
TIME = (r"(?:,?\s*(?:at\s+|à\s+|um\s+|alle\s+|a\s+las\s+|om\s+|o\s+)?\d{1,2}[:h.]\d{2}(?::\d{2})?"
        r"\s*(?:[ap]\.?m\.?)?(?:\s*[A-Z]{2,4})?)")
DATE = (
    r"(?:\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?(?:Z|[+-]\d{2}:?\d{2})?)?"
    r"|" + WEEKDAY + r"?" + MONTH + r"\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}"
    r"|" + WEEKDAY + r"?\d{1,2}(?:st|nd|rd|th)?\s+" + MONTH + r",?\s+\d{4}"
    r"|" + WEEKDAY + r"?\d{1,2}\.?\s+(?:de\s+)?(?:" + MONTH + r"|" + FOREIGN_MONTH + r"),?\s+(?:de\s+)?\d{4}"
    r"|\d{1,2}\.\s?\d{1,2}\.\s?\d{4}"  # 24.02.2018: day first
    r"|\d{1,2}/\d{1,2}/\d{2,4})"
)
DATE_RE = re.compile(DATE, re.I)  # a date anywhere in a text (the byline rule and newsclean.cleaners.metadata read it)
# The word that marks an update, in the languages the cue rules read: a stamp's second date ("…,
# modifié le 5 mars 2024") and the date newsclean.cleaners.metadata ranks below a published one.
UPDATE_WORD = (r"(?:updated|modified|edited|aktualisiert|geändert|mis\s+à\s+jour|modifié|actualizado|modificado"
               r"|modifica|aggiornato|modificato|atualizado|bijgewerkt|gewijzigd|zaktualizowano"
               r"|обновлено|оновлено|अपडेटेड|अपडेट|تحديث)")
# The labels of a page's last update, before its date: "Letzte Änderung 14.02.2019", "Ultima modifica 19
# Febbraio 2020" (where UPDATE_WORD alone does not name the update, newsclean.cleaners.metadata reads it here).
UPDATE_LABEL = (r"(?:last\ (?:updated|modified)|letzte\ änderung|zuletzt\ (?:aktualisiert|geändert)|dernière\ (?:mise\ à\ jour|modification)"
                r"|última\ (?:actualización|modificación|atualização)|ultima\ modifica|ultimo\ aggiornamento|laatst\ bijgewerkt"
                r"|ostatnia\ aktualizacja)")
_DASH = r"\s*[-–—:]+"
# "(EFE).-": Spanish wires put a full stop before the dash; press-release wires write their name
# between slashes ("BOSTON, April 21, 2026 /PRNewswire/ --")
_OUTLET = r"(?:\((?P<outlet>[^()]{2,40})\)\.?|/(?P<wire>(?-i:[A-Z])[\w-]{1,38})/)"
_LETTER = r"[^\W\d_]"  # any script's letter: "MÜNCHEN", "SÃO PAULO", "BOGOTÁ"
_WORD = _LETTER + r"(?:" + _LETTER + r"|[.'’/-])+"  # "Frankfurt/Main", "ST. LOUIS", "O'HARE"
_PLACE = (r"(?P<place>" + _WORD + r"(?:\s+" + _WORD + r"){0,3}"
          r"(?:,\s*" + _LETTER + r"[\w.]*(?:\s+" + _LETTER + r"[\w.]*){0,2})?)")
# A wire's date without its year ("LONDON, Jan 5 (Reuters) -", "MADRID, 12 Mar. (EUROPA PRESS) -"),
# in any language's month names; only ever read in front of an outlet's bracket.
_SHORT_DATE = r"(?:" + _LETTER + r"{3,10}\.?\s+\d{1,2}|\d{1,2}\.?\s+" + _LETTER + r"{3,10}\.?)(?!\d)"
# Tried in order; each is anchored at the start of the line.
_LEADING = tuple(re.compile(p, re.I) for p in (
    r"^(?:date\s+)?(?:" + TIME + r"\s*)?" + DATE + TIME + r"?\s*" + _OUTLET + _DASH,  # "Feb 24, 2018 (Reuters) -"
    r"^" + _PLACE + r",?\s*" + DATE + r"\s*(?:" + _OUTLET + r")?" + _DASH,            # "LONDON, Feb 24, 2018 -"
    r"^" + _PLACE + r",?\s*" + _SHORT_DATE + r"\s*" + _OUTLET + _DASH,               # "LONDON, Jan 5 (Reuters) -"
    r"^" + _PLACE + r"\s*(?:--)?" + _OUTLET + _DASH,                                 # "WASHINGTON (AP) —", "BOSTON--(BUSINESS WIRE)--"
    r"^" + _OUTLET + r"\s*[-–—]",                                                   # "(CNN) —"
    r"^" + _PLACE + r"\s*(?:[–—]|--)",                                               # "WASHINGTON —", "ROME --"
    r"^(?=" + _LETTER + r"{4})" + _PLACE + r"\s+-(?=\s)",                            # "ROMA - " (not "US - China")
))

_HAS_DIGIT = re.compile(r"\d").search  # every DATE form has digits
_SPACE_DASH = re.compile(r"\s-").search
# What each _LEADING pattern cannot match without: a date's digits, the outlet's bracket, the dash.
_LEADING_NEEDS = (
    lambda t: ("(" in t or "/" in t) and _HAS_DIGIT(t) is not None,
    lambda t: _HAS_DIGIT(t) is not None,
    lambda t: ("(" in t or "/" in t) and _HAS_DIGIT(t) is not None,
    lambda t: "(" in t or "/" in t,
    lambda t: t.startswith("("),
    lambda t: "–" in t or "—" in t or "--" in t,
    lambda t: "-" in t and _SPACE_DASH(t) is not None,  # any white space: "\n-" too, in a text that holds one
)
# Without an outlet, a dateline's place is in capitals and a sentence starts after it: "WASHINGTON —
# The Senate …", not "NASA — the agency …" or "Coral Springs — a quiet suburb …".
LEDE_MIN_WORDS = 6


def _is_place_like(city: str) -> bool:
    """A place name: capitalised words, with at most one short particle ("Rio de Janeiro")."""
    words = city.split()
    lower = [w for w in words if not w[0].isupper()]
    return words[0][0].isupper() and len(lower) <= 1 and all(len(w) <= 3 for w in lower)


def _is_agency_like(outlet: str) -> bool:
    """A bracket that names an agency or a place on its own: one word ("CNN", "dpa", "Leipzig") or
    a few words in capitals ("EUROPA PRESS")."""
    words = outlet.split()
    return len(words) == 1 or (len(words) <= 3 and outlet.upper() == outlet)
_SENTENCE_START = re.compile(r"[\"'“‘(\d]|" + _LETTER).match

# Weekdays of the other languages, as a stamp writes them before its date ("Dienstag, 6. Mai 2014").
_WEEKDAY_ELSEWHERE = (r"(?:montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag|lundi|mardi|mercredi|jeudi|vendredi"
                      r"|samedi|dimanche|lunes|martes|miércoles|jueves|viernes|sábado|domingo|lunedì|martedì|mercoledì"
                      r"|giovedì|venerdì|sabato|domenica|maandag|dinsdag|woensdag|donderdag|vrijdag|zaterdag|zondag"
                      r"|понедельник|вторник|среда|четверг|пятница|суббота|воскресенье"
                      r"|सोमवार|मंगलवार|बुधवार|गुरुवार|शुक्रवार|शनिवार|रविवार"
                      r"|الاثنين|الإثنين|الثلاثاء|الأربعاء|الخميس|الجمعة|السبت|الأحد)")
_STAMP = re.compile(
    r"^(?:(?P<label>posted|published|updated|modified|created|first\ published|date"
    # the same labels in the other languages of the cue rules, with their preposition; an update's
    # labels ("Last updated", "Letzte Änderung am") are UPDATE_LABEL's
    r"|(?:erstellt|veröffentlicht|aktualisiert|geändert)(?:\ am)?|stand:?|publié\ le|mis\ à\ jour\ le"
    r"|" + UPDATE_LABEL + r"(?:\ (?:am|le|el|il|em|op))?"
    r"|publicado(?:\ el)?|actualizado(?:\ el)?|pubblicato(?:\ il)?|aggiornato(?:\ il)?|atualizado(?:\ em)?"
    r"|gepubliceerd(?:\ op)?|bijgewerkt(?:\ op)?|opublikowano|zaktualizowano"
    # Russian, Ukrainian, Hindi and Arabic, whose month names DATE knows
    r"|опубликовано|обновлено|опубліковано|оновлено|प्रकाशित|अपडेटेड|अपडेट|نشر\ في|تاريخ\ النشر|آخر\ تحديث|تحديث)"
    r"(?:\s+by\s+[^\W\d_][\w.'’ -]{1,40}?\s+(?=on\b))?)?\s*(?:on|at)?:?\s*"  # "Posted by Jane Doe on …"
    r"(?:" + TIME + r",?\s*)?(?:" + _WEEKDAY_ELSEWHERE + r",?\s+)?(?P<date>" + DATE + r")" + TIME + r"?"
    # (a dash right before a number that ends the line is its minus sign: "2/1/2023 -1.0%" is a row of
    # data, not a stamp)
    r"(?:\s*(?:\||/|by\b|[-–—](?!\d+(?:[.,]\d+)*\s*%?\s*$)|[•·⋅・]).{0,60}|\.?\s+\d{1,3}\s*min(?:ute)?s?\s+read"  # "… · 3 min read", "…. 8 minutes read"
    # and its update after a comma or in brackets: "…, modifié le 5 mars 2024", "… (modifica il 12 novembre 2024)"
    r"|\s*[,(]\s*(?:last\s+)?" + UPDATE_WORD + r"\b.{0,60}"
    # or a label for it after a space: "Pubblicato il 19 Febbraio 2020 Ultima modifica 19 Febbraio 2020"
    r"|\s+" + UPDATE_LABEL + r"\b.{0,60})?$",
    re.I | re.X,
)


# The lines frame's conditions (newsclean.cleaners.engine.rule_conditions) are Rust regexes: Python's white
# space (re's \s, str.split) is Rust's \s and the separators \x1c-\x1f besides.
_WS, _NOT_WS = r"[\s\x1c-\x1f]", r"[^\s\x1c-\x1f]"


def _may_lead_with_dateline():
    """_LEADING's anchors: the line starts as a date, a time, a place (_LETTER) or an outlet's
    bracket does, and has a dash: after at most seven words of a place (the last two patterns), or
    after an outlet's bracket or slash or a date's last digit (the others' _DASH)."""
    import polars as pl

    text = pl.col("text")
    place_then_dash = (r"^" + _NOT_WS + r"*(?:" + _WS + r"+" + _NOT_WS + r"+){0,6}?(?:" + _WS + r"*(?:[–—]|--)|"
                       + _WS + r"+-)")
    return text.str.contains(r"^[\p{L}\p{N}\s\x1c-\x1f,(]") \
        & (text.str.contains(place_then_dash) | text.str.contains(r"[\dzZ)./]" + _WS + r"*[-–—:]"))


_LEADING_MAX_INDEX = 8  # a dateline leads the story: in the document's first lines


def _first_lines(doc: Doc) -> range:
    """The indexes where leading_dateline may propose: the document's first lines."""
    return range(min(_LEADING_MAX_INDEX + 1, len(doc.lines)))


@when(_may_lead_with_dateline)
@in_context(candidates=_first_lines)  # no text gate: the position test is cheaper than any test of the text
def leading_dateline(line: Line, doc: Doc) -> Proposal | None:
    """A dateline glued to the front of a sentence (only in the document's first lines)."""
    if line.index > _LEADING_MAX_INDEX:
        return None
    text = line.text
    # Each pattern needs some character the line may lack (a shortcut; the first match is the same)
    m = next((m for pattern, needs in zip(_LEADING, _LEADING_NEEDS) if needs(text) and (m := pattern.search(text))), None)
    if m is None:
        return None
    groups = m.groupdict()
    place, outlet = groups.get("place"), groups.get("outlet") or groups.get("wire")
    if outlet and not any(c.isalpha() for c in outlet):
        return None  # "Best Coffee Makers (2026): …" is a headline, not "WASHINGTON (AP) —"
    if outlet and not place and not _is_agency_like(outlet):
        return None  # "(CNN) —", "(EFE).-", not "(Flat Rate Guarantee) - Includes …"
    if place and not _is_place_like(place.split(",")[0]):
        return None  # "The listed capacity is 10 cups (40 oz) —" is a sentence, not a place
    rest = line.text[m.end():].strip()
    # Without an outlet, only an all-capital place ("WASHINGTON —") marks a dateline, not a subject,
    # and a lede follows it: a sentence that starts with a capital, not a site's slogan after its
    # logo ("VERIVOX - Die Tarifexperten."), a label ("DOC. NO: …") or an advert's teaser
    # ("ANZEIGE - Heute mal ausgehen? Wie wäre es mit:").
    if place and not outlet:
        city = place.split(",")[0]
        if city.upper() != city or (rest and not (_SENTENCE_START(rest) and rest[0] == rest[0].upper()
                                                  and len(rest.split()) >= LEDE_MIN_WORDS
                                                  and line.ends_sentence)):
            return None
    if not rest:
        return whole_line("dateline", "leading_dateline")
    return Proposal("dateline", "leading_dateline", start=0, end=m.end())


# A stamp that starts with the place the story was filed from: "Madrid - 14 nov 2023 - 12:30 CET",
# "London, 5 March 2024 | 09:12 GMT". The whole line is that: place, date and at most a time.
# ("Jane | May 3, 2018" names a commenter, not a place: no bar between place and date.)
_PLACE_STAMP = re.compile(r"^" + _PLACE + r"\s*[-–—,]\s*" + WEEKDAY + r"?(?:" + DATE + r")"
                          r"(?:(?:\s*[-–—|·•])?" + TIME + r")?\s*$", re.I)
_PLACE_STAMP_MAX_WORDS = 12


def _may_be_place_stamp(line: Line) -> bool:
    if line.n_words > _PLACE_STAMP_MAX_WORDS or _HAS_DIGIT(line.text) is None:
        return False
    m = _PLACE_STAMP.match(line.text)
    return m is not None and _is_place_like(m.group("place").split(",")[0])


def _may_be_place_stamp_text():
    """_PLACE_STAMP's shape: a place's first word (a letter, no digit) up to white space or a
    separator; a separator after at most seven words, a date's digit at most three words after it
    and at most twelve more words (the rest of the date and a time); the line ends as a date or a
    time does (a digit, "." of "p.m.", a letter of a time zone)."""
    import polars as pl

    text, low = pl.col("text"), pl.col("lower")
    word, ws = _NOT_WS, _WS
    return text.str.contains(r"^[\p{L}\p{Nl}\p{No}][^\s\x1c-\x1f\d,–—-]*[\s\x1c-\x1f,–—-]") \
        & text.str.contains(r"^(?:" + word + r"+" + ws + r"+){0,7}" + word + r"*?[-–—,]" + ws + r"*(?:" + word + r"+"
                            + ws + r"+){0,3}" + word + r"*\d" + word + r"*(?:" + ws + r"+" + word + r"+){0,12}" + ws + r"*$") \
        & low.str.contains(r"[\d.a-z]" + _WS + r"*$")


def _down_to_prose(doc: Doc) -> range:
    """The indexes where place_date_stamp may propose: above the article's prose, or its first line."""
    return range(min(doc.first_prose + 1, len(doc.lines)))


@when(_may_be_place_stamp_text)
@in_context(gate=_may_be_place_stamp, candidates=_down_to_prose)
def place_date_stamp(line: Line, doc: Doc) -> Proposal | None:
    """A line that is only the place and the date (and time) of filing: "Madrid - 14 nov 2023",
    above the article's prose. Below it, "Name, 26. Januar 2022 13:14" heads a reader's comment
    and "Bremen - 30.11.2022" lists another article: their dates are not this article's."""
    if line.index > doc.first_prose or not _may_be_place_stamp(line):
        return None
    return whole_line("dateline", "place_date_stamp")


@starts_with(_STAMP)
def date_stamp(line: Line, doc: Doc) -> Proposal | None:
    """A line that is a publication stamp: "Posted Feb 24, 2018 by Jane Doe", "Updated: 2018-02-24"."""
    if line.n_words <= 24 and _STAMP.search(line.text):
        return whole_line("dateline", "date_stamp")
    return None
