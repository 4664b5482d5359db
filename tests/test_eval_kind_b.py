"""The kind-(b) evaluation: mostly clean texts built from true bodies, scored line by line."""
from newsclean.cleaners.model.evaluate import kind_b_cases
from newsclean.cleaners.model.score import kind_b_score

LINES = ["Share this", "Mayor opens the new library", "The library opened on Monday with 40,000 books.",
         "Related: Ten best reads", "Visitors queued from early morning, staff said."]
LABELS = [1, 1, 0, 1, 0]
CASE = (LINES, LABELS, 1)  # the headline is line 1


def test_perfect_output_scores_one():
    out = {"text": "\n\n".join([LINES[2], LINES[4]]), "title": LINES[1]}
    s = kind_b_score([CASE], [out])
    assert (s["F1"], s["debris_kept"], s["body_lost"], s["title"]) == (1.0, 0.0, 0.0, 1.0)
    assert (s["n_debris"], s["n_body"], s["n_titles"]) == (2, 2, 1)  # the headline is not debris


def test_kept_debris_lost_body_and_missed_headline_count():
    out = {"text": "\n\n".join([LINES[0], LINES[2]]), "title": None}
    s = kind_b_score([CASE], [out])
    assert s["debris_kept"] == 0.5 and s["body_lost"] == 0.5 and s["title"] == 0.0
    assert s["P"] < 1 and s["R"] < 1


def test_no_output_is_zero_not_an_error():
    s = kind_b_score([CASE], [{"text": "", "title": None}])
    assert s["F1"] == 0.0 and s["body_lost"] == 1.0


def test_cases_are_the_true_body_with_the_pages_own_debris_and_deterministic():
    page = {"id": "p1", "url": "https://example.com/news/library", "title": "Mayor opens the new library",
            "truth": "The library opened on Monday with 40,000 books.\nVisitors queued from early morning, staff said.",
            "text": "\n\n".join(["Home", "News", "Mayor opens the new library",
                                 "The library opened on Monday with 40,000 books.",
                                 "Visitors queued from early morning, staff said.",
                                 "Subscribe to our newsletter", "Privacy policy"])}
    empty = dict(page, id="p2", truth="")
    cases, pages = kind_b_cases([page, empty])
    assert [p["id"] for p in pages] == ["p1"]  # a page without a body gives no case
    assert kind_b_cases([page, empty])[0] == cases
    lines, labels, title = cases[0]
    body = [s for s, d in zip(lines, labels) if not d]
    assert body == page["truth"].split("\n")
    debris = {s for i, (s, d) in enumerate(zip(lines, labels)) if d and i != title}
    assert debris <= {"Home", "News", "Subscribe to our newsletter", "Privacy policy"}
