"""Project and stack config loading: declarations, engine type rules, defaults, secrets, the config bag."""

from __future__ import annotations

from pathlib import Path

import pytest

from gpuready.offline.project import (
    SECRET_PLACEHOLDER,
    ConfigDeclaration,
    ItemsType,
    OfflineProjectError,
    Project,
    full_type_name,
    load_project,
    namespaced_key,
    parse_project,
    validate_config_value,
)
from gpuready.offline.pulumi_config import (
    StackValue,
    encode_config_value,
    load_stack_config,
    parse_override,
    parse_stack_document,
    resolve_stack_config,
)

FIXTURES = Path(__file__).parent / "fixtures"
PROJECT_FILE = Path("/projects/gp/Pulumi.yaml")
STRINGS = ItemsType("string")


def _project(config: dict[str, object]) -> Project:
    return parse_project({"name": "gp", "runtime": "python", "config": config}, PROJECT_FILE)


def _error(project: Project, entries: dict[str, StackValue], overrides: dict[str, str] | None = None) -> str:
    with pytest.raises(OfflineProjectError) as info:
        resolve_stack_config(project, "dev", entries, overrides or {})
    return info.value.message


# --- the engine's ValidateConfigValue, rule by rule -------------------------------------------------


@pytest.mark.parametrize(
    ("type_name", "items", "value", "valid"),
    [
        ("string", None, "x", True),
        ("string", None, "", True),
        ("string", None, 3, False),
        ("string", None, True, False),
        ("integer", None, 3, True),
        ("integer", None, 3.0, True),
        ("integer", None, float("inf"), True),  # Go: f == math.Trunc(f) holds for infinity
        ("integer", None, "42", True),
        ("integer", None, "-7", True),
        ("integer", None, "+7", True),
        ("integer", None, 3.5, False),
        ("integer", None, "3.0", False),
        ("integer", None, " 3", False),
        ("integer", None, "1_000", False),
        ("integer", None, "9223372036854775808", False),  # past int64, strconv.Atoi fails
        ("integer", None, True, False),
        ("integer", None, [1], False),
        ("boolean", None, True, True),
        ("boolean", None, False, True),
        ("boolean", None, "true", True),
        ("boolean", None, "false", True),
        ("boolean", None, "True", False),
        ("boolean", None, "yes", False),
        ("boolean", None, 1, False),
        ("array", STRINGS, ["a", "b"], True),
        ("array", STRINGS, [], True),
        ("array", STRINGS, ["a", 1], False),
        ("array", STRINGS, "a", False),
        ("array", None, ["a"], False),
        ("array", ItemsType("integer"), [1, 2.0, "3"], True),
        ("array", ItemsType("integer"), [1.5], False),
        ("array", ItemsType("array", STRINGS), [["a"], []], True),
        ("array", ItemsType("array", STRINGS), [["a", 2]], False),
        ("object", None, {"a": 1}, False),
    ],
)
def test_validate_config_value_follows_the_engine(
    type_name: str, items: ItemsType | None, value: object, valid: bool
) -> None:
    assert validate_config_value(type_name, items, value) is valid


@pytest.mark.parametrize(
    ("type_name", "items", "expected"),
    [
        ("string", None, "string"),
        ("array", STRINGS, "array<string>"),
        ("array", ItemsType("array", ItemsType("integer")), "array<array<integer>>"),
    ],
)
def test_full_type_name_spells_arrays_like_the_engine(type_name: str, items: ItemsType | None, expected: str) -> None:
    assert full_type_name(type_name, items) == expected


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        ("clusterName", "gp:clusterName"),
        ("gp:clusterName", "gp:clusterName"),
        ("aws:region", "aws:region"),
        ("aws:config:region", "aws:region"),
    ],
)
def test_namespaced_key_adds_the_project_namespace_only_when_missing(key: str, expected: str) -> None:
    assert namespaced_key("gp", key) == expected


@pytest.mark.parametrize("key", ["a:b:c", ":x", "aws:"])
def test_namespaced_key_rejects_malformed_keys(key: str) -> None:
    with pytest.raises(OfflineProjectError, match="could not parse"):
        namespaced_key("gp", key)


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("plain", "plain"),
        ("3", "3"),
        (["a", "b"], '["a","b"]'),
        ({"b": 2.0, "a": [1.5, True, None]}, '{"a":[1.5,true,null],"b":2}'),
        ({"name": "ü"}, '{"name":"ü"}'),
        (7, "7"),
        (False, "false"),
    ],
)
def test_config_bag_keeps_strings_and_json_encodes_everything_else(content: object, expected: str) -> None:
    assert encode_config_value(content) == expected


# --- Pulumi.yaml -------------------------------------------------------------------------------------


@pytest.mark.parametrize("runtime", ["python", {"name": "python", "options": {"toolchain": "uv"}}])
def test_parse_project_accepts_the_python_runtime_in_both_forms(runtime: object) -> None:
    project = parse_project({"name": "gp", "runtime": runtime}, PROJECT_FILE)
    assert (project.name, project.runtime) == ("gp", "python")
    assert project.program_dir == project.stack_config_dir == PROJECT_FILE.parent / "."


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ({"name": "gp", "runtime": "nodejs"}, "runtime 'nodejs' is not supported"),
        ({"name": "gp", "runtime": {"name": "go"}}, "runtime 'go' is not supported"),
        ({"name": "gp"}, "runtime None is not supported"),
        ({"runtime": "python"}, "missing a non-empty string 'name'"),
        (["name"], "expected a mapping"),
        ({"name": "gp", "runtime": "python", "main": 3}, "'main' must be a path string"),
        (
            {"name": "gp", "runtime": "python", "config": "cfg", "stackConfigDir": "x"},
            "Should not use both config and stackConfigDir",
        ),
    ],
)
def test_parse_project_rejects_bad_documents(document: object, message: str) -> None:
    with pytest.raises(OfflineProjectError, match=message):
        parse_project(document, PROJECT_FILE)


def test_parse_project_resolves_main_and_stack_config_dir_against_the_project_file() -> None:
    project = parse_project(
        {"name": "gp", "runtime": "python", "main": "src", "stackConfigDir": "stacks"}, PROJECT_FILE
    )
    assert project.program_dir == Path("/projects/gp/src")
    assert project.stack_file("dev") == Path("/projects/gp/stacks/Pulumi.dev.yaml")


def test_parse_project_reads_a_config_string_as_the_old_spelling_of_stack_config_dir() -> None:
    project = parse_project({"name": "gp", "runtime": "python", "config": "stacks"}, PROJECT_FILE)
    assert project.stack_config_dir == Path("/projects/gp/stacks")
    assert project.config == ()


def test_declarations_follow_the_engine_schema_and_shorthands() -> None:
    project = _project(
        {
            "size": 2,
            "aws:region": "us-west-2",
            "tags": {"type": "array", "items": {"type": "array", "items": {"type": "string"}}},
            "token": {"type": "string", "secret": True, "description": "API token"},
        }
    )
    assert project.config == (
        ConfigDeclaration(key="aws:region", full_key="aws:region", value="us-west-2"),
        ConfigDeclaration(key="size", full_key="gp:size", default=2),
        ConfigDeclaration(key="tags", full_key="gp:tags", type="array", items=ItemsType("array", STRINGS)),
        ConfigDeclaration(key="token", full_key="gp:token", type="string", description="API token", secret=True),
    )


@pytest.mark.parametrize(
    ("declaration", "message"),
    [
        ({"x": {"type": "array"}}, "declares an array but does not specify the underlying type"),
        ({"x": {"type": "array", "items": {"type": "array"}}}, "an array in 'items' needs its own 'items'"),
        ({"x": {"type": "integer", "default": "two"}}, "not of the expected type 'integer'"),
        (
            {"x": {"type": "array", "items": {"type": "string"}, "default": [1]}},
            "not of the expected type 'array<string>'",
        ),
        ({"x": {"type": "object"}}, "unknown type 'object'"),
        ({"x": {"type": "string", "required": True}}, "'required' not allowed"),
        ({"x": {"default": 1, "value": 2}}, "cannot have both a 'default' and 'value' attribute"),
        ({"aws:region": {"type": "string"}}, "not namespaced by the project and should not define a type"),
        ({"aws:region": {"default": "us-east-1"}}, "Did you mean to use the 'value' attribute"),
        ({"aws:region": {"description": "where"}}, "must provide an attribute 'value'"),
        ({"x": 1.5}, "must be a string, integer, boolean, array or declaration"),
        ({"x": None}, "must be a string, integer, boolean, array or declaration"),
    ],
)
def test_bad_declarations_are_rejected_when_the_project_loads(declaration: dict[str, object], message: str) -> None:
    with pytest.raises(OfflineProjectError, match=message):
        _project(declaration)


# --- Pulumi.<stack>.yaml -------------------------------------------------------------------------------


def test_stack_scalars_keep_their_yaml_text_as_the_engine_reads_them() -> None:
    text = "config:\n  a: 3\n  b: true\n  c: 1.50\n  d: yes\n  e: '007'\n  f:\n  g: 2024-01-02\n"
    assert parse_stack_document(text, "Pulumi.dev.yaml") == {
        "a": StackValue("3"),
        "b": StackValue("true"),
        "c": StackValue("1.50"),
        "d": StackValue("yes"),
        "e": StackValue("007"),
        "f": StackValue(""),
        "g": StackValue("2024-01-02"),
    }


def test_secure_values_become_placeholders_and_mark_the_value_secret() -> None:
    text = (
        "config:\n"
        "  token:\n    secure: AAABAK==\n"
        "  db: {user: admin, password: {secure: AAABAL==}, ports: [5432]}\n"
        "  plain: {secure: 1, other: x}\n"
    )
    assert parse_stack_document(text, "Pulumi.dev.yaml") == {
        "token": StackValue(SECRET_PLACEHOLDER, secure=True),
        "db": StackValue({"user": "admin", "password": SECRET_PLACEHOLDER, "ports": [5432]}, secure=True),
        "plain": StackValue({"secure": 1, "other": "x"}),
    }


@pytest.mark.parametrize("text", ["", "encryptionsalt: v1:abc\n", "config:\n"])
def test_stack_files_without_config_give_no_values(text: str) -> None:
    assert parse_stack_document(text, "Pulumi.dev.yaml") == {}


@pytest.mark.parametrize(
    ("text", "message"),
    [("config: [a, b]\n", "expected 'config:' with a mapping"), ("config: {a: [}\n", "invalid YAML")],
)
def test_malformed_stack_files_are_rejected(text: str, message: str) -> None:
    with pytest.raises(OfflineProjectError, match=message):
        parse_stack_document(text, "Pulumi.dev.yaml")


@pytest.mark.parametrize(
    ("text", "expected"),
    [("gp:size=3", ("gp:size", "3")), ("size=a=b", ("size", "a=b")), ("name=", ("name", ""))],
)
def test_parse_override_splits_on_the_first_equals_sign(text: str, expected: tuple[str, str]) -> None:
    assert parse_override(text) == expected


@pytest.mark.parametrize("text", ["size", "=3", " =3"])
def test_parse_override_rejects_text_without_a_key(text: str) -> None:
    with pytest.raises(OfflineProjectError, match="is not key=value"):
        parse_override(text)


# --- merging, defaults and validation -------------------------------------------------------------------


def test_defaults_and_project_values_fill_only_missing_keys() -> None:
    project = _project(
        {
            "size": {"type": "integer", "default": 2},
            "debug": {"type": "boolean", "default": False},
            "zones": {"type": "array", "items": {"type": "string"}, "default": ["a", "b"]},
            "owner": "platform",
            "aws:region": "us-west-2",
            "aws:profile": "ci",
        }
    )
    config = resolve_stack_config(project, "dev", {"aws:profile": StackValue("dev")}, {"owner": "me"})
    assert config.values == {
        "aws:profile": "dev",
        "aws:region": "us-west-2",
        "gp:debug": "false",
        "gp:owner": "me",
        "gp:size": "2",
        "gp:zones": '["a","b"]',
    }


def test_overrides_win_over_stack_values_and_stay_strings() -> None:
    project = _project({"size": {"type": "integer"}})
    config = resolve_stack_config(project, "dev", {"size": StackValue("3")}, {"gp:size": "5"})
    assert config.values == {"gp:size": "5"}


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ({"clusterName": {"type": "string"}}, "Stack 'dev' is missing configuration value 'clusterName'"),
        (
            {"gp:clusterName": {"type": "string"}},
            "Stack 'dev' is missing configuration value 'gp:clusterName'",
        ),
        (
            {"c": {"type": "string"}, "a": "", "b": {"type": "integer"}, "d": {"type": "boolean"}},
            "Stack 'dev' is missing configuration values 'b', 'c' and 'd'",
        ),
    ],
)
def test_missing_keys_use_the_engine_wording(config: dict[str, object], message: str) -> None:
    assert _error(_project(config), {}) == message


def test_keys_of_other_namespaces_are_never_required() -> None:
    project = _project({"aws:region": "us-west-2"})
    assert resolve_stack_config(project, "dev", {}, {}).values == {"aws:region": "us-west-2"}


@pytest.mark.parametrize(
    ("declaration", "entry", "message"),
    [
        ({"type": "string"}, StackValue(["a"]), "must be of type 'string'"),
        ({"type": "integer"}, StackValue("three"), "must be of type 'integer'"),
        ({"type": "boolean"}, StackValue("yes"), "must be of type 'boolean'"),
        ({"type": "array", "items": {"type": "string"}}, StackValue("a,b"), "must be of type 'array<string>'"),
        (
            {"type": "array", "items": {"type": "integer"}},
            StackValue([1, "x"]),
            "must be of type 'array<integer>'",
        ),
        ({"type": "string", "secret": True}, StackValue("plain"), "must be encrypted as it's secret"),
    ],
)
def test_type_mismatches_use_the_engine_wording(
    declaration: dict[str, object], entry: StackValue, message: str
) -> None:
    assert _error(_project({"x": declaration}), {"x": entry}) == (f"Stack 'dev' with configuration key 'x' {message}")


@pytest.mark.parametrize(
    ("declaration", "entry"),
    [
        ({"type": "string"}, StackValue("3")),  # stack scalars are strings to the engine
        ({"type": "integer"}, StackValue("3")),
        ({"type": "boolean"}, StackValue("false")),
        ({"type": "array", "items": {"type": "integer"}}, StackValue([1, 2.0])),
        ({"type": "integer", "secret": True}, StackValue(SECRET_PLACEHOLDER, secure=True)),
    ],
)
def test_values_of_the_declared_type_pass(declaration: dict[str, object], entry: StackValue) -> None:
    config = resolve_stack_config(_project({"x": declaration}), "dev", {"x": entry}, {})
    assert set(config.values) == {"gp:x"}


def test_secret_keys_are_the_keys_holding_secure_values() -> None:
    entries = {
        "token": StackValue(SECRET_PLACEHOLDER, secure=True),
        "aws:secretKey": StackValue(SECRET_PLACEHOLDER, secure=True),
        "db": StackValue({"password": SECRET_PLACEHOLDER}, secure=True),
        "name": StackValue("x"),
    }
    config = resolve_stack_config(_project({}), "dev", entries, {})
    assert config.secret_keys == ("aws:secretKey", "gp:db", "gp:token")
    assert config.values["gp:token"] == "[secret]"
    assert config.values["gp:db"] == '{"password":"[secret]"}'


# --- files ------------------------------------------------------------------------------------------------


def test_fixture_project_and_stack_file_load_into_the_engine_config_bag() -> None:
    project = load_project(FIXTURES / "gpu_pool")
    config = load_stack_config(project, "dev")
    assert project.name == "gpufix"
    assert project.program_dir == FIXTURES / "gpu_pool" / "."
    assert config.values == {
        "aws:region": "eu-west-1",
        "gpufix:apiToken": "[secret]",
        "gpufix:clusterName": "demo",
        "gpufix:desiredSize": "3",
        "gpufix:enableMonitoring": "false",
        "gpufix:instanceTypes": '["g5.xlarge","g5.2xlarge"]',
    }
    assert config.secret_keys == ("gpufix:apiToken",)


def test_an_explicit_config_file_replaces_the_stack_file_and_overrides_apply(tmp_path: Path) -> None:
    config_file = tmp_path / "ci.yaml"
    config_file.write_text("config:\n  clusterName: ci\n  instanceTypes: [p4d.24xlarge]\n")
    project = load_project(FIXTURES / "gpu_pool")
    with pytest.raises(OfflineProjectError, match="must be encrypted as it's secret"):
        load_stack_config(project, "ci", config_file=config_file, overrides=["apiToken=plain"])
    config_file.write_text(config_file.read_text() + "  apiToken: {secure: AAAB}\n")
    config = load_stack_config(project, "ci", config_file=config_file, overrides=["desiredSize=4"])
    assert config.values["gpufix:clusterName"] == "ci"
    assert config.values["gpufix:desiredSize"] == "4"


def test_a_missing_stack_file_means_no_stack_values() -> None:
    project = load_project(FIXTURES / "gpu_pool")
    with pytest.raises(OfflineProjectError) as info:
        load_stack_config(project, "prod")
    assert info.value.message == (
        "Stack 'prod' is missing configuration values 'apiToken', 'clusterName' and 'instanceTypes'"
    )
    assert "Pulumi.prod.yaml" in str(info.value)


@pytest.mark.parametrize(
    ("files", "message"),
    [
        ({}, "no Pulumi.yaml in"),
        ({"Pulumi.yaml": "name: x\nruntime: python\nmain: missing\n"}, "program directory .* not found"),
        ({"Pulumi.yaml": "name: [\n"}, "invalid YAML"),
    ],
)
def test_load_project_reports_unusable_directories(tmp_path: Path, files: dict[str, str], message: str) -> None:
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    with pytest.raises(OfflineProjectError, match=message):
        load_project(tmp_path)


def test_load_stack_config_reports_a_missing_explicit_config_file(tmp_path: Path) -> None:
    with pytest.raises(OfflineProjectError, match=r"config file .* not found"):
        load_stack_config(load_project(FIXTURES / "gpu_pool"), "dev", config_file=tmp_path / "nope.yaml")


def test_yml_projects_use_yml_stack_files(tmp_path: Path) -> None:
    (tmp_path / "Pulumi.yml").write_text("name: y\nruntime: python\n")
    (tmp_path / "Pulumi.dev.yml").write_text("config:\n  y:size: 3\n")
    project = load_project(tmp_path)
    assert load_stack_config(project, "dev").values == {"y:size": "3"}


# --- --set values and --set-path -----------------------------------------------------------------------------------

LIST_PROJECT = {
    "zones": {"type": "array", "items": {"type": "string"}, "default": []},
    "spec": {"type": "string", "default": ""},
}


@pytest.mark.parametrize(
    ("key", "text", "expected"),
    [
        ("zones", '["a","b"]', '["a","b"]'),  # a JSON list for an array key: the list
        ("zones", '[ "a" ]', '["a"]'),
        ("spec", '{"kind": "gpu-operator"}', '{"kind": "gpu-operator"}'),  # a string key keeps the text as given
        ("spec", "{kind: gpu-operator}", "{kind: gpu-operator}"),
        ("aws:tags", '{"team":"ml"}', '{"team":"ml"}'),  # undeclared: the structure, JSON-encoded again
        ("aws:region", "us-east-1", "us-east-1"),
    ],
)
def test_set_values_are_json_structures_except_for_string_keys(key: str, text: str, expected: str) -> None:
    config = resolve_stack_config(_project(LIST_PROJECT), "dev", {}, {key: text})
    assert config.values[namespaced_key("gp", key)] == expected


def test_a_set_list_that_is_not_json_is_refused_with_the_json_hint() -> None:
    with pytest.raises(OfflineProjectError) as info:
        resolve_stack_config(_project(LIST_PROJECT), "dev", {}, {"zones": "[a, b]"})
    assert info.value.message == "Stack 'dev' with configuration key 'zones' must be of type 'array<string>'"
    assert """--set 'gp:zones=["a","b"]'""" in info.value.hint
    assert "--set-path 'gp:zones[0]=a'" in info.value.hint


def test_set_paths_apply_after_set_and_over_the_stack_file() -> None:
    entries = {"zones": StackValue(["a"])}
    config = resolve_stack_config(_project(LIST_PROJECT), "dev", entries, {}, [("gp:zones[1]", "b")])
    assert config.values["gp:zones"] == '["a","b"]'
    config = resolve_stack_config(
        _project(LIST_PROJECT), "dev", entries, {"zones": '["x"]'}, [("zones[0]", "y"), ("zones[1]", "z")]
    )
    assert config.values["gp:zones"] == '["y","z"]'
    paths = [("aws:tags.team", "ml"), ("aws:tags.size", "7"), ("aws:tags.on", "true")]
    config = resolve_stack_config(_project({}), "dev", {}, {}, paths)
    assert config.values["aws:tags"] == '{"on":true,"size":7,"team":"ml"}'  # typed as Pulumi types path values


def test_set_paths_never_step_into_a_secret() -> None:
    entries = {"zones": StackValue(SECRET_PLACEHOLDER, secure=True)}
    with pytest.raises(OfflineProjectError, match="the value is a secret"):
        resolve_stack_config(_project({}), "dev", entries, {}, [("gp:zones[0]", "a")])
