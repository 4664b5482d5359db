"""The clean-corpus flow's parameters are typed: `settings` is newsclean's Settings (a pydantic
model, which Prefect's UI shows as a form), and prefect.yaml's deployment parameters validate
against the flow's schema."""
from __future__ import annotations

from typing import Literal, get_args, get_origin

import pytest
import yaml

from newsclean.cleaners.settings import Settings
from newsclean.flows.clean_corpus import clean_corpus
from tests.conftest import ROOT

JSON_TYPES = {bool: ["boolean"], int: ["integer"], float: ["number"], str: ["string"], int | None: ["integer", "null"],
              Literal["trafilatura", "page"]: ["string"]}


def _schema() -> dict:
    return clean_corpus.parameters.model_dump()


def test_the_settings_parameter_has_a_typed_field_per_setting():
    schema = _schema()
    assert list(schema["properties"]) == ["raw_dir", "out_dir", "settings", "full"]
    assert (schema["properties"]["raw_dir"]["type"], schema["properties"]["full"]["type"]) == ("string", "boolean")
    ref = next(a["$ref"] for a in schema["properties"]["settings"]["anyOf"] if "$ref" in a)
    model = schema["definitions"][ref.rsplit("/", 1)[-1]]
    assert list(model["properties"]) == list(Settings.model_fields)
    for name, field in Settings.model_fields.items():
        prop = model["properties"][name]
        types = [prop["type"]] if "type" in prop else [a["type"] for a in prop["anyOf"]]  # anyOf: an optional setting
        assert types == JSON_TYPES[field.annotation], name
        assert prop["default"] == field.default and prop["description"], name
        if get_origin(field.annotation) is Literal:  # a choice: the form offers exactly its values
            assert prop["enum"] == list(get_args(field.annotation)), name
    assert model["additionalProperties"] is False  # a misspelt setting is refused, not ignored


def test_prefect_yaml_parameters_validate_against_the_flow_schema():
    from prefect.utilities.schema_tools import validate

    schema = _schema()
    for deployment in yaml.safe_load((ROOT / "prefect.yaml").read_text())["deployments"]:
        assert validate(deployment["parameters"], schema) == [], deployment["name"]
    assert validate({"settings": {"use_model": "maybe"}}, schema)  # typed: a wrong value is an error
    assert validate({"settings": {"no_such_setting": 1}}, schema)


def test_a_dict_of_settings_becomes_settings():
    params = clean_corpus.validate_parameters({"raw_dir": "raw", "settings": {"batch_size": 7, "audit_lines": False}})
    assert params["settings"] == Settings(batch_size=7, audit_lines=False)
    assert clean_corpus.validate_parameters({"settings": None})["settings"] is None


def test_a_bad_setting_value_is_a_one_line_error(tmp_path):
    toml = tmp_path / "settings.toml"
    toml.write_text("[newsclean]\nuse_model = \"maybe\"\nbatch_size = 10\n")
    with pytest.raises(ValueError) as err:
        Settings.load(toml)
    assert "\n" not in str(err.value) and str(err.value).startswith("use_model: ") and "'maybe'" in str(err.value)
    assert Settings.load(None, batch_size=10, keep_curly_quotes=None) == Settings(batch_size=10)
