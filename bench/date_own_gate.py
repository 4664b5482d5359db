"""Where the date ranker without htmldate's pick may answer alone: its answers against the full
model's on pages neither model was trained on.

    .venv/bin/python bench/date_own_gate.py [--gates 0.5,0.6,0.7,0.8,0.9,0.95]

The two packaged rankers (newsclean.cleaners.metadata.date_ranker) were trained on the 461 dev
article pages; here they read trafilatura's 990 evaluation pages and the 934 non-article pages
(no date labels), each parsed as extract_html parses it, without a URL. For each gate (the
`own_decides_at` of date_ranker.own_decides): the share of pages the own model answers alone
(htmldate not run) and on how many of them its answer differs from the full model's (htmldate's
pick among the candidates). train_date_ranker.OWN_GATE_LOWEST rests on this table.
"""
from __future__ import annotations

import argparse
import gzip
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from newsclean.cleaners.shared_data import devset_dir, require_devset  # noqa: E402

SETS = ("trafilatura-pages.jsonl.gz", "other-pages.jsonl.gz")


def page_answers(devset: Path):
    """(set, own days, own scores, the full model's pick) for every readable page of SETS."""
    import newsclean.cleaners.extract_html as eh
    from newsclean.cleaners.metadata import date_ranker as dr

    rankers = dr._model()
    for name in SETS:
        with gzip.open(devset / name, "rt", encoding="utf-8") as fh:
            for line in fh:
                p = json.loads(line)
                with gzip.open(devset / p["html"], "rb") as page:
                    html, _ = eh.decode_html(page.read(), None)
                tree = eh.parse_html(eh.repair_source_mojibake(html))
                if tree is None:
                    continue
                doc = eh.page_metadata(tree, None)
                own = dr.date_candidates(tree, doc.url)
                days, rows = dr.day_features(own)
                full_days, full_rows = dr.day_features(dr.with_htmldate(own, doc.date))
                yield (name, days, dr.score_days(rows, rankers.own),
                       dr.choose(full_days, dr.score_days(full_rows), rankers.threshold))


def main(argv: list[str] | None = None) -> dict:
    from newsclean.cleaners.metadata import date_ranker as dr

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--devset", type=Path, default=None)
    ap.add_argument("--gates", default="0.5,0.6,0.7,0.8,0.9,0.95")
    a = ap.parse_args(argv)
    devset = require_devset(a.devset or devset_dir())
    answers = list(page_answers(devset))
    out: dict = {"pages": {name: sum(x[0] == name for x in answers) for name in SETS}, "gates": {}}
    for gate in (float(g) for g in a.gates.split(",")):
        row = {}
        for name in SETS:
            decided = [(dr.own_decides(days, scores, gate), full) for n, days, scores, full in answers if n == name]
            alone = [(own, full) for own, full in decided if own is not None]
            row[name] = {"own_answers": round(len(alone) / max(len(decided), 1), 3),
                         "differs_from_full": sum(own != full for own, full in alone)}
        out["gates"][gate] = row
        print(f"gate {gate:.2f}: " + "; ".join(f"{name.split('.')[0]}: own answers {r['own_answers']:.1%}, "
                                               f"differs on {r['differs_from_full']}" for name, r in row.items()))
    return out


if __name__ == "__main__":
    main()
