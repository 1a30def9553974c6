"""The score table in score ranges swept where they live (``ranges``), and the Dask
driver built on it (``dask``)."""
