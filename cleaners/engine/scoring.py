"""Cleaning as steps, so that a batch's documents meet the line model together.

A document's cleaning (newsclean.cleaners.pipeline.clean_document_steps, down to newsclean.cleaners.decide.decide_steps)
is a generator that yields a request where work is cheaper done for many documents at once, and is
sent back the answer:

- a LinesRequest (a text to split into normalised lines): the scans normalisation makes of every
  line (newsclean.cleaners.lines.line_forms_many), run over the lines of the whole batch at once; alone,
  the text is normalised line by line as before (the same lines);
- a RulesRequest (its normalised lines, before the first decision pass): the rules' first look at
  new lines (newsclean.cleaners.rules.prime), each rule's declared condition evaluated over the lines of the
  whole batch in one columnar pass;
- a ScoreRequest (the model, the document's non-empty lines, their corpus context), each time a
  decision pass needs the line model: P(debris) per line and the headline;
- a KindRequest (a page-kind model's name, the page's features), when the text path judges what
  kind of page a text is (newsclean.cleaners.page_kind): P(not an article) and the likeliest kind.

The cleaning logic is written once, and whoever drives it chooses how requests are answered:

- run_steps drives one document and answers each request on the spot;
- run_batch drives many documents in lock step: all the requests of one round (the first pass of
  every document, then the second pass of those that removed something, ...) are answered
  together, the model's in one LineModel.analyse_many call, so the features and the trees run over
  one table of the batch's lines instead of once per document and pass.

Both give each document the same answers, so the same output.
"""
from __future__ import annotations

from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Generator, Sequence, TypeVar

from newsclean.cleaners.timelimit import DocumentTimeout

if TYPE_CHECKING:
    from newsclean.cleaners.corpus import DocContext
    from newsclean.cleaners.model import LineModel

T = TypeVar("T")
# a cleaning step generator: yields requests (LinesRequest, RulesRequest, ScoreRequest, KindRequest), is sent their answers, returns T
Steps = Generator["ScoreRequest", Any, T]


@dataclass
class ScoreRequest:
    model: "LineModel"
    texts: list[str]  # the document's non-empty lines in this pass
    context: "DocContext | None"
    page: bool = False  # also answer the page's rows for its page-kind features (with_page_rows)

    def answer_alone(self):
        """(P(debris) per line, headline index or None): this request scored alone."""
        if self.page:
            return self.model.analyse_many([self.texts], [self.context], pages=[True])[0]
        return self.model.analyse(self.texts, self.context)

    def group_key(self):
        return ScoreRequest, id(self.model)

    @staticmethod
    def answer_together(requests: "list[ScoreRequest]") -> list:
        model, docs, contexts = requests[0].model, [r.texts for r in requests], [r.context for r in requests]
        pages = [r.page for r in requests]
        return model.analyse_many(docs, contexts, pages=pages) if any(pages) else model.analyse_many(docs, contexts)


@dataclass
class KindRequest:
    name: str  # the page-kind model (newsclean.cleaners.page_kind.TEXT_MODEL)
    features: tuple[float, ...]

    def answer_alone(self) -> tuple[float, str]:
        from newsclean.cleaners.page_kind import page_kinds

        return page_kinds([self.features], self.name)[0]

    def group_key(self):
        return KindRequest, self.name

    @staticmethod
    def answer_together(requests: "list[KindRequest]") -> list:
        from newsclean.cleaners.page_kind import page_kinds

        return page_kinds([r.features for r in requests], requests[0].name)


def with_page_rows(steps: Steps[T], into: list) -> Steps[T]:
    """`steps` whose first ScoreRequest (the first decision pass: every non-empty line of the page)
    also asks for the page's rows for its page-kind features (newsclean.cleaners.text_page_features.
    page_rows), which are appended to `into`; the steps themselves are sent the usual answer.
    Nothing is appended when no line model scores."""
    asked = False
    try:
        request = next(steps)
        while True:
            if isinstance(request, ScoreRequest) and not asked:
                request.page = asked = True
                answer = yield request
                if len(answer) > 2:
                    into.append(answer[2])
                    answer = answer[:2]
            else:
                answer = yield request
            request = steps.send(answer)
    except StopIteration as done:
        return done.value


@dataclass
class LinesRequest:
    text: str
    keep_curly_quotes: bool

    def answer_alone(self) -> None:
        """No forms: normalise_lines scans the text's lines one by one (cheaper for one text)."""
        return None

    def group_key(self):
        return LinesRequest, self.keep_curly_quotes

    @staticmethod
    def answer_together(requests: "list[LinesRequest]") -> list:
        from newsclean.cleaners.lines import line_forms_many

        return line_forms_many([r.text for r in requests], requests[0].keep_curly_quotes)


@dataclass
class RulesRequest:
    rules: tuple  # the rule set that will propose (newsclean.cleaners.rules.RULES or a subset)
    texts: list[str]  # the document's lines

    def answer_alone(self) -> None:
        from newsclean.cleaners.rules import prime

        prime(self.texts, self.rules)

    def group_key(self):
        return RulesRequest, id(self.rules)

    @staticmethod
    def answer_together(requests: "list[RulesRequest]") -> list:
        from newsclean.cleaners.rules import prime

        prime([t for r in requests for t in r.texts], requests[0].rules)
        return [None] * len(requests)


def run_steps(steps: Steps[T]) -> T:
    """Drive one document's steps, answering each request at once; returns what the steps return."""
    try:
        request = next(steps)
        while True:
            request = steps.send(request.answer_alone())
    except StopIteration as done:
        return done.value


def run_batch(all_steps: Sequence[Steps[T]],
              around: Callable[[int], AbstractContextManager] | None = None) -> list[T | BaseException]:
    """Drive every document's steps in lock step, answering each round's requests of one kind (and
    one model, one rule set) together. `around(i)`, if given, is entered around each step of
    document i (its time limit, its corpus context). Returns per document what its steps returned, or the exception (an Exception
    or DocumentTimeout) that ended them: one document's failure never stops the others."""
    results: list[Any] = [None] * len(all_steps)
    waiting: dict[int, ScoreRequest | RulesRequest | LinesRequest] = {}

    def advance(i: int, scores) -> None:
        try:
            with around(i) if around is not None else nullcontext():
                request = all_steps[i].send(scores)  # send(None) starts a generator
        except StopIteration as done:
            results[i] = done.value
        except (Exception, DocumentTimeout) as exc:
            results[i] = exc
        else:
            waiting[i] = request

    for i in range(len(all_steps)):
        advance(i, None)
    while waiting:
        round_, waiting = waiting, {}
        groups: dict[tuple, list[int]] = {}
        for i, request in round_.items():
            groups.setdefault(request.group_key(), []).append(i)
        for members in groups.values():
            try:
                answers = round_[members[0]].answer_together([round_[i] for i in members])
            except Exception:  # one document's lines broke the batch call: answer each alone
                answers = [None] * len(members)
                for k, i in enumerate(members):
                    try:
                        answers[k] = round_[i].answer_alone()
                    except Exception as exc:
                        results[i] = exc
                        all_steps[i].close()
                        members[k] = -1
            for i, answer in zip(members, answers):
                if i >= 0:
                    advance(i, answer)
    return results
