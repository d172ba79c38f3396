"""Entry point of the gpuready component package (``PulumiPlugin.yaml``): ``pulumi package add`` runs the Python
language host on this directory, which runs this file; it serves the provider over gRPC."""

from gpuready.package.provider import main

main()
