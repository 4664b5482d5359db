"""bench/f1_loss_by_place.py: the debris an output keeps, split by where it stands against the article."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

_SPEC = importlib.util.spec_from_file_location("f1_loss_by_place", Path(__file__).resolve().parent.parent / "bench" / "f1_loss_by_place.py")
f1_loss_by_place = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(f1_loss_by_place)

TRUTH = "The council voted to expand the bus network.\nThe plan needs approval from the regional authority."


def test_debris_is_counted_where_it_stands_and_its_removal_is_the_gain():
    output = "\n".join(["Watch live now", "The council voted to expand the bus network.", "Share this story with friends",
                        "The plan needs approval from the regional authority.", "Read more stories about transport today"])
    gains, count, size, below = f1_loss_by_place.page_gains(output, TRUTH)
    assert count == {"above": 1, "inside": 1, "below": 1}
    assert size == {"above": 3, "inside": 5, "below": 6}
    assert below == ["Read more stories about transport today"]
    # each gain is what removing that place's debris alone adds to the page's F1
    assert gains["below"] > gains["inside"] > gains["above"] > 0


@pytest.mark.parametrize("output", ["", "Nothing of the article here"])
def test_an_output_without_a_true_paragraph_has_no_article_span(output):
    gains, count, _, below = f1_loss_by_place.page_gains(output, TRUTH)
    assert gains == dict.fromkeys(("above", "inside", "below"), 0.0) and sum(count.values()) == 0 and below == []
