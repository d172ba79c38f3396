"""Check one GPU node against its expectation: readiness, taints, labels and GFD's product. Pure: no I/O.

Resource checks (GPUs advertised, sharing, MIG) belong to the node's advertiser (``advertised``), health checks
(conditions, unhealthy devices, driver upgrades) to ``health``; ``check_node`` runs them all.
On a gpuready pool every mismatch is an error; on a foreign node, missing conventions are warnings.
"""

from __future__ import annotations

from gpuready.core.catalog.gpus import GPU_MODELS
from gpuready.core.clouds.cloud_node_labels import CloudNodeLabels
from gpuready.core.scheduling import (
    GPU_TAINT_KEY,
    LABEL_ACCELERATOR,
    LABEL_GPU_PRESENT,
    LABEL_SKYPILOT_ACCELERATOR,
)
from gpuready.core.taints import Taint
from gpuready.verify import findings as f
from gpuready.verify.advertised import check_advertised
from gpuready.verify.expectations import Expectation
from gpuready.verify.fabric import check_fabric
from gpuready.verify.findings import Finding, Severity, show_node
from gpuready.verify.health import check_health, merge_health
from gpuready.verify.inference import catalog_instance_type
from gpuready.verify.node_labels import LABEL_GFD_PRODUCT, LABEL_INSTANCE_TYPE, accelerator_labels
from gpuready.verify.nodes import NodeView
from gpuready.verify.provisioned import NodeOrigin

_ACCELERATOR_LABELS = (LABEL_ACCELERATOR, LABEL_SKYPILOT_ACCELERATOR)
_TAINTS_PATH = "{.spec.taints}"


def check_node(view: NodeView, expectation: Expectation, origin: NodeOrigin | None = None) -> list[Finding]:
    """Every finding for ``view`` against ``expectation``, in a stable order; ``origin`` (the elastic provisioner
    that made the node) makes the fixes name the pool object new nodes come from."""
    found = _readiness(view)
    found += _taints(view, expectation, origin)
    found += _labels(view, expectation, origin)
    found += _accelerator_conflict(view, expectation)
    found += _product(view, expectation)
    found += check_fabric(view, expectation)
    return found + merge_health(check_advertised(view, expectation), check_health(view, expectation))


def _severity(expectation: Expectation) -> Severity:
    return "warning" if expectation.inferred else "error"


def _readiness(view: NodeView) -> list[Finding]:
    found: list[Finding] = []
    if not view.ready:
        found.append(Finding(
            node=view.name, severity="error", code=f.NODE_NOT_READY,
            message=f"node: not Ready; got {view.not_ready_reason!r}",
            cause="the kubelet has not reported Ready (still joining, network or runtime not ready, or lost)",
            fix=f"wait for the node to join; if it stays NotReady read its events: kubectl describe node {view.name}",
            reproduce=show_node(view.name, '{.status.conditions[?(@.type=="Ready")]}'),
        ))  # fmt: skip
    if view.unschedulable:
        found.append(Finding(
            node=view.name, severity="warning", code=f.NODE_CORDONED,
            message="node: cordoned (spec.unschedulable=true)",
            cause="someone or an autoscaler drained the node; no new GPU pods will land on it",
            fix=f"if the drain is over: kubectl uncordon {view.name}",
            reproduce=show_node(view.name, "{.spec.unschedulable}"),
        ))  # fmt: skip
    return found


def _taints(view: NodeView, expectation: Expectation, origin: NodeOrigin | None) -> list[Finding]:
    found: list[Finding] = []
    gpu_key = expectation.taints[0].key if expectation.taints else GPU_TAINT_KEY  # the GPU taint comes first
    for want in expectation.taints:
        same_key = [t for t in view.taints if t.key == want.key]
        if any(_taint_ok(t, want, expectation.exact_taint_values) for t in same_key):
            continue
        is_gpu = want.key == gpu_key
        spelled = str(want)
        if same_key:
            got = ", ".join(str(t) for t in same_key)
            found.append(Finding(
                node=view.name, severity=_severity(expectation), code=f.GPU_TAINT_WRONG if is_gpu else f.TAINT_MISSING,
                message=f"taint {want.key}: wrong value or effect; got {got!r}, expected {spelled!r}",
                cause="a toleration with operator Equal for the expected value will not match it, so the device "
                "plugin or workloads may never schedule there (NVIDIA/k8s-device-plugin#1934)",
                fix=f"kubectl taint node {view.name} {want.key}- && kubectl taint node {view.name} {spelled}",
                reproduce=show_node(view.name, _TAINTS_PATH),
            ))  # fmt: skip
            continue
        cause = (
            "EKS and AKS never taint GPU nodes, and GKE only does when a non-GPU pool exists, so CPU pods can "
            "fill the GPU node"
            if is_gpu
            else "the taint was added to the pool after this node was created, or removed by hand"
        )
        found.append(Finding(
            node=view.name, severity=_severity(expectation), code=f.GPU_TAINT_MISSING if is_gpu else f.TAINT_MISSING,
            message=f"taint {want.key}: missing; expected {spelled!r}",
            cause=cause,
            fix=(f"declare the taint {_on_pool(origin, 'taints')} so new nodes get it; for this node now: "
                 f"kubectl taint node {view.name} {spelled}"),
            reproduce=show_node(view.name, _TAINTS_PATH),
        ))  # fmt: skip
    return found


def _taint_ok(have: Taint, want: Taint, exact: bool) -> bool:
    if exact:
        return have == want
    return have.effect in ("NoSchedule", "NoExecute")


def _labels(view: NodeView, expectation: Expectation, origin: NodeOrigin | None) -> list[Finding]:
    found: list[Finding] = []
    if expectation.inferred and expectation.accelerator is None:
        found.append(Finding(
            node=view.name, severity="warning", code=f.ACCELERATOR_UNKNOWN,
            message="accelerator: cannot tell which GPU this node has",
            cause=f"no {LABEL_GFD_PRODUCT} (GPU Feature Discovery), no cloud accelerator label, and an instance "
            "type gpuready's catalog does not list",
            fix=f"run GPU Feature Discovery, or label it yourself: kubectl label node {view.name} "
            f"{LABEL_ACCELERATOR}=<model> {LABEL_SKYPILOT_ACCELERATOR}=<model>",
            reproduce=show_node(view.name, "{.metadata.labels}"),
        ))  # fmt: skip
    for key, want in expectation.labels.items():
        have = view.labels.get(key)
        if have == want:
            continue
        code, cause, fix = _label_advice(view.name, key, want, have, expectation)
        if origin is not None and expectation.inferred:  # gpuready's own pools already template them
            fix += f"; so that the nodes {origin.facts.title} makes next carry it, add it {_on_pool(origin, 'labels')}"
        problem = "missing" if have is None else "wrong value"
        got = "" if have is None else f"got {have!r}, "
        found.append(Finding(
            node=view.name, severity=_severity(expectation), code=code,
            message=f"label {key}: {problem}; {got}expected {want!r}",
            cause=cause, fix=fix,
            reproduce=f"kubectl get node {view.name} -L {key}",
        ))  # fmt: skip
    return found


def _label_advice(node: str, key: str, want: str, have: str | None, expectation: Expectation) -> tuple[str, str, str]:
    relabel = f"gpuready label --yes -l kubernetes.io/hostname={node}"
    by_hand = f"kubectl label node {node} {key}={want} --overwrite"
    if key == LABEL_GPU_PRESENT:
        code = f.GPU_PRESENT_MISSING if have is None else f.GPU_PRESENT_WRONG
        cause = (
            "the GPU Operator and NVIDIA device plugin select GPU nodes by this label (or NFD's "
            "pci-10de.present); without it they may never run here"
        )
        return code, cause, relabel if have is None else by_hand
    if key in _ACCELERATOR_LABELS:
        code = f.ACCELERATOR_LABEL_MISSING if have is None else f.ACCELERATOR_LABEL_WRONG
        if have is not None and have.lower() == want:
            cause = "SkyPilot ignores accelerator labels that are not lowercase (skypilot#2652)"
        elif have is not None:
            model = GPU_MODELS.get(expectation.accelerator or "")
            has = f" has {model.display}" if model is not None else f" means {want}"
            says = _label_model(key, have)
            cause = (
                f"mislabeled: {key}={have} names {says}, but {_accelerator_source(expectation)}"
                f"{has} (set by hand, copied from another node, or left from an earlier instance type)"
            )
            fix = f"{relabel} (or by hand: {by_hand})"
            return code, cause + "; workloads selecting on it land on the wrong GPU", fix
        elif expectation.inferred:
            cause = "the node was not created by a gpuready pool and nobody labeled it"
        else:
            cause = "the node predates the label on its pool, or the label was changed by hand"
        return code, cause + "; workloads selecting on it will not schedule here", relabel
    code = f.LABEL_MISSING if have is None else f.LABEL_WRONG
    cause = "the pool sets this label at creation; the node predates the change or it was edited by hand"
    return code, cause, f"update the pool, or for this node now: {by_hand}"


def _on_pool(origin: NodeOrigin | None, part: str) -> str:
    """Where a pool declares its nodes' ``taints`` or ``labels``: the node pool, or the elastic pool object's field."""
    if origin is None:
        return "on the node pool"
    path = origin.facts.taints_path if part == "taints" else origin.facts.labels_path
    return f"in {origin.where} ({path})"


def _accelerator_source(expectation: Expectation) -> str:
    """What the expected GPU model was read from, for messages: ``instance type g6.xlarge``, ``pool gpu``."""
    if expectation.accelerator_evidence:
        return expectation.accelerator_evidence
    return f"pool {expectation.pool}" if expectation.pool else "the node"


def _label_model(key: str, value: str) -> str:
    """The GPU an accelerator label value names, for messages (``A100 (40 GB)``, or ``another GPU``)."""
    field = "key" if key == LABEL_ACCELERATOR else "skypilot"
    found = [m for m in GPU_MODELS.values() if getattr(m, field) == value.lower()]
    return found[0].display if len(found) == 1 else "another GPU"


def _accelerator_conflict(view: NodeView, expectation: Expectation) -> list[Finding]:
    """A cloud's accelerator label naming another GPU than the node's machine type has (fixed-GPU types)."""
    return [found for cloud in accelerator_labels() for found in _label_conflict(view, expectation, cloud)]


def _label_conflict(view: NodeView, expectation: Expectation, cloud: CloudNodeLabels) -> list[Finding]:
    label = cloud.accelerator
    value = view.labels.get(label, "")
    labeled = cloud.accelerator_model(value) if value else None
    listed = catalog_instance_type(view)
    if labeled is None or listed is None or labeled.key == listed.gpu:
        return []
    has = GPU_MODELS[listed.gpu]
    name = cloud.accelerator_value(has)
    fix = (
        f"kubectl label node {view.name} {label}={name} --overwrite"
        if name
        else f"kubectl label node {view.name} {label}-"
    )
    return [Finding(
        node=view.name, severity=_severity(expectation), code=f.ACCELERATOR_LABEL_CONFLICT,
        message=f"label {label}: names another GPU than the instance type; got {value!r} "
        f"({labeled.display}), instance type {listed.name} has {has.display}",
        cause=f"mislabeled: {cloud.accelerator_origin} and a machine type with built-in "
        "GPUs has one model, so the label was edited by hand or copied from another node; workloads selecting on "
        "it land on the wrong GPU (gpuready trusts the instance type)",
        fix=fix,
        reproduce=f"kubectl get node {view.name} -L {label} -L {LABEL_INSTANCE_TYPE}",
    )]  # fmt: skip


def _product(view: NodeView, expectation: Expectation) -> list[Finding]:
    product = view.labels.get(LABEL_GFD_PRODUCT)
    model = GPU_MODELS.get(expectation.accelerator or "")
    if product is None:
        if not expectation.gfd_expected:
            return []
        return [Finding(
            node=view.name, severity="warning", code=f.GFD_LABELS_MISSING,
            message=f"label {LABEL_GFD_PRODUCT}: missing; GPU Feature Discovery labels expected",
            cause="the GPU Operator's GFD has not run on the node yet, or NFD rejects the nvidia.com label namespace",
            fix=f"kubectl get pods -A -o wide --field-selector spec.nodeName={view.name}",
            reproduce=f"kubectl get node {view.name} -L {LABEL_GFD_PRODUCT}",
        )]  # fmt: skip
    if model is None or model.matches_product(product):
        return []
    return [Finding(
        node=view.name, severity="error", code=f.GPU_PRODUCT_MISMATCH,
        message=f"label {LABEL_GFD_PRODUCT}: GPU is not the expected model; got {product!r}, expected {model.display}",
        cause="the node runs a different instance type than the pool declares, or the pool label was copied "
        "onto another node",
        fix=f"check the pool's instance type, then: kubectl get node {view.name} -L node.kubernetes.io/instance-type",
        reproduce=f"kubectl get node {view.name} -L {LABEL_GFD_PRODUCT}",
    )]  # fmt: skip
