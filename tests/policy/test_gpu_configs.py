"""Rules on config files inside chart values: mig-parted layouts and device-plugin sharing configs."""

from __future__ import annotations

import pytest

from tests.policy.harness import messages

RELEASE = "kubernetes:helm.sh/v3:Release"
MIG = "gpu-mig-profiles-valid"
SHARING = "gpu-sharing-replicas-within-bounds"
H100 = "0x233010DE"


def mig_parted(body: str, key: str = "config.yaml") -> dict[str, object]:
    return {
        "chart": "gpu-operator",
        "version": "v26.7.0",
        "namespace": "gpu-operator",
        "values": {"migManager": {"config": {"create": True, "name": "mig-config", "data": {key: body}}}},
    }


def layout(devices: str, device_filter: str | None = H100, enabled: str = "true") -> str:
    filter_line = f'\n      device-filter: ["{device_filter}"]' if device_filter else ""
    return f"""version: v1
mig-configs:
  team:
    - devices: all{filter_line}
      mig-enabled: {enabled}
      mig-devices:
        {devices}
"""


def plugin_config(body: str, chart: str = "nvidia-device-plugin") -> dict[str, object]:
    if chart == "gpu-operator":
        values: dict[str, object] = {
            "devicePlugin": {"config": {"create": True, "name": "dp", "default": "ts", "data": {"ts": body}}}
        }
        return {"chart": chart, "version": "v26.7.0", "namespace": "gpu-operator", "values": values}
    return {"chart": chart, "version": "0.20.0", "namespace": "nvdp", "values": {"config": {"map": {"ts": body}}}}


def time_slicing(replicas: str, name: str = "nvidia.com/gpu", flags: str = "") -> str:
    return f"""version: v1
{flags}sharing:
  timeSlicing:
    resources:
      - name: {name}
        replicas: {replicas}
"""


@pytest.mark.parametrize(
    ("policy", "props", "expected"),
    [
        (MIG, mig_parted(layout('"1g.10gb": 7')), None),
        (MIG, mig_parted(layout('"1g.10gb": 2\n        "2g.20gb": 1\n        "3g.40gb": 1')), None),
        (MIG, mig_parted(layout('"1g.5gb": 7')), "does not fit A100-80GB/A800-80GB/H100-80GB/H800-80GB"),
        (MIG, mig_parted(layout('"1g.10gb": 8')), "at most 7 x 1g.10gb"),
        (MIG, mig_parted(layout('"3g.40gb": 2\n        "2g.20gb": 1')), "compute slices"),
        (MIG, mig_parted(layout('"1g.5gb": 7', device_filter=None)), None),  # fits the A100 40GB
        (MIG, mig_parted(layout('"9g.1gb": 1', device_filter=None)), "does not fit any MIG GPU"),
        (MIG, mig_parted(layout('"1g.5gb": 7', enabled="false")), None),
        (MIG, mig_parted(layout('"1g.10gb": 7'), key="config.yml"), "reads only the key 'config.yaml'"),
        (MIG, mig_parted("version: v1\nmig-configs: [unclosed"), "not valid YAML"),
        (SHARING, plugin_config(time_slicing("4")), None),
        (SHARING, plugin_config(time_slicing("1")), "must be a whole number from 2 to 48"),
        (SHARING, plugin_config(time_slicing("100")), "got 100"),
        (SHARING, plugin_config(time_slicing("2.5")), "got 2.5"),
        (SHARING, plugin_config(time_slicing("4", name="nvidia.com/mig-1g.7gb")), "no MIG GPU has a profile"),
        (SHARING, plugin_config(time_slicing("4", name="nvidia.com/mig-1g.10gb")), None),
        (SHARING, plugin_config(time_slicing("4", flags="flags:\n  renameByDefault: true\n")), "flags.renameByDefault"),
        (SHARING, plugin_config(time_slicing("1"), chart="gpu-operator"), "devicePlugin.config.data.ts"),
        (SHARING, plugin_config(time_slicing("4"), chart="gpu-operator"), None),
    ],
)
def test_config_rule(policy: str, props: dict[str, object], expected: str | None) -> None:
    found = messages(policy, [(RELEASE, props)])
    if expected is None:
        assert found == []
    else:
        assert found, f"{policy} found nothing"
        assert any(expected in m for m in found), found


def test_max_replicas_bounds_device_plugin_configs() -> None:
    props = plugin_config(time_slicing("16"))
    assert messages(SHARING, [(RELEASE, props)]) == []
    assert "from 2 to 8" in messages(SHARING, [(RELEASE, props)], config={SHARING: {"maxReplicas": 8}})[0]
