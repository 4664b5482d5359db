"""Small, realistic article texts and pages for the reader and metadata tests."""
from __future__ import annotations

PARAGRAPHS = [
    "The city council voted on Tuesday to expand the bus network to three new districts, a plan that officials say will cut commuting times for thousands of residents.",
    "Supporters of the plan argued that the new routes would help workers who currently spend more than an hour travelling to their jobs in the city centre.",
    "Opponents said the council had not explained how it would pay for the extra drivers, and warned that fares could rise next year if the budget falls short.",
    "The mayor said the first of the new routes would open in the spring, and that the council would publish a full timetable before the end of the month.",
]
BODY = "\n\n".join(PARAGRAPHS)


def page(title: str = "Council votes to expand the city bus network", *, head: str = "", body_extra: str = "",
         paragraphs: list[str] | None = None, charset: str | None = "utf-8") -> str:
    """A small but complete article page: menu, headline, body paragraphs, footer."""
    paras = "\n".join(f"<p>{p}</p>" for p in (paragraphs or PARAGRAPHS))
    meta = f'<meta charset="{charset}">' if charset else ""
    return f"""<!DOCTYPE html>
<html lang="en"><head>{meta}<title>{title} | Example Gazette</title>
<meta property="og:site_name" content="Example Gazette">{head}</head>
<body>
<nav><ul><li><a href="/">Home</a></li><li><a href="/news">News</a></li><li><a href="/sport">Sport</a></li></ul></nav>
<article>
<h1>{title}</h1>
{paras}
{body_extra}
</article>
<footer><p>Contact us</p><p>Privacy policy</p></footer>
</body></html>"""
