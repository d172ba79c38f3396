"""A second kube-scheduler that bin-packs GPU pods, and a model of what packing buys. Pure.

Managed control planes (EKS, AKS, GKE) do not let users change the default scheduler's configuration, so
``scheduler_config`` describes a second ``kube-scheduler`` whose only profile scores nodes with the
``NodeResourcesFit`` ``MostAllocated`` strategy, ``scheduler_objects`` builds its Kubernetes objects as
plain dicts, and ``placement_model`` / ``placement_replay`` replay job streams under both scoring rules.
"""
