"""Outlet signatures: "More on FoxNews.com.", "Videos by Rare", "© 2018 Example Media"."""
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
# German wires' credit line: "Mit Material von dpa und AFP".
_WIRE_MATERIAL = re.compile(r"^mit\ material\ (?:von|der|des)\s+\S", re.I | re.X)
# "All rights reserved" in the languages the cue rules read (newsclean.cleaners.metadata.outlets reads it too:
# such a notice names no holder, "© RIPRODUZIONE RISERVATA").
RIGHTS_RESERVED = (r"(?:all rights reserved|alle rechte vorbehalten|tous droits réservés|todos los derechos reservados"
                   r"|tutti i diritti riservati|riproduzione riservata|todos os direitos reservados"
                   r"|alle rechten voorbehouden|wszelkie prawa zastrzeżone)")
# (and Polish sites' "Materiał chroniony prawem autorskim": "material protected by copyright")
_COPYRIGHT = re.compile(r"^(?:©|\(c\)|copyright\b|materiał\ chroniony\ prawem\ autorskim|" + RIGHTS_RESERVED + ")", re.I)
_BARE_DOMAIN = re.compile(r"^" + DOMAIN + r"\.?$", re.I)


@starts_with(_SIGNED, _WIRE_MATERIAL)
def signed_by_outlet(line: Line, doc: Doc) -> Proposal | None:
    if line.n_words <= 12 and (_SIGNED.search(line.text) or _WIRE_MATERIAL.search(line.text)):
        return whole_line("outlet_signature", "signed_by_outlet")
    return None


@starts_with(_COPYRIGHT)
def copyright_line(line: Line, doc: Doc) -> Proposal | None:
    if line.n_words <= 30 and _COPYRIGHT.search(line.text):
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
