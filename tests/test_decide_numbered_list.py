"""A listicle's later items: the model doubts them more and more (they lie far down the page), and
the body used to stop inside the list. The item numbered one more than the body's highest continues
the body. Look-alikes that must not: a "most read" list under the article (it starts again at 1), a
number that skips, an item whose prose the model is sure is debris, and a number with no item
numbered one less in the body."""
import numpy as np
import pytest

from newsclean.cleaners.decide import decide
from newsclean.cleaners.settings import Settings

INTRO = "We tested dozens of board games with friends and family over a whole winter of game nights."
ITEMS = [
    ("1. Catan", "Catan is a trading game where players build roads and towns on an island of hexagons."),
    ("2. Ticket to Ride", "Ticket to Ride asks players to claim railway routes across a map and finish their tickets."),
    ("3. Carcassonne", "Carcassonne has players lay tiles to build a medieval landscape of cities, roads and fields."),
]
SURE_BODY, DOUBTED, SURE_DEBRIS = 0.05, 0.8, 0.97
SHOP = ("Buy it at the game shop", 0.9)  # an affiliate line: the body's other extensions stop at it


def _lines_and_proba(tail: list[tuple[str, float]]) -> tuple[list[str], np.ndarray]:
    lines = ["Home", "The Best Board Games For Family Nights", INTRO]
    proba = [0.99, 0.6, SURE_BODY]
    for heading, text in ITEMS[:2]:
        lines += [heading, text]
        proba += [0.3, SURE_BODY]
    for text, p in tail:
        lines.append(text)
        proba.append(p)
    return lines, np.array(proba)


def _kept(tail: list[tuple[str, float]]) -> list[str]:
    lines, proba = _lines_and_proba(tail)
    return [text for _, text in decide(lines, Settings(), debris_proba=proba).kept]


def test_the_next_item_the_model_doubts_continues_the_body():
    heading, text = ITEMS[2]
    kept = _kept([SHOP, (heading, DOUBTED), ("Price: $45", 0.9), (text, DOUBTED)])
    assert kept[-2:] == [heading, text]


def test_the_list_continues_item_after_item():
    tail = [SHOP, (ITEMS[2][0], DOUBTED), (ITEMS[2][1], DOUBTED),
            SHOP, ("4. Azul", DOUBTED), ("Azul is a tile drafting game about decorating the walls of a royal palace.", DOUBTED)]
    assert _kept(tail)[-4:] == [tail[1][0], tail[2][0], tail[4][0], tail[5][0]]


@pytest.mark.parametrize("tail", [
    # a "most read" list under the article starts again at 1
    [SHOP, ("Most read", 0.95), ("1. Storm closes the coast road for a week", DOUBTED),
     ("The council said the coast road would stay closed until the storm damage is repaired.", DOUBTED)],
    # the number skips
    [SHOP, ("5. Azul", DOUBTED), ("Azul is a tile drafting game about decorating the walls of a royal palace.", DOUBTED)],
    # the model is sure the prose under the heading is debris
    [SHOP, (ITEMS[2][0], DOUBTED), (ITEMS[2][1], SURE_DEBRIS)],
])
def test_look_alikes_do_not_continue_the_body(tail):
    assert _kept(tail)[-1] == ITEMS[1][1]


def test_a_number_without_the_one_before_it_in_the_body_is_no_list():
    lines = ["Home", "The Best Board Games For Family Nights", INTRO, "2. Ticket to Ride", ITEMS[1][1],
             SHOP[0], ITEMS[2][0], ITEMS[2][1]]
    proba = np.array([0.99, 0.6, SURE_BODY, 0.3, SURE_BODY, SHOP[1], DOUBTED, DOUBTED])
    kept = [text for _, text in decide(lines, Settings(), debris_proba=proba).kept]
    assert kept[-1] == ITEMS[1][1]


def test_a_countdown_continues_downwards():
    lines = ["Home", "The Best Board Games For Family Nights", INTRO,
             "3. Carcassonne", ITEMS[2][1], "2. Ticket to Ride", ITEMS[1][1],
             SHOP[0], "1. Catan", ITEMS[0][1]]
    proba = np.array([0.99, 0.6, SURE_BODY, 0.3, SURE_BODY, 0.3, SURE_BODY, SHOP[1], DOUBTED, DOUBTED])
    kept = [text for _, text in decide(lines, Settings(), debris_proba=proba).kept]
    assert kept[-2:] == ["1. Catan", ITEMS[0][1]]
    lines[8] = "4. Catan"  # upwards after a countdown: no list
    kept = [text for _, text in decide(lines, Settings(), debris_proba=proba).kept]
    assert kept[-1] == ITEMS[1][1]
