"""What each decision pass costs: the first pass, and the later ones that prove the output a fixed point.

    .venv/bin/python bench/decide_passes.py [--pages 461] [--lockstep 32] [--devset PAGES]

Cleans the dev pages' full-page text in lock step groups (newsclean.cleaners.pipeline.clean_texts,
as a batch cleans them) after newsclean.cleaners.model.warm_up, once to warm the process and once
timed with every per-text cache emptied (new pages), and prints per pass number (newsclean.cleaners.fixpoint): the
pages that reached it, the non-empty lines it decided, the CPU seconds of the decision itself
(newsclean.cleaners.decide.decide_steps, the rules' proposals included, and of it those proposals,
newsclean.cleaners.rules.propose_document: the rest is the decision's own work, what a decision over
arrays would replace) and of the line model's answers to its requests (a lock step round holds one
pass of every page), and what share of the whole those later passes take.
"""
from __future__ import annotations

import argparse
import gzip
import json
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

sys.path.insert(0, str(ROOT / "bench"))

from html_speed import clear_library_caches  # noqa: E402
from newsclean.cleaners import decide, fixpoint  # noqa: E402
from newsclean.cleaners.engine import scoring  # noqa: E402
from newsclean.cleaners.model import warm_up  # noqa: E402
from newsclean.cleaners.pipeline import clean_texts  # noqa: E402
from newsclean.cleaners.settings import Settings  # noqa: E402
from newsclean.cleaners.shared_data import devset_dir  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pages", type=int, default=461)
    ap.add_argument("--lockstep", type=int, default=32)
    ap.add_argument("--devset", type=Path, default=devset_dir() / "pages.jsonl.gz")
    a = ap.parse_args()
    texts = [json.loads(line)["text"] for line in gzip.open(a.devset, "rt")][:a.pages]
    warm_up()

    pages, lines, decide_cpu, model_cpu, propose_cpu = Counter(), Counter(), Counter(), Counter(), Counter()
    pass_of_page: Counter = Counter()  # a page's lines list is the same object in each of its passes
    pass_of_request: dict[int, int] = {}
    decide_steps, answer_together = decide.decide_steps, scoring.ScoreRequest.answer_together
    propose_document = decide.propose_document
    current_pass = [0]

    def timed_propose_document(*args, **kwargs):
        started = time.process_time()
        try:
            return propose_document(*args, **kwargs)
        finally:
            propose_cpu[current_pass[0]] += time.process_time() - started

    def timed_decide_steps(current, settings, **kwargs):
        pass_of_page[id(current)] += 1
        k = pass_of_page[id(current)]
        pages[k] += 1
        lines[k] += sum(1 for t in current if t)
        steps, answer = decide_steps(current, settings, **kwargs), None
        while True:
            current_pass[0] = k
            started = time.process_time()
            try:
                request = steps.send(answer)
            except StopIteration as done:
                decide_cpu[k] += time.process_time() - started
                return done.value
            decide_cpu[k] += time.process_time() - started
            pass_of_request[id(request)] = k
            answer = yield request

    def timed_answer_together(requests):
        started = time.process_time()
        answers = answer_together(requests)
        model_cpu[pass_of_request.get(id(requests[0]), 0)] += time.process_time() - started
        return answers

    fixpoint.decide_steps = timed_decide_steps
    decide.propose_document = timed_propose_document
    scoring.ScoreRequest.answer_together = staticmethod(timed_answer_together)
    settings = Settings()

    def run() -> None:
        for i in range(0, len(texts), a.lockstep):
            clean_texts(texts[i:i + a.lockstep], settings)
            pass_of_page.clear()
            pass_of_request.clear()

    run()
    clear_library_caches()  # new pages, as a corpus brings them: the rules' and shape's per-text memos emptied
    for counter in (pages, lines, decide_cpu, model_cpu, propose_cpu):
        counter.clear()
    started = time.process_time()
    run()
    total = time.process_time() - started
    print(f"{len(texts)} pages, lock step {a.lockstep}: {total:.2f} CPU s in all")
    print("pass  pages   lines  decide CPU s  of it proposals  model CPU s")
    for k in sorted(pages):
        print(f"{k:>4} {pages[k]:>6} {lines[k]:>7} {decide_cpu[k]:>13.2f} {propose_cpu[k]:>16.2f} {model_cpu[k]:>12.2f}")
    later = sum(decide_cpu[k] + model_cpu[k] for k in pages if k > 1)
    print(f"passes after the first: {later:.2f} CPU s, {100 * later / total:.0f}% of the whole")
    own = sum(decide_cpu.values()) - sum(propose_cpu.values())
    print(f"the decision's own work (every pass, the proposals left out): {own:.2f} CPU s, "
          f"{100 * own / total:.0f}% of the whole, {1000 * own / len(texts):.2f} ms a page")


if __name__ == "__main__":
    main()
