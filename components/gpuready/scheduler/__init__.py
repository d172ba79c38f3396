"""Scheduling components: ``GpuBinPackingScheduler``, a second kube-scheduler that bin-packs GPU pods."""
