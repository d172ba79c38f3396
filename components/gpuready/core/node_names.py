"""Node resource and label names the advertisers share with ``scheduling`` (a leaf module: no imports). Pure.

``scheduling`` re-exports them; the advertisers import them from here, so that ``scheduling`` can ask the pool's
advertiser for its labels without an import cycle.
"""

from __future__ import annotations

GPU_RESOURCE = "nvidia.com/gpu"
SHARED_GPU_RESOURCE = "nvidia.com/gpu.shared"
LABEL_DEPLOY_PREFIX = "nvidia.com/gpu.deploy."
LABEL_DEPLOY_DRA_DRIVER = LABEL_DEPLOY_PREFIX + "dra-driver"
"""The GPU Operator's GPUCluster runs its DRA kubelet plugin only on nodes with this label ``true``, which it sets on
every GPU node unless a value is there already (v26.7.0 ``updateGPUClusterStateLabels`` in
``controllers/nodelabeling_controller.go``); ``false`` keeps the plugin off a node."""
LABEL_ADVERTISE = "gpuready.io/advertise"
"""Set to ``dra`` on DRA pools (their advertiser's ``node_labels``): the DRA driver's kubelet plugin selects it and
NVIDIA's device plugin avoids it, so the two never serve one node (DRA chart ``templates/validation.yaml``)."""
