"""The cloud profile's audiences: each a small protocol, no member in two of them, together the whole profile; and
each cloud's image facts as one table its profile answers from."""

from __future__ import annotations

import pytest

from gpuready.core.clouds.catalog_facts import CloudCatalog
from gpuready.core.clouds.named import NamedCloud
from gpuready.core.clouds.node_setup import NodeSetup
from gpuready.core.clouds.policy_reading import PolicyReading
from gpuready.core.clouds.profile import CloudProfile
from gpuready.core.clouds.registry import cloud_names, cloud_profile
from gpuready.core.clouds.spec_rules import SpecRules
from gpuready.core.clouds.stack_wiring import StackWiring

AUDIENCES = (NamedCloud, SpecRules, NodeSetup, PolicyReading, StackWiring, CloudCatalog)
MOST_MEMBERS = 25
"""Members one audience may have before it is split again (the profile had 76 in one class)."""


def _own_members(cls: type) -> set[str]:
    declared = set(vars(cls)) | set(vars(cls).get("__annotations__", {}))
    return {name for name in declared if not name.startswith("_")}


def _public(cls: type) -> set[str]:
    return {name for klass in cls.__mro__ if klass is not object for name in _own_members(klass)}


@pytest.mark.parametrize("audience", AUDIENCES, ids=lambda a: a.__name__)
def test_each_audience_is_a_small_protocol(audience: type) -> None:
    assert getattr(audience, "_is_protocol", False), audience
    assert 0 < len(_own_members(audience)) <= MOST_MEMBERS


def test_the_audiences_share_no_member_and_make_up_the_profile() -> None:
    owners: dict[str, list[str]] = {}
    for audience in AUDIENCES:
        for name in _own_members(audience):
            owners.setdefault(name, []).append(audience.__name__)
    assert {name: who for name, who in owners.items() if len(who) > 1} == {}
    assert _own_members(CloudProfile) == set()  # the profile only composes its audiences
    assert _public(CloudProfile) == set(owners)


@pytest.mark.parametrize("cloud", cloud_names())
@pytest.mark.parametrize("audience", AUDIENCES, ids=lambda a: a.__name__)
def test_every_cloud_profile_implements_every_audience(cloud: str, audience: type) -> None:
    assert audience in type(cloud_profile(cloud)).__mro__


@pytest.mark.parametrize("cloud", cloud_names())
def test_a_cloud_s_image_answers_come_from_its_table(cloud: str) -> None:
    profile = cloud_profile(cloud)
    assert profile.images == tuple(profile.image_facts)
    for image, facts in profile.image_facts.items():
        assert profile.image_name(image) == facts.title
        assert profile.platform_advertiser(image, "operator") == facts.platform_plugin
        assert set(facts.api_names) == {"x86_64", "arm64"}, image


@pytest.mark.parametrize(
    ("cloud", "image", "plugin", "operands"),
    [
        ("eks", "al2023", "nvidia", ()),
        ("eks", "bottlerocket", "bottlerocket", ("driver", "container-toolkit", "device-plugin", "mig-manager")),
        ("aks", "ubuntu", "nvidia", ()),
        ("gke", "cos", "nvidia", ()),
    ],
)
def test_image_rows(cloud: str, image: str, plugin: str, operands: tuple[str, ...]) -> None:
    facts = cloud_profile(cloud).image_facts[image]
    assert (facts.platform_plugin, facts.built_in_operands) == (plugin, operands)


def test_the_unknown_image_of_a_provisioner_that_picks_it_is_named_by_the_cloud() -> None:
    profile = cloud_profile("eks")
    assert profile.image_name("-") == "EKS -"
    assert profile.platform_advertiser("-", "cloud") == "nvidia"
