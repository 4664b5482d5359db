"""A field's value where an export nests it in an object: shared by the metadata resolution
(newsclean.cleaners.metadata.resolve) and the record reader (newsclean.cleaners.readers.records),
in a module of its own so that reading records does not import the metadata's date rules (the
CLI's folder check imports the readers before the Prefect server starts)."""
from __future__ import annotations

from typing import Any, Mapping

# Where common exports nest a field's value in an object: WordPress's REST API ("title":
# {"rendered": "…"}, "content": {"rendered": "<p>…"}), schema.org JSON-LD ("author": [{"@type":
# "Person", "name": "…"}]), and value wrappers ("@value", "text", "value", "href").
NESTED_VALUE_KEYS = ("rendered", "name", "@value", "value", "text", "html", "href", "url")


def nested_value(value: Any) -> Any:
    """The value an object wraps (NESTED_VALUE_KEYS, first present), or the value itself; None for
    an object without one of those keys (never its repr as a title or a name)."""
    depth = 0
    while isinstance(value, Mapping) and depth < 4:  # {"title": {"rendered": …}}, no deeper
        value = next((value[k] for k in NESTED_VALUE_KEYS if k in value and value[k] not in (None, "")), None)
        depth += 1
    return None if isinstance(value, Mapping) else value
