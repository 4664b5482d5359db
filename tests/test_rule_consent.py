import pytest

from tests.ruletools import kind_of, survives


@pytest.mark.parametrize("line", [
    "We use cookies to improve your experience. By continuing to browse you accept our use of cookies.",
    "This site uses cookies. You can manage your preferences at any time.",
    "We and our partners use cookies to personalise content. Click Accept to consent.",
])
@pytest.mark.parametrize("where", ["before", "middle", "after"])
def test_cookie_walls_removed(line, where):
    assert kind_of(line, where) == "boilerplate"


@pytest.mark.parametrize("line", [
    "Regulators said websites that track visitors with cookies must first ask them to accept, the ruling said.",
    "The bakery sold more than 2,000 cookies at the fair, and organisers said they would continue the event next year.",
])
def test_sentences_about_cookies_survive(line):
    assert survives(line)
