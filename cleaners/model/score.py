"""The development-set metric, identical to shared/tools/score-devset: bag-of-tokens precision,
recall and F1 per page (NFKC, lower case, Unicode punctuation and symbols deleted, split on white
space; overlap = multiset intersection), `leak` (share of a page's labelled boilerplate snippets of
3+ tokens, not inside the truth, still found in the output), plus title exact match (lower case,
punctuation and spaces folded).

`snippet_score` is the metric of trafilatura's own evaluation, for pages labelled with snippets
(shared/devset/trafilatura-pages.jsonl.gz): a `with` snippet found in the output is a true
positive, one missing a false negative; a `without` snippet found is a false positive."""
from __future__ import annotations

from collections import Counter

from newsclean.cleaners.model.labels import fold_title, tokens


def prf(pred: list[str], true: list[str]) -> tuple[float, float, float]:
    if not pred or not true:
        return (0.0, 0.0, 0.0) if true else ((1.0, 1.0, 1.0) if not pred else (0.0, 1.0, 0.0))
    ov = sum((Counter(pred) & Counter(true)).values())
    p, r = ov / len(pred), ov / len(true)
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def leak(pred: list[str], true: list[str], snippets: list[str]) -> float | None:
    hay, truth = " " + " ".join(pred) + " ", " " + " ".join(true) + " "
    snips = [" " + " ".join(s) + " " for s in map(tokens, snippets)]
    snips = [s for s in snips if len(s.split()) >= 3 and s not in truth]
    return sum(s in hay for s in snips) / len(snips) if snips else None


def score(pages: list[dict], preds: dict[str, dict]) -> dict:
    """preds: id -> {"text": ..., "title": ...}. Macro averages over `pages`."""
    rows = []
    for page in pages:
        pr = preds.get(page["id"], {})
        pt, tt = tokens(pr.get("text", "")), tokens(page["truth"])
        p, r, f = prf(pt, tt)
        rows.append({"P": p, "R": r, "F1": f, "missing": page["id"] not in preds,
                     "leak": leak(pt, tt, page.get("boilerplate_snippets") or []),
                     "title": fold_title(pr.get("title")) == fold_title(page.get("title"))})
    n = max(len(rows), 1)
    leaks = [x["leak"] for x in rows if x["leak"] is not None]
    return {"pages": len(rows), "missing": sum(x["missing"] for x in rows),
            "F1<0.5": sum(x["F1"] < 0.5 for x in rows),
            "P": sum(x["P"] for x in rows) / n, "R": sum(x["R"] for x in rows) / n,
            "leak": sum(leaks) / len(leaks) if leaks else 0.0, "F1": sum(x["F1"] for x in rows) / n,
            "title": sum(x["title"] for x in rows) / n}


def metadata_score(pages: list[dict], preds: dict[str, dict]) -> dict:
    """preds: id -> {"published": "YYYY-MM-DD" or None, "author": ...}. The publication date
    against the pages' `published` (day exact; `date_wrong`: a date given that is not the page's,
    worse for a corpus than none), the author against `author` (case folded; several authors
    compared as written, "; " against the page's own separators)."""
    def fold(name):
        return " ".join(str(name).replace(";", ",").replace(" and ", ", ").lower().split())

    dated = [(p, preds.get(p["id"], {})) for p in pages if p.get("published")]
    right = sum(str(pr.get("published") or "")[:10] == str(p["published"])[:10] for p, pr in dated)
    given = sum(bool(pr.get("published")) for _, pr in dated)
    authored = [(p, preds.get(p["id"], {})) for p in pages if p.get("author")]
    a_right = sum(bool(pr.get("author")) and fold(pr["author"]) == fold(p["author"]) for p, pr in authored)
    a_given = sum(bool(pr.get("author")) for _, pr in authored)
    return {"dated": len(dated), "date_exact": right / max(len(dated), 1), "date_wrong": (given - right) / max(len(dated), 1),
            "authored": len(authored), "author_exact": a_right / max(len(authored), 1),
            "author_wrong": (a_given - a_right) / max(len(authored), 1)}


def snippet_score(pages: list[dict], preds: dict[str, dict]) -> dict:
    """preds: id -> {"text": ...}. Counts over every snippet of 2+ tokens of `pages`, matched on
    the scorer's tokens; `empty` is the number of pages with no output text."""
    tp = fn = fp = tn = empty = 0
    for page in pages:
        out = " " + " ".join(tokens(preds.get(page["id"], {}).get("text", ""))) + " "
        empty += not out.strip()
        for snippets, positive in ((page.get("with") or [], True), (page.get("without") or [], False)):
            for snip in snippets:
                key = " ".join(tokens(snip))
                if len(key.split()) < 2:
                    continue
                found = f" {key} " in out
                if positive:
                    tp, fn = tp + found, fn + (not found)
                else:
                    fp, tn = fp + found, tn + (not found)
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    return {"pages": len(pages), "empty": empty, "P": p, "R": r, "F1": 2 * p * r / (p + r) if p + r else 0.0,
            "accuracy": (tp + tn) / max(tp + fn + fp + tn, 1), "tp": tp, "fn": fn, "fp": fp, "tn": tn}


def page_languages(pages: list[dict]) -> list[str]:
    """The language of each snippet page, read from its `with` snippets (the page's own content, the
    same whatever the cleaner keeps): an ISO 639-1 code, or "none"; the pages' texts scored together."""
    from newsclean.cleaners.language import identify_many

    texts = [" ".join(page.get("with") or []) for page in pages]
    codes = identify_many(texts)
    return [(code or "none") if text.strip() else "none" for text, (code, _) in zip(texts, codes)]


def snippet_score_by_language(pages: list[dict], preds: dict[str, dict], languages: list[str] | None = None) -> dict:
    """snippet_score per language of the pages (page_languages, or `languages` in the pages' order),
    most pages first, and the two shares the cleaner must hold alike in every language: `R` (the
    `with` snippets kept) and `let_through` (the `without` snippets found in the output, fp / (fp +
    tn)). `english_gap`: English's R minus the other pages' R together, and their let_through minus
    English's (positive: worse outside English)."""
    languages = languages if languages is not None else page_languages(pages)
    groups: dict[str, list[dict]] = {}
    for page, lang in zip(pages, languages):
        groups.setdefault(lang, []).append(page)

    def shares(group: list[dict]) -> dict:
        s = snippet_score(group, preds)
        return {"pages": s["pages"], "R": s["R"], "let_through": s["fp"] / max(s["fp"] + s["tn"], 1),
                "with": s["tp"] + s["fn"], "without": s["fp"] + s["tn"]}

    by = {lang: shares(g) for lang, g in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0]))}
    english = shares(groups.get("en", []))
    other = shares([p for p, lang in zip(pages, languages) if lang != "en"])
    return {"by_language": by, "english": english, "not_english": other,
            "english_gap": {"R": english["R"] - other["R"], "let_through": other["let_through"] - english["let_through"]}}


def kind_b_score(cases: list[tuple[list[str], list[int], int | None]], outputs: list[dict]) -> dict:
    """Mostly clean texts with inserted debris (kind b). cases: (lines, labels 1 = debris,
    headline index or None) per text; outputs: {"text", "title"} per text. Token P/R/F1 of the
    output against the body lines (macro), the share of inserted debris lines kept whole, the share
    of body lines not kept whole, and the headline's exact match where the text has one."""
    rows, kept_debris, n_debris, lost_body, n_body, title_hits, n_titles = [], 0, 0, 0, 0, 0, 0
    for (lines, y, title), out in zip(cases, outputs):
        body = [s for s, d in zip(lines, y) if not d]
        rows.append(prf(tokens(out.get("text", "")), tokens("\n".join(body))))
        kept = set(out.get("text", "").split("\n\n"))
        debris = [s for i, (s, d) in enumerate(zip(lines, y)) if d and i != title]
        kept_debris += sum(s in kept for s in debris)
        n_debris += len(debris)
        lost_body += sum(s not in kept for s in body)
        n_body += len(body)
        if title is not None:
            n_titles += 1
            title_hits += fold_title(out.get("title") or "") == fold_title(lines[title])
    n = max(len(rows), 1)
    return {"texts": len(rows), "P": sum(r[0] for r in rows) / n, "R": sum(r[1] for r in rows) / n,
            "F1": sum(r[2] for r in rows) / n, "debris_kept": kept_debris / max(n_debris, 1),
            "body_lost": lost_body / max(n_body, 1), "title": title_hits / max(n_titles, 1),
            "n_debris": n_debris, "n_body": n_body, "n_titles": n_titles}
