"""Calls to action: the page speaking to the reader ("What do you think?", "Have a tip? Send it to us!")."""
from __future__ import annotations

import re

from cleaners.rules.base import Doc, Line, Proposal, whole_line, starts_with

# Reader-engagement openings. Each addresses the reader (you/your/us/our) or asks them to act.
_OPENINGS = re.compile(
    r"""^(?:
        what\ do\ you\ think | what\ are\ your\ thoughts | tell\ us | let\ us\ know | share\ your
      | leave\ a\ comment | join\ the\ (?:conversation|discussion|debate) | comment\ below | sound\ off
      | (?:have|got)\ a\ (?:news\ )?tip | send\ (?:it|us|your|them)\b | e-?mail\ us | contact\ us | write\ to\ us
      | sign\ up | subscribe\ (?:to|for|now|today|here) | get\ (?:our|the)\ [\w\s]{0,30}newsletter
      | (?:please\ )?follow\ us | like\ us\ on | find\ us\ on | connect\ with\ us | stay\ (?:connected|updated|informed)
      | share\ (?:this|on)\b | click\ (?:here|to) | tap\ (?:here|to) | download\ (?:our|the)\ [\w\s]{0,20}app
      | don'?t\ miss | support\ (?:our|independent|local) | become\ a\ (?:member|subscriber|supporter) | donate\ (?:now|today)
      | we\ want\ to\ hear | we'?d\ love\ to\ hear | do\ you\ have\ (?:a\ story|information|news) | want\ more
      | to\ (?:receive|get)\ [\w\s]{0,30}(?:newsletter|alerts|updates) | enter\ your\ e-?mail
    )""",
    re.IGNORECASE | re.VERBOSE,
)


@starts_with(_OPENINGS)
def reader_engagement(line: Line, doc: Doc) -> Proposal | None:
    if line.n_words <= 25 and _OPENINGS.search(line.text):
        return whole_line("call_to_action", "reader_engagement")
    return None

