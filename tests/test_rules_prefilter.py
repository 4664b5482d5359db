"""The RE2 prefilter in front of the rules' start patterns (newsclean.cleaners.rules.prefilter) is necessary:
wherever a start pattern matches a line, the prefilter says it may. Otherwise a rule would
silently stop proposing on the lines it rules out."""
from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from newsclean.cleaners import policy, rules
from newsclean.cleaners.lines import normalise_lines
from newsclean.cleaners.rules.prefilter import WIDE, Prefilter, one_byte_view, widened

# Characters the translation must get right: case pairs outside ASCII and the Kelvin/long-s/Angstrom
# signs re.I folds to ASCII letters, Unicode word characters and digits, white space other than " ",
# and characters above U+00FF that all share the one wide byte.
ODD = "KkſsSÅåµμÿŸıİéÉß\u00a0\u2009\u3000٣²_—–’“”…©®™ 中文"


# built once: a proposer builds its prefilter on first use (~0.1 s)
_PROPOSERS = {"RULES": rules._DEFAULT, "HTML_RULES": rules._Proposer(policy.HTML_RULES)}


@pytest.fixture(scope="module")
def prefilter():
    return rules._DEFAULT.prefilter


def test_one_byte_view():
    assert one_byte_view("abc é") == b"abc \xe9"
    assert one_byte_view("ÿ中—x") == bytes([WIDE, WIDE, WIDE]) + b"x"
    assert one_byte_view("") == b""


@pytest.mark.parametrize("pattern, text", [
    (r"(?i)^kelvin", "\u212aelvin"),            # re.I folds the Kelvin sign to k
    (r"(?i)^pos", "po\u017f"),                  # ... and the long s to s
    (r"^\w+:", "déjà:"),  # a Unicode word character (RE2's \w is ASCII only)
    (r"^\w+:", "中文:"),
    (r"^\d+ readers", "٣ readers"),              # an Arabic-Indic digit is a \d to Python
    (r"^tags\b", "tags é"),                     # \b between ASCII and Unicode text
    (r"^née\b", "née:"),
    (r"^related(?!\s*$)", "related x"),          # a lookahead
    (r"^(?P<q>['\"])x(?P=q)", "'x'"),            # a backreference
    (r"^[^a-z]+$", "ÉÉ中"),                      # a negated class over wide characters
    (r"^[A-Z][a-z]+\s+\S", "Photo\u00a0x"),      # a no-break space is \s
    (r"(?x)^ what\ do \s you", "what do\u2009you"),  # verbose, a thin space
    (r"^x{2000}", "x" * 2000),                  # a repeat over RE2's limit
    (r"^(?i:photo)(?-i:[A-Z])", "PHOTOX"),       # scoped flags
    (r"^©", "© 2020"),
])
def test_widened_matches_where_python_matches(pattern, text):
    pat = re.compile(pattern)
    assert pat.search(text), "the case itself must match in Python"
    assert Prefilter([pat]).may_match(text), widened(pat)


def test_widened_keeps_case_sensitive_literals_narrow():
    """A case-sensitive literal below U+00FF matches only itself (not the wide byte): the
    prefilter still rules lines out."""
    pf = Prefilter([re.compile(r"^FILE PHOTO")])
    assert pf.may_match("FILE PHOTO: a man")
    assert not pf.may_match("file photo: a man")
    assert not pf.may_match("中ILE PHOTO")
    assert not pf.may_match("The mayor said")


def test_prefilter_rules_out_most_prose(prefilter):
    lines = ["The council voted on Tuesday to expand the bus network.", "He said it was a good day.",
             "Officials expect the work to finish next year."]
    assert not any(prefilter.may_match(t) for t in lines)


def test_no_patterns_match_nothing():
    assert not Prefilter([]).may_match("anything")


# 200 examples (~9 a pattern): drawing from these large alternations costs up to ~40 ms an example,
# and the suite runs on two cores beside the crash-safety kills (500 took 86 s there)
@given(st.data())
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_prefilter_accepts_every_string_a_start_pattern_matches(prefilter, data):
    """Strings drawn from each start pattern itself (hypothesis reads the pattern), with odd
    characters around them."""
    pattern = data.draw(st.sampled_from(rules._DEFAULT.start_patterns))
    text = data.draw(st.from_regex(pattern)) + data.draw(st.text(alphabet=ODD + "ab .:", max_size=8))
    if pattern.search(text):
        assert prefilter.may_match(text), (pattern.pattern[:60], text)


@given(st.lists(st.sampled_from(list(ODD) + ["Photo", "photo:", "tags", "Posted ", "by ", "©", "2018",
                                              "related", "What do you think", "www.", ".com", " ", ":"]),
                max_size=12).map("".join))
@settings(max_examples=400, deadline=None)
def test_prefilter_is_necessary_on_generated_lines(text):
    for proposer in _PROPOSERS.values():
        if proposer.start_union.search(text):
            assert proposer.started(text) and proposer.prefilter.may_match(text), text


def test_prefilter_is_necessary_on_dev_lines():
    """Every line of the dev subset: where the alternation matches, the prefilter does, for the
    full rule set and the HTML path's; and it rules out most lines (what it is for)."""
    texts = _dev_texts()
    assert len(texts) > 1000
    for name, proposer in _PROPOSERS.items():
        pf = proposer.prefilter
        passed = [t for t in texts if pf.may_match(t)]
        missed = [t for t in texts if proposer.start_union.search(t) and not pf.may_match(t)]
        assert not missed, (name, missed[:5])
        assert len(passed) < 0.2 * len(texts), name


@pytest.mark.parametrize("pattern, text", [
    (r"(?<=\w{3})[.!?](?:\s|$)", "Smith. Then"),  # a lookbehind, anywhere in the line
    (r"\bnews tip\b", "got a news tip?"),
    (r"^x", "x at the start"),                     # "^" kept or not, a superset either way
])
def test_search_anywhere(pattern, text):
    pat = re.compile(pattern)
    assert pat.search(text)
    assert Prefilter([pat], at_start=False).may_match(text)
    assert not Prefilter([re.compile(r"\bnews tip\b")], at_start=False).may_match("the news is tipped")


def _dev_texts() -> set[str]:
    subset = Path(__file__).parent / "data" / "devset_subset" / "pages.jsonl.gz"
    with gzip.open(subset, "rt", encoding="utf-8") as fh:
        return {t for line in fh for t in normalise_lines(json.loads(line)["text"]) if t}


def test_site_notice_key_scan_is_exact():
    """site_notice's key scan in RE2 says exactly what the Python alternation says (its keys are
    ASCII, so the one-byte view loses nothing): on the dev subset's lines and on wide text."""
    from newsclean.cleaners.rules import site_notice
    from newsclean.cleaners.rules.base import Line

    texts = [Line(0, 1, t).lower for t in _dev_texts()]
    texts += [k for k in site_notice._KEYS] + ["中" + k + "ÿ" for k in site_notice._KEYS] + ["affıliate", "ſend us"]
    for low in texts:
        assert site_notice._may_be_notice(low) == (site_notice._ANY_KEY.search(low) is not None), low


def _guarded_patterns():
    from newsclean.cleaners.rules.site_notice import _GUARDED
    return sorted(((" ".join(pattern.pattern.split())[:40], guarded) for pattern, guarded in _GUARDED.items()),
                  key=lambda item: item[0])


@pytest.mark.parametrize("name, guarded", _guarded_patterns())
def test_guarded_search_answers_as_python_on_dev_lines(name, guarded):
    """Guarded.search: the match Python's engine finds, on every line of the dev subset (and on
    each with odd characters around it), through the shared one-byte view too."""
    for text in sorted(_dev_texts()):
        for t in (text, "ſ" + text + " K"):
            expected = guarded.pattern.search(t)
            for got in (guarded.search(t), guarded.search(t, one_byte_view(t))):
                assert (got and got.span()) == (expected and expected.span()), (name, t)


@given(st.data())
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_guarded_search_finds_what_each_pattern_matches(data):
    """Strings drawn from each guarded pattern itself, with odd characters around them."""
    name, guarded = data.draw(st.sampled_from(_guarded_patterns()))
    text = data.draw(st.text(alphabet=ODD + "ab .:", max_size=6)) + data.draw(st.from_regex(guarded.pattern)) \
        + data.draw(st.text(alphabet=ODD + "ab .:", max_size=6))
    expected = guarded.pattern.search(text)
    got = guarded.search(text)
    assert (got and got.span()) == (expected and expected.span()), (name, text)
