"""EKS GPU node groups: a pure plan (``plan``) and the Pulumi component (``node_pool``)."""
