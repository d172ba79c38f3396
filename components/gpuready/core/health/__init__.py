"""GPU health: who reports it (node conditions and their reasons, XID meanings, the GPU Operator's driver upgrade
states), who repairs a broken node, and who runs DCGM. Pure data and rules: no I/O."""
