"""The metadata part of `newsclean eval`: publication date and author against the dev pages'."""
from cleaners.model.evaluate import clean_page
from cleaners.model.score import metadata_score
from cleaners.settings import Settings

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
    from cleaners.model import LineModel

    out = clean_page({"id": "x", "text": text}, LineModel.default(), None, "pipeline", Settings())
    assert (out["published"], out["author"]) == ("2021-09-09", "Jane Roe")


def test_without_url_the_eval_cleans_the_text_alone(monkeypatch):
    from cleaners.model import evaluate

    seen = []
    monkeypatch.setattr(evaluate, "clean_page", lambda page, *rest: seen.append(page.get("url")) or {})
    page = {"id": "x", "text": "Some text.", "url": "https://news.example.com/2021/09/09/council-bus-network"}
    evaluate.run([page], None, None, "pipeline", Settings())
    evaluate.run([page], None, None, "pipeline", Settings(), use_url=False)
    assert seen == [page["url"], None]
