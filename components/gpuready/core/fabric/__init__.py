"""A pool's node fabric (``fabric``: EFA, GPUDirect-TCPX/TCPXO/RDMA, InfiniBand): the spec, the per-type facts seam
every cloud fills from its own tables, and the rules. Pure."""
