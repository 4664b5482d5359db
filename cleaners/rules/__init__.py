"""The rule set: one module per debris kind. Order matters only to break ties on one line:
the first strong whole-line proposal names the kind."""
from cleaners.rules import call_to_action, caption, consent, dateline, glued, navigation, related, signature, tag_list
from cleaners.rules.base import Doc, Line, Proposal, Rule

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

__all__ = ["RULES", "Doc", "Line", "Proposal", "Rule"]
