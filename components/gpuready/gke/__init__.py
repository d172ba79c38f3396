"""GKE GPU node pools: a pure plan (``plan``) and the Pulumi component (``node_pool``)."""
