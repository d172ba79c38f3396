"""Choose the kubeconfig, context and credentials the way kubectl does.

``--kubeconfig`` names one file that must exist; otherwise every file in ``KUBECONFIG`` (``os.pathsep``
separated, missing files skipped) is merged with kubectl's rule "the first file to set a name or the
current context wins"; otherwise ``~/.kube/config``. Relative certificate and token-file paths are resolved
against the file that holds them. A user whose ``exec`` runs a command the caller's ``credentials`` recognise (a
cloud's ``exec_credentials``: ``aws eks get-token`` or ``aws-iam-authenticator token``) gets its credential
in-process instead.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import msgspec
import yaml
from lightkube.config.kubeconfig import KubeConfig, SingleConfig
from lightkube.config.models import User
from lightkube.core.exceptions import ConfigError

from gpuready.core.yaml_limits import YamlLimitError, load_yaml, yaml_problem
from gpuready.errors import shown
from gpuready.kube.errors import KubeConfigError
from gpuready.kube.exec_credentials import InProcessCredential, Recogniser
from gpuready.kube.exec_info import exec_cluster, provides_cluster_info
from gpuready.kube.redaction import redact_url
from gpuready.record import record

_NAMED = ("clusters", "contexts", "users")
_PATH_FIELDS = {
    "clusters": ("cluster", ("certificate-authority",)),
    "users": ("user", ("client-certificate", "client-key", "tokenFile")),
}


@record(frozen=True, slots=True)
class KubeTarget:
    """The cluster and credentials one command talks to."""

    config: SingleConfig
    """lightkube's view of the chosen context (cluster, user, namespace)."""
    sources: tuple[Path, ...]
    """The kubeconfig files that were merged."""
    user_name: str
    in_process: InProcessCredential | None
    """Set when a cloud recognises the user's exec plugin (``aws eks get-token``): the credential is got in-process."""
    exec_cluster: Mapping[str, Any] | None = None
    """``spec.cluster`` for the exec plugin when its ``provideClusterInfo`` is true (``exec_info``), else None."""

    @property
    def context(self) -> str:
        return self.config.context_name

    @property
    def server(self) -> str:
        """The server URL as it may be printed (``user:password@`` replaced by ``***@``)."""
        return redact_url(self.config.cluster.server)

    def describe(self) -> str:
        """Who we are, for error messages: context, user and how it authenticates."""
        return f"context {self.context!r}, user {self.user_name or '<none>'!r} ({self.auth_kind()}) at {self.server}"

    def auth_kind(self) -> str:
        user = self.config.user
        if self.in_process is not None:
            return self.in_process.describe()
        if user is None:
            return "no credentials"
        if user.token or user.token_file:
            return "bearer token"
        if user.client_cert or user.client_cert_data:
            return "client certificate"
        if user.exec is not None:
            return f"exec plugin {user.exec.command}"
        if user.username:
            return "basic auth"
        return "no credentials"


def kubeconfig_paths(explicit: str | None, env: Mapping[str, str], home: Path) -> list[Path]:
    """The files to read, in precedence order, as kubectl picks them."""
    if explicit:
        path = Path(explicit).expanduser()
        if not path.is_file():
            raise KubeConfigError(f"--kubeconfig: file not found; got {shown(explicit)}")
        return [path]
    listed = env.get("KUBECONFIG", "")
    if listed:
        paths = [Path(p).expanduser() for p in listed.split(os.pathsep) if p]
        found = [p for p in dict.fromkeys(paths) if p.is_file()]
        if not found:
            raise KubeConfigError(f"KUBECONFIG: none of its files exist; got {listed!r}. Pass --kubeconfig FILE")
        return found
    default = home / ".kube" / "config"
    if not default.is_file():
        raise KubeConfigError(f"no kubeconfig: {default} does not exist. Pass --kubeconfig FILE or set KUBECONFIG")
    return [default]


def merge_kubeconfigs(documents: Sequence[tuple[Path, Mapping[str, Any]]]) -> dict[str, Any]:
    """kubectl's merge: the first file to define a cluster, context or user name (or current-context) wins."""
    merged: dict[str, Any] = {name: [] for name in _NAMED}
    seen: dict[str, set[str]] = {name: set() for name in _NAMED}
    for path, document in documents:
        if not merged.get("current-context") and document.get("current-context"):
            merged["current-context"] = document["current-context"]
        for section in _NAMED:
            for entry in document.get(section) or ():
                name = entry.get("name") if isinstance(entry, Mapping) else None
                if not isinstance(name, str) or name in seen[section]:
                    continue
                seen[section].add(name)
                merged[section].append(_absolute_paths(section, dict(entry), path.parent))
    return merged


def _absolute_paths(section: str, entry: dict[str, Any], base: Path) -> dict[str, Any]:
    if section not in _PATH_FIELDS:
        return entry
    inner_key, fields = _PATH_FIELDS[section]
    inner = dict(entry.get(inner_key) or {})
    for field in fields:
        value = inner.get(field)
        if isinstance(value, str) and value and not Path(value).expanduser().is_absolute():
            inner[field] = str(base / value)
    entry[inner_key] = inner
    return entry


def load_target(
    kubeconfig: str | None = None,
    context: str | None = None,
    env: Mapping[str, str] | None = None,
    *,
    credentials: Recogniser | None = None,
) -> KubeTarget:
    """Read the kubeconfig(s) and select ``context`` (default: the current context); ``credentials`` recognises
    the exec plugins run in-process (None: every plugin runs as it is)."""
    environ = os.environ if env is None else env
    paths = kubeconfig_paths(kubeconfig, environ, Path(environ.get("HOME", str(Path.home()))))
    documents = [(p, _read(p)) for p in paths]
    return _select(documents, ", ".join(str(p) for p in paths), context, credentials)


def context_names(kubeconfig: str | None = None, env: Mapping[str, str] | None = None) -> list[str]:
    """Every context of the kubeconfig(s) kubectl would read, in file order (``--all-contexts``)."""
    environ = os.environ if env is None else env
    paths = kubeconfig_paths(kubeconfig, environ, Path(environ.get("HOME", str(Path.home()))))
    merged = merge_kubeconfigs([(p, _read(p)) for p in paths])
    return [str(c["name"]) for c in merged["contexts"]]


def load_target_from_text(
    text: str, context: str | None = None, *, source: str = "the kubeconfig", credentials: Recogniser | None = None
) -> KubeTarget:
    """Select ``context`` from kubeconfig *content* held in memory (never written to disk). ``source`` names it
    in errors (e.g. the config key it came from); relative file paths in it resolve against the working directory;
    ``credentials`` as for ``load_target``."""
    document = _parse(text, source)
    return _select([(Path.cwd() / "kubeconfig", document)], source, context, credentials)


def _select(
    documents: list[tuple[Path, Mapping[str, Any]]], where: str, context: str | None, credentials: Recogniser | None
) -> KubeTarget:
    merged = merge_kubeconfigs(documents)
    chosen = context or merged.get("current-context")
    contexts = sorted(str(c["name"]) for c in merged["contexts"])
    if not chosen:
        raise KubeConfigError(f"{where}: no current-context; pass --context. Known: {', '.join(contexts) or 'none'}")
    if chosen not in contexts:
        raise KubeConfigError(
            f"--context: unknown context; got {shown(chosen)}. Known: {', '.join(contexts) or 'none'}"
        )
    try:
        single = KubeConfig.from_dict(merged, fname=documents[0][0]).get(chosen)
    except (ConfigError, KeyError, TypeError, ValueError, msgspec.ValidationError) as error:
        raise KubeConfigError(f"{where}: context {chosen!r} is unusable: {_shape_problem(error)}") from error
    if single is None:  # only when no context at all, excluded above
        raise KubeConfigError(f"{where}: no context")
    user_name = single.context.user or ""
    if single.user is None:  # kubectl allows an anonymous context; lightkube insists on a user
        single = single._replace(user=User())
    user = single.user
    in_process = None
    if user is not None and user.exec is not None and credentials is not None:
        exec_env = {v.name: v.value for v in user.exec.env or ()}
        in_process = credentials(user.exec.command, user.exec.args or [], exec_env)
    cluster_info = _exec_cluster(merged, user_name, single.context.cluster, where)
    return KubeTarget(single, tuple(p for p, _ in documents), user_name, in_process, cluster_info)


def _exec_cluster(merged: Mapping[str, Any], user_name: str, cluster_name: str, where: str) -> dict[str, Any] | None:
    """What the user's exec plugin is told of the cluster, when its ``provideClusterInfo`` asks (``exec_info``)."""
    user = _entry(merged, "users", user_name, "user")
    user_exec = user.get("exec")
    if not isinstance(user_exec, Mapping) or not provides_cluster_info(user_exec):
        return None
    return exec_cluster(_entry(merged, "clusters", cluster_name, "cluster"), where)


def _entry(merged: Mapping[str, Any], section: str, name: str, inner: str) -> Mapping[str, Any]:
    for entry in merged[section]:
        if entry.get("name") == name and isinstance(entry.get(inner), Mapping):
            return dict(entry[inner])
    return {}


def _read(path: Path) -> Mapping[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise KubeConfigError(f"{path}: cannot read kubeconfig: {type(error).__name__}") from error
    return _parse(text, str(path))


def _parse(text: str, where: str) -> Mapping[str, Any]:
    """The kubeconfig document. Errors name ``where`` and a line number, never the text: it holds credentials."""
    try:
        document = load_yaml(text)
    except YamlLimitError as error:
        raise KubeConfigError(f"{where}: not a usable kubeconfig: {error}") from None
    except yaml.YAMLError as error:
        raise KubeConfigError(f"{where}: not valid YAML: {yaml_problem(error)}") from None
    if document is None:
        return {}
    if not isinstance(document, Mapping):
        raise KubeConfigError(f"{where}: not a kubeconfig (expected a mapping, got {type(document).__name__})")
    return document


def _shape_problem(error: Exception) -> str:
    """What lightkube disliked, without the values it may quote (a token, a key): the exception type and, for
    msgspec's validation errors, the field path only."""
    if isinstance(error, msgspec.ValidationError):
        text = str(error)
        at = text.rfind(" - at `")
        return f"a field has the wrong type{' (at ' + text[at + 7 :].rstrip('`') + ')' if at >= 0 else ''}"
    if isinstance(error, ConfigError):  # lightkube's own wording names contexts and files, never credentials
        return str(error)
    if isinstance(error, KeyError):
        return f"missing key {error.args[0]!r}" if error.args and isinstance(error.args[0], str) else "missing key"
    return f"{type(error).__name__} in its clusters, users or contexts; compare with kubectl config view"
