"""Each in-context rule's declared candidates (newsclean.cleaners.rules.base.in_context) are necessary:
wherever the rule proposes, its line is a candidate. Checked by calling each rule on every line of
real pages (the accuracy-gate pages, the news layouts, the seeds; every dev page when ../shared is
beside the checkout) and of look-alikes placed where the rules propose and where they do not; and
propose_document, which asks each rule on its candidates only, gives what every rule called on
every line gives."""
from __future__ import annotations

from functools import cache

import pytest

from newsclean.cleaners import policy, rules
from newsclean.cleaners.rules import RULES, Doc, Line, Proposal, in_context, propose_document, propose_plain
from tests.test_rule_conditions import LOOKALIKES, _dev_docs, _local_docs

PROSE = "The city council voted on Tuesday to expand the downtown bus network after months of debate."
# where each rule with candidates proposes: under a caption label, under a box header or a video
# label, a name over a title or a date above the prose, a dateline in the first lines, a place stamp
PLACED = [
    "Image caption", "Party members applauded the speech in the hall", "Caption:", "A view of the harbour",
    "Related coverage", "Mayor resigns after audit of city accounts", "Council votes on new budget plan",
    "Video", "Driver caught on camera speeding through the town centre",
    "Kenji Tanaka", "Tokyo correspondent", "Gary Marcus", "Dec 14, 2025",
    "WASHINGTON (AP) — The Senate voted on Tuesday to pass the bill after a long debate over spending.",
    "Madrid - 14 nov 2023 - 12:30 CET",
]


def _placed_docs() -> list[list[str]]:
    """PLACED alone, after some prose (below the page's head), at the end, and line by line."""
    return [PLACED, ["Menu", "Home", "World"] + PLACED + [PROSE], [PROSE] * 3 + PLACED, PLACED[::-1] + [PROSE],
            PLACED + ["Image caption"], ["Related stories"], ["Video"], *([t] for t in PLACED),
            # a name right above the prose: its dated line is the first sentence of twelve words
            ["Gary Marcus", "Updated on Monday, December 14, 2025, after the vote in the council of the city."]]


@cache
def _docs(dev: bool = False) -> list[Doc]:
    texts = (_dev_docs() if dev else _local_docs() + [LOOKALIKES] + _placed_docs())
    return [Doc([Line(i, i + 1, t) for i, t in enumerate(lines)]) for lines in texts]


WITH_CANDIDATES = [r for r in RULES if getattr(r, "candidates", None) is not None]


def _missed(docs: list[Doc]) -> tuple[list[tuple[str, int, str]], set[str]]:
    """(rule, index, line) where a rule proposes on a line that is not its candidate; the rules
    that proposed somewhere."""
    missed, proposed = [], set()
    for doc in docs:
        for rule in WITH_CANDIDATES:
            candidates = list(rule.candidates(doc))
            assert len(set(candidates)) == len(candidates) and all(0 <= k < len(doc.lines) for k in candidates)
            candidates = set(candidates)
            for line in doc.lines:
                if rule(line, doc) is not None:
                    proposed.add(rule.__name__)
                    if line.index not in candidates:
                        missed.append((rule.__name__, line.index, line.text))
    return missed, proposed


def test_the_rules_asked_on_every_line_declare_candidates():
    """An in-context rule without a text gate would be called on every line: it declares where."""
    ungated = {r.__name__ for r in RULES if getattr(r, "needs_context", False) and r.text_gate is None}
    assert ungated and ungated <= {r.__name__ for r in WITH_CANDIDATES}


def test_candidates_hold_every_proposing_line_of_real_pages_and_look_alikes():
    missed, proposed = _missed(_docs())
    assert missed == []
    assert proposed == {r.__name__ for r in WITH_CANDIDATES}  # each rule's check is a real one


def test_candidates_hold_every_proposing_line_of_the_dev_pages():
    docs = _docs(dev=True)
    if not docs:
        pytest.skip("the dev pages are not beside the checkout (set NEWSCLEAN_SHARED)")
    assert _missed(docs)[0] == []


@pytest.mark.parametrize("rule_set", ["RULES", "HTML_RULES"])
def test_propose_document_gives_every_rule_called_on_every_line(rule_set):
    chosen = RULES if rule_set == "RULES" else policy.HTML_RULES
    rules.clear_caches()
    for _ in range(2):  # first sight of each text, then from the cache
        for doc in _docs():
            got = propose_document(doc, chosen)
            assert len(got) == len(doc.lines)
            for line, props in zip(doc.lines, got):
                assert list(props) == propose_plain(line, doc, chosen), line.text
                assert rules.propose(line, doc, chosen) == list(props)


def test_a_rule_is_asked_only_on_its_candidates_where_its_gate_holds():
    asked: list[int] = []

    @in_context(gate=lambda line: line.text != "no", candidates=lambda doc: [1, 2, 4])
    def marks(line: Line, doc: Doc) -> Proposal | None:
        asked.append(line.index)
        return Proposal("navigation", "marks") if line.index > 1 else None

    def whole(line: Line, doc: Doc) -> Proposal | None:
        return Proposal("caption", "whole")

    doc = Doc([Line(i, i + 1, t) for i, t in enumerate(["a", "b", "c", "d", "no", "f"])])
    got = propose_document(doc, (marks, whole))
    assert sorted(asked) == [1, 2]
    # in rule-set order: the in-context rule's proposal before the text-only one's
    assert got[2] == (Proposal("navigation", "marks"), Proposal("caption", "whole"))
    assert [len(p) for p in got] == [1, 1, 2, 1, 1, 1]
