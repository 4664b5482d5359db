"""The rule set: one module per debris kind. Order matters only to break ties on one line:
the first strong whole-line proposal names the kind."""
from newsclean.cleaners.rules import (account, byline, call_to_action, caption, consent, dateline, encoded_data, glued, mojibake, navigation,
                            related, signature, site_notice, tag_list)
from operator import itemgetter
from typing import Iterable

from newsclean.cleaners.rules.base import Doc, Line, Proposal, Rule, in_context, start_union, when
from newsclean.cleaners.shape import remember_ascii_prose, words
from newsclean.cleaners.rules.prefilter import Prefilter

RULES: tuple[Rule, ...] = (
    encoded_data.encoded_data,  # first: a blob's other proposals would be chance matches
    mojibake.unrepairable_mojibake,  # before the cuts of others: where one overlaps its words, it gives way
    dateline.leading_dateline,
    dateline.date_stamp,
    dateline.place_date_stamp,
    byline.byline,
    byline.name_over_title,
    byline.author_bio,
    related.link_prefix,
    related.pager_link,
    related.related_header,
    related.under_related_header,
    tag_list.tag_prefix,
    tag_list.tag_header,
    signature.signed_by_outlet,
    caption.credit_line,  # before copyright_line: "© Jane Doe/AFP" credits a photo
    signature.copyright_line,
    caption.under_caption_label,
    signature.bare_domain,
    navigation.comments_header,
    navigation.placeholder,
    navigation.archive_entry,
    navigation.category_counts,
    navigation.footer_link,
    account.account_form,
    call_to_action.reader_engagement,
    consent.cookie_consent,
    site_notice.site_notice,
    caption.credited_caption,  # before end_credit: the whole line, not just its credit
    caption.ellipsis_credit,
    caption.end_credit,
    caption.lead_credit,
    caption.glued_credit,
    glued.glued_debris,
    caption.image_label,
    caption.image_description,
    caption.alt_text,
    caption.caption_sentence,
    caption.caption_above_credit,
    navigation.breadcrumb,
    navigation.ui_words,
    tag_list.name_run,
    tag_list.separated_items,
    # Weak proposals: they only name the kind of a line already judged to lie outside the body.
    caption.present_tense_caption,
    tag_list.short_name_run,
    navigation.short_fragment,
    related.headline_shape,
)


# Rules whose proposals depend on the line's text alone are run once per distinct text: the
# decision step's later passes see the same lines again, and a corpus repeats its menus and
# footers in every document. A _Proposer does this for one rule set (RULES, or the subset the HTML
# path keeps), keyed by text; each entry holds the text-only rules' (position in the rule set,
# proposal) pairs, their proposals alone, the bits (one per in-context rule, in rule-set order)
# of the in-context rules whose text gate (newsclean.cleaners.rules.base.in_context) lets them
# propose something on this text, and the text's word count (Line.n_words: given to every line of
# that text, counted in the batch's columnar first look where the text is ASCII). Text-only rules that
# need one of their start patterns (newsclean.cleaners.rules.base.starts_with) are tried only where one
# anchored alternation of all those patterns matches; RE2 first rules out most lines at a tenth of
# that alternation's cost (newsclean.cleaners.rules.prefilter, a superset of it, built on first use).
_Entry = tuple[tuple[tuple[int, Proposal], ...], tuple[Proposal, ...], int, int]
_Plan = tuple[tuple[tuple[int, Rule], ...], tuple[tuple[int, Proposal], ...], tuple[tuple[int, Rule], ...], int]
_BY_TEXT_MAX = 200_000
# Equal entries share one tuple (Proposals are frozen; most lines get the same few proposals):
# fewer objects for the garbage collector to walk. Bounded; cleared when full.
_SHARED: dict[_Entry, _Entry] = {}
_SHARED_MAX = 20_000
# A columnar pass over the rules' conditions costs a few milliseconds however few the texts: fewer
# new texts than this (one document's) are looked at one by one instead.
CONDITIONS_MIN_TEXTS = 512


class _Proposer:
    def __init__(self, rules: tuple[Rule, ...]):
        self.rules = rules
        self.text_only = tuple((i, r) for i, r in enumerate(rules) if not getattr(r, "needs_context", False))
        self.start_patterns = [pat for _, r in self.text_only for pat in getattr(r, "start_patterns", ())]
        self.start_union = start_union(self.start_patterns)
        self._prefilter: Prefilter | None = None
        self.text_only_unstarted = tuple((i, r) for i, r in self.text_only if not getattr(r, "start_patterns", ()))
        self.in_context = tuple((i, r) for i, r in enumerate(rules) if getattr(r, "needs_context", False))
        # each in-context rule's bit in an entry's gate bits, and those of the rules that declare no
        # candidates (newsclean.cleaners.rules.base.in_context): asked wherever their gate holds
        self.in_context_bits = tuple(1 << b for b in range(len(self.in_context)))
        self.gate_only_bits = sum(bit for bit, (_, r) in zip(self.in_context_bits, self.in_context)
                                  if getattr(r, "candidates", None) is None)
        self._bit_of = {id(r): bit for bit, (_, r) in zip(self.in_context_bits, self.in_context)}
        # the rules with a declared condition (newsclean.cleaners.rules.base.when), one bit each, and by
        # (started, bits of the conditions that hold) the text-only rules to call on a text and the
        # in-context rules whose text gate to ask
        self.conditioned = tuple(r for r in rules if getattr(r, "condition", None) is not None)
        if len(self.conditioned) > 62:
            raise ValueError("at most 62 rules of a set may declare a condition (one bit each)")
        # the rules whose condition decides them on an ASCII text (newsclean.cleaners.rules.base.when:
        # a text-only rule's one proposal, an in-context rule's text gate)
        self.decided = {id(r): r.proposes for _, r in self.text_only if getattr(r, "proposes", None) is not None}
        self.exact_gates = {id(r) for _, r in self.in_context if getattr(r, "exact_gate", False)}
        self._to_ask: dict[tuple[bool, int | None, bool], _Plan] = {}
        self.by_text: dict[str, _Entry] = {}

    @property
    def prefilter(self) -> Prefilter:
        """The RE2 prefilter of the start patterns, built on first use (~0.1 CPU-s)."""
        if self._prefilter is None:
            self._prefilter = Prefilter(self.start_patterns)
        return self._prefilter

    def started(self, text: str) -> bool:
        """Whether one of the start patterns matches `text` (start_union, behind its prefilter)."""
        return self.prefilter.may_match(text) and self.start_union.search(text) is not None

    def _to_ask_of(self, started: bool, holds: int | None, ascii_text: bool = False) -> "_Plan":
        """What the first look at a text must still do, and what it already knows: (the text-only
        rules to call, the (position, proposal) pairs of those its condition decides, the in-context
        rules whose text gate to ask as (their bit, rule), the bits of the in-context rules to ask
        in context without a gate to ask). The rules are those its start patterns allow (`started`),
        less the conditioned ones whose condition does not hold (`holds`: a bit per
        self.conditioned; None: not evaluated, ask them all). Where the conditions were evaluated on
        an ASCII text (`ascii_text`), a rule whose condition decides it is not called there: its
        proposal, or its gate's answer, is the condition's (newsclean.cleaners.rules.base.when)."""
        key = (started, holds, ascii_text and holds is not None)
        found = self._to_ask.get(key)
        if found is None:
            decided = self.decided if key[2] else {}
            exact_gates = self.exact_gates if key[2] else set()
            text_only = self.text_only if started else self.text_only_unstarted
            off = set() if holds is None else {id(r) for k, r in enumerate(self.conditioned) if not holds >> k & 1}
            asked = [(self._bit_of[id(r)], r) for _, r in self.in_context if id(r) not in off]
            found = self._to_ask[key] = (
                tuple((i, r) for i, r in text_only if id(r) not in off and id(r) not in decided),
                tuple((i, decided[id(r)]) for i, r in text_only if id(r) not in off and id(r) in decided),
                tuple((bit, r) for bit, r in asked if r.text_gate is not None and id(r) not in exact_gates),
                sum(bit for bit, r in asked if r.text_gate is None or id(r) in exact_gates))
        return found

    def prime(self, texts: Iterable[str]) -> None:
        """The first look at many new texts at once, as __call__ would take it one text at a time:
        the rules' declared conditions are evaluated over all of them in one columnar pass
        (newsclean.cleaners.engine.rule_conditions), and each text-only rule is called only on the texts
        where its condition holds. Text-only rules read nothing but the text, so each text is
        looked at as a line of its own."""
        new = [t for t in dict.fromkeys(texts) if t and t not in self.by_text]
        if not new:
            return
        holds: list[int | None] = [None] * len(new)
        n_words: list[int | None] = holds
        if len(new) >= CONDITIONS_MIN_TEXTS:
            from newsclean.cleaners.engine.rule_conditions import first_look

            holds, n_words, n_function = first_look(new, [r.condition for r in self.conditioned])
            # the decision's prose test asks for the words of every line that ends a sentence, in
            # every pass (shape.is_sentence_like): the same pass counts them for the ASCII ones
            remember_ascii_prose(new, n_words, n_function)
        if len(self.by_text) + len(new) > _BY_TEXT_MAX:
            self.by_text.clear()
        by_text, started = self.by_text, self.started
        for text, bits, count in zip(new, holds, n_words):
            call, decided, gates, gated = self._to_ask_of(started(text), bits, count is not None)
            if not call and not gates:  # the columnar pass decided every rule on this text
                n = count if count is not None else len(words(text))
                by_text[text] = _shared((decided, tuple([p for _, p in decided]), gated, n))
                continue
            line = Line(0, 0, text)
            if count is not None:
                line.__dict__["n_words"] = count  # counted in the columnar pass (Line.n_words' value)
            by_text[text] = self._entry(line, Doc([line]), (call, decided, gates, gated))

    def _entry(self, line: Line, doc: Doc, plan: "_Plan | None" = None) -> _Entry:
        """The entry of a text: its plan (_to_ask_of; without one, every rule its start patterns allow
        is called), the rules to call called on its line."""
        call, decided, gates, gated = plan if plan is not None else self._to_ask_of(self.started(line.text), None)
        called = [(i, p) for i, rule in call if (p := rule(line, doc)) is not None]
        found = _flat(sorted(decided + tuple(called), key=_POSITION) if decided and called else called or list(decided))
        gated += sum(bit for bit, rule in gates if rule.text_gate(line))
        return _shared((found, tuple([p for _, p in found]), gated, line.n_words))

    def _cached_entry(self, line: Line, doc: Doc) -> _Entry:
        """The entry of a text not seen yet (or forgotten), stored."""
        if len(self.by_text) >= _BY_TEXT_MAX:
            self.by_text.clear()
        entry = self.by_text[line.text] = self._entry(line, doc)
        return entry

    def document(self, doc: Doc) -> list[tuple[Proposal, ...]]:
        """Every rule's proposals for each line of `doc`, in rule-set order: the text-only ones from
        the cache by text; each in-context rule called once per line where it may propose, its
        candidates (newsclean.cleaners.rules.base.in_context: one look at the whole document) whose
        text gate holds, or, without candidates, every line whose gate holds."""
        get, lines = self.by_text.get, doc.lines
        entries = [get(line.text) or self._cached_entry(line, doc) for line in lines]
        for line, entry in zip(lines, entries):
            line.__dict__["n_words"] = entry[3]  # the text's word count, known since its first look
        proposals = [entry[1] for entry in entries]
        gated = 0
        for entry in entries:
            gated |= entry[2]
        if not gated:
            return proposals
        found: dict[int, list[tuple[int, Proposal]]] = {}  # line index -> the in-context rules' (position, proposal)
        gate_only = None  # the lines where the gate of a rule without candidates holds
        for bit, (i, rule) in zip(self.in_context_bits, self.in_context):
            if not gated & bit:
                continue
            if rule.candidates is not None:
                indexes = rule.candidates(doc)
            else:
                if gate_only is None:
                    gate_only = [k for k, entry in enumerate(entries) if entry[2] & self.gate_only_bits]
                indexes = gate_only
            for k in indexes:
                if entries[k][2] & bit and (p := rule(lines[k], doc)) is not None:
                    found.setdefault(k, []).extend(_flat([(i, p)]))
        for k, pairs in found.items():
            proposals[k] = tuple([p for _, p in sorted(entries[k][0] + tuple(pairs), key=_POSITION)])
        return proposals

    def __call__(self, line: Line, doc: Doc) -> list[Proposal]:
        """The proposals for one line of `doc` (self.document, computed once per document)."""
        key = f"proposals {id(self)}"
        memo = doc.__dict__.get(key)
        if memo is None or memo[0] is not self:
            memo = doc.__dict__[key] = (self, self.document(doc))
        return list(memo[1][line.index])


_POSITION = itemgetter(0)


def _flat(found: list[tuple[int, "Proposal | tuple[Proposal, ...]"]]) -> tuple[tuple[int, Proposal], ...]:
    """(position, proposal) pairs, a rule's several cuts of one line (a tuple) each a pair."""
    if all(type(p) is not tuple for _, p in found):
        return tuple(found)
    return tuple((i, q) for i, p in found for q in (p if type(p) is tuple else (p,)))


def _shared(entry: _Entry) -> _Entry:
    """The one stored tuple equal to `entry` (_SHARED)."""
    if len(_SHARED) >= _SHARED_MAX:
        _SHARED.clear()
    return _SHARED.setdefault(entry, entry)


_DEFAULT = _Proposer(RULES)
# the default rule set's tables, by the names tests/test_rules_speed.py checks them under
_BY_TEXT, _TEXT_ONLY, _START_UNION, _IN_CONTEXT = _DEFAULT.by_text, _DEFAULT.text_only, _DEFAULT.start_union, _DEFAULT.in_context
_PROPOSERS: dict[int, _Proposer] = {}  # by id of a rule set other than RULES (the proposer keeps it alive)


def propose_document(doc: Doc, rules: tuple[Rule, ...] = RULES) -> list[tuple[Proposal, ...]]:
    """Every rule's proposals for each line of `doc`, in the order of `rules` (the first strong one
    names the kind). `rules`: RULES, or a subset in the same order (the HTML path's), each cached
    alike. (Tuples: a line's proposals may be the cache's own.)"""
    return _proposer(rules).document(doc)


def propose(line: Line, doc: Doc, rules: tuple[Rule, ...] = RULES) -> list[Proposal]:
    """Every rule's proposal for one line of `doc`, as propose_document gives them (it runs once
    per document and rule set: the document keeps its answer)."""
    return _proposer(rules)(line, doc)


def _proposer(rules: tuple[Rule, ...]) -> _Proposer:
    """The cached proposer of a rule set."""
    if rules is RULES:
        return _DEFAULT
    proposer = _PROPOSERS.get(id(rules))
    if proposer is None or proposer.rules is not rules:
        if len(_PROPOSERS) >= 16:  # rule sets made per call would pile up: start again
            _PROPOSERS.clear()
        proposer = _PROPOSERS[id(rules)] = _Proposer(rules)
    return proposer


def prime(texts: Iterable[str], rules: tuple[Rule, ...] = RULES) -> None:
    """Take the rules' first look at a batch's new texts at once (_Proposer.prime), so that propose
    finds them cached: the same proposals, with each rule's declared condition evaluated over all
    the texts in one pass instead of the rule being called on each."""
    _proposer(rules).prime(texts)


def clear_caches() -> None:
    """Forget every text seen (benchmarks that must see each page as new, as a corpus does)."""
    for proposer in (_DEFAULT, *_PROPOSERS.values()):
        proposer.by_text.clear()
    _SHARED.clear()
    related.clear_caches()
    byline.byline_parts.cache_clear()


def propose_plain(line: Line, doc: Doc, rules: tuple[Rule, ...] = RULES) -> list[Proposal]:
    """The reference form of propose: every rule called on the line, no cache, no gate."""
    found = [(0, p) for rule in rules if (p := rule(line, doc)) is not None]
    return [p for _, p in _flat(found)]


__all__ = ["RULES", "Doc", "Line", "Proposal", "Rule", "clear_caches", "in_context", "prime", "propose", "propose_document", "propose_plain", "when"]
