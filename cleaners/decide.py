"""The one place that decides what is removed.

Rules propose (newsclean.cleaners.rules); the learned model scores each line (newsclean.cleaners.model); this step
combines them along the document:
1. strong rule proposals are removed wherever they are, with the rule's kind;
2. the article body runs from the first to the last prose line that survives step 1 (on a page
   with no prose line, such as a timeline, over the lines the model calls body); a comments
   header or a second article's header closes it, and a numbered list it stops inside continues it;
3. the headline is the first headline-shaped line above the body;
4. what lies outside the body is debris: a weak proposal names its kind, else its shape does; a
   reader-comment thread under a comments header is `comments`, down to its last post;
5. inside the body, a line stays unless a strong rule or the model says otherwise (so a short
   subheading between paragraphs survives); a long prose paragraph needs the model sure;
6. a table in pipe syntax (newsclean.cleaners.tables) is one block, which no line rule and not the model
   judge row by row: it goes whole unless it lies inside the body or right below it.

It decides under a policy (newsclean.cleaners.policy), which says which rules propose and whether the line
model scores. The text path's (the default) searches the body as above. A body chosen upstream (the
one trafilatura extracted from a page) is given instead: the decision until stable (cleaners.
fixpoint) still searches it, to learn which proposals remove, and keep_given_body_steps then has
the final say: only the removals the policy keeps stand, every other line is body (with the text
the kept cuts leave of it), a long paragraph kept twice goes the second time, as on the text path,
and the page's headline near the top of the body is the title, the short lines above it furniture.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from newsclean.cleaners import shape
from newsclean.cleaners.rules import Doc, Line, Proposal, propose_document
from newsclean.cleaners.rules.base import whole_line
from newsclean.cleaners.rules.mojibake import RULE as UNREPAIRABLE_MOJIBAKE
from newsclean.cleaners.rules.navigation import is_comment_form
from newsclean.cleaners.rules.signature import is_site_notice
from newsclean.cleaners.page_threshold import expected_f1_threshold
from newsclean.cleaners.policy import TEXT, Policy
from newsclean.cleaners.settings import Settings
from newsclean.cleaners.tables import cell_count, table_blocks
from newsclean.cleaners.text_left import text_left, text_left_mapped
from newsclean.cleaners.titles import label_cut
from newsclean.cleaners.types import DocumentError, Span
from newsclean.cleaners.engine.scoring import ScoreRequest, Steps, run_steps

CLOSES_ARTICLE = frozenset({"comments_header"})  # rules whose line ends the article when it lies below the body
# Lines that close a page's article, not open a box inside it: the author's biography or its label
# ("About the author"), the article's tags ("Tags: …"), its share bar's label ("Share this article"),
# an archive's or a category list's entries, and the site's own copyright notice (dated or reserving
# rights: "© 2025 Example Inc. All rights reserved.", not a picture's "© Getty Images"). Prose
# beyond such a line (a FAQ under a pitch, teasers with summaries) is not the article when it weighs
# less than the body above. (Not a consent notice or a form: a video's consent placeholder and a
# newsletter box sit inside articles.)
ENDS_ARTICLE = frozenset({"author_bio", "category_counts", "archive_entry", "tag_header", "tag_prefix"})
_ENDS_ARTICLE_LABEL = re.compile(r"^(?:share\s+(?:this|the)\s+(?:article|post|story|page)|(?:about|meet)\s+the\s+(?:author|writer)s?)\s*:?$", re.I)
ENDS_ARTICLE_WEIGHT = 1.0  # the body-like words above the line at least this many times those below
MIN_BODY_ABOVE_CLOSING = 3  # body-like lines above such a line (a comment count in a byline comes first)
STAMP_RULES = frozenset({"date_stamp", "place_date_stamp", "byline"})  # an article header's date or byline line
HEADER_SPAN = 4  # lines from a headline down to its date or byline (a section label may sit between)
HEADER_LABEL_MAX_WORDS = 6  # such a line between them
APPENDED_SAMPLE = 40  # body lines under a second header compared with the article above it
APPENDED_TOPIC_MAX = 0.2  # content-word cosine under which the text below is another story
APPENDED_PROBA_MARGIN = 0.1  # the prose below may look this much more like an article (mean P(debris)) and still go
HEADLINE_OPENING_WORDS = 5  # a line above starting with these words of the headline: the headline's own copy
LIST_ITEM = re.compile(r"(\d{1,3})[.)]\s+\w")  # a numbered item's heading: "17. Monopoly", "3) The third"
LIST_ITEM_MAX_WORDS = 20
LIST_GAP = 12  # lines the next item's heading, or its next paragraph, may lie below the last one
NO_PROSE_MIN_WORDS = 30  # words of the model's body lines that make a body without prose
LABEL_MAX_WORDS = 2  # a removed line this short inside the article is a label (an ad's, a box's)
LEADS_AWAY = frozenset({"related_headline"})  # a label of these kinds ("Next article", "Related") leads to other stories
STANDFIRST_MIN_WORDS = 8  # a standfirst is a sentence; a shorter line under the headline is a label or a byline
PROSE_MIN_WORDS = 35  # a body paragraph this long that reads as prose needs the model sure to go
SENTENCE_SHAPE_MIN_WORDS = 6  # a line ending in a sentence mark with this many words is a sentence by its shape
EMPTY = "the document is empty: no text in it after decoding; check the file, or the record's text field"
# every row of a table is proposed for removal as one block, until the body is known (step 6)
TABLE = whole_line("boilerplate", "table")
HEADING_MAX_WORDS = 12  # a subheading right below the body, over a paragraph or a table ("Rankings")
NO_BODY = "no article body found: every line looks like debris (navigation, calls to action, teasers); check the input is an article"
MIN_AS_IS_CHARS = 100  # a given body in which no prose line is found stays as it came when it has this many characters
HEADLINE_WITHIN = 3  # lines at the top of a given body searched for the page's headline
FURNITURE_MAX_WORDS = 8  # a line above that headline this short is page furniture


@dataclass
class Decision:
    title: Line | None
    kept: list[tuple[Line, str]]  # body lines in order, each with the text left after span removal
    spans: list[Span]
    # A given body's (keep_given_body_steps): the stable decision of the search for a body, whose
    # removals the policy filtered (the text metadata reads all of them: a byline is evidence where
    # it stays), and whether that search found no prose line, so that the body stayed as it came.
    searched: Decision | None = None
    kept_as_given: bool = False


def _partial_cuts(line: Line, props: list[Proposal]) -> tuple[list[tuple[int, int, Proposal]], str]:
    """Non-overlapping strong partial spans of one line, and the text left between them."""
    cuts: list[tuple[int, int, Proposal]] = []
    for p in props:
        s, e = p.bounds(line.text)
        if all(e <= cs or s >= ce for cs, ce, _ in cuts):
            cuts.append((s, e, p))
    cuts.sort(key=lambda c: c[0])
    return cuts, text_left(line.text, ((s, e) for s, e, _ in cuts))


def _repeats(key: str | None, seen: set[str]) -> bool:
    """Whether a paragraph about to be kept repeats a long one kept above it (its shape.repeat_key
    is in `seen`): the same paragraph printed twice is a page template's second copy (mobile and
    desktop, a sticky box), and only the first copy stays. A first copy is added to `seen`."""
    if key is None:
        return False
    if key in seen:
        return True
    seen.add(key)
    return False


def _whole_line(line: Line, kind: str, rule: str) -> Span:
    return Span(line.number, 0, len(line.text), kind, line.text, rule, whole_line=True)


def _doc_lines(lines: Sequence[str]) -> list[Line]:
    """The non-empty lines, each with its place among them and its 1-based line number."""
    return [Line(i, n, t) for i, (n, t) in enumerate((n, t) for n, t in enumerate(lines, 1) if t)]


def _outside_kind(props: Sequence[Proposal], n_words: int, leading: bool) -> str | None:
    """The kind of a line (of `n_words` words) outside the body, or None to keep it (a standfirst
    under the headline)."""
    for p in props:
        if leading and p.rule == "headline_shape":
            continue
        return p.kind
    if n_words <= 4:
        return "navigation"
    return None if leading else "boilerplate"


def _comment_thread(header: int, residual: list[str], whole: list["Proposal | None"]) -> range:
    """The lines of the reader-comment thread a comments header at `header` opens ("57 Comments",
    "3 thoughts on …"; the reply form's title opens none): down to the last line above the reply
    form that reads as a post (a sentence) and no rule removes strongly. What lies below is the
    form and the page's footer, which keep their own kinds."""
    if is_comment_form(residual[header]):
        return range(0)
    end = next((j for j in range(header + 1, len(residual))
                if whole[j] is not None and whole[j].rule in CLOSES_ARTICLE and is_comment_form(residual[j])),
               len(residual))
    posts = [j for j in range(header + 1, end) if whole[j] is None and shape.is_sentence_like(residual[j])]
    return range(header + 1, posts[-1] + 1) if posts else range(0)


def score_request(texts: list[str], context=None, corpus_doc_freq: list[int] | None = None):
    """What the packaged line model must score for a document's non-empty lines: a
    newsclean.cleaners.engine.scoring.ScoreRequest (the model, the lines, their DocContext), or None when no
    model is packaged. The decision yields it (decide_steps); whoever drives the steps scores it,
    one document at a time (run_steps) or a whole batch in one call (run_batch).

    `context` is a newsclean.cleaners.corpus.DocContext for exactly these lines (corpus repetition, URL), or
    a callable texts -> DocContext (e.g. `lambda t: stats.doc_context(t, site_key, url)`, which
    stays right when decide_stable re-runs on fewer lines); without one, per-line corpus document
    frequencies (if any) are used, else the context made active with newsclean.cleaners.model.using()."""
    from newsclean.cleaners.corpus import DocContext
    from newsclean.cleaners.model import LineModel, active_context

    if callable(context):
        context = context(texts)
    if context is None and corpus_doc_freq is None:
        context = active_context(texts)
    if context is None and corpus_doc_freq is not None and len(corpus_doc_freq) == len(texts):
        df = np.maximum(np.asarray(corpus_doc_freq, dtype=np.int32), 1)
        context = DocContext(df=df, df_site=np.ones(len(texts), dtype=np.int32),
                             n_docs=max(int(df.max()), 1), n_site_docs=1)
    if context is not None and len(context.df) != len(texts):
        context = DocContext.empty(len(texts), getattr(context, "url", None))
    try:
        model = LineModel.default()
    except FileNotFoundError:  # no packaged model (not trained yet): rules alone
        return None
    return ScoreRequest(model, texts, context)


def _model_debris(proba: np.ndarray | None, n_words: list[int], headline: int | None, settings: Settings) -> np.ndarray:
    """Lines the model alone calls debris, at the page's threshold (newsclean.cleaners.page_threshold). The
    model's headline is never body: it counts as debris here, as the model scores it."""
    if proba is None:
        return np.zeros(len(n_words), bool)
    words = np.array(n_words, dtype=np.float64)
    debris = proba >= expected_f1_threshold(proba, words, settings.model_threshold, settings.model_threshold_max)
    if headline is not None:
        debris[headline] = True
    return debris


def _unpunctuated_body(n_words: list[int], proba: np.ndarray | None, whole: list, settings: Settings) -> list[bool]:
    """A body with no line that reads as prose (a timeline, a list, a data sheet: no sentence ends
    in a full stop) is the lines the model calls body at its ordinary threshold and no rule removes
    whole (a table's rows may be among them), when they hold enough words; else the page has no
    body (DocumentError)."""
    if proba is None:
        raise DocumentError("decide", NO_BODY)
    body = [(w is None or w is TABLE) and p < settings.model_threshold for w, p in zip(whole, proba.tolist())]
    if sum(k for k, b in zip(n_words, body) if b) < NO_PROSE_MIN_WORDS:
        raise DocumentError("decide", NO_BODY)
    return body


def _ends_article(text: str, proposal: Proposal) -> bool:
    """A line a rule removes whole that closes a page's article (ENDS_ARTICLE)."""
    return proposal.rule in ENDS_ARTICLE or _ENDS_ARTICLE_LABEL.search(text) is not None \
        or proposal.rule == "copyright_line" and is_site_notice(text)


def _article_end(first: int, last: int, texts: list[str], residual: list[str], whole: list,
                 body_like: list[bool]) -> int | None:
    """The first line inside the body span that closes the article (_ends_article) with at least
    ENDS_ARTICLE_WEIGHT times as many body-like words above it as below it, or None."""
    closing = [i for i in range(first + 1, last + 1) if whole[i] is not None and _ends_article(texts[i], whole[i])]
    if not closing:  # most pages: the words are counted only where a line may close the article
        return None
    words_like = [len(residual[j].split()) if body_like[j] else 0 for j in range(first, last + 1)]
    total = sum(words_like)
    for i in closing:
        above = sum(words_like[:i - first])
        if above >= ENDS_ARTICLE_WEIGHT * (total - above):
            return i
    return None


def _trusted_as_body(i: int, proba: np.ndarray | None, residual: list[str], whole: list, settings: Settings) -> bool:
    """An article body is contiguous, and the model is least sure on short, mostly clean text: a
    sentence next to the body, or a line between two body lines (a subheading), stays unless the
    model is confident at the stricter prose threshold."""
    if whole[i] is not None:
        return False
    return proba is None or proba[i] < settings.model_threshold_prose


def _shape_headline(i: int, lines: Sequence[Line], whole: list, cuts: list) -> bool:
    """A line no rule removes or cuts, shaped like a headline: a title candidate by its shape."""
    return whole[i] is None and not cuts[i] and shape.is_headline_shaped(lines[i].text, lines[i].n_words)


def _heads_the_text(i: int, lines: Sequence[Line], whole: list, cuts: list) -> bool:
    """The text's first line, when a headline by its shape: the title, not a lede the body extends
    over. Where an earlier pass removed debris between such a line and the body, the body stopped
    below it and it became the title; cleaning that output puts the title right above the body,
    so without this the second cleaning would read it as the lede (not idempotent)."""
    return i == 0 and _shape_headline(0, lines, whole, cuts)


def _heading_below(j: int, proba: np.ndarray | None, residual: list[str], whole: list, settings: Settings) -> bool:
    """Line j reads as a subheading the body may continue over: short, no sentence end, trusted as
    body (see _trusted_as_body)."""
    return len(residual[j].split()) <= HEADING_MAX_WORDS and not shape.ends_sentence(residual[j]) \
        and _trusted_as_body(j, proba, residual, whole, settings)


def _continues_body(last: int, proba: np.ndarray | None, residual: list[str], whole: list,
                    settings: Settings, gap_before: list[bool]) -> list[int]:
    """The lines right below the body that still belong to it: a sentence ("He did not respond."),
    or a subheading with a prose paragraph under it, each trusted as body (see _trusted_as_body);
    or a sentence by its shape alone that the model calls body at its ordinary threshold.
    Never across a line an earlier pass removed (`gap_before`)."""
    n = len(residual)
    j = last + 1
    if j < n and gap_before[j]:
        return []
    if j < n and shape.is_sentence_like(residual[j], min_words=3) and _trusted_as_body(j, proba, residual, whole, settings):
        return [j]
    # a sentence by its shape only: in a language whose grammar sits in suffixes (Turkish,
    # Finnish, Hungarian) a sentence may hold no listed function word, so the prose test misses
    # it; it continues the body where the model calls it body at its ordinary threshold
    if j < n and whole[j] is None and proba is not None and proba[j] < settings.model_threshold \
            and shape.ends_sentence(residual[j]) and len(shape.words(residual[j])) >= SENTENCE_SHAPE_MIN_WORDS:
        return [j]
    # a label a rule removes ("Advertisement") between the body and its last paragraph: the
    # paragraph continues the body if the model leans against it less than on an unsure page (not
    # past a label that leads to other stories: what follows "Next article" is another story)
    if j + 1 < n and whole[j] is not None and whole[j].kind not in LEADS_AWAY \
            and len(residual[j].split()) <= LABEL_MAX_WORDS and not gap_before[j + 1] \
            and whole[j + 1] is None and shape.is_sentence_like(residual[j + 1], min_words=3) \
            and proba is not None and proba[j + 1] < settings.model_threshold_max:
        return [j + 1]
    if j + 1 < n and not gap_before[j + 1] and _heading_below(j, proba, residual, whole, settings) \
            and shape.is_sentence_like(residual[j + 1]) and _trusted_as_body(j + 1, proba, residual, whole, settings):
        return [j, j + 1]
    return []


def _table_below(last: int, table_end: dict[int, int], residual: list[str], whole: list, settings: Settings,
                 proba: np.ndarray | None, gap_before: list[bool]) -> list[int]:
    """The rows of a table right below the body (a table closing the article, or a part of it the
    paragraphs below continue), with the short heading between them if there is one ("Rankings"),
    or []. `table_end` maps each table's first line to its last. Never across a line an earlier
    pass removed."""
    s = last + 1
    if s in table_end and not gap_before[s]:
        return list(range(s, table_end[s] + 1))
    heading, s = last + 1, last + 2
    if s in table_end and not gap_before[s] and not gap_before[heading] \
            and _heading_below(heading, proba, residual, whole, settings):
        return list(range(heading, table_end[s] + 1))
    return []


def _model_continues_body(last: int, proba: np.ndarray | None, residual: list[str], whole: list,
                          settings: Settings, gap_before: list[bool]) -> int:
    """The last line of the run right below the body that the model is sure is body (a list or
    table closing the article, which is not prose and so cannot end the prose span itself). A
    line without a letter or a digit (a bullet whose item went, a row of stars) ends the run: it
    adds no word, and the model's odds for it follow the lines around it, which cleaning removes."""
    if proba is None:
        return last
    j = last + 1
    while j < len(whole) and not gap_before[j] and whole[j] is None and proba[j] < settings.model_threshold_continue \
            and shape.has_word_char(residual[j]):
        j += 1
    return j - 1


def _appended_article(first: int, last: int, residual: list[str], whole: list, body_like: list[bool],
                      title: int | None, proba: np.ndarray | None) -> int | None:
    """The headline of a second article inside the body, or None. Infinite scroll, or a related
    block that carries whole stories, appends the next article with its own header: a headline,
    then within a few short lines its date or byline. Where the prose under that header is about
    something else (its content words fit the article's poorly), the article ends above it. Not:
    - where dates or bylines recur: only the body's first one is looked at (a listing of dated
      events, a live blog's entries: each heads a part of the same page; a live blog's entries
      share its topic anyway);
    - under the page's own headline repeated (a recipe card's, or the real article's under a
      teaser or breadcrumb of it): a line above it holds its first words;
    - when the model finds the prose under it more like an article than the prose above it (the
      body's start was a teaser or a notice, and the article itself comes under this header)."""
    s = next((i for i in range(first + 1, last + 1) if whole[i] is not None and whole[i].rule in STAMP_RULES), None)
    if s is None:
        return None
    h = s - 1

    def teaser(i: int) -> bool:  # a headline no rule removes, or one a rule calls a teaser's
        return (whole[i] is None or whole[i].kind == "related_headline") and shape.is_headline_shaped(residual[i])

    while h > first and s - h <= HEADER_SPAN and not teaser(h) and len(residual[h].split()) <= HEADER_LABEL_MAX_WORDS:
        h -= 1
    if h <= first or s - h > HEADER_SPAN or not teaser(h) or body_like[h] or h == title \
            or sum(body_like[first:h]) < MIN_BODY_ABOVE_CLOSING:
        return None
    opening = " ".join(shape.words(residual[h].casefold())[:HEADLINE_OPENING_WORDS])
    if any(opening in " ".join(shape.words(t.casefold())) for t in residual[:h]):
        return None
    below = [i for i in range(s + 1, last + 1) if body_like[i]][:APPENDED_SAMPLE]
    above = [i for i in range(first, h) if body_like[i]]
    if len(below) < 2 or shape.topic_similarity([residual[i] for i in above], [residual[i] for i in below]) >= APPENDED_TOPIC_MAX:
        return None
    if proba is not None and float(np.mean(proba[below])) + APPENDED_PROBA_MARGIN < float(np.mean(proba[above])):
        return None
    return h


def _item_number(text: str) -> int | None:
    m = LIST_ITEM.match(text)
    return int(m.group(1)) if m and len(text.split()) <= LIST_ITEM_MAX_WORDS else None


def _list_continues(first: int, last: int, residual: list[str], whole: list, proba: np.ndarray | None,
                    settings: Settings, gap_before: list[bool], end: int) -> list[int]:
    """The next item of the body's numbered list, when the body stops inside it (a listicle: the
    model doubts its later items more and more, as it doubts what lies far down a page): the
    heading that continues the numbers of the body's last two numbered headings ("17. ..." under
    an article whose items end 15, 16; "18. ..." under a countdown's 20, 19; "2. ..." under a
    lone item 1), within LIST_GAP lines of the body's end, and the paragraphs under it that read
    as prose and that the model is not sure about at the prose threshold, each within LIST_GAP
    lines of the one before. (A table of contents above the items numbers them too: the last
    numbered headings are those of the items the body stops in.) Returns the heading and those
    paragraphs, or []."""
    numbered = [k for i in range(first, last + 1) if (k := _item_number(residual[i])) is not None]
    if not numbered:
        return []
    step = numbered[-1] - numbered[-2] if len(numbered) > 1 else 0
    if step not in (1, -1):
        if numbered[-1] != 1:
            return []
        step = 1
    head = next((j for j in range(last + 1, min(end, last + 1 + LIST_GAP)) if _item_number(residual[j]) is not None), None)
    if head is None or _item_number(residual[head]) != numbered[-1] + step or any(gap_before[last + 1:head + 1]):
        return []
    item, prev = [head], head
    for j in range(head + 1, end):
        if j - prev > LIST_GAP or gap_before[j] or _item_number(residual[j]) is not None:
            break
        if whole[j] is None and shape.is_sentence_like(residual[j]) \
                and (proba is None or proba[j] < settings.model_threshold_prose):
            item.append(j)
            prev = j
    return item if len(item) > 1 else []


def _is_standfirst(text: str) -> bool:
    """Worded like a sentence of the article, not like a heading or a dated byline."""
    return not any(c.isdigit() for c in text) and not shape.is_title_cased(text) \
        and shape.is_prose_worded(text, min_words=STANDFIRST_MIN_WORDS)


def decide(lines: Sequence[str], settings: Settings, **kwargs) -> Decision:
    """decide_steps with the line model scored on the spot (see there)."""
    return run_steps(decide_steps(lines, settings, **kwargs))


def decide_steps(lines: Sequence[str], settings: Settings, debris_proba: np.ndarray | None = None,
                 corpus_doc_freq: list[int] | None = None, model_context=None, policy: Policy = TEXT,
                 url: str | None = None, removed_before: frozenset[int] = frozenset()) -> Steps[Decision]:
    """A generator: it yields one ScoreRequest when it needs the line model (score_request) and is
    sent back (P(debris) per line, headline index or None); it returns the Decision.
    `lines` are all normalised lines (empty ones included, so numbers match the raw text).
    `debris_proba`, if given, holds the model's P(debris) for each non-empty line; otherwise, with
    settings.use_model and policy.use_model, the packaged line model scores them (`model_context`:
    a DocContext with the corpus repetition of these non-empty lines, optional). `policy`
    (newsclean.cleaners.policy): the rules that propose and whether the model runs (a pass decides as above
    under any policy; a given body's final say comes after the passes: keep_given_body_steps); `url`: the
    document's address, which names its outlet in a headline's trailing label (newsclean.cleaners.titles);
    `removed_before`: the numbers of lines an earlier pass removed (newsclean.cleaners.fixpoint). The body
    is not extended across them: the earlier pass saw them there, and they stopped it then."""
    doc = Doc(_doc_lines(lines), corpus_doc_freq=corpus_doc_freq)
    n = len(doc.lines)
    if not n:
        raise DocumentError("decide", EMPTY)
    proposals = propose_document(doc, policy.rules)
    gap_before = [False] * n
    if removed_before:
        for i in range(1, n):
            lo, hi = doc.lines[i - 1].number, doc.lines[i].number
            gap_before[i] = hi - lo > 1 and any(k in removed_before for k in range(lo + 1, hi))

    # Per line, in arrays indexed like doc.lines: the strong proposal that removes it whole (or
    # TABLE), its strong partial cuts (most lines have none: they share one empty tuple), the text
    # the cuts leave, its word count, whether a table holds it.
    texts = [ln.text for ln in doc.lines]
    n_words = [ln.n_words for ln in doc.lines]
    whole: list[Proposal | None] = [None] * n
    cuts: list[Sequence[tuple[int, int, Proposal]]] = [()] * n
    residual = texts.copy()
    # The output closes the gap a line removed by an earlier pass leaves: a row across such a gap
    # continues its table, as it will when the output is cleaned (idempotence)
    tables = table_blocks(texts, [ln.number for ln in doc.lines], bridged=gap_before)
    table_end = dict(tables)
    in_table = [False] * n
    for s, e in tables:
        in_table[s:e + 1] = [True] * (e + 1 - s)
        whole[s:e + 1] = [TABLE] * (e + 1 - s)
    for i, props in enumerate(proposals):
        if not props:
            continue
        line = doc.lines[i]
        if in_table[i]:
            # a table is kept or dropped as one block, whatever a rule says of a row; only the damaged
            # words of a row are cut (a column of check marks that lost a byte), where the row keeps
            # its cells
            damage = [p for p in props if p.rule == UNREPAIRABLE_MOJIBAKE and p.bounds(line.text) != (0, len(line.text))]
            if damage:
                row_cuts, row_left = _partial_cuts(line, damage)
                if cell_count(row_left) == cell_count(line.text):
                    cuts[i], residual[i] = row_cuts, row_left
            continue
        strong = [p for p in props if p.strong]
        if not strong:
            continue
        full = next((p for p in strong if p.bounds(line.text) == (0, len(line.text))), None)
        if full is None:
            cuts[i], residual[i] = _partial_cuts(line, strong)
            if not shape.has_word_char(residual[i]):
                full, cuts[i] = cuts[i][0][2], ()
        whole[i] = full

    # --- model hook: P(debris) per non-empty line from the learned line model (newsclean.cleaners.model) ---
    model_title: int | None = None
    if debris_proba is None and settings.use_model and policy.use_model and n:
        request = score_request(texts, model_context, corpus_doc_freq)
        scored = None if request is None else (yield request)
        if scored is not None:
            debris_proba, model_title = scored
    model_says_debris = _model_debris(debris_proba, n_words, model_title, settings)
    body_like = [w is None and not d and shape.is_sentence_like(r)
                 for w, d, r in zip(whole, model_says_debris.tolist(), residual)]
    if not any(body_like):
        body_like = _unpunctuated_body(n_words, debris_proba, whole, settings)
    first = body_like.index(True)
    last = n - 1 - body_like[::-1].index(True)
    # A comments header below some of the body closes the article: the readers' comments under it
    # are not its body, however prose-like (a thread often outweighs the article).
    # (such a header is a strong whole-line proposal: only lines removed whole are looked at)
    closing = next((i for i in range(first + 1, last + 1) if whole[i] is not None
                    and any(p.rule in CLOSES_ARTICLE for p in proposals[i])
                    and sum(body_like[first:i]) >= MIN_BODY_ABOVE_CLOSING), None)
    thread: range = range(0)  # the reader-comment thread under a closing header (removed as `comments`)
    if closing is not None:
        last = max(j for j in range(first, closing) if body_like[j])
        thread = _comment_thread(closing, residual, whole)
    elif (end := _article_end(first, last, texts, residual, whole, body_like)) is not None:
        last = max(j for j in range(first, end) if body_like[j])
    # A rule's strong or caption proposal vetoes the model's headline only inside the body: above
    # it, the headline's own shape is what such rules see (a lower-case headline read as alt text,
    # "Affordable, Ethical, Sustainable ..." as a tag list, "Recommended: ..." as a link prefix),
    # and the model weighs that shape with the line's place on the page.
    title_ok = model_title is not None and not cuts[model_title] and not in_table[model_title] \
        and (model_title < first or not any(p.strong or p.kind == "caption" for p in proposals[model_title]))
    # The model's headline below a few body-like lines: the article starts at its headline, and the
    # fewer "sentences" above it are page furniture the model missed (a cookie notice, a teaser).
    # Counted are the lines the model keeps at its ordinary threshold: the page's own threshold
    # also keeps the teasers it doubts, which crowd a menu above the headline.
    if title_ok and first < model_title < last and not body_like[model_title]:
        sure_body = [b and (debris_proba is None or debris_proba[i] < settings.model_threshold) for i, b in enumerate(body_like)]
        if sum(sure_body[:model_title]) < sum(sure_body[model_title + 1:]):
            first = body_like.index(True, model_title + 1)
    # So does a second article's header (_appended_article) above prose about something else.
    appended = _appended_article(first, last, residual, whole, body_like, model_title, debris_proba)
    if appended is not None:
        last = max(j for j in range(first, appended) if body_like[j])
    # The body extends over adjacent sentences the model is unsure about: a lede under a dateline
    # above it, a short closing sentence ("He did not respond.") below it. A title-cased question
    # above the body is a heading (the last entry of a table of contents), not its lede.
    while first > 0 and not gap_before[first] and not (title_ok and first - 1 == model_title) \
            and not _heads_the_text(first - 1, doc.lines, whole, cuts) \
            and shape.is_sentence_like(residual[first - 1]) \
            and not shape.is_title_cased(residual[first - 1]) \
            and _trusted_as_body(first - 1, debris_proba, residual, whole, settings):
        first -= 1
        model_says_debris[first] = False
    # A standfirst: the one line between the model's headline and the body, worded like prose (a
    # dek often has no full stop), not title-cased and dateless (a byline with its date is worded
    # like prose too), that no rule calls anything but headline-shaped (a caption's weak proposal
    # decides a line above the body), stays unless the model is more than unsure.
    if title_ok and first - 2 == model_title and not gap_before[first] and not gap_before[first - 1] \
            and _is_standfirst(residual[first - 1]) \
            and all(p.rule == "headline_shape" for p in proposals[first - 1]) \
            and debris_proba is not None \
            and debris_proba[first - 1] < settings.model_threshold_max:
        first -= 1
        model_says_debris[first] = False
    end = appended if appended is not None else n  # a second article's header is never crossed
    while True:
        below = _table_below(last, table_end, residual, whole, settings, debris_proba, gap_before) \
            or _continues_body(last, debris_proba, residual, whole, settings, gap_before)
        if not below or below[-1] >= end:
            break
        for j in below:
            model_says_debris[j] = False
            if in_table[j]:
                whole[j] = None
        last = below[-1]
    below = min(_model_continues_body(last, debris_proba, residual, whole, settings, gap_before), end - 1)
    model_says_debris[last + 1:below + 1] = False
    last = below
    while item := _list_continues(first, last, residual, whole, debris_proba, settings, gap_before, end):
        model_says_debris[item] = False
        last = item[-1]
    # A table inside the body is part of it, every row. (A table overlaps the body's edge only on a
    # page without prose, where the body is the lines the model keeps: then the body takes it all.)
    for s, e in tables:
        if s <= last and e >= first:
            whole[s:e + 1] = [None] * (e + 1 - s)
            model_says_debris[s:e + 1] = False
            first, last = min(first, s), max(last, e)
    # A line between two body lines is a subheading unless the model is sure.
    for i in range(first + 1, last):
        if model_says_debris[i] and not model_says_debris[i - 1] and not model_says_debris[i + 1] \
                and _trusted_as_body(i, debris_proba, residual, whole, settings):
            model_says_debris[i] = False

    # A long paragraph that reads as prose inside the body stays unless the model is sure at the
    # prose threshold: a run of real paragraphs the model doubts (a list of biographies, a long
    # aside) is still the article, and how much the model doubts such runs varies with its
    # training draw (cross-validated over four training seeds: F1 +0.0005 on average, 3 of 4 up).
    if debris_proba is not None:
        for i in range(first, last + 1):
            if model_says_debris[i] and i != model_title and whole[i] is None \
                    and len(residual[i].split()) >= PROSE_MIN_WORDS and shape.is_sentence_like(residual[i]) \
                    and debris_proba[i] < settings.model_threshold_prose:
                model_says_debris[i] = False

    shape_title = next((ln for ln in doc.lines[:first] if _shape_headline(ln.index, doc.lines, whole, cuts)), None)
    # A text that starts with a short line right above its body starts with its headline, as a
    # cleaned article does: too short for the shape rule's four words. (Starts: above it at most
    # lines a rule removes whole, such as a breadcrumb.) Title-cased ("Home Repair Programs"), or
    # in sentence case with every content word in the body ("Council expands buses" over "The city
    # council voted to expand the bus network"; a menu's "Most recent" names nothing the article
    # says), or in Chinese, Japanese or Korean sharing most character pairs with it.
    top = first - 1
    if shape_title is None and top >= 0 and whole[top] is None and not cuts[top] \
            and all(whole[j] is not None for j in range(top)):
        text, body = doc.lines[top].text, residual[first:last + 1]
        if shape.is_title_cased_short(text) or (shape.is_short_heading(text) and shape.names_only(text, body)) \
                or shape.is_cjk_heading_of(text, body):
            shape_title = doc.lines[top]

    debris = model_says_debris.tolist()  # read per line below: plain bools

    def assemble(title: Line | None) -> tuple[list[Span], list[tuple[Line, str]]]:
        spans: list[Span] = []
        kept: list[tuple[Line, str]] = []
        seen: set[str] = set()  # repeat keys of the kept paragraphs
        for i, line in enumerate(doc.lines):
            if line is title:
                continue
            w, cut = whole[i], cuts[i]
            kind, rule = (w.kind, w.rule) if w is not None else (None, None)
            if (kind is None or rule == UNREPAIRABLE_MOJIBAKE) and (i < first or i > last):
                # damaged words cut from a line say nothing of what the line is: outside the body,
                # its other proposals name it, as they would without the damage
                named = [c[2] for c in cut if c[2].rule != UNREPAIRABLE_MOJIBAKE]
                props = named if named else [p for p in proposals[i] if not p.strong]
                # only a line between the headline and the body may be a standfirst; above the
                # headline lies page furniture
                outside = _outside_kind(props, n_words[i], leading=i < first and (title is None or i > title.index))
                if outside is not None or kind is None:
                    kind, rule = outside, next((p.rule for p in props if p.kind == outside), "position")
            if kind is None and debris[i]:
                kind, rule = "boilerplate", "model"
            if w is None and not cut and i in thread:
                kind, rule = "comments", "comment_thread"  # a post, its commenter and date, "Reply"
            # a table's rows are kept or dropped as one block, never one row as a repeat
            if kind is None and not cut and not in_table[i] and _repeats(shape.repeat_key(line.text), seen):
                kind, rule = "boilerplate", "repeated_paragraph"
            if kind is not None:
                spans.append(_whole_line(line, kind, rule))
                continue
            for s, e, p in cut:
                spans.append(Span(line.number, s, e, p.kind, line.text[s:e], p.rule))
            kept.append((line, residual[i]))
        return spans, kept

    # The model's headline (newsclean.cleaners.model title pass) wins over the shape rule when it lies above
    # the body or is not prose itself, and no rule cuts it, calls it a caption or proposes it
    # strongly. It must also come before every kept line: the output puts the title first, and a
    # title taken from the middle of the text would not be found again in it (idempotence).
    title = None
    if title_ok and (model_title < first or not body_like[model_title]):
        title = doc.lines[model_title]
        spans, kept = assemble(title)
        if kept and kept[0][0].index < model_title:
            title = None
    if title is None:
        title = shape_title
        spans, kept = assemble(title)
    if title is not None:
        # the headline's trailing outlet or label ("Headline | Outlet") is removed like any span, so
        # the next pass (newsclean.cleaners.fixpoint) sees the headline as the output will show it
        cut = label_cut(title.text, url, (ln.text for ln in doc.lines))
        if cut is not None:
            start, kind = cut
            spans.append(Span(title.number, start, len(title.text), kind, title.text[start:], "title_label"))
    return Decision(title, kept, spans)


def keep_given_body_steps(lines: Sequence[str], search: Steps[Decision], policy: Policy) -> Steps[Decision]:
    """The final say on a given body (policy.searches_body False), as steps: `search` decides
    `lines` until stable (newsclean.cleaners.fixpoint) under `policy`; of its removals only those the policy
    keeps stand, and every other line is body (keep_given_body). Where the search finds no prose
    line, the body stays as it came, when it holds MIN_AS_IS_CHARS (DocumentError otherwise)."""
    try:
        searched = yield from search
    except DocumentError:
        if sum(len(line) - line.count(" ") for line in lines) < MIN_AS_IS_CHARS:
            raise
        return keep_given_body(lines, Decision(None, [], []), policy, kept_as_given=True)
    return keep_given_body(lines, searched, policy)


def keep_given_body(lines: Sequence[str], searched: Decision, policy: Policy, kept_as_given: bool = False) -> Decision:
    """A given body's lines, less the removals of `searched` that the policy keeps (a cut line keeps
    the text the kept cuts leave of it, if that has a word), less a long paragraph's second copy
    (repeated_paragraph, as on the text path; here a cut line's remaining text counts as a first
    copy, but never as a second one) and less the headline and its furniture (_below_headline).
    The decision has no title: the page gives it."""
    spans = [s for s in searched.spans if policy.keeps_removal(s, lines)]
    whole = {s.line for s in spans if s.whole_line}
    cuts: dict[int, list[tuple[int, int]]] = {}
    for s in spans:
        if not s.whole_line:
            cuts.setdefault(s.line, []).append((s.start, s.end))
    kept: list[tuple[Line, str]] = []
    seen: set[str] = set()
    for line in _doc_lines(lines):
        if line.number in whole:
            continue
        text = line.text
        if line.number in cuts:
            text = text_left(text, cuts[line.number])
            if not shape.has_word_char(text):
                continue
        if _repeats(shape.repeat_key(text), seen) and line.number not in cuts:
            spans.append(_whole_line(line, "boilerplate", "repeated_paragraph"))
            continue
        kept.append((line, text))
    kept, furniture = _below_headline(kept, set(cuts), policy.headlines)
    spans += [_whole_line(line, "navigation", "above_headline") for line in furniture]
    return Decision(None, kept, sorted(spans, key=lambda s: (s.line, s.start)), searched=searched,
                   kept_as_given=kept_as_given)


def _below_headline(kept: list[tuple[Line, str]], cut: set[int],
                    headlines: Sequence[str]) -> tuple[list[tuple[Line, str]], list[Line]]:
    """The kept lines without the page's headline near their top (one of `headlines` within
    HEADLINE_WITHIN lines, with a line below it): it is the title. The short lines above it (a
    kicker, a section name, a reading time; not cut) are page furniture: returned apart. Longer
    text above it stays."""
    wanted = {shape.fold(h) for h in headlines} - {""}
    top = next((i for i, (_, text) in enumerate(kept[:HEADLINE_WITHIN]) if shape.fold(text) in wanted), None)
    if top is None or top + 1 >= len(kept):
        return kept, []
    furniture = [line for line, text in kept[:top] if line.number not in cut and len(text.split()) <= FURNITURE_MAX_WORDS]
    above = [(line, text) for line, text in kept[:top] if line not in furniture]
    return above + kept[top + 1:], furniture
