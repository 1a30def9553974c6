"""Uncertainty of the estimates: the bootstrap, DeLong's variance and test, and the
papers' pair-sampling estimators (``pairs``)."""
