"""The ``gpuready-gpu-conventions`` policy pack: pure rules in ``rules``, policy objects in ``policies``.

Importing this package never starts the pack; only ``__main__.py`` constructs ``PolicyPack``.
"""
