"""Outlet signatures: "More on FoxNews.com.", "Videos by Rare", "© 2018 Example Media", "No part of
this site may be reproduced without our written permission."."""
from __future__ import annotations

import re

from newsclean.cleaners.rules.base import Doc, Line, Proposal, starts_with, when, whole_line

_TLDS = "com|net|org|co|us|uk|ca|au|news|tv|fm|info|io|de|fr|in|ie|nz|za"
DOMAIN = r"(?:[A-Za-z0-9-]+\.)+(?:" + _TLDS + r")\b"
_NAME = r"(?:[A-Z][\w&'’.-]*|" + DOMAIN + r")"
_SIGNED = re.compile(
    r"^(?:more|videos?|stories|content|powered|produced|presented|brought\ to\ you|distributed|syndicated"
    r"|read\ (?:more|the\ full\ (?:story|article))|continue\ reading|full\ story|first\ (?:published|appeared)"
    r"|originally\ (?:published|appeared)"
    r"|this\ (?:article|story|post|piece|column)\ (?:(?:was|is|has\ been|originally|first)\ ){0,2}(?:appeared|published|republished|posted|from))"
    r"\s+(?:on|at|by|from|in)\s+(?:the\ )?" + _NAME,
    re.I | re.X,
)
# A partner's credit, a sentence long: "This story about tutoring was written by Jane Doe and produced
# by The Example Report, a nonprofit newsroom …", "This article was published with the title "…" in
# Example Magazine Vol. 3". The article speaks of itself ("this story") and names who produced or
# published it; a byline's "This article was written by Jane Doe" alone names no outlet.
_PARTNER_CREDIT = re.compile(
    r"^this\ (?:story|article|report|piece|column|post|essay|investigation)\b"
    r"(?=[^.!?]{0,160}?\b(?:was|is|has\ been)\b)[^.!?]{0,160}?"
    r"\b(?:produced|published|co-?published|distributed|syndicated)\ (?:[^.!?]{0,80}?\ )?"
    r"(?:by|with|in\ (?:partnership|collaboration)\ with|in|for)\s+(?:the\ )?"
    # a name, capitalised, that is no date ("first published in August 2014")
    r"(?!(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b|(?:mon|tues|wednes|thurs|fri|satur|sun)day\b)"
    r"(?:(?-i:[A-Z])[\w&'’.-]*|" + DOMAIN + r")",
    re.I | re.X,
)
PARTNER_CREDIT_MAX_WORDS = 50
# German wires' credit line: "Mit Material von dpa und AFP".
_WIRE_MATERIAL = re.compile(r"^mit\ material\ (?:von|der|des)\s+\S", re.I | re.X)
# "All rights reserved" in the languages the cue rules read (newsclean.cleaners.metadata.outlets reads it too:
# such a notice names no holder, "© RIPRODUZIONE RISERVATA").
RIGHTS_RESERVED = (r"(?:all rights reserved|alle rechte vorbehalten|tous droits réservés|todos los derechos reservados"
                   r"|tutti i diritti riservati|riproduzione riservata|todos os direitos reservados"
                   r"|alle rechten voorbehouden|wszelkie prawa zastrzeżone)")
# (and Polish sites' "Materiał chroniony prawem autorskim": "material protected by copyright")
_COPYRIGHT = re.compile(r"^(?:©|\(c\)|copyright\b|materiał\ chroniony\ prawem\ autorskim|" + RIGHTS_RESERVED + ")", re.I)
# A reprint notice: the rights a page reserves, in words and without a "©" ("This article is the
# copyrighted property of …", AP's "This material may not be published, broadcast, rewritten or
# redistributed", "No part of this site may be reproduced …", "Nachdruck nur mit Genehmigung",
# "Prohibida su reproducción total o parcial", "Reproduction interdite"). The article speaks of
# itself ("this …"), or reproduction is forbidden outright: prose about a copyright dispute does neither.
_REPRINT = r"(?:published|reproduced|republished|copied|redistributed|reprinted|rewritten|broadcast|distributed|used)"
_REPRINT_NOTICE = re.compile(
    r"""^(?:this\ (?:article|story|material|content|report|post|page|piece|column|website|site|publication)\ (?:is|are)
            \ (?:the\ )?(?:copyrighted|copyright|protected\ by\ copyright|(?:\w+\ )?property\ of)\b
        | this\ (?:material|article|story|content|report|publication)\ (?:may|must|can|shall)\ not\ be\ """ + _REPRINT + r"""
        | no\ part\ of\ this\ (?:article|story|publication|material|content|website|site|report|page)\ may\ be\ """ + _REPRINT + r"""
        | written\ permission\b[^.!?]{0,60}?\b(?:reprint|reproduc|republi|redistribut)
        | (?:reproduction|republication|redistribution|reprinting)
          \ (?:in\ whole\ or\ in\ part|of\ (?:this|any)\ (?:article|story|content|material|publication)s?|without\ (?:prior\ )?(?:written\ )?permission)
          [^.!?]{0,60}?\b(?:prohibited|forbidden|not\ permitted)
        | unauthori[sz]ed\ (?:use|reproduction|copying|distribution|duplication|republication)\b[^.!?]{0,80}?\b(?:prohibited|forbidden)
        | (?:nachdruck|vervielfältigung)\ (?:nur\ mit|verboten|untersagt)
        | (?:alle\ )?(?:inhalte|texte|beiträge)\ (?:sind|dieser\ (?:seite|website))\ [\w\ ]{0,30}?urheberrechtlich\ geschützt
        | (?:toute\ )?reproduction\ (?:même\ partielle\ |totale\ ou\ partielle\ )?(?:est\ )?interdite
        | (?:queda\ )?prohibida\ (?:su|la)\ reproducción
        | (?:è\ )?vietata\ la\ riproduzione | riproduzione\ vietata
        | (?:é\ )?proibida\ a\ reprodução
        | przedruk\ (?:tylko\ |wyłącznie\ )?(?:za\ zgodą|zabroniony)
        | niets\ uit\ deze\ (?:uitgave|publicatie|website)\ mag)""",
    re.I | re.X,
)
_BARE_DOMAIN = re.compile(r"^" + DOMAIN + r"\.?$", re.I)


@starts_with(_SIGNED, _WIRE_MATERIAL, _PARTNER_CREDIT)
def signed_by_outlet(line: Line, doc: Doc) -> Proposal | None:
    if line.n_words <= 12 and (_SIGNED.search(line.text) or _WIRE_MATERIAL.search(line.text)) \
            or line.n_words <= PARTNER_CREDIT_MAX_WORDS and _PARTNER_CREDIT.search(line.text):
        return whole_line("outlet_signature", "signed_by_outlet")
    return None


# A notice is short; one that opens with the sign ("© 2026 Example Media LLC. All rights reserved.
# Example is a … company. No part of …") may run on through a footer's legal text: no article
# paragraph starts with "©" (none of the dev and evaluation pages' true text does).
NOTICE_MAX_WORDS = 30
SIGNED_NOTICE_MAX_WORDS = 80
_SIGN = re.compile(r"^(?:copyright\s*)?©", re.I)  # the sign itself: "(c)" also numbers a clause of a law


# A headline about copyright, not a notice: it opens with the word, holds no sign, year or reserved
# rights, and reads as a title with the small words of a sentence ("Copyright Office Weighs In on AI
# Training", "Copyright Complexity in a Fragmented World"); a notice names its holder ("Copyright
# The Associated Press", "Copyright Example Media Group").
_COPYRIGHT_HEADLINE = re.compile(r"^copyright\s+(?-i:[A-Z])", re.I)
_NOTICE_MARK = re.compile(r"©|\(c\)|\d|@|" + RIGHTS_RESERVED, re.I)
# a headline's small words; not shape.STOP_WORDS, whose "by" and "of" a notice writes too ("Copyright
# Example - Powered by Invision", "Copyright of the Example Times")
_SENTENCE_WORD = re.compile(r"\s(?:in|on|for|to|with|a|an|and|the|is|are|how|what|why|vs\.?)\s")


# The site's own notice among copyright lines: dated or reserving rights ("© 2025 Example Inc.",
# "Copyright © 2025 …", "© Example 2025", "All rights reserved"), not a picture's "© Getty Images".
_SITE_NOTICE = re.compile(
    r"^(?:copyright\s*)?(?:©|\(c\))?\s*(?:copyright\s*)?(?:19|20)\d{2}\b"
    r"|^\S+(?:\s+\S+){0,4}\s+(?:19|20)\d{2}(?:\s*[-–]\s*(?:19|20)?\d{2})?\.?$"  # the year ends a short notice
    r"|" + RIGHTS_RESERVED, re.I)


def is_site_notice(text: str) -> bool:
    """A copyright line that is the site's own notice (_SITE_NOTICE): it closes a page's article
    (newsclean.cleaners.decide), where a picture's credit does not."""
    return _SITE_NOTICE.search(text) is not None


@starts_with(_COPYRIGHT, _REPRINT_NOTICE)
def copyright_line(line: Line, doc: Doc) -> Proposal | None:
    if line.n_words > NOTICE_MAX_WORDS and not (line.n_words <= SIGNED_NOTICE_MAX_WORDS and _SIGN.search(line.text)):
        return None
    if _COPYRIGHT_HEADLINE.search(line.text) and not _NOTICE_MARK.search(line.text) and _SENTENCE_WORD.search(line.text):
        return None
    if _COPYRIGHT.search(line.text) or _REPRINT_NOTICE.search(line.text):
        return whole_line("outlet_signature", "copyright_line")
    return None


def _may_be_bare_domain():
    """bare_domain's tests: no space, and _BARE_DOMAIN over the lower case (re.I's [A-Za-z] matches
    what the lower case folds to a-z: "K" (Kelvin), "ı", "ſ", "İ"; its "\\b" dropped, a "$" that
    Python also finds before a final newline)."""
    import polars as pl

    return ~pl.col("text").str.contains(" ", literal=True) \
        & pl.col("lower").str.contains(rf"^(?:[a-z0-9-]+\.)+(?:{_TLDS})\.?\n?$")


@when(_may_be_bare_domain)
def bare_domain(line: Line, doc: Doc) -> Proposal | None:
    if " " not in line.text and _BARE_DOMAIN.search(line.text):  # a domain holds no space (a shortcut)
        return whole_line("outlet_signature", "bare_domain")
    return None
