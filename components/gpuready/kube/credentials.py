"""The httpx2 client that carries a target's TLS settings and credentials.

lightkube's ``client_adapter`` builds it from the kubeconfig (TLS, token, token file, client certificate, basic
auth, proxies from the environment), except for the two credentials that take time to get, which run within the
command's deadline instead: a user whose exec plugin a cloud runs in-process (``exec_credentials``: ``aws eks
get-token``, minted with botocore) gets that cloud's auth, and any other exec plugin ``ExecCredentialAuth`` (run as
untrusted input, its client certificates loaded into the TLS context).
"""

from __future__ import annotations

import httpx2
from lightkube.config.client_adapter import Client as http_client_for
from lightkube.config.client_adapter import ConnectionParams
from lightkube.config.models import User
from lightkube.core.exceptions import ConfigError

from gpuready.kube.errors import KubeConfigError
from gpuready.kube.exec_credentials import DeadlineAuth
from gpuready.kube.exec_plugin import ExecCredentialAuth
from gpuready.kube.kubeconfig import KubeTarget
from gpuready.kube.redaction import scrub


def credentialed_http(
    target: KubeTarget, timeout: float
) -> tuple[httpx2.Client, DeadlineAuth | ExecCredentialAuth | None]:
    """The client, and its auth when that must be told the command's deadline (``deadline_of``)."""
    params = ConnectionParams(timeout=httpx2.Timeout(timeout), trust_env=True)
    user = target.config.user
    try:
        if target.in_process is not None:
            auth = target.in_process.auth()
            http = http_client_for(target.config._replace(user=User()), params)
            http.auth = auth
            return http, auth
        if user is not None and user.exec is not None:
            settings = params.httpx_params(target.config._replace(user=User()))  # TLS only: no lightkube exec
            plugin = ExecCredentialAuth(user.exec, settings["verify"], cluster=target.exec_cluster)
            return httpx2.Client(**{**settings, "auth": plugin}), plugin
        return http_client_for(target.config, params), None
    except (ConfigError, OSError, ValueError) as error:
        where = ", ".join(str(p) for p in target.sources)
        raise KubeConfigError(
            f"{where}: {target.describe()}: cannot set up the connection (TLS files or certificate data): "
            f"{type(error).__name__}: {scrub(str(error))}"
        ) from error
