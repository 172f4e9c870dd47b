"""Lab A: an MLP on handwritten digits (scikit-learn's 8x8 digits, or MNIST files you supply).

Modules: ``data`` (the splits, MNIST loading), ``baselines`` (scikit-learn models on the
same splits), ``experiment`` (settings and the run), ``report`` (the printed tables) and the
command line ``python -m mlp_ref.labs.digits``.
"""
