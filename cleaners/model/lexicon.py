"""A learned word lexicon: how much more often a word occurs in debris lines than in body lines,
across many sites ("subscribe", "cookies", "newsletter", "Impressum" lean to debris; "said",
"according" to body). It is counted from the training documents' labels, once per document and
class, and keeps only words seen on several sites, so no one site's menu wording is learned.

    lex = build([(lines, y, w, group), ...])   # word -> log-odds of debris (float)
    save(lex, folder) / load(folder)           # lexicon.json beside the boosters (data, no code)
"""
from __future__ import annotations

import json
import math
from collections import Counter, defaultdict
from pathlib import Path

from newsclean.cleaners.model.features import MONTHS, line_tokens

WEEKDAYS = frozenset(
    "monday tuesday wednesday thursday friday saturday sunday mon tue tues thu thur thurs fri "
    "montag dienstag mittwoch donnerstag freitag samstag sonntag sonnabend "
    "lundi mardi mercredi jeudi vendredi samedi dimanche "
    "lunes martes miércoles jueves viernes sábado domingo "
    "lunedì martedì mercoledì giovedì venerdì sabato domenica "
    "segunda terça quarta quinta sexta "
    "maandag dinsdag woensdag donderdag vrijdag zaterdag zondag".split())
CALENDAR = MONTHS | WEEKDAYS

MIN_SITES = 12  # a word must occur on this many sites (CV groups) to enter the lexicon
MIN_DOCS = 5
PRIOR = 5.0  # additive smoothing on both counts
FILE = "lexicon.json"


def _tokens(line: str) -> set[str]:
    # numbers say nothing across pages; calendar words are the date features' (which see whether
    # a number stands beside them): "Friday, March 3" is a dateline, "The vote is Friday." is not
    return {t for t in line_tokens(line) if not t.isdigit() and t not in CALENDAR}


def build(docs) -> dict[str, float]:
    """docs: iterable of (lines, y (1 = debris), w (0 = unlabelled), group)."""
    deb: Counter = Counter()
    body: Counter = Counter()
    sites: dict[str, set] = defaultdict(set)
    n_deb = n_body = 0
    for lines, y, w, group in docs:
        d_words: set[str] = set()
        b_words: set[str] = set()
        for s, yy, ww in zip(lines, y, w):
            if ww <= 0:
                continue
            (d_words if yy else b_words).update(_tokens(s))
        deb.update(d_words)
        body.update(b_words)
        n_deb += bool(d_words)
        n_body += bool(b_words)
        for t in d_words | b_words:
            sites[t].add(group)
    base = math.log((n_deb + PRIOR) / (n_body + PRIOR))
    out = {}
    for t, g in sites.items():
        d, b = deb[t], body[t]
        if len(g) >= MIN_SITES and d + b >= MIN_DOCS:
            out[t] = round(math.log((d + PRIOR) / (b + PRIOR)) - base, 4)
    return out


def save(lex: dict[str, float], folder: Path) -> None:
    (Path(folder) / FILE).write_text(json.dumps(lex, ensure_ascii=False, sort_keys=True), encoding="utf-8")


def load(folder: Path) -> dict[str, float] | None:
    f = Path(folder) / FILE
    return json.loads(f.read_text(encoding="utf-8")) if f.exists() else None
