import pytest

from tests.ruletools import kind_of, removed_kinds, article, survives


@pytest.mark.parametrize("line", [
    "What do you think?", "Have a tip? Send it to us! Email In Touch at", "Sign up for our newsletter",
    "Share this article", "Follow us on Twitter", "Tell us what you think in the comments below.",
    "Got a news tip? Email us at tips@example.com", "Subscribe now for unlimited access", "Click here to read more",
    "Let us know your thoughts on Facebook.",
])
@pytest.mark.parametrize("where", ["middle", "after"])
def test_calls_to_action_removed(line, where):
    assert kind_of(line, where) == "call_to_action"


@pytest.mark.parametrize("line", [
    "The mayor announced the decision on Twitter late Tuesday, saying the vote was long overdue.",
    '"What do you think we should do now?" one resident asked the council during the public hearing.',
    "Residents can share their views at a public meeting on Thursday evening at the library.",
])
def test_reader_words_inside_sentences_survive(line):
    assert survives(line)


@pytest.mark.parametrize("call", ["Share this article", "What do you think?", "Sign up for our newsletter", "Click here to subscribe"])
def test_call_glued_after_the_last_sentence_is_a_span(call):
    para = "Residents can share their views at a public meeting on Thursday evening at the library. " + call
    assert removed_kinds(article(middle=[para])) == {call: "call_to_action"}


@pytest.mark.parametrize("para", [
    # a long run after the last full stop is a sentence of its own, not a glued call
    "The meeting starts at six. Tell us what the council should do about the buses and the new routes in the north of the city",
    # the text before the tail is not a sentence
    "Vote now. Share this article",
])
def test_glued_call_lookalikes_survive(para):
    assert survives(para)
