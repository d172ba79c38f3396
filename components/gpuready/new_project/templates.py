"""Constant files of a new project and its CI workflow."""

from __future__ import annotations

MAIN = '''"""The Pulumi program: gpuready's stack program on this stack's gpuready:* config."""

from gpuready.stack_program import run

run()
'''

GITIGNORE = """venv/
__pycache__/
*.pyc
plan*.json
"""


def workflow(stack: str) -> str:
    """A GitHub Actions workflow: on every pull request, plan the stack offline (policy gate included), plan the base
    branch the same way, and ``gpuready diff`` the two (exit 1 when GPU capacity is at risk)."""
    return f"""# Offline plan of stack {stack} on every pull request, diffed against the base branch's plan.
# gpuready plan exits 1 on mandatory policy violations, 2 on invalid config; gpuready diff exits 1 when a GPU
# pool would be replaced, deleted or left with fewer schedulable GPUs. No cloud credentials are needed.
name: gpuready plan
on:
  pull_request:
jobs:
  plan:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
        with:
          fetch-depth: 0
      - uses: actions/setup-python@v5
        with:
          python-version: "3.12"
      - run: pip install -r requirements.txt
      - name: Plan the change
        run: gpuready plan --program . --stack {stack} -o json > plan-new.json
      - name: Plan the base branch
        run: |
          git worktree add ../base "${{{{ github.event.pull_request.base.sha }}}}"
          gpuready plan --program ../base --stack {stack} -o json > plan-old.json
      - name: Diff against the base branch's plan
        run: gpuready diff plan-old.json plan-new.json
      - uses: actions/upload-artifact@v4
        if: always()
        with:
          name: gpuready-plan-{stack}
          path: plan-*.json
"""
