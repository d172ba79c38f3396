"""The next step after a cluster could not be reached: what to run or check, appended to the error line.

The API server refused the connection (nothing listens, or the name does not resolve) or never answered: the
cause is on the path to it (the address in the kubeconfig, a private endpoint behind a VPN or bastion, a firewall)
or the cluster is down. ``kubectl cluster-info`` with the same kubeconfig and context tells these apart.
Credentials (401) and permissions (403) carry their own next step where they are raised.
"""

from __future__ import annotations

from gpuready.kube.errors import KubeUnreachableError

SERVER_OF_CONTEXT = "kubectl config view --minify -o jsonpath='{.clusters[0].cluster.server}'"


def with_next_step(error: Exception | str, kubeconfig: str | None = None, context: str | None = None) -> str:
    """``str(error)``, and for an unreachable API server what to do next."""
    message = str(error)
    if not isinstance(error, KubeUnreachableError):
        return message
    flags = "".join(f" --{name} {value}" for name, value in (("kubeconfig", kubeconfig), ("context", context)) if value)
    first = "is the address right" if error.refused else "is the endpoint reachable from here"
    return (
        f"{message}. Next: run kubectl cluster-info{flags} (same kubeconfig and context); {first} "
        f"({SERVER_OF_CONTEXT}); a private endpoint needs the VPN or bastion connected first; expired cloud "
        "credentials are refreshed with aws eks update-kubeconfig, az aks get-credentials or "
        "gcloud container clusters get-credentials"
    )
