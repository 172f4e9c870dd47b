"""The command line of both labs: one flag per settings field, one error convention.

Each lab keeps its settings in a frozen dataclass whose fields are declared with
:func:`setting` (a default and a help text). Everything a command line needs is generated
from those fields, so the dataclass is the one mapping between settings and flags:

* :func:`add_settings` adds one flag per field to a parser: ``batch_size`` becomes
  ``--batch-size`` (a field may name another flag, as ``n_seeds`` does: ``--seeds``), typed
  by the default (``int``, ``float``, layer widths ``64,32,10``, or several lists of them
  separated by spaces, ``64,32,10 64,16,10``; widths typed with spaces are refused in words);
* :func:`settings_from_args` builds the dataclass back from the parsed flags, and says a
  value the dataclass refuses in the reader's words: the flag typed, not the field;
* :func:`command_line` writes the command that reproduces a settings object.

Errors: bad command-line input (an unknown flag, a value of the wrong type, a setting the
dataclass refuses, a file that cannot be read) ends the command with exit status 2 and one
line on stderr, ``<prog>: error: <message>``, as argparse does. A missing module of the
``labs`` extra ends it with exit status 1 and one line naming the extra to install
(:data:`INSTALL_LABS`), never a traceback (:func:`guarded`).
"""

from __future__ import annotations

import argparse
import re
import shlex
import sys
from dataclasses import Field, MISSING, field, fields


#: What a reader installs to get the labs' optional dependencies.
INSTALL_LABS = 'pip install "mlp_ref[labs]"'


#: The modules of the ``labs`` extra (pyproject.toml), by import name; threadpoolctl comes
#: with scikit-learn.
LABS_MODULES = ("tqdm", "sklearn", "names", "threadpoolctl")


def missing_extra(error: ModuleNotFoundError) -> str | None:
    """The one-line advice for a missing module of the ``labs`` extra, or None for any other module."""
    top = (error.name or "").split(".")[0]
    if top not in LABS_MODULES:
        return None
    return f"the labs need the module {top!r}, which is not installed: {INSTALL_LABS}"


def setting(default, help: str, *, flag: str | None = None) -> Field:
    """A settings field with its default, its help text and (optionally) its flag name."""
    metadata = {"help": help}
    if flag is not None:
        metadata["flag"] = flag
    return field(default=default, metadata=metadata)


def flag_of(f: Field) -> str:
    """The command-line flag of a settings field: ``batch_size -> --batch-size`` unless it names its own."""
    return f.metadata.get("flag", "--" + f.name.replace("_", "-"))


def _widths(text: str) -> tuple[int, ...]:
    try:
        return tuple(int(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected comma-separated layer widths such as 64,32,10, "
                                         f"received {text!r}") from None


def _text(value) -> str:
    """A setting's value as it is written on the command line."""
    if isinstance(value, tuple) and value and isinstance(value[0], tuple):
        return " ".join(_text(v) for v in value)
    if isinstance(value, tuple):
        return ",".join(map(str, value))
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def _kind(value) -> dict:
    """The argparse options that parse a value of the same kind as the default ``value``."""
    if isinstance(value, bool):
        raise TypeError("a bool setting needs a flag pair, which the labs do not have")
    if isinstance(value, int):
        return {"type": int}
    if isinstance(value, float):
        return {"type": float}
    if isinstance(value, tuple) and value and isinstance(value[0], tuple):
        return {"type": _widths, "nargs": "+", "metavar": "WIDTHS"}
    if isinstance(value, tuple):  # one list; nargs="+" so that spaces get a clear error (settings_from_args)
        return {"type": _widths, "nargs": "+", "metavar": "WIDTHS"}
    raise TypeError(f"no command-line form for a setting of type {type(value).__name__}")


class Parser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose errors are one line: ``<prog>: error: <message>``, exit status 2."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {message}\n")


def add_settings(parser: argparse.ArgumentParser, settings_class) -> None:
    """Add one flag per field of the dataclass ``settings_class`` (defaults from its defaults)."""
    for f in fields(settings_class):
        if f.default is MISSING or "help" not in f.metadata:
            raise TypeError(f"{settings_class.__name__}.{f.name}: declare it with setting(default, help)")
        parser.add_argument(flag_of(f), dest=f.name, default=f.default,
                            help=f"{f.metadata['help']}{_syntax(f.default)} (default {_text(f.default)})",
                            **_kind(f.default))


def _syntax(value) -> str:
    """How a list setting is typed, for its help (argparse's usage line shows several WIDTHS for either)."""
    if isinstance(value, tuple) and value and isinstance(value[0], tuple):
        return "; each list's widths joined by commas, lists separated by spaces"
    return "; widths joined by commas" if isinstance(value, tuple) else ""


def lab_parser(prog: str, description: str, settings_class, options: dict[str, dict]) -> Parser:
    """A lab's parser: its own ``options`` (flag -> ``add_argument`` keywords), one flag per
    field of ``settings_class``, and ``--no-progress``."""
    parser = Parser(prog=prog, description=description)
    for flag, keywords in options.items():
        parser.add_argument(flag, **keywords)
    add_settings(parser, settings_class)
    parser.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    return parser


def settings_from_args(settings_class, args: argparse.Namespace):
    """The ``settings_class`` named by parsed flags.

    A value its own checks refuse raises ``ValueError`` naming the flag the reader typed, as
    argparse names it: ``argument --seeds: expected a positive integer, received 0``, where the
    dataclass said ``n_seeds: ...`` (see :func:`flag_message`).
    """
    values = {f.name: _one_list(f, getattr(args, f.name)) for f in fields(settings_class)}
    try:
        return settings_class(**{k: tuple(v) if isinstance(v, list) else v for k, v in values.items()})
    except ValueError as error:
        raise ValueError(flag_message(settings_class, str(error))) from None


def _one_list(f: Field, value):
    """A parsed value of ``f``, with widths typed with spaces refused in words.

    Both list flags write a list of widths with commas (``--sizes 64,32,10``); ``--study`` takes
    several lists separated by spaces. So ``--sizes 64 32 10`` (three lists for one flag) and
    ``--study 64 32 10`` (lists of one width each, which no network has) are the same slip:
    the message gives the command with commas.
    """
    if not (isinstance(value, list) and value and isinstance(f.default, tuple) and f.default):
        return value
    nested = isinstance(f.default[0], tuple)
    if (not nested and len(value) > 1) or (nested and all(len(widths) == 1 for widths in value)):
        typed = " ".join(_text(widths) for widths in value)
        joined = ",".join(_text(widths) for widths in value)
        raise ValueError(f"argument {flag_of(f)}: write the widths of a list with commas, not spaces: "
                         f"{flag_of(f)} {joined} (received {flag_of(f)} {typed})")
    return value if nested else value[0]


def flag_message(settings_class, message: str) -> str:
    """A settings check's ``message`` with the field it names replaced by that field's flag.

    ``n_seeds: expected ...`` becomes ``argument --seeds: expected ...``; an index is said in
    words, counted from 1: ``sizes[0]: ...`` becomes ``argument --sizes, width 1: ...`` and
    ``study[1][0]: ...`` (the second list given to ``--study``) ``argument --study, list 2, width 1: ...``.
    A message that names no field is returned as it is.
    """
    name, colon, rest = message.partition(": ")
    match = re.fullmatch(r"(?P<field>\w+)(?P<indices>(?:\[\d+\])*)", name)
    by_name = {f.name: f for f in fields(settings_class)}
    if not colon or match is None or match["field"] not in by_name:
        return message
    f = by_name[match["field"]]
    nested = isinstance(f.default, tuple) and f.default and isinstance(f.default[0], tuple)
    words = ("list", "width") if nested else ("width",)
    where = [f"argument {flag_of(f)}"]
    where += [f"{word} {int(i) + 1}" for word, i in zip(words, re.findall(r"\d+", match["indices"]))]
    return f"{', '.join(where)}: {rest}"


def command_line(prog: str, settings, *, always: tuple[str, ...] = (), extra: tuple[str, ...] = ()) -> str:
    """The command that reproduces ``settings``: the flags that differ from the defaults.

    Parameters
    ----------
    prog : str
        ``"python -m mlp_ref.labs.<lab>"``.
    settings : dataclass instance
    always : tuple of str
        Field names written even at their default value.
    extra : tuple of str
        Further arguments (already quoted for a shell) placed right after ``prog``.
    """
    default = type(settings)()
    parts = [prog, *extra]
    for f in fields(settings):
        value = getattr(settings, f.name)
        if f.name in always or value != getattr(default, f.name):
            text = _text(value)
            parts.append(f"{flag_of(f)} {text if ' ' in text else shlex.quote(text)}")
    return " ".join(parts)


def guarded(prog: str, body) -> int:
    """Call ``body()`` under the error convention of the module doc; return the exit status.

    ``ValueError``, ``OSError`` and ``KeyError`` (bad input: a setting, a file, an array missing
    from a file) are written as ``<prog>: error: <message>``,
    status 2; a missing module of the ``labs`` extra as the same one line naming
    :data:`INSTALL_LABS`, status 1. Anything else is a bug and keeps its traceback.
    """
    try:
        body()
    except ModuleNotFoundError as error:
        advice = missing_extra(error)
        if advice is None:
            raise
        print(f"{prog}: error: {advice}", file=sys.stderr)
        return 1
    except (ValueError, OSError, KeyError) as error:
        message = error.args[0] if isinstance(error, KeyError) and error.args else error  # no repr quotes
        print(f"{prog}: error: {message}", file=sys.stderr)
        return 2
    return 0
