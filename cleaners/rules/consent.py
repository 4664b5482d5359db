"""Consent and privacy walls: "We use cookies … By continuing to browse you accept …".

No named kind covers them, so they are `boilerplate` with their own rule name.
"""
from __future__ import annotations

import re

from cleaners.rules.base import Doc, Line, Proposal, whole_line

_COOKIE = re.compile(r"\bcookies?\b|\bconsent\b|\bgdpr\b|\bprivacy (?:policy|settings|preferences)\b", re.I)
# The site addressing the reader about the consent (we/our/you/your) with a consent verb.
_ADDRESS = re.compile(r"\b(?:we|our|us|you|your)\b", re.I)
_CONSENT = re.compile(r"\b(?:accept|agree|consent|continu\w*|manage|preferences|settings|opt[ -]?out|allow|reject|decline|browsing|browse)\b", re.I)


def _may_name_cookies(text: str) -> bool:
    """False only where _COOKIE cannot match: none of "cook", "consent", "gdpr", "vacy " in the lower
    case text. (Under re.I only "ı", "İ" and "ſ" match an ASCII letter that lower() does not give back,
    and only the "s" of "consent" is among them: "ſ" is read as "s".)"""
    low = text.lower()
    if "ſ" in low:
        low = low.replace("ſ", "s")
    return "cook" in low or "consent" in low or "gdpr" in low or "vacy " in low


def cookie_consent(line: Line, doc: Doc) -> Proposal | None:
    t = line.text
    if line.n_words <= 60 and _may_name_cookies(t) and _COOKIE.search(t) and _ADDRESS.search(t) and _CONSENT.search(t):
        return whole_line("boilerplate", "cookie_consent")
    return None
