"""Metrics over the score table: the headline report and curves (``evaluation``),
operating points and their intervals (``operating_points``), threshold choice methods
and their expected loss (``threshold_choice``), the resolving power of metrics
(``resolving_power``), and results per segment (``segments``, ``segment_tables``)."""
