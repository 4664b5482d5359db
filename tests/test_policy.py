"""The decider's policy (newsclean.cleaners.policy): on a body trafilatura extracted, only the trusted rules'
removals stand, every other line is body, a repeated paragraph and the furniture above the page's
headline go, and the line model does not run; extract_html calls nothing of the cleaner."""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from newsclean.cleaners.decide import NO_BODY
from newsclean.cleaners.fixpoint import decide_stable, decide_stable_steps
from newsclean.cleaners.lines import normalise_lines
from newsclean.cleaners.policy import CUE_DECISIONS, CUE_RULES, EDGE_RULES, HTML_RULES, TEXT, extracted_body
from newsclean.cleaners.rules import RULES
from newsclean.cleaners.settings import Settings
from newsclean.cleaners.types import DocumentError
from tests.articles import PARAGRAPHS

HEADLINE = "Council votes to expand the city bus network"
GERMAN = [
    "Der Stadtrat hat am Dienstag beschlossen, das Busnetz auf drei neue Bezirke auszuweiten, wie die Verwaltung mitteilte.",
    "Befürworter sagen, dass die neuen Linien vielen Pendlern eine Stunde Fahrzeit pro Tag ersparen würden.",
    "Kritiker fragen, wie die zusätzlichen Fahrer bezahlt werden sollen, und warnen vor höheren Preisen im nächsten Jahr.",
]
TEASERS = ["Mayor unveils plan for a new river crossing", "Zoo welcomes two red pandas"]


def _decide_body(paragraphs: list[str], headlines: tuple[str, ...] = ()):
    """The decision on an extracted body of these paragraphs, under its policy."""
    text = "\n\n".join(paragraphs)
    return decide_stable(normalise_lines(text), Settings(), policy=extracted_body(text, headlines))


def _kept(decision) -> list[str]:
    return [text for _, text in decision.kept]


def test_the_text_policy_is_every_rule_with_the_model_and_the_body_searched():
    assert TEXT.rules == RULES and TEXT.use_model and TEXT.searches_body and TEXT.removed_by is None


def test_an_extracted_body_is_proposed_on_by_the_cue_and_edge_rules_without_the_model():
    policy = extracted_body("\n\n".join(PARAGRAPHS), (HEADLINE,))
    assert policy.rules == HTML_RULES and not policy.use_model and not policy.searches_body
    assert policy.removed_by == CUE_RULES | CUE_DECISIONS and policy.removed_outside_lists_by == EDGE_RULES
    assert policy.outside_lists_removals_stand
    assert policy.headlines == (HEADLINE,)


def test_edge_rules_remove_teasers_after_an_english_body_only():
    english = _decide_body(PARAGRAPHS + TEASERS)
    assert _kept(english) == PARAGRAPHS
    assert [(s.text, s.by) for s in english.spans] == [(t, "headline_shape") for t in TEASERS]
    # the same teasers after a German body: the edge rules still propose (the search removes
    # them), but on a body that is not English-like their removals do not stand
    german = _decide_body(GERMAN + TEASERS)
    assert {s.by for s in german.searched.spans} == {"headline_shape"}
    assert _kept(german) == GERMAN + TEASERS and german.spans == []
    assert not extracted_body("\n\n".join(GERMAN)).outside_lists_removals_stand


def test_the_body_is_judged_english_only_where_an_edge_rule_removes(monkeypatch):
    """Counting the body's function words waits for an edge rule's removal to weigh: a body whose
    search removes nothing by those rules is never counted; one whose search does, once."""
    import newsclean.cleaners.policy as policy_module

    counted = []
    real = policy_module.is_english_like
    monkeypatch.setattr(policy_module, "is_english_like", lambda text: counted.append(text) or real(text))
    plain = _decide_body(PARAGRAPHS)
    assert _kept(plain) == PARAGRAPHS and counted == []
    with_teasers = _decide_body(PARAGRAPHS + TEASERS)
    assert _kept(with_teasers) == PARAGRAPHS and len(counted) == 1


def test_a_list_item_an_edge_rule_proposes_stays():
    items = ["New stops on the line:", "- Riverside Park and Market Square", "- Old Town Hall"]
    decision = _decide_body(PARAGRAPHS + items)
    proposed = {s.text: s.by for s in decision.searched.spans}
    assert proposed["- Old Town Hall"] in EDGE_RULES and proposed["New stops on the line:"] in EDGE_RULES
    assert _kept(decision) == PARAGRAPHS + items and decision.spans == []


def test_a_repeated_paragraph_in_an_extracted_body_goes_once():
    decision = _decide_body(PARAGRAPHS + [PARAGRAPHS[1]])
    assert _kept(decision) == PARAGRAPHS
    assert [(s.line, s.kind, s.by, s.whole_line) for s in decision.spans] == \
        [(2 * len(PARAGRAPHS) + 1, "boilerplate", "repeated_paragraph", True)]


def test_the_furniture_above_the_headline_goes_and_the_headline_is_not_body():
    decision = _decide_body(["In depth: the bus plan", HEADLINE, *PARAGRAPHS], headlines=(HEADLINE,))
    assert _kept(decision) == PARAGRAPHS and decision.title is None
    assert [(s.line, s.text, s.kind, s.by) for s in decision.spans] == \
        [(1, "In depth: the bus plan", "navigation", "above_headline")]
    # without the page's headline among the candidates, nothing is furniture
    assert _kept(_decide_body(["In depth: the bus plan", HEADLINE, *PARAGRAPHS])) == ["In depth: the bus plan", HEADLINE, *PARAGRAPHS]


def test_an_extracted_body_without_prose_is_kept_as_it_came_when_long_enough():
    stops = ("Stops: Riverside Park, Market Square, Old Town Hall, North Station, West Gate, Harbour, Airport, "
             "University, Stadium, Hospital")  # no sentence: no prose line; over MIN_AS_IS_CHARS
    decision = _decide_body([stops])
    assert decision.kept_as_given and _kept(decision) == [stops] and decision.spans == []
    with pytest.raises(DocumentError) as err:
        _decide_body(["Stops: Riverside Park"])
    assert err.value.reason == NO_BODY


def test_the_line_model_does_not_run_on_an_extracted_body():
    text = "\n\n".join(PARAGRAPHS + TEASERS)
    steps = decide_stable_steps(normalise_lines(text), Settings(use_model=True), policy=extracted_body(text))
    with pytest.raises(StopIteration):  # no ScoreRequest: the decision is returned at once
        next(steps)


CLEANER = ("newsclean.cleaners.pipeline", "newsclean.cleaners.decide", "newsclean.cleaners.fixpoint", "newsclean.cleaners.policy", "newsclean.cleaners.engine", "newsclean.cleaners.model")


def test_extract_html_imports_nothing_of_the_cleaner():
    # the extraction returns candidate bodies; the pipeline chooses between them with the cleaner
    root = Path(__file__).resolve().parent.parent
    code = f"import sys, newsclean.cleaners.extract_html; print(sorted(m for m in sys.modules if m.startswith({CLEANER!r})))"
    out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
    # nor at call time: no import of the cleaner anywhere in the module, a function's included
    tree = ast.parse((root / "cleaners" / "extract_html.py").read_text(encoding="utf-8"))
    imported = [node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
    imported += [alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names]
    assert [name for name in imported if name and name.startswith(CLEANER)] == []


@pytest.mark.parametrize("text", [
    "\n".join(PARAGRAPHS),
    "The mayor’s plan\r\nwas read\n\nby the council's members.\nO'Brien said: don't.\n",
    "नमस्ते दुनिया\nThe city and the river\n",  # combining marks on one line: the other reads as WORD does
    "Ein Satz über die Stadt.\nCafé crème – l’été.\n\n\n_under_score_ words\n",
    "", "\n\n", "one-line body without an end",
])
def test_the_body_words_read_line_by_line_are_the_whole_texts(text):
    from newsclean.cleaners.policy import body_words
    from newsclean.cleaners.shape import word_pattern

    assert body_words(text) == word_pattern(text).findall(text)


THREAD = ["2 Comments", "Jane Doe on March 3, 2026 at 5:23 pm said:",
          "I grew up on that front and the floods were worse every year, so I am glad the council found the money.",
          "John Roe on March 3, 2026 at 6:02 pm said:",
          "Twelve million pounds seems a lot for a wall, and I would like to know who checked the sums first."]


def test_a_thread_below_an_extracted_body_is_removed_as_comments():
    decision = _decide_body(PARAGRAPHS + THREAD)
    assert _kept(decision) == PARAGRAPHS
    assert {s.text: (s.kind, s.by) for s in decision.spans}[THREAD[0]] == ("comments", "comments_header")
    assert {(s.kind, s.by) for s in decision.spans if s.text in THREAD[2::2]} == {("comments", "comment_thread")}


def test_a_comment_count_over_an_extracted_body_cuts_nothing_below_it():
    decision = _decide_body(THREAD[:1] + PARAGRAPHS)
    assert _kept(decision) == PARAGRAPHS
    assert [(s.text, s.by) for s in decision.spans] == [(THREAD[0], "comments_header")]


def test_an_analysiss_comment_section_in_an_extracted_body_stays():
    # "Komentarz" over an analysis's second half (a section's name, not a thread's header): it
    # stays, and so does everything below it
    decision = _decide_body(PARAGRAPHS[:3] + ["Komentarz"] + PARAGRAPHS[3:])
    assert _kept(decision) == PARAGRAPHS[:3] + ["Komentarz"] + PARAGRAPHS[3:]
    assert decision.spans == []


@pytest.mark.parametrize("pager", ["Vorschau auf den nächsten Artikel", "Nächster Artikel: Stadtrat streitet über neue Buslinien"])
def test_a_pager_link_goes_from_a_body_in_any_language(pager):
    """A pager's label is an explicit cue, like "RELATED:": its removal stands on a German body,
    where the edge rules' teaser removals do not."""
    decision = _decide_body(GERMAN + [pager])
    assert _kept(decision) == GERMAN
    assert [(s.text, s.by) for s in decision.spans] == [(pager, "pager_link")]


@pytest.mark.parametrize("form_line", ["Das Passwort muss mindestens 8 Zeichen lang sein.", "Passwort vergessen?"])
def test_an_account_forms_line_goes_from_a_body_in_any_language(form_line):
    """A sign-in dialog's message is an explicit cue too: trafilatura keeps such a line where the
    dialog sits inside the article's container, and its removal stands on a German body."""
    decision = _decide_body(GERMAN[:2] + [form_line] + GERMAN[2:])
    assert _kept(decision) == GERMAN
    assert [(s.text, s.by) for s in decision.spans] == [(form_line, "account_form")]
