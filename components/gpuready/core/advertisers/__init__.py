"""How GPUs are advertised to Kubernetes: one interface (``interface.Advertiser``), an ordered registry
(``registry``), and one implementation per way (``extended_resources`` today). Pure."""
