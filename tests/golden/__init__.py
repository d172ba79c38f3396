"""Golden tests: findings, label plans, plans and violations pinned byte for byte (regenerate: README of this dir)."""
