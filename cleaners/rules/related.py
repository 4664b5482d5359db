"""Related headlines: "RELATED:" links and teaser headlines of other stories."""
from __future__ import annotations

import re

from cleaners import shape
from cleaners.rules.base import Doc, Line, Proposal, whole_line, starts_with

_PREFIX = re.compile(
    r"""^(?:related(?:\ (?:articles?|stories|story|coverage|content|links?|reading|news))?
        | read\ (?:more|also|next|this)(?:\ from\ [\w .]+)? | also\ read | see\ also | also\ see | more\ (?:on|from|about)\ [\w .'’]+
        | recommended(?:\ for\ you)? | you\ (?:may|might)\ also\ (?:like|be\ interested\ in) | more\ stories | more
        | watch | listen | up\ next | next | previously | trending | editor'?s\ picks? | top\ stories | latest
    )(?:\s*[:|»>]+|\s+[–—-]+)\s*\S""",
    re.IGNORECASE | re.VERBOSE,
)


@starts_with(_PREFIX)
def link_prefix(line: Line, doc: Doc) -> Proposal | None:
    """ "RELATED: …", "Read more: …", "See also: …"."""
    if line.n_words <= 40 and _PREFIX.search(line.text):
        return whole_line("related_headline", "link_prefix")
    return None


def headline_shape(line: Line, doc: Doc) -> Proposal | None:
    """Weak: a headline-shaped line. Outside the body, it is a teaser for another story."""
    if line.n_words >= 5 and shape.is_headline_shaped(line.text):
        return whole_line("related_headline", "headline_shape", strong=False)
    return None
