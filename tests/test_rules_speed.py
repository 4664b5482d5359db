"""The speed shortcuts in the rules (newsclean.cleaners.rules) give what the plain forms give.

Each shortcut claims a cheap test that fails only where the full one would (a pre-check) or a
faster route to the same value. These tests compare them with the plain forms on varied and
generated lines, including the odd characters the claims rest on (re.I's "ı", "İ", "ſ", the
Kelvin sign; white space other than " "; lines holding a line break)."""
from __future__ import annotations

import pytest
from hypothesis import example, given, settings, strategies as st

from newsclean.cleaners import shape
from newsclean.cleaners.rules import base, consent, signature, site_notice
from newsclean.cleaners.rules.base import Line

ODD = "ıİſKkKsS.!?…'\"’”)] \t\u00a0\u2028\n,;:|()©@/-–—_0123456789aBcé"
TEXTS = st.lists(st.sampled_from(list(ODD) + ["cookie", "consent", "gdpr", "privacy policy", "con", "sent",
                                               " we ", " you ", "accept", "Photo: AP", "by ", "www.",
                                               ".com", "2018", "Jan", "The", " said", " the "]), max_size=40).map("".join)
SAMPLES = [
    "We use cookies. By continuing to browse you accept our privacy policy.",
    "We use COOKİES to improve your experience", "conſent", "We use cooKies", "Privacy settings",
    "The president said on Tuesday. He left. Photo: Getty Images", "A sentence here. Tail words",
    "Residents can share their views at a public meeting on Thursday. Watch LIVE",
    "foxnews.com", "FoxNews.com.", "fox news.com", "(AP Photo/Evan Vucci)", "Text (Photo: AP)  ",
    "", " ", "…", "a. b", "He said “no.” Then left", "U.S. officials met", "Home > World > Europe",
]


@given(TEXTS)
@settings(max_examples=300, deadline=None)
def test_cookie_precheck_is_necessary(text):
    if consent._COOKIE.search(text):
        assert consent._may_name_cookies(Line(0, 1, text).lower)


def test_cookie_precheck_on_samples():
    for text in SAMPLES:
        if consent._COOKIE.search(text):
            assert consent._may_name_cookies(Line(0, 1, text).lower), text


NOTICE_SAMPLES = [
    "We may earn a COMMISSION", "Affiliate-Links", "liens affiliés", "enlaces de afiliados", "erhalten wir eine Provision",
    "at no extra cost to you", "for informational purposes only", "does not constitute legal advice",
    "Comments are moderated", "our weekly newsletter", "in your inbox", "Download our app", "support our journalism",
    "a small monthly donation", "please donate", "tips to us", "Got a news tip", "have a story idea", "Send us a note",
    "We'd love to hear from you", "consider becoming a free or paid subscriber", "haven't already subscribed",
    "please share this post with", "tell us about a story", "is not responsible for the content of external sites",
]


NOTICE_TEXTS = st.lists(st.sampled_from(list(ODD) + ["affiliate", "links", "commission", "we may earn", "our", "newsletter",
                                                      "inbox", "in your", "download", "app", "support", "donat", "tip",
                                                      "to us", "send us", "purposes only", "advice", "comments are",
                                                      "moderated", "no extra cost to you", "provision", "wir", "become a", "becoming a", "comments may be",
                                                      "paid subscriber", "member", "haven't", "subscribed", "to", "please",
                                                      "share", "this", "post", "with", "tell us", "about", "a story",
                                                      "not responsible", "for the content of", "external", "sites"]),
                        max_size=30).map(" ".join)


@given(NOTICE_TEXTS)
@settings(max_examples=300, deadline=None)
def test_site_notice_precheck_is_necessary(text):
    if any(p.search(text) for p in (site_notice._APPEAL, site_notice._DISCLOSURE, site_notice._SUBSCRIBE_APPEAL,
                                    site_notice._EXTERNAL_LINKS_DISCLAIMER)):
        assert site_notice._may_be_notice(Line(0, 1, text).lower)


def test_site_notice_precheck_on_samples():
    patterns = (site_notice._APPEAL, site_notice._DISCLOSURE, site_notice._SUBSCRIBE_APPEAL,
                site_notice._EXTERNAL_LINKS_DISCLAIMER)
    for text in NOTICE_SAMPLES + SAMPLES:
        if any(p.search(text) for p in patterns):
            assert site_notice._may_be_notice(Line(0, 1, text).lower), text
    assert all(any(p.search(t) for p in patterns) for t in NOTICE_SAMPLES)


LABEL_TEXTS = st.lists(st.sampled_from(list(ODD) + ["logo", "LOGO", "lOgo", "Logo for", "İmage 3:", "IMAGE", "img", "photo",
                                                     "product", "company", "of", "Acme", "the", " "]), max_size=12).map("".join)


@given(LABEL_TEXTS)
@settings(max_examples=300, deadline=None)
def test_image_label_shortcut_hides_no_match(text):
    from newsclean.cleaners.rules import caption

    line = Line(0, 1, text)
    matched = line.n_words <= 25 and caption._IMAGE_LABEL.search(text) is not None
    assert (caption.image_label(line, None) is not None) == matched


def _glued_plain(text: str, max_words: int = 8) -> int | None:
    parts = text.rsplit(None, max_words + 1)
    cut = len(parts[0]) if len(parts) > max_words + 1 else 0
    last = None
    for last in base._SENTENCE_END_THEN_MORE.finditer(text, cut):
        pass
    if last is None or len(text[last.end():].split()) > max_words:
        return None
    return last.end() if shape.is_sentence_like(text[:last.end()].rstrip(), min_words=4) else None


@given(TEXTS)
@settings(max_examples=300, deadline=None)
def test_glued_tail_shortcuts_match_the_plain_form(text):
    expected = _glued_plain(text)
    assert base._glued_tail(text, 8) == expected
    assert base.glued_tail(Line(0, 1, text)) == expected


def test_glued_tail_on_samples():
    for text in SAMPLES:
        assert base.glued_tail(Line(0, 1, text)) == _glued_plain(text), text


@given(TEXTS)
@settings(max_examples=200, deadline=None)
def test_bare_domain_and_bracket_prechecks(text):
    from newsclean.cleaners.rules import caption

    line = Line(0, 1, text)
    assert (signature.bare_domain(line, None) is not None) == bool(signature._BARE_DOMAIN.search(text))
    m = caption._END_CREDIT.search(text)
    p = caption.end_credit(line, None)
    assert (p is None) == (m is None) and (m is None or (p.start, p.end) == (m.start(), m.end()))
    if caption._LEAD_CREDIT.search(text):
        assert text.startswith("(")


def test_name_run_matches_the_plain_form():
    from newsclean.cleaners.rules import tag_list

    def plain(line):
        ws = line.words
        return (not shape.ends_sentence(line.text) and all(shape.is_capitalised(w) for w in ws)
                and not any(w.lower() in shape.STOP_WORDS for w in ws) and not any(c in line.text for c in ":;?!"))

    for text in SAMPLES + ["John Smith Mary Jones Peter Brown", "John Smith and Mary Jones Peter", "Ǆemal Ǉubo Ǌeno",
                           "Politics World Business Sport Weather", "2020 Smith Jones", "Smith: Jones Brown"]:
        assert tag_list._name_run(Line(0, 1, text)) == plain(Line(0, 1, text)), text




def _script_plain(text: str) -> str:
    """shape._script without its shortcuts (the ASCII ones counted by regex, no loop without a
    non-ASCII letter): every letter through shape.letter_script."""
    counts = [0, 0, 0]
    for ch in text:
        if ch.isalpha():
            counts[shape.letter_script(ch)] += 1
    latin, unspaced, other = counts
    if latin >= unspaced + other:
        return "latin"
    return "unspaced" if unspaced >= other else "other"


@given(st.text(alphabet=st.sampled_from(list("abZ 1.—–éßĀǅ") + ["\u0400", "\u4e00", "\u3042", "\u0e01", "\u0627", "\u1e00", "\u24b6", "\ud800", "\u00aa"]),
               max_size=30))
@settings(max_examples=300, deadline=None)
def test_script_shortcut_matches_the_plain_loop(text):
    assert shape._script(text) == _script_plain(text)


def _sentence_like_plain(text: str, min_words: int = 6) -> bool:
    """shape.is_sentence_like without its cache by text (keep in step with it)."""
    if not shape.ends_sentence(text):
        return False
    ws = shape.WORD.findall(text)
    if text.isascii() or _script_plain(text) == "latin":
        return len(ws) >= min_words and shape.stop_share(ws, shape.FUNCTION_WORDS) > shape.PROSE_FUNCTION_SHARE
    if _script_plain(text) == "unspaced":
        return sum(map(len, ws)) >= shape.UNSPACED_CHARS_PER_WORD * min_words
    return len(ws) >= min_words


PROSE = SAMPLES + [
    "The council will meet on Thursday to discuss the budget.", "Der Rat trifft sich am Donnerstag, um das Budget zu besprechen.",
    "El consejo se reunirá el jueves para discutir el presupuesto.", "Совет соберется в четверг, чтобы обсудить бюджет.",
    "市议会将于星期四开会讨论预算问题。", "東京で会議が開かれました。", "Watch LIVE.", "Short one.", "ΑΘΗΝΑ ΣΗΜΕΡΑ ΝΕΑ.",
]


def test_sentence_like_cache_matches_the_plain_form():
    for text in PROSE:
        for min_words in (3, 4, 6, 12):
            want = _sentence_like_plain(text, min_words)
            assert shape.is_sentence_like(text, min_words) == want, (text, min_words)
            assert shape.is_sentence_like(text, min_words) == want, (text, min_words)  # cached


@given(TEXTS)
@settings(max_examples=200, deadline=None)
def test_sentence_like_cache_on_generated_text(text):
    for min_words in (1, 4, 6):
        assert shape.is_sentence_like(text, min_words) == _sentence_like_plain(text, min_words)


DATELINES = ["WASHINGTON (AP) — The president said", "LONDON, Feb 24, 2018 - Shares fell", "Feb 24, 2018 (Reuters) - Oil rose",
             "WASHINGTON — Lawmakers", "Washington — not a dateline", "PARIS (AFP) -", "Best Coffee Makers (2026): our picks",
             "2018-02-24T10:30 (Reuters) - x", "No dateline here at all", "NEW YORK, 12 March 2019 — Stocks", "(AP) —", "١٢ Feb 2018 (X) -"]


@given(TEXTS)
@example("acookie\n-\n©Jan9\n we S?Jan8'")  # found by hypothesis: the white space before the dash was a newline
@settings(max_examples=300, deadline=None)
def test_leading_dateline_prechecks_are_necessary(text):
    from newsclean.cleaners.rules import dateline

    for pattern, needs in zip(dateline._LEADING, dateline._LEADING_NEEDS):
        if pattern.search(text):
            assert needs(text)


def test_leading_dateline_matches_the_plain_form(monkeypatch):
    from newsclean.cleaners.rules import dateline

    texts = DATELINES + SAMPLES
    got = [dateline.leading_dateline(Line(0, 1, t), None) for t in texts]
    assert any(got)
    monkeypatch.setattr(dateline, "_LEADING_NEEDS", (lambda t: True,) * len(dateline._LEADING))
    assert got == [dateline.leading_dateline(Line(0, 1, t), None) for t in texts]


def _docs_for_propose():
    """Documents whose lines exercise every rule, in many positions (the in-context rules read the
    line's index and neighbours)."""
    import gzip
    import json
    from pathlib import Path

    from newsclean.cleaners.lines import normalise_lines

    docs = [DATELINES + SAMPLES, SAMPLES[::-1] + DATELINES, [t for pair in zip(DATELINES, SAMPLES) for t in pair],
            ["img alt text", "Jane Doe speaks to media", "photo: ap", "John Smith arrives at court",
             "Getty Images", "Mary Jones waves to supporters in Paris, France", "A long sentence here, the end."],
            PREFIXED, PREFIXED[::-1]]
    subset = Path(__file__).parent / "data" / "devset_subset" / "pages.jsonl.gz"
    with gzip.open(subset, "rt", encoding="utf-8") as fh:
        for _, line in zip(range(40), fh):
            docs.append(normalise_lines(json.loads(line)["text"]))
    return docs


@pytest.mark.parametrize("rule_set", ["RULES", "HTML_RULES"])
def test_propose_matches_every_rule_called_plainly(rule_set):
    """propose (text cache, text gates of the in-context rules) gives what calling every rule gives,
    on first sight of a text and from the cache, in any position: for all the rules, and for the
    subset the HTML path keeps (cached alike)."""
    from newsclean.cleaners import policy, rules
    from newsclean.cleaners.rules.base import Doc

    chosen = rules.RULES if rule_set == "RULES" else policy.HTML_RULES
    assert 0 < len(chosen) <= len(rules.RULES)
    rules.clear_caches()
    for _ in range(2):  # first sight of each text, then from the cache
        for texts in _docs_for_propose():
            doc = Doc([Line(i, i + 1, t) for i, t in enumerate(t for t in texts if t)])
            for line in doc.lines:
                assert rules.propose(line, doc, chosen) == rules.propose_plain(line, doc, chosen), line.text


@given(TEXTS)
@settings(max_examples=300, deadline=None)
def test_in_context_gates_are_necessary(text):
    """Where a rule's text gate is False, the rule proposes nothing, in any position or context."""
    from newsclean.cleaners import rules
    from newsclean.cleaners.rules.base import Doc

    lines = [Line(0, 1, text), Line(1, 2, "img alt text"), Line(2, 3, text)]
    doc = Doc(lines)
    for _, rule in rules._IN_CONTEXT:
        if rule.text_gate is not None:
            for line in lines:
                if not rule.text_gate(line):
                    assert rule(line, doc) is None


def test_in_context_gates_on_samples():
    from newsclean.cleaners import rules
    from newsclean.cleaners.rules.base import Doc

    for texts in _docs_for_propose()[:4]:
        doc = Doc([Line(i, i + 1, t) for i, t in enumerate(t for t in texts if t)])
        for line in doc.lines:
            for _, rule in rules._IN_CONTEXT:
                if rule.text_gate is not None and not rule.text_gate(line):
                    assert rule(line, doc) is None, (rule.__name__, line.text)


PREFIXED = ["RELATED: Mayor resigns", "Read more: x", "Tags: a, b", "Filed under: News", "© 2018 Example Media",
            "Copyright 2019 X", "(c) 2020 Y", "All rights reserved.", "Photo: Getty Images", "Image credit: Reuters",
            "Getty Images", "(photo)", "What do you think? Tell us", "Sign up for our newsletter", "Follow us on X",
            "Posted Feb 24, 2018 by Jane Doe", "Updated: 2018-02-24", "12/03/2019", "More on FoxNews.com.",
            "Videos by Rare", "This article originally appeared on Example.com", "ǅemal", "İstanbul", "related:x"]


def _start_patterns():
    from newsclean.cleaners import rules

    return [pat for _, r in rules._TEXT_ONLY for pat in getattr(r, "start_patterns", ())]


@given(st.lists(st.sampled_from(PREFIXED + list(ODD) + [" ", "tags", "photo", "by ", ": "]), max_size=12).map("".join))
@settings(max_examples=400, deadline=None)
def test_start_union_is_necessary(text):
    """Where any marked rule's start pattern matches, the one alternation matches too."""
    from newsclean.cleaners import rules

    if any(p.search(text) for p in _start_patterns()):
        assert rules._START_UNION.search(text)


def test_start_union_on_samples():
    from newsclean.cleaners import rules

    pats = _start_patterns()
    assert len(pats) >= 7
    for text in PREFIXED + SAMPLES + DATELINES:
        assert bool(rules._START_UNION.search(text)) == any(p.search(text) for p in pats), text
    for texts in _docs_for_propose():
        for text in texts:
            assert bool(rules._START_UNION.search(text)) == any(p.search(text) for p in pats), text


def test_starts_with_rules_need_their_pattern():
    """A rule marked starts_with proposes nothing on a line none of its patterns matches."""
    from newsclean.cleaners import rules
    from newsclean.cleaners.rules.base import Doc

    marked = [r for _, r in rules._TEXT_ONLY if getattr(r, "start_patterns", ())]
    for texts in _docs_for_propose() + [PREFIXED]:
        doc = Doc([Line(i, i + 1, t) for i, t in enumerate(t for t in texts if t)])
        for line in doc.lines:
            for rule in marked:
                if not any(p.search(line.text) for p in rule.start_patterns):
                    assert rule(line, doc) is None, (rule.__name__, line.text)


def _glued_debris_plain(line, doc):
    """glued_debris in its plain order: the whole glued_tail test (the text before the tail a
    sentence) first, then the tail rules."""
    from newsclean.cleaners.rules import glued

    at = base.glued_tail(line, glued._TAIL_MAX_WORDS)
    if at is None:
        return None
    tail = Line(line.index, line.number, line.text[at:].lstrip(base.GLUE_SEPARATORS))
    if glued._CONTINUATION.fullmatch(tail.text):
        return None
    for rule in glued.TAIL_RULES:
        p = rule(tail, doc)
        if p is not None and p.strong and (p.start, p.end) == (0, None):
            return base.Proposal(p.kind, "glued_" + p.rule, start=at)
    return None


GLUED = st.tuples(st.sampled_from(["The council met on Tuesday and voted to expand the bus network.", "Short.",
                                   "He said it was over. ", "A list, not a sentence", "Prices rose 3% in May!"]),
                  st.sampled_from([" Share this article", " Watch LIVE", " Photo: Getty Images", " Read more",
                                   " | © dpa", " Jane Roe/AFP", " What do you think?", " and then he left"]),
                  TEXTS).map(lambda t: t[0] + t[1] if len(t[2]) % 2 else t[0] + t[2] + t[1])


@given(GLUED)
@settings(max_examples=300, deadline=None)
def test_glued_rules_ask_for_the_sentence_last_and_propose_as_the_plain_order(text):
    """glued_debris, glued_credit and the credit test find the tail (base.tail_start) before they ask
    whether the text before it is a sentence: the same proposals as the plain order."""
    from newsclean.cleaners.rules import caption, glued

    line = Line(0, 1, text)
    doc = base.Doc([line])
    assert glued.glued_debris(line, doc) == _glued_debris_plain(Line(0, 1, text), doc)
    at = base.glued_tail(Line(0, 1, text))
    assert at is None or base.tail_start(text) == at
    tail = None if at is None else text[at:].lstrip(base.GLUE_SEPARATORS)
    plain_credit = None if tail is None or not (caption._LABELLED_CREDIT.search(tail) or caption._AGENCY_TAIL.search(tail)) \
        else base.Proposal("caption", "glued_credit", start=at)
    assert caption.glued_credit(Line(0, 1, text), doc) == plain_credit
