"""Offline plans: run any Pulumi Python program under the mock runtime, without the CLI or credentials."""
