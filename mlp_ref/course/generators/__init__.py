"""The code behind the pages' tables, figures and traces: one module per page.

A page calls each generator with one line in an exec fence (``print(lesson07.spread_figure())``),
so the English page and its Russian twin run the same code; the words of both editions are in
the generator, through :func:`mlp_ref.course.i18n.say`.
"""
