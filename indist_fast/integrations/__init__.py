"""Other libraries' side: scikit-learn scorers and estimators (``sklearn``) and
matplotlib figures (``plot``). Each imports its library on first use of the module."""
