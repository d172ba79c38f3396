"""A second kube-scheduler that bin-packs GPU pods. Pure.

Managed control planes (EKS, AKS, GKE) do not let users change the default scheduler's configuration, so
``scheduler_config`` describes a second ``kube-scheduler`` whose only profile scores nodes with the
``NodeResourcesFit`` ``MostAllocated`` strategy, and ``scheduler_objects`` builds its Kubernetes objects as
plain dicts. The model of what packing buys (``placement_model`` / ``placement_replay``, replaying job streams
under both scoring rules) is benchmark code and lives in ``bench/``.
"""
