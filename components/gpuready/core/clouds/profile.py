"""What differs by cloud: ``CloudProfile``, one object per cloud implementing each audience's small protocol. Pure.

The audiences (each a ``Protocol`` in its own module, typed against by the code that reads it): ``SpecRules``
(validation), ``NodeSetup`` (the nodes, the GPU stack, workloads), ``PolicyReading`` (the policy pack),
``StackWiring`` (the stack program, settings, ``gpuready new``) and ``CloudCatalog`` (the GPU catalog). Each cloud
subclasses ``CloudProfile`` in its own package (``components/gpuready/<cloud>/profile.py``) and sets the facts; the
protocols' defaults are what a cloud does when it adds nothing of its own. A pool carries its profile
(``spec.profile``), the stack settings and the GPU stack plan the stack's (``profile``), a read pool its reader's
(``PoolFacts.reading``, ``catalog``); ``registry.cloud_profile(name)`` is asked only where a name comes in.
"""

from __future__ import annotations

from abc import ABC

from gpuready.core.clouds.catalog_facts import CloudCatalog
from gpuready.core.clouds.node_setup import NodeSetup
from gpuready.core.clouds.policy_reading import PolicyReading
from gpuready.core.clouds.spec_rules import SpecRules
from gpuready.core.clouds.stack_wiring import StackWiring


class CloudProfile(SpecRules, NodeSetup, PolicyReading, StackWiring, CloudCatalog, ABC):
    """Everything gpuready knows that differs by cloud, one audience per base. Subclasses set the class attributes;
    hooks default to "nothing of the cloud's own"."""
