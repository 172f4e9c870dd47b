"""Words for the character-level language model: vocabulary, word lists, splits, windows.

A word is spelled with the characters of a :class:`Vocabulary`, whose index 0 is the
token ``'.'`` that marks both the start (as padding of the context) and the end of a word.
A context window of ``context`` indices predicts the next index, so a word of length L
gives L + 1 windows: ``[. . .] -> e``, ``[. . e] -> m``, ..., ``[m m a] -> .``.
"""

from __future__ import annotations

import os
import string
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from mlp_ref.course.i18n import say  # errors a notebook's reader sees, in the notebook's language
from mlp_ref.validation import as_generator, check_int, check_real


#: The start/end token; it always has index 0.
END = "."


@dataclass(frozen=True)
class Vocabulary:
    """Characters of a word list, with the start/end token ``'.'`` at index 0.

    Attributes
    ----------
    chars : tuple of str
        ``chars[i]`` is the character of index ``i``; ``chars[0] == '.'``.
    """

    chars: tuple[str, ...]

    def __post_init__(self) -> None:
        if not self.chars or self.chars[0] != END:
            raise ValueError(f"chars: expected '{END}' at index 0, received {self.chars[:1]!r}")
        if len(set(self.chars)) != len(self.chars):
            raise ValueError(f"chars: expected distinct characters, received {''.join(self.chars)!r}")
        bad = [c for c in self.chars if len(c) != 1]
        if bad:
            raise ValueError(f"chars: expected single characters, received {bad!r}")

    @classmethod
    def letters(cls) -> "Vocabulary":
        """The 26 lower-case ASCII letters after ``'.'`` (size 27)."""
        return cls((END,) + tuple(string.ascii_lowercase))

    @classmethod
    def from_words(cls, words: list[str]) -> "Vocabulary":
        """The sorted characters that occur in ``words``, after ``'.'``."""
        chars = sorted(set("".join(words)))
        if END in chars:
            raise ValueError(f"words: the character '{END}' is reserved for the start/end token")
        return cls((END,) + tuple(chars))

    @property
    def size(self) -> int:
        """Number of tokens V, the start/end token included."""
        return len(self.chars)

    def index(self, char: str) -> int:
        """Index of one character; raises ``ValueError`` if it is not in the vocabulary."""
        try:
            return self.chars.index(char)
        except ValueError:
            raise ValueError(f"char: {char!r} is not in the vocabulary {''.join(self.chars)!r}") from None

    def encode(self, word: str) -> list[int]:
        """Indices of the characters of ``word`` (no start/end token added)."""
        lookup = {c: i for i, c in enumerate(self.chars)}
        out = []
        for position, char in enumerate(word):
            if char == END or char not in lookup:
                raise ValueError(
                    f"word {word!r}: character {char!r} at position {position} is not a letter "
                    f"of the vocabulary {''.join(self.chars[1:])!r}"
                )
            out.append(lookup[char])
        return out

    def decode(self, indices) -> str:
        """The characters of ``indices`` joined into a string."""
        return "".join(self.chars[int(i)] for i in indices)


def check_words(words: list[str], vocabulary: Vocabulary, name: str = "words") -> None:
    """Raise ``ValueError`` naming the first word with a character outside ``vocabulary``."""
    allowed = set(vocabulary.chars[1:])
    for number, word in enumerate(words):
        if not word:
            raise ValueError(f"{name}[{number}]: expected a non-empty word, received ''")
        for position, char in enumerate(word):
            if char not in allowed:
                raise ValueError(
                    f"{name}[{number}] = {word!r}: character {char!r} at position {position} is not "
                    f"in the vocabulary {''.join(vocabulary.chars[1:])!r}"
                )


#: How many of the lines with a character outside the vocabulary an error names.
BAD_LINES_SHOWN = 5


def load_words(path: str | os.PathLike, vocabulary: Vocabulary | None = None, *,
               build_vocabulary: bool = False, lowercase: bool = False,
               advice: str | None = None) -> tuple[list[str], Vocabulary]:
    """Read a plain text file with one word per line.

    Surrounding white space is stripped and blank lines are skipped; nothing else is
    changed unless ``lowercase`` is set, so a character outside the vocabulary is an error
    that names every such line (numbered from 1, as an editor numbers them; the first
    :data:`BAD_LINES_SHOWN` are quoted).

    Parameters
    ----------
    path : str or path-like
        The word file (UTF-8).
    vocabulary : Vocabulary, optional
        The allowed characters; default :meth:`Vocabulary.letters`.
    build_vocabulary : bool
        Build the vocabulary from the file's characters instead (``vocabulary`` must be None).
    lowercase : bool
        Lower-case every word first (``"Emma"`` becomes ``"emma"``).
    advice : str, optional
        What the error about characters outside the vocabulary tells the reader to change;
        default: this function's own arguments (:func:`load_word_list` says it in the words
        of the notebook or of the command line).

    Returns
    -------
    words : list of str, length N
        The words in file order (duplicates kept).
    vocabulary : Vocabulary
    """
    if build_vocabulary and vocabulary is not None:
        raise ValueError("vocabulary: pass either a vocabulary or build_vocabulary=True, not both")
    text = Path(path).read_text(encoding="utf-8")
    numbered = [(number, line.strip().lower() if lowercase else line.strip())
                for number, line in enumerate(text.splitlines(), start=1) if line.strip()]
    words = [word for _, word in numbered]
    if not words:
        raise ValueError(f"path: expected at least one word (one per line) in {str(path)!r}, received an empty file")
    if build_vocabulary:
        vocabulary = Vocabulary.from_words(words)
    elif vocabulary is None:
        vocabulary = Vocabulary.letters()
    allowed = set(vocabulary.chars[1:])
    bad = [(number, word, list(dict.fromkeys(c for c in word if c not in allowed)))
           for number, word in numbered if not set(word) <= allowed]
    if bad:
        shown = ", ".join(say(f"line {n} {w!r} ({', '.join(map(repr, chars))})",
                              ru=f"строка {n} {w!r} ({', '.join(map(repr, chars))})")
                          for n, w, chars in bad[:BAD_LINES_SHOWN])
        more = say(f", and {len(bad) - BAD_LINES_SHOWN} more", ru=f" и ещё {len(bad) - BAD_LINES_SHOWN}") \
            if len(bad) > BAD_LINES_SHOWN else ""
        if advice is None:
            advice = ("Pass lowercase=True to lower-case every word"
                      + ("" if build_vocabulary else ", or build_vocabulary=True to take the vocabulary from the "
                         "file's characters") + ".")
        letters = "".join(vocabulary.chars[1:])
        raise ValueError(say(f"{Path(path).name}: {len(bad)} of {len(words)} words have characters outside the "
                             f"vocabulary {letters!r}: {shown}{more}. {advice}",
                             ru=f"{Path(path).name}: в {len(bad)} из {len(words)} слов есть символы вне словаря "
                             f"{letters!r}: {shown}{more}. {advice}"))
    return words, vocabulary


def census_name_files() -> list[Path]:
    """The first-name lists shipped inside the ``names`` package (female, then male)."""
    import names  # the optional "labs" dependency; only this loader needs it

    folder = Path(names.__file__).resolve().parent
    return [folder / "dist.female.first", folder / "dist.male.first"]


def load_census_names() -> list[str]:
    """US census first names from the ``names`` package: lower-case, letters only, unique.

    Returns
    -------
    list of str
        Sorted unique names (each line's first field, lower-cased; fields with anything
        but the letters a-z are dropped).
    """
    found = set()
    for file in census_name_files():
        for line in file.read_text(encoding="ascii").splitlines():
            fields = line.split()
            if fields:
                word = fields[0].lower()
                if word.isascii() and word.isalpha():
                    found.add(word)
    if not found:
        raise ValueError("names package: its first-name files contain no names")
    return sorted(found)


def unique_words(words: list[str]) -> list[str]:
    """``words`` without repeats, keeping the first occurrence of each."""
    return list(dict.fromkeys(words))


def split_words(words: list[str], seed, fractions: tuple[float, float] = (0.8, 0.1)
                ) -> tuple[list[str], list[str], list[str]]:
    """Shuffle ``words`` by ``seed`` and cut them into train / validation / test.

    Parameters
    ----------
    words : list of str, length N
    seed : int or numpy.random.Generator
    fractions : (float, float)
        Train and validation fractions; the test part gets the rest.

    Returns
    -------
    train, val, test : list of str
        Disjoint as positions of ``words``; each non-empty.
    """
    train_frac, val_frac = (check_real(f"fractions[{i}]", f, 0, 1) for i, f in enumerate(fractions))
    if not train_frac + val_frac < 1:
        raise ValueError(f"fractions: expected positive train and validation fractions summing below 1, received {fractions}")
    order = as_generator(seed).permutation(len(words))
    n_train = int(round(train_frac * len(words)))
    n_val = int(round(val_frac * len(words)))
    parts = (order[:n_train], order[n_train:n_train + n_val], order[n_train + n_val:])
    if any(len(p) == 0 for p in parts):
        raise ValueError(f"words: {len(words)} words are too few for a train/validation/test split by {fractions}")
    return tuple([words[i] for i in p] for p in parts)


def build_windows(words: list[str], vocabulary: Vocabulary, context: int) -> tuple[np.ndarray, np.ndarray]:
    """Every (context, next character) pair of every word.

    Parameters
    ----------
    words : list of str
    vocabulary : Vocabulary
    context : int
        Number of previous characters the model sees (>= 1).

    Returns
    -------
    X : numpy.ndarray of int, shape (N, context)
        Context indices; the start of a word is padded with 0 (``'.'``).
    Y : numpy.ndarray of int, shape (N,)
        The index to predict; 0 after the last character. N = sum(len(w) + 1).
    """
    context = check_int("context", context, 1)
    check_words(words, vocabulary)
    xs, ys = [], []
    for word in words:
        window = [0] * context
        for index in vocabulary.encode(word) + [0]:
            xs.append(window)
            ys.append(index)
            window = window[1:] + [index]
    return np.array(xs, dtype=np.intp).reshape(-1, context), np.array(ys, dtype=np.intp)


def window_rows(word: str, vocabulary: Vocabulary, context: int) -> list[tuple[str, str]]:
    """The windows of one word as text, e.g. ``('[. . e]', 'm')``, one pair per window."""
    X, Y = build_windows([word], vocabulary, context)
    return [("[" + " ".join(vocabulary.decode(x)) + "]", vocabulary.decode([y])) for x, y in zip(X, Y)]


def load_word_list(words_file=None, build_vocab: bool = False, lowercase: bool = False, *,
                   options: str = "notebook") -> tuple[list[str], Vocabulary]:
    """The words of one experiment and their vocabulary: what the lab notebook's ``WORDS_FILE``,
    ``BUILD_VOCAB`` and ``LOWERCASE`` (the command's ``--words``, ``--build-vocab`` and
    ``--lowercase``) select.

    Parameters
    ----------
    words_file : str or path-like, optional
        A UTF-8 text file with one word per line (read by
        :func:`load_words`). None: the US census first names of the
        ``names`` package (:func:`load_census_names`).
    build_vocab : bool
        Take the vocabulary from the file's characters instead of the letters a-z.
    lowercase : bool
        Lower-case every word of the file first.
    options : {"notebook", "command line"}
        Whose words an error uses to say what to change: the notebook's settings
        (``BUILD_VOCAB = True``) or the command's flags (``--build-vocab``).

    Returns
    -------
    words : list of str
    vocabulary : Vocabulary

    Raises
    ------
    ValueError
        ``build_vocab`` or ``lowercase`` without a file; an empty file; a character outside
        the vocabulary (every such line named, from 1).
    OSError
        A file that cannot be read.
    """
    if options not in ("notebook", "command line"):
        raise ValueError(f"options: expected 'notebook' or 'command line', received {options!r}")
    notebook = options == "notebook"
    file, vocab, lower = ("WORDS_FILE", "BUILD_VOCAB = True", "LOWERCASE = True") if notebook \
        else ("--words", "--build-vocab", "--lowercase")
    if words_file is None:
        for asked, name in ((build_vocab, vocab), (lowercase, lower)):
            if asked:
                raise ValueError(say(f"{name} needs {file}: the census names are lower-case letters a-z already",
                                     ru=f"{name} требует {file}: имена переписи уже записаны строчными буквами a-z"))
        return load_census_names(), Vocabulary.letters()
    if notebook:
        advice = say(f"Set {lower} in the first cell to lower-case every word"
                     + ("" if build_vocab else f", or {vocab} to take the vocabulary from the file's characters") + ".",
                     ru=f"Задайте в первой ячейке {lower}, чтобы перевести все слова в нижний регистр"
                     + ("" if build_vocab else f", или {vocab}, чтобы взять словарь из символов файла") + ".")
    else:
        advice = say(f"Add {lower} to lower-case every word"
                     + ("" if build_vocab else f", or {vocab} to take the vocabulary from the file's characters") + ".",
                     ru=f"Добавьте {lower}, чтобы перевести все слова в нижний регистр"
                     + ("" if build_vocab else f", или {vocab}, чтобы взять словарь из символов файла") + ".")
    return load_words(words_file, build_vocabulary=build_vocab, lowercase=lowercase, advice=advice)
