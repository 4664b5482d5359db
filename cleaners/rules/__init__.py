"""The rule set: one module per debris kind. Order matters only to break ties on one line:
the first strong whole-line proposal names the kind."""
from cleaners.rules import call_to_action, caption, consent, dateline, glued, navigation, related, signature, tag_list
from cleaners.rules.base import Doc, Line, Proposal, Rule, in_context

RULES: tuple[Rule, ...] = (
    dateline.leading_dateline,
    dateline.date_stamp,
    related.link_prefix,
    tag_list.tag_prefix,
    signature.signed_by_outlet,
    signature.copyright_line,
    signature.bare_domain,
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
# footers in every document. Keyed by text; each entry holds (position in RULES, proposal).
_TEXT_ONLY = tuple((i, r) for i, r in enumerate(RULES) if not getattr(r, "needs_context", False))
_IN_CONTEXT = tuple((i, r) for i, r in enumerate(RULES) if getattr(r, "needs_context", False))
_BY_TEXT: dict[str, tuple[tuple[int, Proposal], ...]] = {}
_BY_TEXT_MAX = 200_000
# Equal entries of _BY_TEXT share one tuple (Proposals are frozen; most lines get the same few
# proposals): fewer objects for the garbage collector to walk. Bounded; cleared when full.
_SHARED: dict[tuple[tuple[int, Proposal], ...], tuple[tuple[int, Proposal], ...]] = {}
_SHARED_MAX = 20_000


def propose(line: Line, doc: Doc, rules: tuple[Rule, ...] = RULES) -> list[Proposal]:
    """Every rule's proposal for one line, in RULES order (the first strong one names the kind).
    `rules`: a subset of RULES in the same order, evaluated as given (not cached)."""
    if rules is not RULES:
        return [p for rule in rules if (p := rule(line, doc)) is not None]
    found = _BY_TEXT.get(line.text)
    if found is None:
        if len(_BY_TEXT) >= _BY_TEXT_MAX:
            _BY_TEXT.clear()
        found = tuple([(i, p) for i, rule in _TEXT_ONLY if (p := rule(line, doc)) is not None])
        if found:
            if len(_SHARED) >= _SHARED_MAX:
                _SHARED.clear()
            found = _SHARED.setdefault(found, found)
        _BY_TEXT[line.text] = found
    in_context = [(i, p) for i, rule in _IN_CONTEXT if (p := rule(line, doc)) is not None]
    if not in_context:
        return [p for _, p in found]
    return [p for _, p in sorted(found + tuple(in_context), key=lambda ip: ip[0])]


__all__ = ["RULES", "Doc", "Line", "Proposal", "Rule", "in_context", "propose"]
