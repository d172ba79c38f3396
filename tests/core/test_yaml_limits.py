"""``check_limits`` reads libyaml's events, and every text it refuses gets the error the loader's own parser gives."""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from gpuready.core import yaml_limits
from gpuready.core.yaml_limits import YamlLimitError, check_limits, load_yaml
from gpuready.offline.project import _Yaml12Loader

BOMB = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join([f'*{chr(97 + i)}'] * 9)}]\n" for i in range(7)
)
TEXTS = {
    "valid": "name: gpuready\nconfig:\n  gpuready:pools:\n    type: array\n    items: {type: string}\n",
    "valid-flow": "{a: [1, 2, {b: c}], d: 'e'}\n",
    "alias-bomb": BOMB,
    "deep": "[" * 70 + "]" * 70,
    "deep-then-broken": "[" * 70 + "]" * 69,
    "broken-indent": "a: 1\n b: 2\n",
    "tab": "a:\n\t- b\n",
    "unclosed-quote": "a: 'b\n",
    "broken-then-deep": "a: [\n" + "[" * 70,
    "control-character": "a: \x07\n",
}
LOADERS: list[type[Any]] = [_Yaml12Loader, yaml.SafeLoader, yaml_limits.SAFE_LOADER, yaml.CBaseLoader]


def _outcome(check: Any) -> tuple[str, str]:
    try:
        check()
    except (yaml.YAMLError, YamlLimitError) as error:
        return type(error).__name__, str(error)
    return "ok", ""


@pytest.mark.parametrize("loader", LOADERS, ids=lambda loader: loader.__name__)
@pytest.mark.parametrize("name", TEXTS)
def test_a_text_gets_what_the_loader_s_own_parser_says(name: str, loader: type[Any]) -> None:
    text = TEXTS[name]
    own = _outcome(lambda: yaml_limits._check_events(text, loader))
    assert _outcome(lambda: check_limits(text, loader)) == own
    if name.startswith("valid"):
        assert own == ("ok", "")
        assert load_yaml(text, loader) == yaml.load(text, Loader=loader)


@pytest.mark.parametrize("name", ["alias-bomb", "deep"])
def test_the_limits_refuse_what_they_are_for(name: str) -> None:
    with pytest.raises(YamlLimitError):
        check_limits(TEXTS[name], _Yaml12Loader)


def test_the_events_are_libyaml_s(monkeypatch: pytest.MonkeyPatch) -> None:
    read: list[type[Any]] = []
    events = yaml_limits._check_events

    def recording(text: str, loader: type[Any]) -> None:
        read.append(loader)
        events(text, loader)

    monkeypatch.setattr(yaml_limits, "_check_events", recording)
    check_limits(TEXTS["valid"], _Yaml12Loader)
    assert read == [yaml.CBaseLoader]  # one pass, libyaml's; PyYAML's parser reads the text only to load it
