"""Kubernetes API access for verification: kubeconfig selection, EKS tokens, nodes LIST/WATCH/PATCH with retries.

The verbs go through lightkube's ``Client`` (``nodes_api``); ``transport`` adds bounded retries and call counts.

The only package that imports lightkube or botocore; everything it returns is plain data.
"""
