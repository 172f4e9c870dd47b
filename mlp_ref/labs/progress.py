"""Progress bars of the two labs: tqdm on the command line, one redrawn line in a notebook."""

from __future__ import annotations

import sys
import time

from mlp_ref.course.i18n import language, say

#: A notebook's bar's words in Russian (the command line's tqdm bar is English, as are its tables).
_RU = {"fits": "обучение", "fit": "модель", "steps": "шаги", "step": "шаг"}
#: tqdm's own bar with its rate said in Russian: tqdm writes the rate as "4.67модель/s", with the English "s".
_RU_BAR = "{l_bar}{bar}| {n_fmt}/{total_fmt} [{elapsed}<{remaining}, {rate_ru}{postfix}]"


class Ticker:
    """Advances a progress bar (or nothing) by one unit (a fit, a step) at a time.

    Parameters
    ----------
    progress : bool or callable
        ``True``: a tqdm bar on stderr; a callable: a tqdm-like factory called as
        ``progress(total=..., desc=..., unit=...)`` (a notebook passes :class:`NotebookProgress`);
        ``False`` or None: silent.
    total : int
        Units in the whole run.
    unit : str
        What one call counts, ``"fit"`` or ``"step"``.
    """

    def __init__(self, progress, total: int, unit: str = "fit"):
        self.bar = None
        if progress is True:
            from tqdm import tqdm  # imported lazily: the labs extra (a missing one is explained by labs.cli)
            self.bar = tqdm(total=total, desc=f"{unit}s", unit=unit, file=sys.stderr)
        elif callable(progress):  # a notebook's bar speaks the notebook's language
            desc = f"{unit}s"
            self.bar = progress(total=total, desc=say(desc, ru=_RU.get(desc, desc)), unit=say(unit, ru=_RU.get(unit, unit)))
        elif progress is not False and progress is not None:
            raise TypeError(f"progress: expected a bool or a tqdm-like factory, received {progress!r}")

    def __call__(self, label: str) -> None:
        if self.bar is not None:
            self.bar.set_postfix_str(label, refresh=False)
            self.bar.update(1)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


class NotebookProgress:
    """A progress bar for Jupyter that redraws one output in place, without ipywidgets.

    tqdm writes carriage returns to a stream; a notebook saved to HTML keeps every redraw as
    a separate line. This bar instead updates one display (``display_id``), so the saved
    notebook holds only its last state. It accepts what :func:`run_lab` passes to a
    progress factory: ``NotebookProgress(total=..., desc=..., unit=...)``, then
    ``set_postfix_str``, ``update`` and ``close``. Redraws at most every ``interval`` seconds.
    """

    def __init__(self, total: int, desc: str = "", unit: str = "it", interval: float = 0.5):
        from IPython.display import display  # imported lazily: only notebooks need it

        self.total, self.desc, self.unit, self.interval = int(total), desc, unit, float(interval)
        self.n, self.postfix = 0, ""
        self.start = self.last_draw = time.perf_counter()
        # Outside a notebook (a lab run as a script) display() prints the text and returns None.
        self.handle = display(self._pretty(), display_id=True)

    def text(self) -> str:
        """The bar as tqdm would print it now."""
        from tqdm import tqdm

        elapsed = time.perf_counter() - self.start
        if language() != "ru":
            return tqdm.format_meter(self.n, self.total, elapsed, prefix=self.desc, unit=self.unit,
                                     postfix=self.postfix or None, ncols=72)
        rate = self.n / elapsed if self.n and elapsed > 0 else None
        # as tqdm does, a rate below one per second is said the other way round: "1.52 с/модель"
        said = (f"? {self.unit}/с" if rate is None else f"{rate:.2f} {self.unit}/с" if rate >= 1
                else f"{1 / rate:.2f} с/{self.unit}")
        return tqdm.format_meter(self.n, self.total, elapsed, prefix=self.desc, unit=self.unit,
                                 postfix=self.postfix or None, ncols=72, bar_format=_RU_BAR, rate_ru=said)

    def _pretty(self):
        from IPython.display import Pretty

        return Pretty(self.text())

    def set_postfix_str(self, text: str, refresh: bool = True) -> None:
        self.postfix = text

    def update(self, n: int = 1) -> None:
        self.n += n
        if time.perf_counter() - self.last_draw >= self.interval:
            self._draw()
            self.last_draw = time.perf_counter()

    def _draw(self, end: str = "") -> None:
        if self.handle is None:  # no notebook: redraw one line of the terminal, as tqdm does
            print("\r" + self.text(), end=end, file=sys.stderr, flush=True)
        else:
            self.handle.update(self._pretty())

    def close(self) -> None:
        self.postfix = ""  # the finished bar needs no label of the last fit
        self._draw(end="\n")
