"""Lab B: a character-level MLP language model trained on a list of words.

Modules: ``data`` (vocabulary, words, windows), ``model`` (the model and its hand-written
backward pass), ``experiment`` (settings and the run), ``report`` (the printed tables),
``speed`` (one training step against PyTorch) and the command line
``python -m mlp_ref.labs.charlm``.
"""
