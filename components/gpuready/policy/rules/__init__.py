"""Pure GPU-convention rules over resource properties as the engine delivers them.

Every rule takes ``(resource_type, props, config)`` and returns messages; props are read-only
``Mapping``/``Sequence`` proxies with numbers as floats, so rules never test for ``dict``/``list``.
Touching a value unknown during preview raises, which the analyzer reports as an advisory diagnostic.
"""
