"""The two labs: :mod:`mlp_ref.labs.digits` (Lab A) and :mod:`mlp_ref.labs.charlm` (Lab B).

Each lab has the same parts: ``data``, ``experiment`` (a settings dataclass and the run),
``report`` (the tables the page and the command line print) and ``__main__`` (the command
line, ``python -m mlp_ref.labs.<lab>``). :mod:`mlp_ref.labs.notebook` starts and ends a lab
notebook (its language, whether it is the page's run); the ``check_*`` functions of each
``report`` check the statements a lab page makes about its run (``mlp_ref.course.claims``).
They need the ``labs`` extra (``pip install "mlp_ref[labs]"``).
"""
