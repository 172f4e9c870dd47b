"""The two labs: :mod:`mlp_ref.labs.digits` (Lab A) and :mod:`mlp_ref.labs.charlm` (Lab B).

Each lab has the same parts: ``data``, ``experiment`` (a settings dataclass and the run),
``report`` (the tables the page and the command line print) and ``__main__`` (the command
line, ``python -m mlp_ref.labs.<lab>``). They need the ``labs`` extra
(``pip install "mlp_ref[labs]"``).
"""
