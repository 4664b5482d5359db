"""The snippet pages' metric (trafilatura's evaluation): with-snippets kept, without-snippets left out."""
from newsclean.cleaners.model.score import snippet_score

PAGES = [
    {"id": "a", "with": ["The council approved the budget.", "Schools get more money."],
     "without": ["Sign in to comment", "Most read"]},
    {"id": "b", "with": ["Der Rat hat beschlossen."], "without": ["Startseite Politik"]},
]


def test_counts_snippets_on_the_scorers_tokens():
    preds = {"a": {"text": "THE COUNCIL approved the budget!\n\nMost read"}, "b": {"text": ""}}
    s = snippet_score(PAGES, preds)
    assert (s["tp"], s["fn"], s["fp"], s["tn"]) == (1, 2, 1, 2)
    assert s["empty"] == 1
    assert s["P"] == 0.5 and abs(s["R"] - 1 / 3) < 1e-9


def test_one_word_snippets_are_not_counted_and_a_missing_page_is_empty():
    s = snippet_score([{"id": "c", "with": ["Politik"], "without": ["Menu"]}], {})
    assert s["tp"] + s["fn"] + s["fp"] + s["tn"] == 0 and s["empty"] == 1


def test_shares_per_language_set_english_against_the_rest():
    from newsclean.cleaners.model.score import page_languages, snippet_score_by_language

    preds = {"a": {"text": "The council approved the budget.\n\nMost read"},
             "b": {"text": "Der Rat hat beschlossen.\n\nStartseite Politik"}}
    s = snippet_score_by_language(PAGES, preds, ["en", "de"])
    assert s["by_language"]["en"]["R"] == 0.5 and s["by_language"]["en"]["let_through"] == 0.5
    assert s["by_language"]["de"]["R"] == 1.0 and s["by_language"]["de"]["let_through"] == 1.0
    assert s["english"]["pages"] == 1 and s["not_english"]["pages"] == 1
    assert s["english_gap"] == {"R": -0.5, "let_through": 0.5}
    # the page's language comes from its own content (its `with` snippets), not from the output
    assert page_languages([{"with": ["Der Stadtrat hat am Dienstag den Haushalt für das kommende Jahr beschlossen."]},
                           {"with": []}, {"with": ["The council approved the budget for next year on Tuesday."]}]) == ["de", "none", "en"]
