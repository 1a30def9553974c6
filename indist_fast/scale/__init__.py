"""The same numbers at any size: files evaluated in or out of core (``files``),
chunks accumulated (``streaming``), score ranges swept in parts (``ranges``) and the
per-segment blocks distributed engines merge (``segment_blocks``). The Dask adapter,
``indist_fast.dask``, drives these."""
