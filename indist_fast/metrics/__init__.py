"""Metrics over the score table: the headline report and curves (``evaluation``),
operating points and their intervals (``operating_points``), threshold choice methods
and their expected loss (``threshold_choice``), the resolving power of metrics
(``resolving_power``), and results per segment (``segments``, ``segment_tables``).

``operating_points``, ``threshold_choice`` and ``resolving_power`` are the modules to
import from; each re-exports its whole ``__all__`` from the modules beside it:

- operating points: ``confusion_counts`` (the points of a table and ``confusion``),
  ``threshold_criteria`` (``best_threshold``), ``roc_dominance`` (``dominates``);
- threshold choice: ``cost_model`` (the cost proportion's distribution, ``LossCurve``,
  the one sweep the methods read), ``method_registry`` (the methods),
  ``roc_hull`` (hull, refinement loss, hull calibration), ``method_comparison``
  (``compare_methods``), ``loss_metrics`` (the metrics the methods equal);
- resolving power: ``score_models`` (the sampling models, measuring metrics on a
  sample), ``signal_curves`` (``signal_curve``), ``noise_resolution`` (``noise``,
  ``Resolution``).

``curve_points`` holds the curve thinning, hull corners, bins and model names that
plots and pages share.
"""
