"""Long debris paragraphs inserted into held-out dev bodies: how many the cleaner keeps.

    .venv/bin/python bench/probe_long_debris.py [TAG]

TAG names saved CV2 fold models under bench/out/cv/ (`bench/cv_folds.py TAG train`, or the
per-seed ones `bench/cv_seeds.py s14 --train` makes; default s14-s20261121).

Each paragraph below is the kind of prose-like debris a scraper saves inside an article body
(a newsletter pitch, an affiliate disclosure, a cookie notice, an author bio, a comment policy, a
donation appeal, an advice disclaimer, an app promotion, a request for tips), written for this
probe. Each goes into 4 held-out dev bodies at each of three places (after the first paragraph, in
the middle, at the end), and the page is cleaned with the fold model that did not train on it.
Prints how many insertions were kept per place. The paragraphs were written together with the
rules that now catch them (newsclean.cleaners.rules.site_notice), so this is a regression check, not a
held-out score.
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from newsclean.cleaners.model import LineModel, using  # noqa: E402
from newsclean.cleaners.model import train as tr  # noqa: E402
from newsclean.cleaners.model.evaluate import fold_of  # noqa: E402
from newsclean.cleaners.pipeline import clean_text  # noqa: E402
from newsclean.cleaners.settings import Settings  # noqa: E402
from newsclean.cleaners.types import DocumentError  # noqa: E402

DEBRIS = [
    "Sign up for our free daily newsletter to get the most important stories of the day delivered straight to your inbox every morning, along with exclusive analysis from our reporters and special offers from our partners that you will not find anywhere else.",
    "This article contains affiliate links, which means that we may receive a small commission at no extra cost to you if you make a purchase through one of them, and this helps us keep our reviews independent and free for all of our readers around the world.",
    "We use cookies and similar technologies on our website to improve your experience, analyse traffic and personalise content and ads, and by continuing to browse this site you agree to our use of cookies as described in our privacy policy, which you can change at any time.",
    "Jane Miller is a senior correspondent who has covered politics and the economy for more than fifteen years, and before joining the newsroom she worked as a reporter for several regional papers in the Midwest, where she won two state awards for her investigative work.",
    "Comments are moderated and will appear after they have been approved by our editors, so please keep the discussion civil and on topic, avoid personal attacks and offensive language, and remember that we reserve the right to remove any comment that breaks these simple rules.",
    "If you enjoyed reading this story, please consider supporting our independent journalism with a monthly donation of any size, because every contribution helps us pay our reporters, keep our articles free of paywalls and stay accountable only to our readers and not to advertisers.",
    "The information provided in this article is for general informational purposes only and does not constitute legal, financial or medical advice, and you should always consult a qualified professional before making any decisions based on the content you have read on this website.",
    "Our editors independently research, test and recommend the best products, and if you buy something through our links we may earn a commission, but our recommendations are never influenced by the companies whose products we review, and prices are accurate at the time of publishing.",
    "Download our free mobile app for the fastest way to follow breaking news, live updates and in-depth coverage on your phone, with personalised alerts for the topics you care about most and an ad-free reading mode for all of our subscribers and members.",
    "Have a story idea or a news tip that you think we should look into? Our team of reporters would love to hear from you, so send us an email with as much detail as you can share, and we promise to read every message that reaches our newsroom inbox.",
]
PLACES = ("first", "middle", "end")
REPEATS = 4


def main(argv: list[str]) -> int:
    tag = argv[0] if argv else "s14-s20261121"
    pages = tr.load_jsonl(tr.DEVSET / "pages.jsonl.gz")
    # pages with a body of several paragraphs and a title, in a fixed order
    good = sorted((p for p in pages if p.get("title") and sum(len(x.split()) > 12 for x in p["truth"].split("\n")) >= 6),
                  key=lambda p: p["id"])
    by_fold = {k: [p for p in good if fold_of(p, 2) == k] for k in (0, 1)}
    models = {k: LineModel.load(ROOT / "bench" / "out" / "cv" / tag / f"fold{k}") for k in (0, 1)}
    kept = {place: 0 for place in PLACES}
    kept_lines = {}
    for i, debris in enumerate(DEBRIS):
        for rep in range(REPEATS):
            for j, place in enumerate(PLACES):
                k = (i + rep) % 2
                page = by_fold[k][(i * 12 + rep * 3 + j) % len(by_fold[k])]
                paras = [x.strip() for x in page["truth"].split("\n") if x.strip()]
                at = {"first": 1, "middle": len(paras) // 2, "end": len(paras)}[place]
                text = "\n\n".join([page["title"], *paras[:at], debris, *paras[at:]])
                with using(models[k], None):
                    try:
                        out = clean_text(text, Settings()).text
                    except DocumentError:
                        out = ""
                if debris in out.split("\n\n"):
                    kept[place] += 1
                    kept_lines[debris[:60]] = kept_lines.get(debris[:60], 0) + 1
    n = len(DEBRIS) * REPEATS
    print(f"{tag}: kept " + ", ".join(f"{place} {kept[place]}/{n}" for place in PLACES))
    for line, count in sorted(kept_lines.items(), key=lambda x: -x[1]):
        print(f"  {count:3d}  {line}…")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
