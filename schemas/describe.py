"""The tables' contract as data: columns, storage types, nullability, meaning and checks.

`newsclean schema` prints it and `newsclean schema --json` exports it; tests compare the README's
column tables with it. Everything here is read off the pandera models and Arrow schemas, so the
description cannot drift from what is enforced.
"""
from __future__ import annotations

from typing import Any

from newsclean.schemas.tables import ARROW_SCHEMAS, CROSS_TABLE_CHECKS, MODELS

_BUILTIN = {  # pandera's built-in checks, spelled for people
    "str_matches": lambda st: f"matches {st['pattern']}",
    "str_length": lambda st: f"length >= {st['min_value']}" if st.get("max_value") is None else f"length in [{st['min_value']}, {st['max_value']}]",
    "greater_than_or_equal_to": lambda st: f">= {st['min_value']}",
    "greater_than": lambda st: f"> {st['min_value']}",
    "less_than_or_equal_to": lambda st: f"<= {st['max_value']}",
    "isin": lambda st: "one of " + ", ".join(map(str, st["allowed_values"])),
}


def _check(check) -> dict[str, Any]:
    stats = {k: v for k, v in (check.statistics or {}).items() if v is not None}
    if check.name in _BUILTIN:
        meaning = _BUILTIN[check.name](check.statistics)
    else:
        meaning = check.description or check.name
    return {"name": check.name, "meaning": meaning, **({"params": {k: (list(v) if isinstance(v, (set, frozenset, tuple)) else v) for k, v in stats.items()}} if stats else {})}


def arrow_type(table: str, column: str) -> str:
    return str(ARROW_SCHEMAS[table].field(column).type)


def describe() -> dict[str, Any]:
    out: dict[str, Any] = {}
    for table, model in MODELS.items():
        schema = model.to_schema()
        columns = []
        for name in ARROW_SCHEMAS[table].names:
            col = schema.columns[name]
            checks = [_check(c) for c in col.checks]
            if col.unique:
                checks.insert(0, {"name": "unique", "meaning": "no two rows share a value"})
            columns.append({
                "name": name,
                "type": arrow_type(table, name),
                "nullable": bool(col.nullable),
                "description": col.description or "",
                "checks": checks,
            })
        out[table] = {
            "file": f"{table}.parquet",
            "description": (model.__doc__ or "").strip(),
            "columns": columns,
            "checks": [_check(c) for c in schema.checks],
            "strict": True,
        }
    out["cross_table_checks"] = [{"name": name, "tables": list(tables), "meaning": meaning}
                                 for name, (tables, meaning) in CROSS_TABLE_CHECKS.items()]
    return out
