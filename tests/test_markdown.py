"""Markdown input (Firecrawl, Jina Reader, crawl4ai...) is cleaned as the text it renders to
(newsclean.cleaners.markdown, called by newsclean.cleaners.lines.normalise_lines)."""
import pytest

from newsclean.cleaners.lines import normalise_lines, split_lines
from newsclean.cleaners.markdown import is_markdown, plain_line
from newsclean.cleaners.pipeline import clean_text
from newsclean.cleaners.settings import Settings

ARTICLE = """[Skip to content](#main)

* [Home](https://example.com/)
* [News](https://example.com/news)
* [Sport](https://example.com/sport)

# Library keeps its Sunday hours

![The main library on a winter morning](https://example.com/img/library.jpg)

The city council voted on Tuesday to keep the [main library](https://example.com/library) open on Sundays through the winter, after a long debate about the cost of heating the old building.

Members said the extra hours would cost *less than expected* because volunteers from the friends of the library group have offered to staff the front desk.

## What happens next

A review of the budget is due in March, when the council will look again at the opening hours of **all** branch libraries.

**Related:** [Council approves new bus routes](https://example.com/bus)

[Share on Facebook](https://facebook.com/share) [Share on X](https://x.com/share)
"""

BODY = [
    "The city council voted on Tuesday to keep the main library open on Sundays through the winter, "
    "after a long debate about the cost of heating the old building.",
    "Members said the extra hours would cost less than expected because volunteers from the friends "
    "of the library group have offered to staff the front desk.",
    "What happens next",
    "A review of the budget is due in March, when the council will look again at the opening hours "
    "of all branch libraries.",
]


def test_a_markdown_article_is_cleaned_into_plain_text():
    doc = clean_text(ARTICLE, Settings())
    assert doc.title == "Library keeps its Sunday hours"
    assert doc.text == "\n\n".join(BODY)
    kinds = {r.text: r.kind for r in doc.removed}
    assert kinds["Related: Council approves new bus routes"] == "related_headline"
    assert kinds["* Home"] == "navigation"
    again = clean_text(f"{doc.title}\n\n{doc.text}", Settings())
    assert (again.title, again.text) == (doc.title, doc.text)


def test_lines_keep_their_place():
    assert len(normalise_lines(ARTICLE)) == len(split_lines(ARTICLE))


@pytest.mark.parametrize("line, text", [
    ("# Library keeps its Sunday hours", "Library keeps its Sunday hours"),
    ("### Closing notes ###", "Closing notes"),
    ("> A quote from the mayor, **verbatim**.", "A quote from the mayor, verbatim."),
    ("![A photo of the mill](https://example.com/mill.jpg)", "A photo of the mill"),
    ('See [the report](https://example.com/r.pdf "PDF") and `budget.xlsx`.', "See the report and budget.xlsx."),
    ("Prices rose 5\\* in *March* and __April__.", "Prices rose 5* in March and April."),
    ("snake_case_names stay as they are", "snake_case_names stay as they are"),
    ("---", ""),
    ("* * *", ""),
    ("```python", ""),
])
def test_plain_line(line, text):
    assert plain_line(line) == text


# Code comments and a lone bracket pair are not Markdown: such text is left as it is.
NOT_MARKDOWN = (
    "# install the package\npip install newsclean\n# run it\nnewsclean run raw clean\n",
    "The study [1](see notes) found no effect.\nA second line of plain text.\n",
    "Home\nNews\n\nThe council voted on Tuesday to keep the library open.\n",
)


@pytest.mark.parametrize("text", NOT_MARKDOWN)
def test_plain_text_is_not_markdown(text):
    assert not is_markdown(text)
    assert normalise_lines(text) == [" ".join(ln.split()) for ln in split_lines(text)]


def test_markdown_files_are_discovered_and_cleaned(tmp_path):
    from newsclean.cleaners.pipeline import clean_document
    from newsclean.cleaners.readers import discover, read_source

    (tmp_path / "page.md").write_text(ARTICLE, encoding="utf-8")
    assert discover(tmp_path)[0] == ["page.md"]
    (raw,) = read_source(tmp_path, "page.md", Settings())
    doc = clean_document(raw, Settings())
    assert doc.title == "Library keeps its Sunday hours" and doc.text == "\n\n".join(BODY)


def test_a_few_link_strings_in_a_long_page_are_not_markdown():
    """A page's text that shows a handful of unrendered links (a reference list a CMS did not
    render) is what the page shows: left as it is. The same links in a short document are Markdown."""
    refs = [f"Source {i}. Retrieved from [site{i}.org](https://www.site{i}.org)." for i in range(4)]
    page = "\n\n".join([f"Paragraph {i} of a long page about ergonomics at home." for i in range(400)] + refs)
    assert not is_markdown(page)
    assert is_markdown("\n\n".join(["A short note on ergonomics."] * 20 + refs))


def test_a_page_whose_clean_text_reads_as_markdown_is_read_as_markdown():
    """A long page with a few unrendered links is not Markdown (the test above), but once its debris
    is gone the links are a larger share of what is left, and cleaning the clean text again would
    render them: such a page is read as Markdown from the start, so cleaning is idempotent."""
    from tests.test_properties import PROSE

    menu = ["Home", "Shop", "Chairs", "Desks", "Lighting", "Accessories", "About us", "Contact", "Log in", "Cart"]
    refs = [f"{name}. Guidance on workstations. Retrieved from [{name.lower()}.org](https://www.{name.lower()}.org)."
            for name in ("Mayo", "OSHA", "NIOSH", "AOA")]
    page = ("\n".join(menu * 45) + "\n\nHow to set up a workstation at home\n\n" + "\n\n".join(PROSE[:8])
            + "\n\nReferences\n\n" + "\n\n".join(refs) + "\n")
    assert not is_markdown(page)
    doc = clean_text(page, Settings())
    assert "OSHA. Guidance on workstations. Retrieved from osha.org." in doc.text.split("\n\n") and "](" not in doc.text
    again = clean_text(f"{doc.title}\n\n{doc.text}", Settings())
    assert (again.title, again.text, again.removed) == (doc.title, doc.text, ())
