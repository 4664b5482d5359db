"""The site speaking about itself inside the article: disclosures and appeals that run to a whole
paragraph. "This article contains affiliate links, which means we may earn a commission …", "Sign
up for our free newsletter to get … in your inbox", "If you enjoyed this story, please consider
supporting our independent journalism …", "The information in this article is for general
informational purposes only and does not constitute … advice", "Comments are moderated …". A
newsletter's writer asks in the first person: "To receive new posts and support my work, consider
becoming a free or paid subscriber", "If you haven't already subscribed, I recommend doing so",
"please share this post with a friend".

Such a paragraph reads as prose, so the model keeps it inside a body. What gives it away is the
site's own voice (we, our, this site: newsclean.cleaners.rules.consent.SITE_VOICE) together with one of the
few things a site says about itself to its readers: how it earns from links, its newsletter, app
or alerts, asking for money, asking for tips, moderating comments, or disclaiming advice. An
article about newsletters or affiliate marketing speaks of "a newsletter" or "affiliates" in the
third person; the notice speaks of "our newsletter", "our links", "our journalism" (a writer's
appeal: "I", "my", "me"). An appeal also addresses the reader: "you", or an imperative "please" or "consider"
opening a clause (a first-person "I would consider becoming a subscriber" is the article's). Cookie
walls are newsclean.cleaners.rules.consent's.
"""
from __future__ import annotations

import re

from newsclean.cleaners.rules.base import Doc, Line, Proposal, when, whole_line
from newsclean.cleaners.rules.consent import READER_ADDRESS, SITE_VOICE
from newsclean.cleaners.rules.prefilter import Guarded, Prefilter, one_byte_view

MAX_WORDS = 90  # a notice is one paragraph, not an article about the topic
# the site naming itself in the third person ("this article", "this website")
_THIS_SITE = re.compile(r"\bthis (?:article|website|web site|site|page|post|blog|story|content)\b", re.I)
# a newsletter's writer speaking for the site in the first person singular (a capital "I" only)
_WRITER_VOICE = re.compile(r"\bI\b|\b(?i:my|me)\b")
# an appeal that asks without "you": an imperative opening a clause ("…, consider becoming a subscriber")
_ASKS_READER = re.compile(r"(?:^|[.,;:!?]\s*|\band\s+)(?:please|consider)\b", re.I)

# A subscription asked for, by the site or by a newsletter's writer (who says "I", not "we").
_SUBSCRIBE_APPEAL = re.compile(
    r"""\b(?:
        becom(?:e|ing)\ a\ (?:free\ or\ paid\ |paid\ |paying\ )?(?:subscriber|member|supporter|patron)\b
      | (?:haven'?t|have\ not)\ (?:already\ |yet\ )?subscribed\b(?!\ to\ (?!(?:this|my|our)\b))
      | please\ share\ (?:this|these|my|our)\b(?:\ (?:posts?|articles?|stor(?:y|ies)|newsletters?))?\ with\b
    )""", re.I | re.X)
# What the site says about itself, each as the site's own thing ("our newsletter", "we may earn").
_APPEAL = re.compile(
    r"""\b(?:
        our\ (?:free\ |daily\ |weekly\ |email\ |e-mail\ )*newsletters?\b | (?:in|to)\ your\ inbox
      | (?:download|get|install)\ our\ (?:free\ )?(?:[\w-]+\ )?app\b
      | support\ (?:our|independent|local|quality)\ (?:\w+\ )?(?:journalism|reporting|work|newsroom)
      | (?:a|your)\ (?:(?:small|monthly|one-time|regular|recurring)\ ){0,2}(?:donation|contribution)\b | donate\b
      | (?:news\ )?tips?\ (?:to|for)\ us | (?:have|got)\ a\ (?:news\ )?(?:tip|story\ idea)\b | send\ us\ (?:a|an|your)\b
      | tell\ us\ (?:about\ )?(?:a|your)\ (?:story|news|tip)
      | (?:we'?d|we\ would)\ (?:like|love)\ to\ hear\ (?:from\ you|what\ you\ think|your\ (?:thoughts|views|opinions?|feedback|stories))
    )""", re.I | re.X)
_DISCLOSURE = re.compile(
    r"""\b(?:
        affiliate[\ -]links? | liens?\ affili[ée]s? | enlaces?\ (?:de\ )?afiliad[oa]s? | link\ (?:di\ )?affiliazione
      | (?:erhalten|bekommen)\ wir\ (?:daf[üu]r\ )?(?:eine\ )?(?:kleine\ )?provision | (?:(?:we|us)\ (?:may\ |might\ |will\ )?(?:earn|receive|get|make)|(?:may|might|will|can|could)\ (?:earn|make)\ us)\ (?:a\ )?(?:small\ )?(?:commission|compensation|fee)
      | (?:we|us)\ (?:may|might|will|can|could)\ (?:be\ )?compensated\b | (?:supported|funded)\ by\ (?:\w+\ )?commissions\b
      | at\ no\ (?:extra|additional)\ cost\ to\ you
      | (?:for\ )?(?:general\ )?(?:informational|information|educational)\ purposes\ only
      | (?:does|do|should)\ not\ (?:constitute|be\ (?:construed|considered|taken)\ as)\ (?:\w+\ ){0,3}advice
      | comments\ (?:are|will\ be)\ (?:moderated|reviewed|approved)
      | comments\ (?:may|might|will|can)\ be\ (?:republished|published|edited|shortened|removed|deleted)
      | (?:ask|expect)\ (?:that\ )?(?:all\ )?comments\ (?:are|be|to\ be|remain)\ (?:civil|respectful)
    )""", re.I | re.X)
# A writer disclosing what they earn from their links ("If you buy through my links, I may earn a
# small commission"): the first person earning, not an article's "I think affiliate links ...".
_WRITER_EARNS = re.compile(r"\bI\ (?:may\ |might\ |will\ |could\ |can\ )?(?:earn|receive|get|make)\ (?:a\ )?(?:small\ )?"
                           r"(?:commission|compensation|fee)", re.X)
# A site disclaiming the pages it links to, in its own name or "we": no article says this of itself.
_EXTERNAL_LINKS_DISCLAIMER = re.compile(
    r"""\bnot\ responsible\ for\ the\ content\ of\ (?:external|third[-\ ]party|linked|other)\ (?:web\ ?)?(?:sites|pages|links)\b
    # German sites' standard disclaimer: "… übernehmen wir keine Haftung für die Inhalte externer Links"
    | \bkeine\ haftung\ für\ (?:die\ )?inhalte?\ (?:externer|fremder|verlinkter)\ (?:links|seiten|webseiten|internetseiten|websites)\b
    | \bfür\ den\ inhalt\ der\ verlinkten\ seiten\ sind\ ausschlie(?:ß|ss)lich\ deren\ betreiber\ verantwortlich\b""",
    re.I | re.X)


# A blog's or an op-ed page's disclaimer of its authors' opinions, in no one's voice: "The views
# expressed on this blog are those of the authors", "The opinions expressed by the authors of this
# post are their own and do not necessarily reflect …", "Gastbeiträge geben nicht zwingend die Meinung
# der Redaktion wieder". An article reporting someone's disclaimer names whose views ("the views
# expressed in the letter", "in his speech").
_VIEWS_DISCLAIMER = re.compile(
    r"""^(?:the\ )?(?:views?|opinions?)(?:\ and\ (?:views?|opinions?))?\ (?:expressed|stated|presented|contained)
        \ (?:in\ (?:this|these)\ (?:article|post|blog|column|piece|story|commentary|op-ed|video|podcast|episode)s?
           |on\ this\ (?:blog|site|website|web\ site|page|podcast)
           |by\ (?:the\ )?(?:authors?|contributors?|writers?|bloggers?|guests?|columnists?)(?:\ of\ this\ \w+)?
           |herein)\b
    | ^(?:die\ )?in\ diesem\ (?:beitrag|artikel|gastbeitrag|blog)\ (?:ge(?:ä|ae)u(?:ß|ss)erten|vertretenen)\ (?:meinungen|ansichten)\b
    | ^gastbeitr(?:ä|ae)ge\ geben\ nicht\ (?:zwingend|unbedingt|notwendigerweise)\ die\ meinung\ der\ redaktion\ wieder\b""",
    re.I | re.X)
# A disclosure that names the links themselves, in no one's voice: "Bei den Verlinkungen handelt es sich
# um Affiliate Links", "Some of the links below are affiliate links".
_LINKS_ARE_AFFILIATE = re.compile(
    r"\b(?:the|these|all|die|den|diese|alle|les|ces|los|estos)\ (?:\w+\ ){0,2}(?:links?|verlinkungen|liens|enlaces)\b[^.!?/,]{0,40}?"
    r"\b(?:are|sind|handelt\ es\ sich\ um|sont|son)\ (?:\w+\ ){0,2}affiliate[\ -]?links?\b",
    re.I | re.X)


# A subscription offer's fine print, as a sentence of its own after the offer ("… for $1 a week. Cancel
# anytime.", "Cancela cuando quieras."): the site addressing its reader.
_CANCEL_ANYTIME = re.compile(
    r"""[.!?]\s+(?:cancel\ (?:at\ )?any\ ?time|cancela\ cuando\ quieras|cancele\ quando\ quiser|annulla\ quando\ vuoi
      |jederzeit\ kündbar|résiliable\ à\ tout\ moment|op\ elk\ moment\ opzegbaar)[.!]?$""",
    re.I | re.X)


# Every _APPEAL, _SUBSCRIBE_APPEAL, _DISCLOSURE, _EXTERNAL_LINKS_DISCLAIMER, _VIEWS_DISCLAIMER, _LINKS_ARE_AFFILIATE and _CANCEL_ANYTIME match holds one of
# these (lower case): one scan for them leaves the regular expressions to the few lines that may match.
_KEYS = ("affili", "afiliad", "provision", "commission", "compensat", " fee", "no extra", "no additional", "purposes only",
         "advice", "comments are", "comments will", "comments may", "comments might", "comments can",
         "comments be", "comments to", "comments remain", "newsletter", "inbox", "download our", "get our",
         "install our", "support our", "support independent", "support local", "support quality",
         "donat", "contribution", "tip to us", "tips to us", "tip for us", "tips for us", "a tip",
         "news tip", "story idea", "send us", "to hear", "become a", "becoming a", "subscribed",
         "please share", "tell us", "not responsible", "keine haftung", "verlinkten seiten",
         "cancel", "annulla", "jederzeit", "siliable", "opzegbaar", "expressed", "stated", "presented",
         "contained", "geäußert", "geaeussert", "vertretenen", "meinung der redaktion")


_ANY_KEY = re.compile("|".join(map(re.escape, _KEYS)))
# the same scan in RE2's DFA (newsclean.cleaners.rules.prefilter; exact here: the keys are ASCII): Python's
# engine tries each key at each position, 10.6 against 2.7 µs a dev line
_ANY_KEY_SCAN = Prefilter([_ANY_KEY], at_start=False)


def _may_be_notice(low: str) -> bool:
    """False only where none of the notice patterns can match the text `low` is the lower case of."""
    return _ANY_KEY_SCAN.may_match(low)


def _names_a_notice_key():
    """site_notice's shortcuts: one of _KEYS in the lower case (_may_be_notice), and at least 15
    characters (8 words, each a run of word characters apart from the next)."""
    import polars as pl

    return (pl.col("n_chars") >= 15) & pl.col("lower").str.contains_any(list(_KEYS))


# The patterns above whose RE2 form rules out most paragraphs that name a key, searched behind it
# (the same answers; on the dev pages' 1,955 such lines the rule took 95 -> 55 µs a line). The voices'
# short words ("we", "you", "I") are searched as they are: RE2's form finds them inside any word.
_GUARDED = {pattern: Guarded(pattern) for pattern in (
    _EXTERNAL_LINKS_DISCLAIMER, _VIEWS_DISCLAIMER, _LINKS_ARE_AFFILIATE, _CANCEL_ANYTIME, _THIS_SITE, _DISCLOSURE, _WRITER_EARNS,
    _ASKS_READER, _SUBSCRIBE_APPEAL, _APPEAL)}


@when(_names_a_notice_key)
def site_notice(line: Line, doc: Doc) -> Proposal | None:
    text = line.text
    if not 8 <= line.n_words <= MAX_WORDS or not _may_be_notice(line.lower):
        return None
    view = one_byte_view(text)

    def found(pattern: re.Pattern) -> bool:
        return _GUARDED[pattern].search(text, view) is not None

    if found(_EXTERNAL_LINKS_DISCLAIMER) or found(_VIEWS_DISCLAIMER) or found(_LINKS_ARE_AFFILIATE) or found(_CANCEL_ANYTIME):
        return whole_line("boilerplate", "site_notice")
    site_voice = SITE_VOICE.search(text) is not None or found(_THIS_SITE)
    if not site_voice and not _WRITER_VOICE.search(text):
        return None
    if (site_voice and found(_DISCLOSURE)) or found(_WRITER_EARNS):
        return whole_line("boilerplate", "site_notice")
    if (READER_ADDRESS.search(text) or found(_ASKS_READER)) \
            and (found(_SUBSCRIBE_APPEAL) or (site_voice and found(_APPEAL))):
        return whole_line("call_to_action", "site_notice")
    return None
