"""E-mail files (`.eml`): a newsletter or a story someone mailed, one document each.

Read as plain text, an e-mail's headers ("From: …", "Subject: …", "Content-Type: …") are lines of
the document and its body may be quoted-printable or base64. Python's `email` package reads the
message as a mail client does: the body is the text/plain part (the sender's own plain rendering)
or else the text/html part (the HTML path), decoded with its charset; the Subject is the title and
the Date the publication date, as a record's fields (they win over what the text suggests).
"""
from __future__ import annotations

import email
import email.policy
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import BinaryIO, Iterator

from newsclean.cleaners.readers.source import read_whole
from newsclean.cleaners.settings import Settings
from newsclean.cleaners.types import DocumentError, RawDocument


def read(path: Path, source: str, stream: BinaryIO, settings: Settings) -> Iterator[RawDocument | DocumentError]:
    data = read_whole(stream, settings.max_bytes)  # the file is one document
    try:
        msg = email.message_from_bytes(data, policy=email.policy.default)
        part = msg.get_body(preferencelist=("plain", "html"))
        content = part.get_content() if part is not None else None
    except Exception as exc:  # a header or a part the email package cannot decode
        yield DocumentError("read", f"the e-mail could not be read ({type(exc).__name__}: {exc}); "
                                    "check the file is a whole .eml message")
        return
    if not isinstance(content, str) or not content.strip():
        yield DocumentError("read", "the e-mail has no text or HTML body; check the file is the message, "
                                    "not only its headers or an attachment")
        return
    meta: dict = {}
    if msg["subject"]:
        meta["title"] = str(msg["subject"])
    try:
        if msg["date"]:
            meta["published"] = parsedate_to_datetime(str(msg["date"]))
    except (TypeError, ValueError):
        pass  # an unreadable Date header: the date is left to the text
    fmt = "html" if part.get_content_subtype() == "html" else "text"
    yield RawDocument(source=source, data=data, format=fmt, text=content, meta=meta)
