"""Design optimization: search a model's design parameters, within bounds, for the best value of
one simulated metric (``run.py``), on the fitting package's optimizer loop."""
