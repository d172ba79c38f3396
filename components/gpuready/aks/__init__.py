"""AKS GPU agent pools: a pure plan (``plan``) and the Pulumi component (``node_pool``)."""
