"""Encoded data saved as text (newsclean.cleaners.rules.encoded_data): base64 blobs, data URIs, hex dumps and
image file names go; CJK prose, web addresses, code and long words in prose stay. A document that is
only encoded data is quarantined with a reason that says so."""
from __future__ import annotations

import base64
import random

import pytest

from newsclean.cleaners.pipeline import clean_document
from newsclean.cleaners.rules.encoded_data import encoded_data, is_encoded_data
from newsclean.cleaners.settings import Settings
from newsclean.cleaners.types import DocumentError, RawDocument
from tests.ruletools import alone, kind_of, survives

_RNG = random.Random(7)
BLOB = base64.b64encode(bytes(_RNG.randrange(256) for _ in range(3000))).decode()
WRAPPED = [BLOB[i:i + 76] for i in range(0, 1520, 76)]  # MIME wraps base64 at 76 characters


@pytest.mark.parametrize("line", [
    BLOB[:400],
    WRAPPED[0],
    "data:image/png;base64," + BLOB[:600],
    "3f9a" * 30,
    "northern-lights-in-iceland-when-amp-where-to-see-the-aurora-22.jpg",
    "Olafur_Eliasson_at_Marshall_House_Reykjavik_121880.jpg",
    "src " + BLOB[:200],
])
def test_encoded_data_lines_go(line):
    assert alone(encoded_data, line) is not None
    assert kind_of(line) == "boilerplate"


@pytest.mark.parametrize("line", [
    # CJK prose writes whole sentences without a space
    "市议会周二投票决定扩大公交网络，新增十二条线路，覆盖城市东部和北部的多个社区，官员表示这项计划将在明年春季开始实施。",
    # a long web address is the writer's link
    "https://issuu.com/creativesforclimate/docs/ethical_agency_handbook_for_agencies/10",
    "👉https://issuu.com/creativesforclimate/docs/ethical_agency_handbook_for_agencies/10",
    "www.example.org/news/2024/05/council-votes-to-expand-the-downtown-bus-network-after-debate",
    # code a technical article quotes
    "builder.Services.ConfigureHttpClientDefaults(builder =>",
    "<TargetFrameworks>net6.0;net8.0;net9.0;net10.0</TargetFrameworks>",
    # a long word, or one run, inside prose
    "The Rinderkennzeichnungsfleischetikettierungsueberwachungsaufgabenuebertragungsgesetz was repealed in 2013 after years.",
    "The checksum of the release, " + "ab12" * 13 + ", was published on the project's site on Monday morning.",
])
def test_look_alikes_are_not_encoded_data(line):
    assert not is_encoded_data(line)
    assert alone(encoded_data, line) is None


def test_prose_with_a_run_in_it_survives_in_an_article():
    line = "The checksum of the release, " + "ab12" * 13 + ", was published on the project's site on Monday morning."
    assert survives(line)


def _clean(text: str):
    return clean_document(RawDocument(source="x.txt", data=text.encode("utf-8"), format="text"), Settings())


@pytest.mark.parametrize("text", [BLOB, "\n".join(WRAPPED), "\n\n".join(WRAPPED)], ids=["one run", "wrapped", "paragraphs"])
def test_a_document_of_encoded_data_is_quarantined_saying_so(text):
    with pytest.raises(DocumentError) as info:
        _clean(text)
    assert info.value.stage == "decide"
    assert "encoded data" in info.value.reason and "check the file" in info.value.reason, info.value.reason


def test_an_article_keeps_its_prose_around_a_blob():
    from tests.ruletools import BODY
    doc = _clean("\n\n".join([BODY[0], BLOB, BODY[1], BODY[2]]))
    assert doc.text.split("\n\n") == BODY
    assert [s.by for s in doc.removed if s.text == BLOB] == ["encoded_data"]


def test_white_space_alone_is_not_encoded_data():
    assert not is_encoded_data(" " * 200) and not is_encoded_data("\n\n" * 60)
