"""The same numbers at any size: files evaluated in or out of core (``files``; a
table of several models or segments by ``file_plan``, their chunks counted and read
by ``file_stream``, their data parked on disk by ``run_files``), chunks accumulated
(``streaming``), score ranges swept in parts (``ranges``) and the per-segment blocks
distributed engines merge (``segment_blocks``). The Dask adapter,
``indist_fast.dask``, drives these."""
