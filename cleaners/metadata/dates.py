"""Publication dates from text evidence: datelines and publication stamps, never the story's events."""
from __future__ import annotations

import datetime as dt
import re
from functools import lru_cache

from dateutil import parser as dateparser

from newsclean.cleaners.rules.dateline import DATE_RE, UPDATE_LABEL, UPDATE_WORD

EARLIEST = dt.date(1990, 1, 1)
# The removed spans that may state the publication date: datelines and stamps, and a byline's date
# ("By Jane Roe | Feb 24, 2018").
DATE_EVIDENCE_KINDS = ("dateline", "byline")
_DATE = DATE_RE
_DOTTED = re.compile(r"(\d{1,2})\.\s?(\d{1,2})\.\s?(\d{4})")
# A month written in words: in English dateutil reads it, in another language dateparser does (any
# letter outside ASCII marks another language: the Hindi "मई" and the Arabic "آب" have two).
_MONTH_WORD = re.compile(r"[^\W\d_]{3,}|[^\x00-\x7f]")
# An English month name as dateutil reads it: the name or its abbreviation ("Februar" is not one).
_ENGLISH_MONTH = re.compile(r"\b(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
                            r"|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b\.?", re.I)
_DIGITS = re.compile(r"\d+")
_AM_PM = re.compile(r"\b[ap]\.?m\b\.?")
_WORD_RUN = re.compile(r"[^\W\d_]+(?:[\s'’]+[^\W\d_]+)*")
DATE_LANGUAGES = ("en", "de", "fr", "es", "it", "pt", "nl", "pl", "ru", "uk", "hi", "ar")
_UPDATED = re.compile(r"\b(?:" + UPDATE_WORD + r"|" + UPDATE_LABEL + r")\b", re.I)


def plausible(d: dt.date | None, today: dt.date | None = None) -> dt.date | None:
    """A publication date lies in [1990-01-01, today]; anything else is rejected."""
    if d is None:
        return None
    return d if EARLIEST <= d <= (today or dt.date.today()) else None


def parse_date(text: str) -> dt.date | None:
    """The first date written in `text`, if it parses and is plausible."""
    return plausible(_written_date(text))


@lru_cache(maxsize=4096)  # a page's stamps are read for the list test and again for the date
def _written_date(text: str) -> dt.date | None:
    """The first date written in `text` as it reads, plausible or not (plausible() asks today's
    date, which a cache must not keep)."""
    m = _DATE.search(text)
    if m is None:
        return None
    written = m.group(0)
    dotted = _DOTTED.fullmatch(written)
    try:
        if dotted:  # 24.02.2018 is day first wherever it is written, unless it cannot be (12.16.2025)
            first, second = int(dotted.group(1)), int(dotted.group(2))
            day, month = (second, first) if second > 12 >= first else (first, second)
            return dt.date(int(dotted.group(3)), month, day)
        if _MONTH_WORD.search(written) and not _ENGLISH_MONTH.search(written):
            return _parse_foreign(written)
        return dateparser.parse(written, fuzzy=True, default=dt.datetime(2000, 1, 1)).date()  # it reads "Sept." too
    except (ValueError, OverflowError):
        return None


def _parse_foreign(written: str) -> dt.date | None:
    """A date with another language's month name, read by the dateparser library (which knows
    them all); dateutil would take the day and year and silently default the month."""
    import dateparser as multilingual  # imported on first need: it loads its language data

    value = multilingual.parse(written, languages=list(DATE_LANGUAGES),
                               settings={"REQUIRE_PARTS": ["day", "month", "year"], "PREFER_DAY_OF_MONTH": "first"})
    return value.date() if value is not None else None


HEADLINE_STAMP_LINES = 12  # raw lines under the headline where its byline and date sit
HEADLINE_STAMP_ABOVE = 3  # raw lines above it where a kicker's date sits ("Travel September 8, 2021")
HEADLINE_STAMP_MAX_WORDS = 16


def near_headline(span, headline: int | None) -> bool:
    """A line removed whole just under the headline or right above it: where the article's meta
    lines sit (its date, its byline, its kicker)."""
    return headline is not None and span.whole_line and span.line != headline \
        and -HEADLINE_STAMP_ABOVE <= span.line - headline <= HEADLINE_STAMP_LINES


def is_headline_stamp(span, headline: int | None) -> bool:
    """A removed line just under the headline, or right above it, that holds a date: the article's
    meta line ("Tom Talbot October 14, 2025", "Dec 11, 2025 Share", "Jane Roe • Updated on Jul 4,
    2024 • 28 min read") or its kicker's, whatever kind of debris the cleaner took it for."""
    return near_headline(span, headline) and len(span.text.split()) <= HEADLINE_STAMP_MAX_WORDS \
        and _DATE.search(span.text) is not None


def publication_date(evidence: list[tuple[int, str]], body_end: int | None,
                     headline_stamps: list[tuple[int, str]] = (), headline: int | None = None) -> dt.date | None:
    """The publication date from (line number, text) date evidence in document order (datelines,
    bylines, and the `headline_stamps`: is_headline_stamp), given the line where the article's kept
    body ends. Below the body, a stamp is the article's footer ("Posted on 03 Jul 2025", "June 9,
    2020 · 6 Comments") or an item of a list: readers' comments, other posts, a changelog, whose
    stamps share one shape ("March 6, 2023 at 8:55 am", "September 17, 2020 at 6:59 pm") and two
    or more dates. List items date something else, and are left out (so are a list's under the
    headline: teasers); one stamp repeated ("13 July 2016" above and below the share buttons) is
    the article's. Far above the headline (more than HEADLINE_STAMP_LINES lines), a date is the
    masthead's ("Friday, December 19, 2025": the day the page was fetched) or a teaser's: left out
    too."""
    if headline is not None:
        evidence = [(n, t) for n, t in evidence if n >= headline - HEADLINE_STAMP_LINES]
    below = [(n, t) for n, t in evidence if body_end is not None and n > body_end]
    # an update alone on the headline's meta line dates the page's revision, not the article
    headline_stamps = [(n, t) for n, t in headline_stamps if not _UPDATED.search(t)]
    listed = _list_items(below) | _list_items(headline_stamps)
    return date_from_datelines([t for n, t in sorted({*evidence, *headline_stamps}) if (n, t) not in listed])


def _list_items(stamps: list[tuple[int, str]]) -> set[tuple[int, str]]:
    """The stamps that share their shape with stamps of other dates."""
    dates_by_shape: dict[str, set] = {}
    for _, t in stamps:
        dates_by_shape.setdefault(stamp_shape(t), set()).add(parse_date(t))
    return {(n, t) for n, t in stamps if len(dates_by_shape[stamp_shape(t)]) > 1}


def stamp_shape(text: str) -> str:
    """A stamp with its numbers, English month names, am/pm and runs of words blanked: the items of
    a list of dated comments, posts or teasers share it ("March 6, 2023 at 8:55 am" and "Sept 17,
    2020 at 6:59 pm"; "Library hours extended - March 3, 2024" and "Bike lanes open - May 2, 2024")."""
    shape = _DIGITS.sub("0", _AM_PM.sub("¤", _ENGLISH_MONTH.sub("§", text.lower())))
    return _WORD_RUN.sub("w", shape)


def stamp_date(text: str) -> dt.date | None:
    """The date a stamp gives the article: the earliest plausible one it writes. A theme that prints
    the publication and the update together ("May 21, 2025April 24, 2025 by …", in either order)
    writes two, and an article is published before it is updated."""
    dates = [d for m in _DATE.finditer(text) if (d := plausible(_written_date(m.group(0))))]
    return min(dates) if dates else None


def date_from_datelines(texts: list[str]) -> dt.date | None:
    """Prefer a published date over an updated one; first in the document wins within each."""
    published = [d for t in texts if not _UPDATED.search(t) and (d := stamp_date(t))]
    updated = [d for t in texts if _UPDATED.search(t) and (d := stamp_date(t))]
    return (published or updated or [None])[0]
