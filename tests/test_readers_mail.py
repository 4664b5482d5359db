"""E-mail files (.eml, newsclean.cleaners.readers.mail): the body part decoded, Subject and Date as metadata."""
from __future__ import annotations

import datetime as dt
from email.message import EmailMessage

from newsclean.cleaners.batch import clean_sources
from newsclean.cleaners.readers import read_source, reader_for
from newsclean.cleaners.readers.mail import read as read_mail
from newsclean.cleaners.settings import Settings
from newsclean.cleaners.types import DocumentError
from tests.articles import BODY, page


def _message(plain: str | None = BODY, html: str | None = None, subject: str = "Café council votes — buses") -> bytes:
    msg = EmailMessage()
    msg["From"] = "Example Gazette <newsletter@example.org>"
    msg["To"] = "reader@example.com"
    msg["Subject"] = subject  # non-ASCII: written as an encoded word
    msg["Date"] = "Tue, 05 Mar 2024 10:00:00 +0000"
    if plain is not None:
        msg.set_content(plain + "\n\nUnsubscribe | Manage preferences\n", cte="quoted-printable")
    if html is not None:
        if plain is None:
            msg.set_content(html, subtype="html")
        else:
            msg.add_alternative(html, subtype="html")
    return bytes(msg)


def test_a_newsletter_is_its_plain_part_with_subject_and_date(tmp_path):
    (tmp_path / "issue.eml").write_bytes(_message(html=page()))
    assert reader_for("issue.eml") is read_mail
    out = clean_sources(tmp_path, ["issue.eml"], Settings())
    (article,) = out.articles
    assert article["title"] == "Café council votes — buses"  # the encoded Subject, decoded
    assert article["published"] == dt.date(2024, 3, 5) and article["published_source"] == "record"
    assert article["text"] == BODY  # quoted-printable decoded; the footer removed as debris
    assert "Subject:" not in article["text"] and "Content-Type" not in article["text"]


def test_an_html_only_message_goes_the_html_path(tmp_path):
    (tmp_path / "issue.eml").write_bytes(_message(plain=None, html=page()))
    (raw,) = list(read_source(tmp_path, "issue.eml", Settings()))
    assert raw.format == "html"
    out = clean_sources(tmp_path, ["issue.eml"], Settings())
    assert out.articles[0]["text"].startswith("The city council voted")


def test_a_message_without_a_body_is_quarantined_with_a_reason(tmp_path):
    msg = EmailMessage()
    msg["Subject"] = "Photos"
    msg.add_attachment(b"\x89PNG\r\n", maintype="image", subtype="png", filename="a.png")
    (tmp_path / "photos.eml").write_bytes(bytes(msg))
    (item,) = list(read_source(tmp_path, "photos.eml", Settings()))
    assert isinstance(item, DocumentError) and "no text or HTML body" in item.reason
