"""Bylines: "By JOHN DOE, Associated Press", "Von Hans Müller", "Jane Roe | Feb 24, 2018",
"John Doe, Staff Writer".

A byline names who wrote the article; newsclean.cleaners.metadata reads the author (and an agency or a date
written beside the name) back out of these lines through `byline_parts`.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Container, Iterable

from newsclean.cleaners import shape
from newsclean.cleaners.rules.base import Doc, Line, Proposal, in_context, when, whole_line
from newsclean.cleaners.rules.dateline import DATE, DATE_RE

# "By" in the languages the other cue rules read, and the label forms of it.
_BY = re.compile(r"^(?:(?:(?:written|words|reporting|story|text)\s+by|by:?|von|par|por|di|door|przez"
                 r"|(?:autor(?:in|a)?|author|texto?)\s*:)\s+(?=\S)"
                 r"|(?-i:By)(?=(?-i:[A-Z][a-z])))", re.I)  # "ByAngela Kaye": a scraper lost the space
# A staff role after a name ("John Doe, Staff Writer", "Reuters Staff", "Associated Press Writer").
_ROLE = re.compile(r"(?:(?<=\s)|^)(?:(?:senior|chief|staff|political|foreign|contributing|special)\s+)*"
                   r"(?:writer|reporter|correspondent|contributor|editor|columnist|journalist|staff)s?$", re.I)
_PARTICLES = frozenset("van von der den de da di del la le du dos bin al".split())
# A name and the reporter's title with no separator, the title in sentence case as the Guardian
# prints it: "Gwyn Topham Transport correspondent", "Jane Roe Senior economics editor". (A title in
# title case, "Jane Roe Senior Reporter", does not say where the name ends.)
_NAME_THEN_ROLE = re.compile(r"^(?P<name>(?:[A-Z][\w'’.-]+\s+){1,3}[A-Z][\w'’.-]+)\s+(?P<role>[A-Z][a-z]+(?:\s+[a-z]+){0,2}"
                             r"\s+(?:writer|reporter|correspondent|editor|columnist|journalist)s?)$")
_TAIL_SEPARATOR = re.compile(r"\s*(?:\||/|•|·|⋅|・|–|—|\s-)\s*")
# A byline's date (DATE_RE) or e-mail address without a separator before it: "By Jane Roe on January
# 21, 2023", "By Jane Roe Jan. 31, 2026 7:47 am EST", a label glued to the name ("By Jane
# RoePublished: Jan 29, 2025"), "By Jane Roe jroe@example.com".
_EMAIL_IN = re.compile(r"[\w.+-]+@[\w-]+\.[\w.]+")
# "By Jane Roe, a reviewer covering audio." (the Verge and others): a sentence that is a byline
_APPOSITIVE_ROLE = re.compile(r",\s+(?:an?|the)\s+(?:[\w'’-]+\s+){0,3}(?:writer|reporter|correspondent|contributor"
                             r"|editor|columnist|journalist|reviewer|analyst|critic|producer)s?\b", re.I)
_STAMP_LABEL = r"(?:last\s+)?(?:updated|published|posted|modified|reviewed)"
# ("on" as the other cue languages write it before a date: "von Jane Roe am 14. Mai 2014", "par Jane Roe le 3 mars")
_BEFORE_DATE = re.compile(r"(?:\s*(?:,|\b(?:on|am|le|el|il|em|op|dnia)\b|" + _STAMP_LABEL + r"(?:\s+on)?:?))*\s*$", re.I)
_LABEL_WORD = re.compile(r"\b" + _STAMP_LABEL + r"\b", re.I)  # "Last Updated · January 28, 2026" names no one
_SEPARATOR_WORDS = frozenset({"and", "und", "et", "y", "e", "en", "i"})
_NAME_SEPARATOR = re.compile(r"\s*(?:,|&|\b(?:" + "|".join(sorted(_SEPARATOR_WORDS)) + r")\b)\s*")
_DATE_TAIL = re.compile(r"^(?:updated:?\s*)?" + DATE, re.I)
_WORDS_MAX = 16
_CREDITS_WORDS_MAX = 24  # labelled credits name several people
# A staff role on its own line under the name ("Staff Writer", "Associated Press Writer"): at least
# one qualifier before the role word, so a lone "Editor" heading is not taken.
_ROLE_LINE = re.compile(r"^(?:(?:senior|chief|staff|political|foreign|contributing|special|associated\s+press|ap)\s+)+"
                        r"(?:writer|reporter|correspondent|contributor|editor|columnist|journalist)s?$", re.I)
# Where the reporter filed from, on its own line under the byline ("Reporting from San Francisco").
_REPORTING_FROM = re.compile(r"^[Rr]eport(?:ing|ed)\s+from\s+[A-Z][\w.'’-]*(?:,?\s+[A-Z][\w.'’-]*){0,4}$")
# Labelled credits, one role per part: "Autor: Jan Nowak; Ilustrator: Adam Roe". (A wire story's closing
# credits, "Reporting by Jane Roe; Editing by John Doe", are left to the line model: like "The Associated
# Press contributed to this report", they belong to the story in most references.)
_CREDIT = re.compile(r"^(?:autor(?:in|a)?|author|texto?|il+ustra\w*|fotos?|photos?)\s*:\s+\S", re.I)


# Words of a label, never of a person's name: "Almanac Logo", "Written By". (A word with more than
# two capitals is words run together, "OrganizationOfficePapers", or initials.)
_NOT_IN_NAMES = frozenset({"by", "logo", "icon", "image", "photo", "avatar"})


# Function words that are given names too: after "By" they start a name ("By Will Judd", "By Don
# Lemon"); on a line of its own, "Will Congress Act" over a date is a headline.
_GIVEN_NAME_STOP_WORDS = frozenset({"will", "don"})
_NAMES_ALONE_MAX = 3  # "Jane Roe, John Doe and Kenji Tanaka" on a line of their own


def _is_name(name: str, after_by: bool = False) -> bool:
    """A person's name: two to five words, each capitalised but for particles ("Ursula von der
    Leyen"), the first capitalised and not a function word ("By The Numbers" is a heading, "von der
    Feuerwehr" a phrase) unless, `after_by`, a given name ("By Will Judd"), no digits or role."""
    ws = name.split()
    if not 2 <= len(ws) <= 5 or not ws[0][0].isupper() \
            or (ws[0].lower() in shape.STOP_WORDS and not (after_by and ws[0].lower() in _GIVEN_NAME_STOP_WORDS)) \
            or any(c.isdigit() for c in name) or _LABEL_WORD.search(name) or "&" in name \
            or any(w.lower() in _NOT_IN_NAMES or (not w.isupper() and sum(map(str.isupper, w)) > 2) for w in ws):
        return False
    return all(w[0].isupper() or w in _PARTICLES for w in ws) and _ROLE.search(name) is None


@lru_cache(maxsize=8192)  # the byline gate, the rule, the title candidates and the author ask per text
def byline_parts(text: str) -> tuple[tuple[str, ...], str | None] | None:
    """(the names, what follows them: an outlet, a role or a date) when `text` is a byline:
    "By NAME[, NAME and NAME][, OUTLET or ROLE][ | DATE]", "By AGENCY"; without "By", only
    "NAME | DATE" and "NAME, ROLE", which say what they are."""
    if len(text.split()) > (_CREDITS_WORDS_MAX if ";" in text else _WORDS_MAX):
        return None
    if text.rstrip().endswith(".") and _BY.match(text) and _APPOSITIVE_ROLE.search(text):
        text = text.rstrip()[:-1]  # "By Jane Roe, a reviewer covering audio."
    if text.rstrip().endswith((".", "?", "!", ":", ";")):
        return None
    if ";" in text:
        credits = [c.strip() for c in text.split(";")]
        if not all(_CREDIT.match(c) for c in credits):
            return None
        return byline_parts(credits[0])
    by = _BY.match(text)
    if by is None and (m := _NAME_THEN_ROLE.match(text)) and _is_name(m["name"]):
        return (m["name"],), m["role"]  # "Gwyn Topham Transport correspondent"
    if by is None and not any(sep in text for sep in ",|•·–—-"):
        return None  # without "By", a separator comes before the date or the role (a shortcut)
    rest = text[by.end():] if by else text
    if by:
        rest = _separate_date(rest)
    head, _, after = (p.strip() for p in _partition(rest))
    parts = [p for p in _NAME_SEPARATOR.split(head) if p]
    names: list[str] = []
    for p in parts:
        if not _is_name(p, after_by=by is not None):
            break
        names.append(p)
    if by is None:
        if len(names) == 1 and len(parts) == 1 and after and _DATE_TAIL.search(after):
            return tuple(names), after  # "Jane Roe | February 24, 2018"
        if len(names) == 1 and len(parts) == 2 and not after and _ROLE.fullmatch(parts[1]):
            return tuple(names), parts[1]  # "John Doe, Staff Writer"
        return None
    if not names and parts and re.fullmatch(r"[A-Z]{2,5}", parts[0]):
        names = parts[:1]  # "By CNN", "By AFP": an agency's initials
    if not names:
        return None
    return tuple(names), ", ".join(parts[len(names):] + ([after] if after else [])) or None


def _separate_date(rest: str) -> str:
    """"Jane Roe on January 21, 2023" -> "Jane Roe | January 21, 2023": a date (or an e-mail
    address) after the names with no separator before it gets one, so the names end where the
    date's words begin."""
    found = [m for m in (DATE_RE.search(rest), _EMAIL_IN.search(rest)) if m is not None]
    if not found:
        return rest
    start = min(m.start() for m in found)
    head = _BEFORE_DATE.sub("", rest[:start])
    if not start or not head or _TAIL_SEPARATOR.search(head):
        return rest
    return f"{head} | {rest[start:]}"


def _partition(text: str) -> tuple[str, str, str]:
    m = _TAIL_SEPARATOR.search(text)
    return (text[:m.start()], m.group(0), text[m.end():]) if m else (text, "", "")


def _starts_byline(line: Line) -> bool:
    """A capital first letter, or a lower-case "by"/"von"/"par" (Substack's "by Jane Roe", German
    and French pages' "von"/"par"): byline_parts then asks for capitalised names after it."""
    return line.text[:1].isupper() or _BY.match(line.text) is not None


def _continues_previous(line: Line, doc: Doc) -> bool:
    """The line is the middle of a sentence wrapped around it ("…written\nby Jane Roe and John
    Doe\nand will be …"): no blank line on either side, the line before ends no sentence and the
    line after goes on in lower case. (A byline under a headline on the next line is followed by
    a date or the lede, which start with a capital.)"""
    before, after = doc.prev(line), doc.next(line)
    return before is not None and after is not None and before.number == line.number - 1 \
        and after.number == line.number + 1 and not before.ends_sentence and after.text[:1].islower()


# A reporter's title on the line under the name, as the BBC prints it: "Kenji Tanaka" then "Tokyo
# correspondent", "Business reporter", "Senior Technology Editor".
_ROLE_TITLE = re.compile(r"^(?:[A-Z][\w'’.-]*\s+){1,3}(?:[Ww]riter|[Rr]eporter|[Cc]orrespondent|[Ee]ditor"
                         r"|[Cc]olumnist|[Jj]ournalist)s?$")


def byline_names(text: str) -> tuple[str, ...] | None:
    """The names a byline line gives: byline_parts' names, or the names a line of only names gives
    (the line above a reporter's title)."""
    parts = byline_parts(text)
    return parts[0] if parts is not None else names_alone(text)


def names_alone(text: str) -> tuple[str, ...] | None:
    """The names of a line that holds only names: "Kenji Tanaka", "Jane Roe and John Doe", "Jane Roe,
    John Doe"; or None."""
    if not text[:1].isupper():
        return None  # a shortcut: a name starts with a capital
    ws = text.split()
    if not 2 <= len(ws) <= 5 * _NAMES_ALONE_MAX + _NAMES_ALONE_MAX - 1:
        return None  # one to three names of two to five words each, with their separators
    if "," not in text and "&" not in text and _SEPARATOR_WORDS.isdisjoint(ws):
        return (text,) if len(ws) <= 5 and _is_name(text) else None  # one name (most lines have no separator)
    if not _is_name(ws[0] + " " + ws[1]):
        return None  # a shortcut: the first name's first two words are a name's
    names = tuple(p for p in _NAME_SEPARATOR.split(text) if p)
    return names if 0 < len(names) <= _NAMES_ALONE_MAX and all(map(_is_name, names)) else None


def name_words(names: Iterable[str]) -> list[str]:
    """The words of names that must be proper nouns (newsclean.cleaners.rules.byline.proper_names): all but a
    given name that is also a function word ("Will" in "Will Judd": "will" is in every text)."""
    return [w for name in names for i, w in enumerate(name.split())
            if i or w.lower() not in _GIVEN_NAME_STOP_WORDS]


# A stamp that ends with its author: "Posted on November 24, 2026 by Tom Reed" (a blog theme's meta line).
_BY_TAIL = re.compile(r"\s(?i:by)\s+(?=[A-Z])([^|•·]{2,60})$")
_NAME_END = re.compile(r"(?<=\w{3})[.!?](?:\s|$)|\s[—–]\s")


def stamp_author_names(text: str) -> tuple[str, ...] | None:
    """The names after "by" that end a dated stamp, as a byline gives them, or None."""
    if "by " not in text.lower():
        return None  # a shortcut: _BY_TAIL needs "by" before white space (re.I folds only ASCII here)
    m = _BY_TAIL.search(text) if len(text.split()) <= _WORDS_MAX else None
    if m is None or DATE_RE.search(text, 0, m.start()) is None:
        return None
    # the name ends where a sentence or a dash does ("by Erik Demaine. — Accessibility"; not the
    # full stop of an initial, "by J. R. Smith")
    parts = byline_parts("By " + _NAME_END.split(m.group(1), 1)[0])
    return parts[0] if parts else None


def _may_be_byline(line: Line) -> bool:
    return line.n_words <= _CREDITS_WORDS_MAX and _starts_byline(line) \
        and (byline_parts(line.text) is not None or _ROLE_LINE.match(line.text) is not None
             or _REPORTING_FROM.match(line.text) is not None or _ROLE_TITLE.match(line.text) is not None)


# The lines frame's conditions (newsclean.cleaners.engine.rule_conditions) are Rust regexes: Python's white
# space (str.split, re's \s) is Rust's \s and the separators \x1c-\x1f besides (_WS); a letter
# Python's str.isupper takes is in Lu, Nl or So.
_WS = r"[\s\x1c-\x1f]"
_MAY_START_UPPER = r"^[\p{Lu}\p{Lt}\p{Nl}\p{So}]"
# Without "By", "NAME | DATE": a name of two to five words (and what _NAME_SEPARATOR drops after
# it, "Jane Roe, |") before the first _TAIL_SEPARATOR.
_NAME_WORD = r"[^\s\x1c-\x1f|/•·⋅・–—]+"
_NAME_THEN_SEPARATOR = (r"^" + _NAME_WORD + r"(?:" + _WS + r"+" + _NAME_WORD + r"){0,4}(?:" + _WS
                        + r"+(?:[,&]|and|und|et|en|y|e|i)+)*(?:" + _WS + r"*[|/•·⋅・–—]|" + _WS + r"+-)")


def _may_be_byline_text():
    """_may_be_byline's tests: _BY's words at the start; or, without them, a capital first letter,
    no closing . ? ! : ; and a role word (_ROLE, _ROLE_LINE, _ROLE_TITLE, _NAME_THEN_ROLE) or a
    name, a separator and a date's digit ("NAME | DATE")."""
    import polars as pl

    low, text = pl.col("lower"), pl.col("text")
    by = low.str.contains(r"^(?:by|von|par|por|di|door|przez|written|words|report|story|text|autor|author)")
    role = low.str.contains_any(["writer", "reporter", "correspondent", "contributor", "editor", "columnist",
                                 "journalist", "staff"])
    dated = text.str.contains(r"\d") & text.str.contains(_NAME_THEN_SEPARATOR)
    closed = text.str.contains(r"[.?!:;]" + _WS + r"*$")
    return by | (text.str.contains(_MAY_START_UPPER) & ~closed & (role | dated))


@when(_may_be_byline_text)
@in_context(gate=_may_be_byline)
def byline(line: Line, doc: Doc) -> Proposal | None:
    """A line that names the article's author(s). A name's words are proper nouns: none of them
    occurs in lower case elsewhere in the document, which tells "By Jack Beresford" from a menu's
    "By Use Case" (the page speaks of "use cases")."""
    if line.n_words > _CREDITS_WORDS_MAX or not _starts_byline(line):
        return None
    if line.text[:1].islower() and _continues_previous(line, doc):
        return None
    if _ROLE_LINE.match(line.text) or _REPORTING_FROM.match(line.text):
        return whole_line("byline", "byline")
    # A name over a title is a byline only above the article's prose: inside it, "Adobe Premiere"
    # over "Video Editor" is a product and its category.
    if _ROLE_TITLE.match(line.text) and not _NAME_THEN_ROLE.match(line.text):  # under the reporter's name
        before = doc.prev(line)
        return whole_line("byline", "byline") if before is not None and _heads_article(before, doc) else None
    parts = byline_parts(line.text)
    if parts is None or not _proper(name_words(parts[0]), doc):
        return None
    return whole_line("byline", "byline")


# A word names_alone's names allow: a capital first letter (or the "," and "&" between names), a
# particle or a _NAME_SEPARATOR word (a word that starts with one, "and,", is not told apart). A
# word is counted after Rust's \s only, which Python's white space holds: a word Python starts
# after "\x1c" goes uncounted, so the test holds more often, never less.
_NAME_WORD_START = (r"(?:^|\s)(?:[\p{Lu}\p{Lt}\p{Nl}\p{So},&\x1c-\x1f]|van|von|da|de|di|du|dos|la|le|bin|al"
                    r"|and|und|e|y|i)")


def _may_be_names_alone():
    """names_alone's tests: a capital first letter, no digit (_is_name), two words or more, and
    every word capitalised or a particle or a separator (_is_name, _NAME_SEPARATOR)."""
    import polars as pl

    text = pl.col("text")
    return text.str.contains(_MAY_START_UPPER) & ~text.str.contains("[0-9]") & text.str.contains(_WS) \
        & (text.str.count_matches(r"(?:^|\s)\S") == text.str.count_matches(_NAME_WORD_START))


def _above_prose_with_next(doc: Doc) -> range:
    """The indexes of the lines above the article's prose that have a line under them: where
    name_over_title may propose (its position test)."""
    return range(min(doc.first_prose, len(doc.lines) - 1))


# No text gate beside the condition: names_alone costs more on each name-like text (every menu
# item is one) than the position test does, which rules out nearly all lines (the candidates).
@when(_may_be_names_alone)
@in_context(candidates=_above_prose_with_next)
def name_over_title(line: Line, doc: Doc) -> Proposal | None:
    """A name alone on its line, over a reporter's title or the article's date, above the prose
    ("Kenji Tanaka" then "Tokyo correspondent"; "Gary Marcus" then "Dec 14, 2025"). (Its own rule:
    the byline rule's gate stays narrow, while every menu item is a name-like line.)"""
    # the position first: most lines asked lie below the page's head (_heads_article's first test)
    if line.index >= doc.first_prose or line.index + 1 >= len(doc.lines) \
            or not _over_title_or_date(doc.lines[line.index + 1]) or not _heads_article(line, doc):
        return None
    return whole_line("byline", "name_over_title")


def _over_title_or_date(after: Line) -> bool:
    """The line under a name that makes the name a byline: a reporter's title ("Tokyo
    correspondent") or a short line with a date ("Dec 14, 2025", "Updated on October 21, 2025")."""
    return _ROLE_TITLE.match(after.text) is not None \
        or (_YEAR_OR_SLASH.search(after.text) is not None and after.n_words <= _DATED_LINE_MAX_WORDS
            and DATE_RE.search(after.text) is not None)  # a cheap test first: every DATE has one


_DATED_LINE_MAX_WORDS = 16
_YEAR_OR_SLASH = re.compile(r"\d{4}|\d/\d")  # a DATE's year, or its "5/3/24"


def _heads_article(name: Line, doc: Doc) -> bool:
    """`name` is a person's name above the article's prose, and the document's own."""
    names = names_alone(name.text) if name.index < doc.first_prose else None
    return names is not None and _proper(name_words(names), doc)


class _DocLowerCaseWords:
    """A document's lower-case words (Doc.lower_case_words) as proper_names asks them: one word at a time."""

    __slots__ = ("doc",)

    def __init__(self, doc: Doc):
        self.doc = doc

    def __contains__(self, word: str) -> bool:
        return self.doc.writes_in_lower_case(word)


def _proper(words: list[str], doc: Doc) -> bool:
    return proper_names(words, _DocLowerCaseWords(doc))


def proper_names(words: Iterable[str], lower_case_words: Container[str]) -> bool:
    """None of the capitalised words occurs in lower case in the text (`lower_case_words`): they
    are names, not a menu's "By Use Case" on a page about use cases."""
    return not any(w.lower() in lower_case_words for w in words if len(w) > 2 and w[0].isupper())


# An author's bio: a paragraph that opens with the writer's name and says what they are ("Jane Roe
# is a senior reporter covering …", "Sam is the VP of Marketing at …", "I'm Trevor Jones, an
# astrophotographer with …").
_BIO_NAME = r"[A-Z][\w'’.-]+(?:\s+(?:[A-Z][\w'’.-]+|" + "|".join(sorted(_PARTICLES)) + r")){0,3}"
_BIO_OPENING = re.compile(
    r"^(?:(?:Dr|Prof|Mr|Mrs|Ms)\.?\s+)?(?P<name>" + _BIO_NAME + r")\s+(?:(?:is|was|has\s+been|serves\s+as)\s+(?:a|an|the|our|one)\s"
    r"|(?:covers|writes\s+about|reports\s+on)\s)"  # "Ana Ley covers transit for The Times."
    r"|^(?:(?:Hi|Hello|Hey)[,!]?\s+)?I(?:'m|\s+am)\s+(?:(?P<self>" + _BIO_NAME + r"),\s+)?(?:a|an|the)\s")
# What makes the subject a person, not a product in a list ("Dropbox Business is a trusted …"):
# a personal pronoun, a career, or a person's kind of role.
_PERSON = re.compile(
    r"\b(?:he|she|his|her|him|they\s+(?:once|also|live|love|enjoy)|years?\s+of\s+(?:experience|expertise)"
    r"|covers|writes\s+about|reports\s+on"
    r"|writer|reporter|journalist|editor|author|contributor|columnist|blogger|photographer|founder|co-founder"
    r"|ceo|cto|vp|manager|director|professor|physician|doctor|specialist|consultant|researcher|traveler"
    r"|traveller|designer|developer|engineer|scientist|teacher|folklorist|expert)\b", re.I)
# A label over the bio: "About the author", "Meet the writer", "THE AUTHOR", "Written by", "More about me".
_BIO_HEADER = re.compile(r"^(?:(?:about|meet)\s+(?:the\s+)?(?:authors?|writers?|reporters?|contributors?|editors?|experts?)"
                         r"|(?:the\s+)?authors?|written\s+by|more\s+about\s+me)\b", re.I)
_BIO_MIN_WORDS, _BIO_MAX_WORDS = 8, 100
_BIO_LOOK_BACK = 3  # lines above the bio where its name line or label sits (a role line, a photo's alt text)
_BIO_MAX_IN_DOC = 2  # more paragraphs opening like a bio make a list of people (candidates, a team) or of products
_NAME_LINE_MAX_WORDS = 10


def _bio_opening(line: Line) -> re.Match | None:
    # the anchored pattern first: it fails at once on most lines, and counting words costs more
    m = _BIO_OPENING.match(line.text)
    if m is None or not _BIO_MIN_WORDS <= line.n_words <= _BIO_MAX_WORDS \
            or (m["name"] and m["name"].split()[0].lower() in shape.STOP_WORDS):
        return None
    return m


def _names_the_writer(above: Line, name: str) -> bool:
    """`above` is a short line that gives `name` as a byline does: alone, after "By", or before a
    role or title ("Trevor Jackins Senior Digital Marketing Manager at Splashtop", "Trevor Jones
    (AstroBackyard)"); not a headline that mentions the person ("Q&A: Jane Roe on …")."""
    text = above.text
    if above.n_words > _NAME_LINE_MAX_WORDS or shape.ends_sentence(text):
        return False
    by = _BY.match(text)
    rest = text[by.end():] if by else text
    first = name.split()[0]
    if not rest.startswith(first):
        return False
    tail = rest[len(name):] if rest.startswith(name) else rest[len(first):]
    return not tail.strip() or tail.lstrip()[:1] in "(|,–—-" or shape.is_title_cased(tail)


def _byline_names(doc: Doc) -> list[tuple[str, ...]]:
    """The words of every name the document's bylines and "… by NAME" stamps give (lower case)."""
    found: list[tuple[str, ...]] = []
    for ln in doc.lines:
        parts = byline_parts(ln.text) if _starts_byline(ln) else None
        names = (parts[0] if parts else None) or stamp_author_names(ln.text)
        # the word count last: few lines give a name, and counting words costs more
        if names and ln.n_words <= _CREDITS_WORDS_MAX:
            found.extend(tuple(name.lower().split()) for name in names)
    return found


def _is_byline_author(name: str, doc: Doc) -> bool:
    """`name` is an author the document's byline gives: the same words, the first words of a
    byline name ("Jane Smith" in "By Jane Smith Fox News"), or a byline name's surname."""
    ws = tuple(name.lower().split())
    return any(b[:len(ws)] == ws or (len(ws) == 1 and len(b) > 1 and b[-1] == ws[0])
               for b in doc.memo("byline_names", _byline_names))


def _bio_openings(doc: Doc) -> int:
    return sum(_bio_opening(ln) is not None for ln in doc.lines)


def _may_open_bio():
    """_BIO_OPENING's anchors: an ASCII capital first, then "is/was/has been/serves as a|an|the|our|
    one", "covers/writes about/reports on" or the opening "I'm"/"I am"."""
    import polars as pl

    text = pl.col("text")
    return text.str.contains("^[A-Z]") & text.str.contains(
        _WS + r"(?:is|was|been|as)" + _WS + r"+(?:a|an|the|our|one)" + _WS + "|" + _WS + r"(?:covers|writes|reports)"
        + _WS + r"|^(?:(?:Hi|Hello|Hey)[,!]?" + _WS + r"+)?I(?:'m|" + _WS + r"+am)" + _WS)


@when(_may_open_bio)
@in_context(gate=lambda line: _bio_opening(line) is not None and _PERSON.search(line.text) is not None)
def author_bio(line: Line, doc: Doc) -> Proposal | None:
    """A bio paragraph under its writer's name line or an about-the-author label (within a few
    lines above), or anywhere about the author a byline of the document names; a page with more
    than two such openings is a list of people, and keeps them."""
    m = _bio_opening(line)
    if m is None or not _PERSON.search(line.text):
        return None
    name = m["name"] or m["self"]
    above = doc.lines[max(line.index - _BIO_LOOK_BACK, 0):line.index]
    if not any(ln.n_words <= 6 and _BIO_HEADER.match(ln.text) for ln in above) \
            and not (name and any(_names_the_writer(ln, name) for ln in above)) \
            and not (name and _is_byline_author(name, doc)):
        return None
    return whole_line("byline", "author_bio") if doc.memo("bio_openings", _bio_openings) <= _BIO_MAX_IN_DOC else None
