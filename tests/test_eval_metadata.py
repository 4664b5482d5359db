"""The metadata part of `newsclean eval`: publication date and author against the dev pages'."""
from newsclean.cleaners.model.evaluate import clean_page
from newsclean.cleaners.model.score import metadata_score
from newsclean.cleaners.settings import Settings

PAGES = [{"id": "a", "published": "2023-09-01", "author": "Jane Roe and John Doe"},
         {"id": "b", "published": "2024-01-05T10:00:00", "author": "Ann Lee"},
         {"id": "c", "published": None, "author": None}]


def test_exact_and_wrong_dates_and_authors_are_told_apart():
    preds = {"a": {"published": "2023-09-01", "author": "Jane Roe; John Doe"},
             "b": {"published": "2024-02-05", "author": None},
             "c": {"published": "2020-01-01", "author": "Someone Else"}}  # no gold: not counted
    s = metadata_score(PAGES, preds)
    assert (s["dated"], s["date_exact"], s["date_wrong"]) == (2, 0.5, 0.5)
    assert (s["authored"], s["author_exact"], s["author_wrong"]) == (2, 0.5, 0.0)


def test_clean_page_reports_the_date_and_author_it_read():
    text = "\n\n".join(["Council backs bigger bus network", "By Jane Roe on September 9, 2021",
                       "The city council voted on Tuesday to expand the downtown bus network after months of debate over costs.",
                       "Council members said the new routes would serve neighbourhoods that have gone without reliable service for years."])
    from newsclean.cleaners.model import LineModel

    out = clean_page({"id": "x", "text": text}, LineModel.default(), None, "pipeline", Settings())
    assert (out["published"], out["author"]) == ("2021-09-09", "Jane Roe")


def test_without_url_the_eval_cleans_the_text_alone(monkeypatch):
    from newsclean.cleaners.model import evaluate

    seen = []
    monkeypatch.setattr(evaluate, "clean_page", lambda page, *rest: seen.append(page.get("url")) or {})
    page = {"id": "x", "text": "Some text.", "url": "https://news.example.com/2021/09/09/council-bus-network"}
    evaluate.run([page], None, None, "pipeline", Settings())
    evaluate.run([page], None, None, "pipeline", Settings(), use_url=False)
    assert seen == [page["url"], None]


def test_eval_cleans_the_rendering_it_is_asked_for(tmp_path):
    # `--rendering text_inscriptis` scores the same pages as another scraper rendered them; the
    # written predictions come from that rendering
    import gzip
    import json

    from newsclean.cleaners.model import evaluate

    body = ["The city council voted on Tuesday to expand the downtown bus network after months of debate over costs.",
            "Council members said the new routes would serve neighbourhoods that have gone without reliable service for years."]
    other = ["Inscriptis kept this paragraph about the new routes, which serve the neighbourhoods in the east of the city.",
             "The second paragraph says that the buses will run every ten minutes from the first of March onwards."]
    page = {"id": "p1", "url": None, "title": "Council backs bigger bus network", "published": None, "author": None,
            "text": "\n\n".join(["Home", "News", "Council backs bigger bus network", *body, "Contact us"]),
            "text_inscriptis": "\n\n".join(["Home News", "Council backs bigger bus network", *other, "Contact us"]),
            "truth": "\n\n".join(body)}
    with gzip.open(tmp_path / "pages.jsonl.gz", "wt", encoding="utf-8") as f:
        f.write(json.dumps(page) + "\n")
    for rendering, expected in (("text", body), ("text_inscriptis", other)):
        pred = tmp_path / f"{rendering}.jsonl"
        evaluate.main(["--devset", str(tmp_path), "--pred", str(pred), "--rendering", rendering,
                       "--no-snippet-eval", "--no-kind-b-eval"])
        assert json.loads(pred.read_text(encoding="utf-8"))["text"] == "\n\n".join(expected)
