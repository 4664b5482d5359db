"""Decide until nothing more is removed, so that cleaning clean text changes nothing.

One decision pass judges every line in its context. Removing debris changes that context (a
dateline that followed a "Watch LIVE" line is now the first line), so a second pass over the
pass's own output can find more to remove. `decide_stable` re-runs the decision on the lines that
survived (removed lines blanked, cut lines replaced by what was left of them, every line keeping
its raw line number) until a pass removes nothing. The final pass therefore saw exactly the lines
of the output (title first, then the paragraphs), which is what cleaning `title + "\\n\\n" + text`
sees: the cleaner is idempotent by construction.

Spans found in later passes are mapped back to offsets in the original normalised line, so every
removed row still points at exactly its text: a cut inside a line that was already cut is mapped
through the kept pieces; a cut that touches an earlier one is merged with it; a later pass that
removes what was left of a cut line turns the line's spans into one whole-line removal.

Every pass decides under the same policy (newsclean.cleaners.policy). On a given body (the HTML path's) the
stable decision is the search whose removals the policy then filters (newsclean.cleaners.decide.
keep_given_body_steps): the passes see every removal of the passes before, as they do on text.
"""
from __future__ import annotations

from operator import attrgetter
from typing import Callable, Sequence

from newsclean.cleaners.decide import Decision, decide_steps, keep_given_body_steps, text_left_mapped
from newsclean.cleaners.engine.scoring import Steps, run_steps
from newsclean.cleaners.policy import TEXT, Policy
from newsclean.cleaners.settings import Settings
from newsclean.cleaners.types import Span

# A bound on the passes, against a pathological page that gives up one line per pass. A page that
# reaches it is not idempotent: on the dev pages (both renderings, 922) a pass count above 4 is
# rare, but two menu-heavy pages needed 9 and 11.
MAX_PASSES = 16



def decide_stable(lines: Sequence[str], settings: Settings, **kwargs) -> Decision:
    """decide_stable_steps with the line model scored on the spot."""
    return run_steps(decide_stable_steps(lines, settings, **kwargs))


def decide_stable_steps(lines: Sequence[str], settings: Settings, *, policy: Policy = TEXT,
                        decide_fn: Callable[..., Decision] | None = None, **kwargs) -> Steps[Decision]:
    """`decide` repeated on its own output until a pass removes nothing (see the module docstring),
    as steps (newsclean.cleaners.engine.scoring): each pass yields its request for the line model.
    `policy`: what the decider may do (the text path's by default; on a given body the policy has
    the final say, newsclean.cleaners.decide.keep_given_body_steps). `decide_fn`, when given, is a plain function that
    decides a pass in place of decide_steps."""
    passes = _passes_steps(lines, settings, policy, decide_fn, kwargs)
    if policy.searches_body:
        return (yield from passes)
    return (yield from keep_given_body_steps(lines, passes, policy))


def _passes_steps(lines: Sequence[str], settings: Settings, policy: Policy,
                  decide_fn: Callable[..., Decision] | None, kwargs: dict) -> Steps[Decision]:
    """The passes of decide_stable_steps, to the stable decision."""
    original = list(lines)
    current = list(lines)
    # current char -> original offset, per line; a line not cut yet maps to itself (range(len)),
    # made only when a span needs it (most lines are never cut)
    offsets: dict[int, Sequence[int]] = {}
    spans: dict[int, list[Span]] = {}  # line number -> spans in original coordinates
    removed: set[int] = set()  # numbers of the non-empty lines that earlier passes emptied
    decision: Decision | None = None
    for _ in range(MAX_PASSES):
        extra = dict(kwargs, policy=policy)
        if removed:
            extra["removed_before"] = frozenset(removed)
        if decide_fn is not None:
            decision = decide_fn(current, settings, **extra)
        else:
            decision = yield from decide_steps(current, settings, **extra)
        if not decision.spans:
            break
        cuts: dict[int, list[tuple[int, int]]] = {}
        for sp in decision.spans:
            n = sp.line
            full = original[n - 1]
            if sp.whole_line or (sp.start == 0 and sp.end == len(current[n - 1])):
                if n in spans:  # what was left of a cut line goes too: the whole line is removed
                    sp = Span(n, 0, len(full), sp.kind, full, sp.by, whole_line=True)
                elif current[n - 1] != full:
                    sp = Span(n, 0, len(full), sp.kind, full, sp.by, whole_line=True)
                spans[n] = [sp]
                current[n - 1] = ""
                removed.add(n)
                offsets[n - 1] = []
                continue
            cuts.setdefault(n, []).append((sp.start, sp.end))
            m = offsets.get(n - 1)
            if m is None:
                m = offsets[n - 1] = range(len(original[n - 1]))
            s, e = m[sp.start], m[sp.end - 1] + 1
            merged = [o for o in spans.get(n, []) if o.end > s and o.start < e]
            if merged:
                s, e = min([s] + [o.start for o in merged]), max([e] + [o.end for o in merged])
            keep = [o for o in spans.get(n, []) if o not in merged]
            spans[n] = keep + [Span(n, s, e, sp.kind, full[s:e], sp.by, whole_line=(s == 0 and e == len(full)))]
        for n, cs in cuts.items():
            if not current[n - 1]:
                continue
            current[n - 1], offsets[n - 1] = text_left_mapped(current[n - 1], offsets[n - 1], cs)  # set above
            if not current[n - 1]:
                removed.add(n)
        if cuts:
            kept_text = {ln.number: t for ln, t in decision.kept}
            if any(kept_text.get(n, current[n - 1]) != current[n - 1] for n in cuts if current[n - 1]):
                break  # decide's residual differs from ours: stop rather than mis-map offsets
    assert decision is not None
    all_spans = sorted((s for ss in spans.values() for s in ss), key=attrgetter("line", "start"))
    # A line whose every character was cut in the last pass carries no text: it is not kept.
    return Decision(decision.title, [(ln, t) for ln, t in decision.kept if t], all_spans)
