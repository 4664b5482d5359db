"""The packaged outlet registry (cleaners/metadata/outlets.csv) and its user extension."""
from __future__ import annotations

import csv
from importlib import resources

import pytest

from newsclean.cleaners.metadata.outlets import registrable_domain
from newsclean.cleaners.metadata.registry import load_registry


@pytest.fixture(scope="module")
def rows():
    with resources.files("newsclean.cleaners.metadata").joinpath("outlets.csv").open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def test_at_least_300_outlets_with_name_domain_aliases(rows):
    assert len(rows) >= 300
    assert set(rows[0]) == {"name", "domain", "aliases"}
    assert all(r["name"].strip() and r["domain"].strip() for r in rows)
    names = [r["name"] for r in rows]
    domains = [r["domain"] for r in rows]
    assert len(set(names)) == len(names), "one row per outlet name"
    assert len(set(domains)) == len(domains), "one row per domain"


def test_every_domain_is_a_real_host_under_a_public_suffix(rows):
    for r in rows:
        d = r["domain"]
        assert d == d.lower().strip() and "/" not in d and " " not in d, d
        reg = registrable_domain(d)
        assert reg is not None and (d == reg or d.endswith("." + reg)), d


def test_domains_and_aliases_map_to_one_canonical_name(rows):
    reg = load_registry()
    for r in rows:
        assert reg.by_domain(r["domain"]).name == r["name"]
        assert reg.by_domain("www." + r["domain"]).name == r["name"]
        assert reg.by_alias(r["name"]).name == r["name"]
    assert reg.by_alias("nytimes.com").name == "The New York Times"
    assert reg.by_alias("the guardian").name == "The Guardian"
    assert reg.by_domain("edition.cnn.com").name == "CNN"
    assert reg.by_domain("feeds.bbci.example") is None


def test_aliases_are_unambiguous(rows):
    owner: dict[str, str] = {r["name"].lower(): r["name"] for r in rows}
    for r in rows:
        for alias in [a for a in r["aliases"].split("|") if a] + [r["domain"]]:
            key = alias.strip().lower()
            assert owner.setdefault(key, r["name"]) == r["name"], f"{alias!r} names both {owner[key]} and {r['name']}"


def test_find_in_debris_text():
    reg = load_registry()
    assert reg.find_in("Feb 24, 2018 (Reuters) -").name == "Reuters"
    assert reg.find_in("More on FoxNews.com.").name == "Fox News"
    assert reg.find_in("Copyright 2018 The Washington Post").name == "The Washington Post"
    # a one-word name that is also an ordinary word needs a publisher context
    assert reg.find_in("Updated Time: 10:32 AM") is None
    assert reg.find_in("Read more on Slate").name == "Slate"
    assert reg.find_in("(Time) -").name == "Time"


@pytest.mark.parametrize("text", ["Copyright 2024 Nexstar Media Inc. All rights reserved.", "© 2024 Gannett Co., Inc."])
def test_a_company_s_legal_form_is_not_the_magazine_inc(text):
    assert load_registry().find_in(text) is None


def test_the_magazine_inc_named_on_its_own():
    assert load_registry().find_in("Read more at Inc.").name == "Inc."


def test_users_extend_the_registry_and_their_rows_win(tmp_path, monkeypatch):
    extra = tmp_path / "mine.csv"
    extra.write_text("name,domain,aliases\nThe Village Voice Online,villagevoice.com,VV\nCNN International,cnn.com,\n", encoding="utf-8")
    load_registry.cache_clear()
    try:
        reg = load_registry(str(extra))
        assert reg.by_domain("villagevoice.com").name == "The Village Voice Online"
        assert reg.by_alias("VV").name == "The Village Voice Online"
        assert reg.by_domain("cnn.com").name == "CNN International"
        assert len(reg.outlets) >= 302
        monkeypatch.setenv("NEWSCLEAN_OUTLETS", str(extra))
        assert load_registry().by_alias("vv").domain == "villagevoice.com"
    finally:
        load_registry.cache_clear()


def test_a_copyright_year_before_a_one_word_outlet_names_it():
    assert load_registry().find_in("Copyright © 2024 Yahoo. All rights reserved.").name == "Yahoo"
