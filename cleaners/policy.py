"""What the decider (newsclean.cleaners.decide) may do with a document's lines: a Policy.

TEXT, the default, is the text path's: every rule proposes, the line model scores the lines, the
decider searches the text for its article body, and what lies outside the body is debris.

extracted_body() is the HTML path's, for the body trafilatura extracted from a page. That body was
chosen already (trafilatura found the article's region), so every line of it stays that no trusted
removal takes, and the lists and tables in it are content. Only the rules that stay reliable inside
such a body propose (HTML_RULES), and the line model does not run. The decider still searches the
lines for a body, as on the text path, only to learn which proposals remove: a weak proposal (an
edge rule's teaser headline) removes only outside the prose run. Of its removals only the trusted
rules' stand: a cue rule's anywhere, an edge rule's on an English-like body and outside lists and
tables. The page's headline candidates find the headline near the top of the body: it is the
title, and the short lines above it are page furniture.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property
from typing import Sequence

from newsclean.cleaners.rules import RULES, Rule
from newsclean.cleaners.shape import stop_share, words
from newsclean.cleaners.types import Span

# Rules that stay reliable inside a body trafilatura extracted: they fire on explicit cues
# ("RELATED:", "Next article:", a "Related stories" header and the headline under it, "Photo: Getty Images", "Sign up
# for…", "© 2018 …", "Updated: …", "Tags:", "We use cookies… you accept", "… we may earn a
# commission", "57 Comments", "Forgot your password?"). Rules that judge by shape and position alone (menus, name runs, lower-case lines)
# are left out: trafilatura already chose the body region, and the lists and tables in it are content.
CUE_RULES = frozenset({
    "leading_dateline", "date_stamp", "place_date_stamp", "link_prefix", "pager_link", "related_header", "under_related_header", "tag_prefix",
    "signed_by_outlet", "copyright_line", "bare_domain", "reader_engagement", "image_description", "end_credit", "credited_caption", "credit_line", "under_caption_label", "caption_sentence", "cookie_consent",
    "placeholder", "archive_entry", "footer_link", "account_form", "tag_header", "site_notice", "comments_header",
    "unrepairable_mojibake",
})
# The decider's own removals that stand there too: a reader thread under a comments header that
# closes the article (newsclean.cleaners.decide.CLOSES_ARTICLE), as on the text path.
CUE_DECISIONS = frozenset({"comment_thread"})
# Teaser headlines and stray fragments at the body's edges (weak rules, outside the prose run).
# They judge prose by English function words, so they apply only to an English-like body (on
# trafilatura's multilingual evaluation pages they otherwise cut German or Spanish paragraphs),
# and never to a list or table trafilatura kept, nor to the heading right above one.
EDGE_RULES = frozenset({"headline_shape", "short_fragment"})
ENGLISH_STOP_SHARE = 0.15  # share of English function words in a body that is English-like
HTML_RULES = tuple(rule for rule in RULES if rule.__name__ in CUE_RULES | EDGE_RULES)  # in RULES order
_LIST_ITEM = re.compile(r"^(?:[-*•▪◦‣]\s|\|.*\|$|\d{1,3}[.)]\s)")


def is_list_item(text: str) -> bool:
    """A list item ("- item", "3. item") or a table row ("| a | b |"), as trafilatura writes them."""
    return _LIST_ITEM.search(text) is not None


def in_list(lines: Sequence[str], number: int) -> bool:
    """Line `number` (1-based) is a list item or table row, or the heading right above one."""
    if is_list_item(lines[number - 1]):
        return True
    return is_list_item(next((line for line in lines[number:] if line), ""))


@dataclass(frozen=True)
class Policy:
    rules: tuple[Rule, ...] = RULES  # the rules that propose
    use_model: bool = True  # the line model scores the lines (when settings.use_model allows it)
    # True: the decider's body is the output's. False: the body is given, and every line of it stays
    # that no removal this policy keeps takes (newsclean.cleaners.decide.keep_given_body)
    searches_body: bool = True
    removed_by: frozenset[str] | None = None  # rules whose removals stand anywhere; None: every removal stands
    removed_outside_lists_by: frozenset[str] = frozenset()  # rules whose removals stand outside lists and tables
    headlines: tuple[str, ...] = ()  # the page's headline candidates, looked for at the top of a given body
    # With it, the removals of removed_outside_lists_by stand only where this text (the given body)
    # is English-like (is_english_like), judged the first time such a removal is weighed: most
    # bodies have none, and then their words are never counted for it.
    english_only: str | None = field(default=None, repr=False)

    def keeps_removal(self, span: Span, lines: Sequence[str]) -> bool:
        """Whether a removal the decider found (a span of `lines`) stands under this policy."""
        if self.removed_by is None or span.by in self.removed_by:
            return True
        return span.by in self.removed_outside_lists_by and self.outside_lists_removals_stand \
            and not in_list(lines, span.line)

    @cached_property
    def outside_lists_removals_stand(self) -> bool:
        """Whether the removals of removed_outside_lists_by may stand (english_only's test)."""
        return self.english_only is None or is_english_like(self.english_only)


TEXT = Policy()


def body_words(text: str) -> list[str]:
    """words(text), read line by line: no word spans a line end, and newsclean.cleaners.shape.words
    keeps each line's words, most of which the decision has asked for by the time the English test
    runs (Policy.outside_lists_removals_stand), where one call on the whole body would find them all
    again."""
    return [w for line in text.split("\n") for w in words(line)]


def is_english_like(text: str) -> bool:
    """Whether a body's words are English-like: ENGLISH_STOP_SHARE of them English function words."""
    return stop_share(body_words(text)) >= ENGLISH_STOP_SHARE


def extracted_body(text: str, headlines: Sequence[str] = ()) -> Policy:
    """The policy for a body trafilatura extracted (`text`), with the page's headline candidates:
    the edge rules' removals stand on an English-like body only."""
    return Policy(rules=HTML_RULES, use_model=False, searches_body=False, removed_by=CUE_RULES | CUE_DECISIONS,
                  removed_outside_lists_by=EDGE_RULES, headlines=tuple(headlines), english_only=text)
