"""The README's column tables are the schemas (newsclean.schemas.describe), so the two cannot drift:
same columns in the same order, same storage types, nullability and meaning; and the README names
the same removal kinds as the vocabulary the schema enforces."""
from __future__ import annotations

import re

import pytest

from newsclean.schemas.describe import describe
from newsclean.schemas.tables import KINDS
from tests.conftest import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")


def readme_table(file: str) -> list[dict]:
    """The first markdown table after the heading "### `<file>`"."""
    m = re.search(rf"^###\s+`{re.escape(file)}`\s*$", README, re.M)
    assert m, f"README has no section for {file}"
    lines = README[m.end():].lstrip("\n").splitlines()
    rows = []
    for line in lines:
        if not line.startswith("|"):
            break
        rows.append([c.strip() for c in line.strip().strip("|").split("|")])
    header, _, *body = rows
    return [dict(zip(header, r)) for r in body]


@pytest.mark.parametrize("table", ["articles", "removed", "quarantine", "lines"])
def test_readme_column_table_matches_schema(table):
    spec = describe()[table]
    doc = readme_table(spec["file"])
    assert [r["column"].strip("`") for r in doc] == [c["name"] for c in spec["columns"]], "columns or their order differ"
    for row, col in zip(doc, spec["columns"]):
        assert row["type"] == col["type"], f"{col['name']}: README says {row['type']}, the schema {col['type']}"
        assert row["nullable"] == ("yes" if col["nullable"] else "no"), f"{col['name']}: nullability differs"
        assert row["meaning"] == col["description"], f"{col['name']}: README meaning differs from the schema's description"


def test_readme_names_the_kind_vocabulary():
    m = re.search(r"`kind` is one of (.+?)\(", README, re.S)
    assert m, "README does not list the kinds"
    assert re.findall(r"`([a-z_]+)`", m.group(1)) == list(KINDS)



def test_readme_settings_table_lists_every_setting():
    from newsclean.cleaners.settings import Settings

    m = re.search(r"^## Settings\s*$", README, re.M)
    assert m, "README has no Settings section"
    rows = [line for line in README[m.end():].split("\n## ", 1)[0].splitlines() if line.startswith("| `")]
    names = [row.split("|")[1].strip().strip("`") for row in rows]
    defaults = {row.split("|")[1].strip().strip("`"): row.split("|")[2].strip() for row in rows}
    fields = Settings.model_fields
    assert names == list(fields), "the README's settings table and Settings differ"
    for name, f in fields.items():
        shown = {None: "none", True: "true", False: "false"}.get(f.default, str(f.default))
        assert defaults[name].replace(",", "") in (shown, shown.removesuffix(".0")), f"{name}: README says {defaults[name]}, Settings {f.default}"
