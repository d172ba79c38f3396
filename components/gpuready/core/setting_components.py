"""The stack-wide components that one ``gpuready:*`` key configures: their one registration. Pure.

Each (the bin-packing scheduler, the Kueue objects) is a ``component_entry.SettingEntry`` beside its config
model (kueue's ``RegisterIntegration`` is the model); the facade (``gpuready.public_names``), the stack program
(``stack_program.program``: the component and its export) and the component package's input check, provider and
schema (``gpuready.package``) iterate ``SETTING_COMPONENTS`` instead of naming them.
"""

from __future__ import annotations

from gpuready.core.binpack.scheduler_entry import BINPACK_SCHEDULER
from gpuready.core.component_entry import SettingEntry
from gpuready.core.kueue.entry import KUEUE_OBJECTS

SETTING_COMPONENTS: tuple[SettingEntry, ...] = (BINPACK_SCHEDULER, KUEUE_OBJECTS)
"""Every stack-wide component of one key, in the schema's order (and the stack program's)."""
