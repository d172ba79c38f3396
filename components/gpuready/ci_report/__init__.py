"""Results for CI systems: SARIF 2.1.0, JUnit XML and GitHub Actions workflow annotations (``formats``)."""

CI_FORMATS = ("sarif", "junit", "github")
"""The ``-o`` values of ``plan`` and ``diff`` for CI systems: SARIF 2.1.0, JUnit XML, GitHub Actions annotations."""
