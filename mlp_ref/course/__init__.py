"""Turning results into page content: tables, figures, worked traces and checked claims.

The math lives in the core modules of :mod:`mlp_ref`; the modules here only present it.
Import them by name (``from mlp_ref.course.figures import figure_html``).
"""
