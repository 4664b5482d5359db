"""Training labels come from aligning the page to the truth, not from word membership."""
import numpy as np

from cleaners.model.labels import aligned_share, body_labels, fold_title, snippet_labels, title_index


def test_menu_words_that_occur_in_the_article_are_not_body():
    truth = "Health officials said the new clinic will open in May. Sign in to the portal is not needed."
    lines = ["Health", "Sign in", "Health officials said the new clinic will open in May.",
             "Sign in to the portal is not needed.", "Health", "Sign in"]
    y, w = body_labels(lines, truth)
    # every word of the menu lines occurs in the truth, but only the aligned copies are body
    assert list(y) == [0, 0, 1, 1, 0, 0]
    assert list(w) == [1, 1, 1, 1, 1, 1]


def test_share_is_per_line_and_tokenless_lines_weigh_nothing():
    share, counts = aligned_share(["A B C D", "---", "x y"], "a b c d")
    assert share[0] == 1.0 and counts[1] == 0 and share[2] == 0.0
    y, w = body_labels(["A B C D", "---"], "a b c d")
    assert w[1] == 0


def test_snippet_labels_are_partial():
    lines = ["Home | News", "The council voted 7-2 on Tuesday to close the bridge.", "Something else",
             "Read more: Bridge closures across the region"]
    s = snippet_labels(lines, ["council voted 7-2 on Tuesday"], ["Read more: Bridge closures"])
    assert list(s) == [-1, 1, -1, 0]


def test_title_folding_and_index():
    assert fold_title("The 7 Biggest Diet  Trends, in 2025!") == "the 7 biggest diet trends in 2025"
    assert title_index(["Menu", "The 7 biggest diet trends in 2025", "Body."], "The 7 Biggest Diet Trends in 2025") == 1
    assert title_index(["Menu"], "Nope") is None
