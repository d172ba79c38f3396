# gpuready: two commands from a fresh clone to green.
#   make demo  - offline plans of the example stacks (no Pulumi CLI, no credentials)
#   make test  - ruff, mypy --strict, import-linter contracts, pytest
#   make test-lowest - the offline suite on the lower bounds of pyproject.toml's dependency ranges
# uv comes from PyPI when the machine has none; Python is the machine's own (never downloaded).

SHELL := /bin/bash
PYTHON ?= python3
UV_VERSION := 0.13.8
UV := $(shell command -v uv 2>/dev/null || echo .uv/bin/uv)
export UV_PYTHON_DOWNLOADS := never
export UV_PYTHON := $(PYTHON)
VENV := .venv
BIN := $(VENV)/bin
VENV_LOWEST := .venv-lowest

.PHONY: demo test test-lowest try lint typecheck contracts unit bench install clean policy-pack schema key-docs project-config

install: $(BIN)/gpuready

$(BIN)/gpuready: pyproject.toml uv.lock | $(UV)
	$(UV) sync --frozen
	@touch $@

.uv/bin/uv:
	$(PYTHON) -m venv .uv
	.uv/bin/pip install --quiet --disable-pip-version-check uv==$(UV_VERSION)

DEMO_STACKS := eks-dev aks-dev gke-dev gke-operator eks-karpenter gke-compute-class aks-nap eks-dra aks-dra-operator aks-sku eks-efa gke-queued eks-capacity gke-tcpxo aks-ib

demo: install
	@for stack in $(DEMO_STACKS); do \
	  echo "=== gpuready plan --stack $$stack"; \
	  $(BIN)/gpuready plan --stack $$stack || exit $$?; \
	  echo; \
	done
	@echo "=== gpuready plan --program examples/training_job (gpuready components in a program of your own)"
	@$(BIN)/gpuready plan --program examples/training_job --stack dev || exit $$?
	@echo
	@echo "=== gpuready plan --program examples/wrong_program (a raw Pulumi program; the policy gate must fail it)"
	@$(BIN)/gpuready plan --program examples/wrong_program --stack dev; code=$$?; \
	  if [ $$code -ne 1 ]; then echo "expected exit 1 (mandatory violations), got $$code"; exit 1; fi
	@echo
	@echo "demo: all $(words $(DEMO_STACKS) x y) plans behaved as expected ($(words $(DEMO_STACKS) x) planned with exit 0; examples/wrong_program refused with exit 1, as intended)"

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: install
	$(BIN)/mypy

contracts: install
	$(BIN)/lint-imports

# The suite on every core (pytest-xdist; modules stay whole on one worker, so module fixtures are built once) with
# the 20 slowest tests printed. Bytecode is written even when the environment says not to: the console-script
# and pack subprocesses the tests start would otherwise compile every module they import, every time.
PYTEST_WORKERS ?= auto
unit: install
	env -u PYTHONDONTWRITEBYTECODE $(BIN)/pytest -n $(PYTEST_WORKERS) --dist loadscope --durations=20

# gpuready check / label / verify against a local Kubernetes API stand-in with seeded GPU nodes (no cluster);
# prints the kubeconfig and the commands to run; Ctrl-C stops it (docs/cluster-audit.md "Try it without a cluster").
try: install
	$(BIN)/python -m tools.try_cluster

test: lint typecheck contracts unit

# The tested lower bounds: every direct dependency at the lowest version its range in pyproject.toml allows
# (uv's lowest-direct resolution, not uv.lock; the dev group's tools are pinned), in its own venv, then pytest.
test-lowest: | $(UV)
	$(UV) venv --allow-existing --quiet $(VENV_LOWEST)
	VIRTUAL_ENV=$(VENV_LOWEST) $(UV) pip install --quiet --resolution lowest-direct --group dev --editable .
	$(VENV_LOWEST)/bin/pytest -q

# The publishable policy pack: its wheel into policies/gpu_conventions/wheels (docs/policies.md "Policy pack").
policy-pack: install
	$(BIN)/python tools/policy_pack.py policies/gpu_conventions/wheels

bench: install
	$(BIN)/python bench/plan_scale.py

clean:
	rm -rf $(VENV) $(VENV_LOWEST) .uv .mypy_cache .ruff_cache

# The component package's schema (schema.json), generated from the config models; tests/package fails when stale.
schema: install
	$(BIN)/python -m gpuready.package.schema

# The pool and stack key reference in docs/pool-keys.md and docs/stack-keys.md, generated from the config models;
# tests/tools/test_key_docs.py fails when stale.
key-docs: install
	$(BIN)/python -m tools.key_docs --write

# Pulumi.yaml's config block, gpuready new's project_config.yaml and its flags (new_project/flags.py), generated
# from the registered clouds and the settings models; tests/tools/test_project_config.py fails when stale.
project-config: install
	$(BIN)/python -m tools.project_config --write
