"""Consent and privacy walls: "We use cookies … By continuing to browse you accept …".

No named kind covers them, so they are `boilerplate` with their own rule name.
"""
from __future__ import annotations

import re

from cleaners.rules.base import Doc, Line, Proposal

_COOKIE = re.compile(r"\bcookies?\b|\bconsent\b|\bgdpr\b|\bprivacy (?:policy|settings|preferences)\b", re.I)
# The site addressing the reader about the consent (we/our/you/your) with a consent verb.
_ADDRESS = re.compile(r"\b(?:we|our|us|you|your)\b", re.I)
_CONSENT = re.compile(r"\b(?:accept|agree|consent|continu\w*|manage|preferences|settings|opt[ -]?out|allow|reject|decline|browsing|browse)\b", re.I)


def cookie_consent(line: Line, doc: Doc) -> Proposal | None:
    t = line.text
    if _COOKIE.search(t) and line.n_words <= 60 and _ADDRESS.search(t) and _CONSENT.search(t):
        return Proposal("boilerplate", "cookie_consent")
    return None
