"""Helpers for the per-rule tests: wrap a line in a plausible article and see what happens to it."""
from __future__ import annotations

from newsclean.cleaners.pipeline import clean_text
from newsclean.cleaners.settings import Settings

BODY = [
    "The city council voted on Tuesday to expand the downtown bus network after months of debate over costs.",
    "Council members said the new routes would serve neighbourhoods that have gone without reliable service for years.",
    "The plan still needs approval from the regional transit authority, which meets again next month to review the budget.",
]


def article(*, before: list[str] = (), middle: list[str] = (), after: list[str] = (), title: str | None = "Council backs bigger bus network") -> str:
    lines = ([title] if title else []) + list(before) + BODY[:2] + list(middle) + BODY[2:] + list(after)
    return "\n\n".join(lines)


def removed_kinds(text: str, settings: Settings | None = None) -> dict[str, str]:
    """removed text -> kind."""
    doc = clean_text(text, settings or Settings())
    return {s.text: s.kind for s in doc.removed}


def kind_of(line: str, where: str = "middle") -> str | None:
    """The kind the cleaner gives `line` placed in the middle (or before/after) of an article."""
    return removed_kinds(article(**{where: [line]})).get(line)


def survives(line: str, where: str = "middle") -> bool:
    doc = clean_text(article(**{where: [line]}), Settings())
    return line in doc.text.split("\n\n")


def alone(rule, text: str):
    """What `rule` proposes for `text` as a document of that one line (None: nothing)."""
    from newsclean.cleaners.rules.base import Doc, Line

    line = Line(0, 1, text)
    return rule(line, Doc([line]))


class FixedScores:
    """A line-model request answered with given scores (newsclean.cleaners.engine.scoring's request protocol):
    what a test hands the decision in place of the model."""

    def __init__(self, proba, title):
        self.proba, self.title = proba, title

    def answer_alone(self):
        import numpy as np

        return np.array(self.proba, dtype=np.float64), self.title

    def group_key(self):
        return FixedScores, id(self)

    @staticmethod
    def answer_together(requests):
        return [r.answer_alone() for r in requests]


def fixed_scores(monkeypatch, proba, title) -> None:
    """Every decision pass gets P(debris) `proba` and headline index `title` instead of the model's."""
    import newsclean.cleaners.decide as decide_module

    monkeypatch.setattr(decide_module, "score_request", lambda texts, *a, **k: FixedScores(proba, title))
