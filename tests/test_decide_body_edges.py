"""Where the article body starts: the decision extends it upwards over a lede the model is unsure
about, but not over a heading that ends like a sentence (the last entry of a table of contents);
and where it ends: below it, over a sentence by its shape that the model calls body."""
import numpy as np
import pytest

from newsclean.cleaners import shape
from newsclean.cleaners.decide import decide
from newsclean.cleaners.settings import Settings

BODY = [
    "A mobile app is a program built for phones and tablets, installed from an app store and used by touch.",
    "The three main kinds are native apps, web apps and hybrid apps, and each suits a different budget.",
    "Most teams start with one platform, test the idea with real users and add the second one later.",
]
HEADLINE = "Mobile Apps Explained For Everyone"
UNSURE = 0.7  # above the model's threshold, below the stricter one for prose next to the body


def _kept(line_above_body: str) -> list[str]:
    lines = ["Home", HEADLINE, line_above_body, *BODY]
    proba = np.array([0.99, 0.9, UNSURE] + [0.02] * len(BODY))
    decision = decide(lines, Settings(), debris_proba=proba)
    assert decision.title is not None and decision.title.text == HEADLINE
    return [text for _, text in decision.kept]


@pytest.mark.parametrize("heading", [
    "What Are The Best Mobile App Design Builders?",
    "How Much Does It Cost To Build A Mobile App?",
    "Why Should Small Businesses Invest In Apps Now!",
])
def test_title_cased_question_above_the_body_is_not_its_lede(heading):
    assert _kept(heading) == BODY


@pytest.mark.parametrize("lede", [
    "Have you ever wondered why some apps feel fast and others never seem to load?",
    "What does it really cost to build an app for a small shop in 2025?",
    "Apps are everywhere, and most of us open a dozen of them before breakfast.",
])
def test_sentence_lede_above_the_body_is_kept(lede):
    assert _kept(lede) == [lede, *BODY]


@pytest.mark.parametrize("text, expected", [
    ("What Are The Best Mobile App Design Builders?", True),
    ("The Ultimate Guide To Home Insurance In 2026", True),
    ("Why Schools In The North Are Closing Early", True),
    ("Have you ever wondered why your phone dies so fast?", False),
    ("Die Regierung hat am Montag neue Regeln für Mieter beschlossen.", False),  # German nouns
    ("NASA and the ESA met in Paris.", False),  # fewer than 3 longer words are capitalised
    ("Short Two", False),
])
def test_is_title_cased(text, expected):
    assert shape.is_title_cased(text) is expected


TIMELINE = [
    "1957\u20131959 First construction phase: 21 residential buildings of one to three storeys with 710 flats and the mayor's house",
    "1962\u20131964 Second construction phase: community centre, houses 12 and 13 and the director's residence",
    "1976\u20131978 Third construction phase: four five-storey blocks with 352 flats, demolition of the director's residence",
    "1979 Poor condition of the residential buildings and many empty flats",
    "1989 Decision to demolish the village and plans for new buildings",
    "1991 Listed as a historic monument, without the blocks of the 1970s",
    "2006 National cultural monument, start of the renovation of houses 4 and 8",
]
SITE_MENU = ["Home", "About the foundation", "Contact", "Imprint", "Projects", "Search"]
SITE_FOOTER = ["\u00a9 2024 Foundation for Modern Heritage", "Privacy policy", "Cookie settings"]


def test_a_body_without_prose_is_the_models_body_lines():
    """A timeline, a list or a data sheet has no line that ends a sentence: its body is what the
    model calls body, not a quarantined document."""
    from newsclean.cleaners.pipeline import clean_text

    lines = SITE_MENU + ["Student village Schlachtensee, Berlin"] + TIMELINE + SITE_FOOTER
    doc = clean_text("\n\n".join(lines), Settings())
    assert doc.text.split("\n\n") == TIMELINE


def test_a_page_of_menus_still_has_no_body():
    from newsclean.cleaners.decide import NO_BODY
    from newsclean.cleaners.pipeline import clean_text
    from newsclean.cleaners.types import DocumentError

    menus = SITE_MENU + ["News", "Sport", "Weather", "Travel", "Culture", "Business", "Science"] + SITE_FOOTER
    with pytest.raises(DocumentError, match="no article body"):
        clean_text("\n\n".join(menus * 3), Settings())
    assert "no article body" in NO_BODY


# newsclean.cleaners.fixpoint runs decide again on what a pass kept. A line the first pass removed stopped
# the body's extension there; the next pass must not extend the body across the gap it left.
CLOSING = "Readers can send their questions about the new apps to the newsroom by post."


@pytest.mark.parametrize("removed_between, kept_closing", [(False, True), (True, False)])
def test_the_body_is_not_extended_across_a_line_an_earlier_pass_removed(removed_between, kept_closing):
    lines = [HEADLINE, "", *BODY, "", CLOSING]  # line 6 is blank: removed earlier, or a paragraph break
    proba = np.array([0.9] + [0.02] * len(BODY) + [UNSURE])
    removed = frozenset({6}) if removed_between else frozenset()
    decision = decide(lines, Settings(), debris_proba=proba, removed_before=removed)
    assert (CLOSING in [text for _, text in decision.kept]) is kept_closing



# The output of a cleaning is `title + "\n\n" + text`: cleaning it again puts the title right
# above the body, with nothing between. A headline-shaped first line is that title, not a lede the
# body extends over; otherwise a title found above removed debris ("What do you think?" between
# it and the body) was read as the lede the second time.
@pytest.mark.parametrize("top, removed_between", [(True, True), (True, False), (False, False)])
def test_a_headline_shaped_first_line_over_the_body_is_its_title(top, removed_between):
    heading = "Breaking News What do you think?"
    above = [] if top else ["A reader wrote to us about the new apps and asked what they cost."]
    lines = [*above, heading, "", *BODY]
    proba = np.array([0.95] * len(above) + [UNSURE] + [0.02] * len(BODY))
    removed = frozenset({len(above) + 2}) if removed_between else frozenset()
    decision = decide(lines, Settings(), debris_proba=proba, removed_before=removed)
    kept = [text for _, text in decision.kept]
    if top:
        assert decision.title is not None and decision.title.text == heading and kept == BODY
    else:  # not the first line: a sentence between menus or teasers and the body stays its lede
        assert kept == [heading, *BODY]


@pytest.mark.parametrize("lede", [
    "Apps are everywhere, and most of us open a dozen of them before breakfast.",  # ends a sentence
    "Have you ever wondered why some apps open at once while others keep you waiting for what feels "
    "like forever, even on a new phone with a fast connection and plenty of free storage left on it?",  # 34 words
])
def test_a_first_line_that_is_no_headline_is_still_the_lede(lede):
    decision = decide([lede, "", *BODY], Settings(), debris_proba=np.array([UNSURE] + [0.02] * len(BODY)))
    assert [text for _, text in decision.kept] == [lede, *BODY]


LONG_PROSE = ("Born in 1952 in a small town on the coast, she studied painting before she turned to "
              "photography in the late seventies, and her early pictures of fishermen and their families "
              "were shown in London, Paris and New York within a decade of her first exhibition.")
SHORT_PROSE = "She now lives and works in Lisbon with her family."


@pytest.mark.parametrize("p, kept", [(0.8, True), (0.95, False)])
def test_a_long_prose_paragraph_inside_the_body_needs_the_model_sure(p, kept):
    # between body paragraphs, with the model doubtful (above its page threshold, below the prose one)
    lines = [HEADLINE, BODY[0], LONG_PROSE, LONG_PROSE.replace("she", "he"), BODY[1], BODY[2]]
    proba = np.array([0.9, 0.02, p, p, 0.02, 0.02])
    decision = decide(lines, Settings(), debris_proba=proba)
    texts = [text for _, text in decision.kept]
    assert (LONG_PROSE in texts) is kept


def test_a_short_sentence_the_model_doubts_inside_the_body_still_goes():
    # the look-alike: two short sentences in a row (not one subheading) at the same doubt
    lines = [HEADLINE, BODY[0], SHORT_PROSE, SHORT_PROSE.replace("Lisbon", "Porto"), BODY[1], BODY[2]]
    proba = np.array([0.9, 0.02, 0.8, 0.8, 0.02, 0.02])
    texts = [text for _, text in decide(lines, Settings(), debris_proba=proba).kept]
    assert SHORT_PROSE not in texts


# An ad's label a rule removes between the body and its last paragraph: the paragraph is still the
# article's when the model leans against it less than on an unsure page (model_threshold_max).
@pytest.mark.parametrize("p, kept", [(0.6, True), (0.8, False)])
def test_the_last_paragraph_under_an_ad_label_continues_the_body(p, kept):
    lines = [HEADLINE, *BODY, "Advertisement", CLOSING, "Share this article"]
    proba = np.array([0.9] + [0.02] * len(BODY) + [0.8, p, 0.95])
    texts = [text for _, text in decide(lines, Settings(), debris_proba=proba).kept]
    assert "Advertisement" not in texts
    assert (CLOSING in texts) is kept


def test_a_sentence_under_a_longer_removed_line_does_not_continue_the_body():
    # the look-alike: a removed line of several words is not a label inside the article
    lines = [HEADLINE, *BODY, "Sign up for our daily newsletter", CLOSING]
    proba = np.array([0.9] + [0.02] * len(BODY) + [0.9, 0.6])
    texts = [text for _, text in decide(lines, Settings(), debris_proba=proba).kept]
    assert CLOSING not in texts


@pytest.mark.parametrize("label", ["Article suivant", "Next article", "Related stories"])
def test_a_label_leading_to_other_stories_ends_the_body(label):
    # the look-alike of the ad label: under "Next article" comes another story's teaser
    lines = [HEADLINE, *BODY, label, CLOSING]
    proba = np.array([0.9] + [0.02] * len(BODY) + [0.8, 0.6])
    texts = [text for _, text in decide(lines, Settings(), debris_proba=proba).kept]
    assert CLOSING not in texts


# A cleaned article starts with its headline; a short one (2-3 words) is below the shape rule's four
# words, and the model does not always name it again when the decision re-runs on its own output.
@pytest.mark.parametrize("first_line, is_title", [
    ("Home Repair Programs", True),
    ("Weatherization Assistance", True),
    ("home repair programs", False),  # not title-cased
    ("Repairs Done.", False),  # ends a sentence
    ("About Us", False),  # a rule calls it navigation
    ("Programs", False),  # one word: a section label
])
def test_a_short_title_cased_first_line_above_the_body_is_the_headline(first_line, is_title):
    decision = decide([first_line, *BODY], Settings(use_model=False))
    assert (decision.title is not None and decision.title.text == first_line) is is_title


# In sentence case, a short first line is the headline only when the body uses every content word
# of it (plurals and "-s" forms folded); a page's label names nothing the article says.
@pytest.mark.parametrize("first_line, is_title", [
    ("Mobile app kinds", True),
    ("Mobile apps explained", False),  # the body never says "explained"
    ("Hybrid apps", True),
    ("Mobile platforms", True),  # "platforms" -> "platform"
    ("App stores", True),  # "stores" -> "store"
    ("Most recent", False),  # one content word, and the body never says "recent"
    ("Phone deals today", False),  # "deals" and "today" are not the article's
    ("Phones", False),  # one word: a section label
])
def test_a_short_sentence_case_first_line_naming_the_body_is_the_headline(first_line, is_title):
    decision = decide([first_line, *BODY], Settings(use_model=False))
    assert (decision.title is not None and decision.title.text == first_line) is is_title


def test_a_short_title_cased_line_not_right_above_the_body_is_no_headline():
    decision = decide(["Home Repair Programs", "Menu", *BODY], Settings(use_model=False))
    assert decision.title is None or decision.title.text != "Home Repair Programs"


def test_cleaning_an_article_with_a_short_headline_again_keeps_it():
    from newsclean.cleaners.pipeline import clean_text

    text = "\n\n".join(["Home", "Home Repair Programs", *BODY])
    once = clean_text(text, Settings())
    twice = clean_text(f"{once.title}\n\n{once.text}", Settings())
    assert (twice.title, twice.text) == (once.title, once.text)


# A lede that does not end in a full stop (it closes on a quoted fragment) is still a paragraph of
# several sentences: never the headline, so it stays in the text.
LEDE = ("The city council voted on Tuesday to expand the bus network to three new districts, a plan "
        'that officials say will cut commuting times for thousands of residents. "Finally"')


@pytest.mark.parametrize("text, paragraph", [
    (LEDE, True),
    ("AARP Just Named the 25 Best Places to Retire in the U.S.—and This City Just Ranked No. 1 (Again)", False),
    ("Tutoring was supposed to save American kids after the pandemic. The results? 'Sobering'", False),
    (LEDE.replace(". ", ", "), False),  # one long clause: no sentence ends inside
])
def test_is_paragraph(text, paragraph):
    assert shape.is_paragraph(text) is paragraph
    assert shape.is_headline_shaped(text) is not paragraph


def test_a_lede_closing_on_a_quote_is_not_taken_for_the_headline():
    from newsclean.cleaners.pipeline import clean_text

    doc = clean_text("\n\n".join(["Home", LEDE, *BODY]), Settings())
    assert doc.title != LEDE and LEDE in doc.text


# Above the short headline, at most lines a rule removes whole (a breadcrumb): the text still starts
# with its headline.
def test_a_short_headline_under_a_breadcrumb_is_the_headline():
    decision = decide(["Home | Apps | Phones", "Mobile app kinds", *BODY], Settings(use_model=False))
    assert decision.title is not None and decision.title.text == "Mobile app kinds"


def test_a_short_line_under_a_line_no_rule_removes_is_no_headline():
    decision = decide(["Apps and phones today", "Mobile app kinds", *BODY], Settings(use_model=False))
    assert decision.title is None or decision.title.text != "Mobile app kinds"


# In Chinese and Japanese a headline has no spaces, so the word tests see one word: the headline is
# a short line sharing most of its character pairs with the body.
ZH_BODY = ["市议会周二投票决定将公交网络扩展到三个新区，官员表示这项计划将为数千名居民缩短通勤时间。",
           "支持者认为新线路将帮助那些目前每天要花一个多小时通勤的工人。",
           "反对者表示，市议会没有解释将如何支付额外司机的费用。"]
JA_BODY = ["市議会は火曜日、バス路線網を三つの新しい地区に拡大することを決定した。",
           "当局者によると、この計画により何千人もの住民の通勤時間が短縮されるという。"]


@pytest.mark.parametrize("body, first_line, is_title", [
    (ZH_BODY, "市议会投票扩大公交网络", True),
    (ZH_BODY, "最新新闻", False),  # a menu's "latest news": one character pair of three in the body
    (ZH_BODY, "公交网络", True),
    (ZH_BODY, "公交", False),  # one pair: too short to tell
    (ZH_BODY, "市议会投票扩大公交网络。", False),  # a sentence
    (JA_BODY, "バス路線網の拡大を決定", True),
    (JA_BODY, "ログイン", False),  # "log in"
])
def test_a_short_cjk_line_sharing_the_body_s_character_pairs_is_the_headline(body, first_line, is_title):
    decision = decide([first_line, *body], Settings(use_model=False))
    assert (decision.title is not None and decision.title.text == first_line) is is_title


# Below the body the model's run of sure body lines continues it (a closing list or table). A line
# without a letter or digit adds no word: a bullet whose item text went ("*") or a row of stars
# ends the run, and cleaning the output again (where it would be the last line) agrees.
@pytest.mark.parametrize("marks", ["*", "* * *", "—", "•"])
def test_a_line_without_words_does_not_continue_the_body(marks):
    closing_list = "Apps for shops, apps for schools and apps for clinics"
    lines = [HEADLINE, "", *BODY, "", closing_list, "", marks, "", marks, "", "Rate this post!"]
    proba = np.array([0.9] + [0.02] * len(BODY) + [0.1, 0.1, 0.1, 0.95])
    kept = [text for _, text in decide(lines, Settings(), debris_proba=proba).kept]
    assert kept == [*BODY, closing_list]


# Below the body: a sentence in a language whose grammar sits in suffixes, with no listed function
# word (so not sentence-like to the prose test), and lines that are not sentences by their shape.
SUFFIXED_SENTENCE = "Asukkaat voivat tutustua suunnitelmaan kaupungintalolla maanantaista alkaen."
FOOTER = ["Tietosuoja", "Yhteystiedot"]


def _kept_below(last_line: str, p_last: float) -> list[str]:
    lines = ["Home", HEADLINE, *BODY, last_line, *FOOTER]
    proba = np.array([0.99, 0.9] + [0.02] * len(BODY) + [p_last, 0.8, 0.9])
    return [text for _, text in decide(lines, Settings(), debris_proba=proba).kept]


def test_a_sentence_by_its_shape_below_the_body_continues_it_where_the_model_calls_it_body():
    assert not shape.is_sentence_like(SUFFIXED_SENTENCE)
    assert Settings().model_threshold_continue <= 0.45 < Settings().model_threshold
    assert _kept_below(SUFFIXED_SENTENCE, 0.45) == [*BODY, SUFFIXED_SENTENCE]


@pytest.mark.parametrize("last_line, p_last", [
    (SUFFIXED_SENTENCE, 0.6),  # the model calls it debris
    ("Asukkaat voivat tutustua suunnitelmaan.", 0.45),  # too short for a sentence by its shape
    ("Asukkaat voivat tutustua suunnitelmaan kaupungintalolla maanantaista alkaen", 0.45),  # no sentence mark
])
def test_other_lines_below_the_body_do_not(last_line, p_last):
    assert _kept_below(last_line, p_last) == BODY


# A line that closes a page's article (the author's biography, the site's dated copyright notice):
# prose below it that weighs less than the body above is not the article (a FAQ under a pitch), even
# where the model calls it body. A picture's credit ("© Getty Images") closes nothing, and neither
# does such a line above the larger part of the body.
FAQ = [
    "What is a mobile app? It is a program built for phones and tablets that people install and use by touch.",
    "How long does an app take to build? A simple one takes a few months with a small team of developers.",
]
BIO = "Jane Roe is a senior editor at Example Media who has covered software for a decade and lives in Leeds."


@pytest.mark.parametrize("above, closing, closes", [
    (["About the author"], BIO, True),
    ([], "© 2025 Example Media Inc. All rights reserved.", True),
    ([], "Tags: apps, phones, software", True),
    ([], "Share this article", True),
    ([], "© Getty Images", False),
])
def test_a_line_that_closes_the_article_ends_the_body_above_lighter_prose(above, closing, closes):
    body = [*BODY, BODY[0].replace("A mobile app", "An app"), BODY[1].replace("The three", "All three")]
    lines = [HEADLINE, *body, *above, closing, *FAQ]
    proba = np.array([0.9] + [0.02] * len(body) + [0.95] * (len(above) + 1) + [0.1] * len(FAQ))
    texts = [text for _, text in decide(lines, Settings(), debris_proba=proba).kept]
    assert closing not in texts
    assert all(p in texts for p in body)
    assert all((p in texts) is not closes for p in FAQ)


def test_a_biography_above_the_larger_part_of_the_body_closes_nothing():
    lines = [HEADLINE, BODY[0], "About the author", BIO, *BODY[1:], *FAQ]
    proba = np.array([0.9, 0.02, 0.95, 0.95] + [0.02] * (len(BODY) - 1) + [0.1] * len(FAQ))
    texts = [text for _, text in decide(lines, Settings(), debris_proba=proba).kept]
    assert all(p in texts for p in [*BODY, *FAQ])
