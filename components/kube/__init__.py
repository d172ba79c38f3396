"""Kubernetes API access for verification: kubeconfig selection, EKS tokens, nodes LIST/WATCH/PATCH with retries.

The only package that imports lightkube or botocore; everything it returns is plain data.
"""
