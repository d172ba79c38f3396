"""The ``gpuready`` command line: thin adapters over the pure core and the offline plan engine."""
