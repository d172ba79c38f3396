"""How GPU capacity is made: one interface (``interface.Provisioner``), a registry keyed by (cloud, provisioner)
(``registry``), and one pure implementation per way, in the cloud's package (``gpuready/<cloud>/capacity.py``)."""
