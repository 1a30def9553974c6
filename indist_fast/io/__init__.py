"""Prediction logs in: columns read from files, folders and DataFrames, checked and
handed to the engine as rows. This area imports only the engine (``_core``) and
``errors``; evaluating what it reads is the business of the areas above it."""
