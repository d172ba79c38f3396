"""The GPU catalog: NVIDIA GPU models, their MIG profiles, and each cloud's GPU instance types.

Pure data and lookups; every entry names its source.
"""
