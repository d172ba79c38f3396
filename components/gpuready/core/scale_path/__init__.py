"""The scale path of a GPU pool: does a pending GPU pod become a node it runs on (issue #24). Pure."""
