"""The outlet registry: canonical outlet names with their domains and aliases.

The packaged `outlets.csv` (name, domain, aliases separated by "|"; 500+ English-language news
outlets) can be extended by users with their own CSV of the same columns, named by the
NEWSCLEAN_OUTLETS environment variable (or passed to load_registry); the user's rows win.

A domain may be a host ("abcnews.go.com") when the outlet lives under another company's domain;
lookups walk up a URL's host name, and the outlet's registrable domain is what tables report.
"""
from __future__ import annotations

import csv
import functools
import os
import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path


@dataclass(frozen=True)
class Outlet:
    name: str
    domain: str
    aliases: tuple[str, ...]


class OutletRegistry:
    def __init__(self, outlets: list[Outlet]):
        self.outlets = outlets
        self._by_domain: dict[str, Outlet] = {}
        for o in outlets:  # first row wins: the user's rows come first
            self._by_domain.setdefault(o.domain.lower(), o)
        by_alias: dict[str, Outlet] = {}
        for o in outlets:
            for a in (o.name, o.domain, *o.aliases):
                by_alias.setdefault(a.lower(), o)
        self._by_alias = by_alias
        # Longest alias first so "Fox News Channel" wins over "Fox News". Aliases are matched
        # case-sensitively as written (a capitalised "Rare" is an outlet, "rare" is a word).
        names = sorted({a for o in outlets for a in (o.name, o.domain, *o.aliases)}, key=len, reverse=True)
        self._pattern = re.compile(r"(?<![\w.])(" + "|".join(map(re.escape, names)) + r")(?![\w])") if names else None
        # One capitalised ordinary word ("Time", "Slate", "Metro", "Stuff") names an outlet only where
        # a publisher is named: in brackets "(Time)", after "by/on/from/at/via/©", or as the whole span.
        self._ambiguous = {a for a in names if _is_ambiguous(a)}

    def by_domain(self, domain: str) -> Outlet | None:
        d = domain.lower().removeprefix("www.")
        while d:
            if d in self._by_domain:
                return self._by_domain[d]
            if "." not in d:
                return None
            d = d.split(".", 1)[1]
        return None

    def by_alias(self, alias: str) -> Outlet | None:
        return self._by_alias.get(alias.strip().lower())

    def find_in(self, text: str) -> Outlet | None:
        """The first outlet named in `text` (a debris span such as a signature or dateline)."""
        if self._pattern is None:
            return None
        for m in self._pattern.finditer(text):
            alias = m.group(1)
            if alias in self._ambiguous and not _names_publisher(text, m.start(), m.end()):
                continue
            if _is_legal_suffix(alias, text[:m.start()]):
                continue
            return self._by_alias[alias.lower()]
        return None

    def domain_of(self, outlet: Outlet) -> str:
        """The outlet's registrable domain (an entry may name a host: "abcnews.go.com")."""
        from newsclean.cleaners.metadata.outlets import registrable_domain

        return registrable_domain(outlet.domain) or outlet.domain


# A company's legal form after its name ("Nexstar Media Inc.", "Gannett Co., Inc."): the magazine
# Inc. is named on its own, not as the last word of another company's name.
_LEGAL_SUFFIXES = frozenset({"inc", "inc.", "ltd", "ltd.", "llc", "corp", "corp.", "plc", "gmbh", "ag", "s.a."})
_NAME_BEFORE = re.compile(r"[A-Z][\w&.'’-]*,?\s+$")


def _is_legal_suffix(alias: str, before: str) -> bool:
    return alias.lower() in _LEGAL_SUFFIXES and _NAME_BEFORE.search(before[-40:]) is not None


def _is_ambiguous(alias: str) -> bool:
    """A single ordinary word, capitalised or in lower case: also an English word or a name."""
    return alias.isalpha() and not alias.isupper() and (alias[1:].islower() or alias.islower())


# (a copyright's year may stand between the sign and the name: "Copyright © 2024 Yahoo")
_PUBLISHER_BEFORE = re.compile(r"(?:\(|(?:©|\bcopyright)(?:\W*\d{4}(?:\s*[-–]\s*\d{4})?)?|\b(?:by|on|from|at|via|to|with|for)\b)"
                               r"\W*(?:the\s+)?$", re.I)


def _names_publisher(text: str, start: int, end: int) -> bool:
    before, after = text[:start], text[end:]
    if not re.sub(r"[\W_]+", "", before + after):
        return True  # the span is the name
    return bool(_PUBLISHER_BEFORE.search(before[-40:])) or after.lstrip().startswith(")") and "(" in before[-3:]


def _read_csv(path) -> list[Outlet]:
    with open(path, newline="", encoding="utf-8") as fh:
        return [
            Outlet(r["name"].strip(), r["domain"].strip().lower(), tuple(a.strip() for a in (r.get("aliases") or "").split("|") if a.strip()))
            for r in csv.DictReader(fh)
            if r.get("name") and r.get("domain")
        ]


@functools.lru_cache(maxsize=4)
def load_registry(extra: str | None = None) -> OutletRegistry:
    """The packaged registry, plus the user's CSV (argument or NEWSCLEAN_OUTLETS) whose rows win."""
    outlets = _read_csv(resources.files("newsclean.cleaners.metadata").joinpath("outlets.csv"))
    extra = extra or os.environ.get("NEWSCLEAN_OUTLETS")
    if extra:
        outlets = _read_csv(Path(extra)) + outlets
    return OutletRegistry(outlets)
