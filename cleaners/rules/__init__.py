"""The rule set: one module per debris kind. Order matters only to break ties on one line:
the first strong whole-line proposal names the kind."""
from cleaners.rules import call_to_action, caption, consent, dateline, glued, navigation, related, signature, tag_list
from cleaners.rules.base import Doc, Line, Proposal, Rule, in_context, start_union

RULES: tuple[Rule, ...] = (
    dateline.leading_dateline,
    dateline.date_stamp,
    related.link_prefix,
    related.related_header,
    related.under_related_header,
    tag_list.tag_prefix,
    signature.signed_by_outlet,
    signature.copyright_line,
    signature.bare_domain,
    navigation.comments_header,
    call_to_action.reader_engagement,
    consent.cookie_consent,
    caption.end_credit,
    caption.lead_credit,
    caption.glued_credit,
    glued.glued_debris,
    caption.credit_line,
    caption.alt_text,
    caption.caption_sentence,
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
# footers in every document. Keyed by text; each entry holds the text-only rules' (position in
# RULES, proposal) pairs, their proposals alone, and the in-context rules (position, rule) whose
# text gate (cleaners.rules.base.in_context) lets them propose something on this text.
_TEXT_ONLY = tuple((i, r) for i, r in enumerate(RULES) if not getattr(r, "needs_context", False))
# Text-only rules that need one of their start patterns (cleaners.rules.base.starts_with): one
# anchored alternation of all those patterns is tried per text, and where it fails they are skipped.
_START_UNION = start_union([pat for _, r in _TEXT_ONLY for pat in getattr(r, "start_patterns", ())])
_TEXT_ONLY_UNSTARTED = tuple((i, r) for i, r in _TEXT_ONLY if not getattr(r, "start_patterns", ()))
_IN_CONTEXT = tuple((i, r) for i, r in enumerate(RULES) if getattr(r, "needs_context", False))
_Entry = tuple[tuple[tuple[int, Proposal], ...], tuple[Proposal, ...], tuple[tuple[int, Rule], ...]]
_BY_TEXT: dict[str, _Entry] = {}
_BY_TEXT_MAX = 200_000
# Equal entries of _BY_TEXT share one tuple (Proposals are frozen; most lines get the same few
# proposals): fewer objects for the garbage collector to walk. Bounded; cleared when full.
_SHARED: dict[_Entry, _Entry] = {}
_SHARED_MAX = 20_000


def _entry(line: Line, doc: Doc) -> _Entry:
    rules = _TEXT_ONLY if _START_UNION.search(line.text) else _TEXT_ONLY_UNSTARTED
    found = tuple([(i, p) for i, rule in rules if (p := rule(line, doc)) is not None])
    gated = tuple([(i, rule) for i, rule in _IN_CONTEXT if rule.text_gate is None or rule.text_gate(line)])
    entry = (found, tuple([p for _, p in found]), gated)
    if len(_SHARED) >= _SHARED_MAX:
        _SHARED.clear()
    return _SHARED.setdefault(entry, entry)


def propose(line: Line, doc: Doc, rules: tuple[Rule, ...] = RULES) -> list[Proposal]:
    """Every rule's proposal for one line, in RULES order (the first strong one names the kind).
    `rules`: a subset of RULES in the same order, evaluated as given (not cached)."""
    if rules is not RULES:
        return [p for rule in rules if (p := rule(line, doc)) is not None]
    entry = _BY_TEXT.get(line.text)
    if entry is None:
        if len(_BY_TEXT) >= _BY_TEXT_MAX:
            _BY_TEXT.clear()
        entry = _BY_TEXT[line.text] = _entry(line, doc)
    found, props, gated = entry
    if gated:
        in_context = [(i, p) for i, rule in gated if (p := rule(line, doc)) is not None]
        if in_context:
            return [p for _, p in sorted(found + tuple(in_context), key=lambda ip: ip[0])]
    return list(props)


def propose_plain(line: Line, doc: Doc, rules: tuple[Rule, ...] = RULES) -> list[Proposal]:
    """The reference form of propose: every rule called on the line, no cache, no gate."""
    return [p for rule in rules if (p := rule(line, doc)) is not None]


__all__ = ["RULES", "Doc", "Line", "Proposal", "Rule", "in_context", "propose", "propose_plain"]
