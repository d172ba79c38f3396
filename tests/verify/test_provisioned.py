"""Which elastic provisioner made a node, and the GPU its labels name: asked of the provisioners' node facts."""

from __future__ import annotations

import pytest

from gpuready.verify.inference import infer_accelerator, is_gpu_node
from gpuready.verify.provisioned import gpu_count, gpu_label, node_origin, says_gpu
from tests.verify.conftest import view

AWS = "karpenter.k8s.aws/instance-gpu-"


@pytest.mark.parametrize(
    ("labels", "expected"),
    [
        ({"karpenter.sh/nodepool": "a", f"{AWS}name": "l4"}, ("karpenter", "NodePool/a")),
        ({"karpenter.sh/nodepool": "a", "eks.amazonaws.com/compute-type": "auto"}, ("eks-auto-mode", "NodePool/a")),
        ({"karpenter.sh/nodepool": "a", "karpenter.azure.com/sku-gpu-count": "1"}, ("nap", "NodePool/a")),
        ({"cloud.google.com/compute-class": "c"}, ("compute-class", "ComputeClass/c")),
        ({"karpenter.sh/nodepool": "a"}, None),  # Karpenter of a cloud whose labels it does not carry
        ({"eks.amazonaws.com/compute-type": "auto"}, None),  # no NodePool label: not made for a NodePool
        ({"node.kubernetes.io/instance-type": "g6.xlarge"}, None),
    ],
)
def test_node_origin(labels: dict[str, str], expected: tuple[str, str] | None) -> None:
    origin = node_origin(labels)
    assert (None if origin is None else (origin.provisioner, origin.where)) == expected


@pytest.mark.parametrize(
    ("labels", "model", "count"),
    [
        ({f"{AWS}name": "a100", f"{AWS}memory": "81920", f"{AWS}count": "8"}, "a100-80gb", 8),
        ({f"{AWS}name": "a100", f"{AWS}memory": "40960"}, "a100", None),
        ({f"{AWS}name": "h100", f"{AWS}memory": "81920"}, "h100", None),  # H100 and H100 Mega: the family's own
        ({f"{AWS}name": "h100", f"{AWS}memory": "95830"}, "h100-nvl", None),
        ({f"{AWS}name": "v100", f"{AWS}memory": "32768", f"{AWS}count": "x"}, "v100-32gb", None),
        ({f"{AWS}name": "inferentia"}, None, None),
        ({f"{AWS}count": "4"}, None, 4),
    ],
)
def test_gpu_facts_from_karpenter_labels(labels: dict[str, str], model: str | None, count: int | None) -> None:
    labels = {"karpenter.sh/nodepool": "p", **labels}
    origin = node_origin(labels)
    assert origin is not None
    named = gpu_label(origin, labels)
    assert (None if named is None else named[1].key) == model
    assert gpu_count(origin, labels) == count


def test_provisioner_labels_make_a_gpu_node_and_name_its_gpu() -> None:
    labels = {
        "karpenter.sh/nodepool": "p",
        "karpenter.azure.com/sku-gpu-name": "A100",
        "karpenter.azure.com/sku-gpu-count": "1",
        "node.kubernetes.io/instance-type": "Standard_XYZ_unknown",
    }
    node = view("nap-a", labels=labels)
    assert says_gpu(labels) == "karpenter.azure.com/sku-gpu-count=1"
    assert is_gpu_node(node)
    inference = infer_accelerator(node)
    assert inference is not None and (inference.model.key, inference.source) == ("a100", "provisioner-label")
    cpu = {"karpenter.sh/nodepool": "p", f"{AWS}count": "0", "karpenter.k8s.aws/instance-family": "m5"}
    assert says_gpu(cpu) == "" and not is_gpu_node(view("cpu", labels=cpu))
