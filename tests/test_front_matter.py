"""Front matter (newsclean.cleaners.front_matter): a static-site post's metadata block is its metadata, not text."""
from __future__ import annotations

import datetime as dt

from newsclean.cleaners import front_matter
from newsclean.cleaners.batch import clean_sources
from newsclean.cleaners.lines import normalise_lines
from newsclean.cleaners.settings import Settings
from tests.articles import BODY

YAML_POST = """---
title: "Council votes to expand the city bus network"
date: 2024-03-05T10:00:00+01:00
authors:
  - Jane Doe
  - John Roe
tags: [transport, city]
draft: false
---

""" + BODY + "\n"

TOML_POST = """+++
title = "Council votes to expand the city bus network"
date = 2024-03-05
author = "Jane Doe"
+++
""" + BODY + "\n"


def _clean(tmp_path, name, text):
    (tmp_path / name).write_text(text, encoding="utf-8")
    out = clean_sources(tmp_path, [name], Settings())
    assert not out.quarantine, out.quarantine
    (article,) = out.articles
    return article, out.removed


def test_a_yaml_front_matter_is_the_post_s_metadata_and_not_its_text(tmp_path):
    article, removed = _clean(tmp_path, "post.md", YAML_POST)
    assert article["title"] == "Council votes to expand the city bus network"
    assert article["author"] == "Jane Doe; John Roe"
    assert article["published"] == dt.date(2024, 3, 5) and article["published_source"] == "record"
    assert article["text"] == BODY
    assert not removed  # metadata, not debris: nothing of it is listed as removed


def test_a_toml_front_matter_too(tmp_path):
    article, _ = _clean(tmp_path, "post.md", TOML_POST)
    assert (article["title"], article["author"], article["published"]) == (
        "Council votes to expand the city bus network", "Jane Doe", dt.date(2024, 3, 5))
    assert article["text"] == BODY


def test_front_matter_lines_keep_their_place():
    lines = normalise_lines(YAML_POST)
    assert lines[:10] == [""] * 10 and lines[10] == BODY.split("\n\n")[0]


def test_look_alikes_stay_text():
    # a rule, then prose, then a rule; a block that is not a mapping of page fields; no closing line
    for text in ["---\nThe council met on Tuesday.\n---\n" + BODY,
                 "---\nNote: the council met on Tuesday.\n---\n" + BODY,
                 "---\ntitle: Council votes\n" + BODY,
                 "+++\nnot toml at all\n+++\n" + BODY]:
        assert front_matter.fields(text) == {}
        assert front_matter.block_lines(text) == 0
        assert normalise_lines(text)[1] != ""


def test_a_yaml_alias_bomb_is_left_out_not_expanded(tmp_path):
    # nine levels of nine aliases each would be 9**9 strings once read: the nested value is dropped
    names = "abcdefghij"
    rows = ['a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    rows += [f"{names[i]}: &{names[i]} [" + ", ".join(["*" + names[i - 1]] * 9) + "]" for i in range(1, 9)]
    text = "---\n" + "\n".join(rows) + "\ntitle: *i\nauthor: Jane Doe\n---\n" + BODY + "\n"
    assert front_matter.fields(text) == {"author": "Jane Doe"}
    article, _ = _clean(tmp_path, "bomb.md", text)
    assert article["author"] == "Jane Doe" and article["text"] == BODY
