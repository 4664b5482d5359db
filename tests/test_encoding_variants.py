"""A seed saved as cp1252, as UTF-16, with CRLF or CR line ends, or mojibaked gives the same output."""
from __future__ import annotations

import ftfy.bad_codecs  # noqa: F401  registers sloppy-windows-1252
import pytest

from newsclean.cleaners.batch import clean_sources
from newsclean.cleaners.settings import Settings
from tests.conftest import SEEDS_RAW

SEEDS = sorted(p.name for p in SEEDS_RAW.glob("*.txt"))


def _variants(text: str) -> dict[str, bytes]:
    return {
        "utf8-bom": b"\xef\xbb\xbf" + text.encode("utf-8"),
        "cp1252": text.encode("cp1252"),
        "utf16-bom": text.encode("utf-16"),
        "utf16-be-bom": b"\xfe\xff" + text.encode("utf-16-be"),
        "crlf": text.replace("\n", "\r\n").encode("utf-8"),
        "cr": text.replace("\n", "\r").encode("utf-8"),
        "mojibake": text.encode("utf-8").decode("sloppy-windows-1252").encode("utf-8"),
        "nbsp-cp1252-crlf": text.replace("\n", "\r\n").encode("cp1252"),
    }


def _essence(result):
    assert result.quarantine == []
    (art,) = result.articles
    removed = sorted((r["line"], r["start"], r["end"], r["kind"], r["text"]) for r in result.removed)
    return {k: art[k] for k in ("title", "text", "outlet", "outlet_domain", "published", "published_source")}, removed


@pytest.mark.parametrize("name", SEEDS)
def test_variants_give_identical_output(tmp_path, name):
    original = (SEEDS_RAW / name).read_bytes()
    text = original.decode("utf-8")
    expected = _essence(clean_sources(SEEDS_RAW, [name], Settings()))
    for variant, data in _variants(text).items():
        (tmp_path / f"{variant}.txt").write_bytes(data)
        got = _essence(clean_sources(tmp_path, [f"{variant}.txt"], Settings()))
        assert got == expected, variant


def test_variant_bytes_really_differ():
    text = (SEEDS_RAW / SEEDS[2]).read_bytes().decode("utf-8")
    v = _variants(text)
    assert len(set(v.values())) == len(v)
    assert "â€" in v["mojibake"].decode("utf-8")
