"""The gpuready component package: a Pulumi provider hosting the components for every Pulumi language.

``schema`` generates the package schema from the config models (pure); ``provider`` serves it and builds the
Python components in ``Construct`` (a thin adapter); the repository's ``__main__.py`` starts it.
"""
