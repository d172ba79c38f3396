"""Pure decisions: GPU catalog, pool specs, labels, taints and resources. No I/O, no Pulumi, no clients."""
