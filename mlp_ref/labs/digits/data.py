"""Data for the labs: scikit-learn's bundled digits, and MNIST from files you supply.

* ``digits_splits(seed)``: the 1,797 8x8 digits (shipped inside scikit-learn, no
  download), pixels / 16, split into stratified train / validation / test parts that
  are checked to be disjoint and to cover the data.
* ``load_mnist(images, labels)``: MNIST in its original IDX format (optionally gzipped);
  ``load_mnist_npz(path)``: MNIST saved as a NumPy ``.npz`` file. Nothing is downloaded.
"""

from __future__ import annotations

import gzip
import numbers
import os
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from mlp_ref.validation import ShapeError, as_generator, check_int, check_real


# --- digits -------------------------------------------------------------------------


@dataclass(frozen=True)
class Splits:
    """Train / validation / test parts of a data set.

    Attributes
    ----------
    X_train, X_val, X_test : numpy.ndarray, shapes (n_train, D), (n_val, D), (n_test, D)
    y_train, y_val, y_test : numpy.ndarray of int, shapes (n_train,), (n_val,), (n_test,)
    train_idx, val_idx, test_idx : numpy.ndarray of int
        Row indices into the full data set, sorted; disjoint, and together all rows.
    """

    X_train: np.ndarray
    y_train: np.ndarray
    X_val: np.ndarray
    y_val: np.ndarray
    X_test: np.ndarray
    y_test: np.ndarray
    train_idx: np.ndarray
    val_idx: np.ndarray
    test_idx: np.ndarray


def check_partition(train_idx, val_idx, test_idx, n: int) -> None:
    """Raise ValueError unless the three index arrays are disjoint and cover ``range(n)``.

    A real check (not an ``assert``, which ``python -O`` removes): a row in two parts
    would leak test data into training without any other visible symptom.
    """
    parts = {"train_idx": np.asarray(train_idx), "val_idx": np.asarray(val_idx),
             "test_idx": np.asarray(test_idx)}
    for name, idx in parts.items():
        if idx.ndim != 1 or not np.issubdtype(idx.dtype, np.integer):
            raise ValueError(f"{name}: expected a 1-D integer array, received shape {idx.shape}, dtype {idx.dtype}")
        if np.unique(idx).size != idx.size:
            raise ValueError(f"{name}: contains repeated rows")
    names = list(parts)
    for i, first in enumerate(names):
        for second in names[i + 1:]:
            shared = np.intersect1d(parts[first], parts[second])
            if shared.size:
                raise ValueError(f"{first} and {second}: expected disjoint parts, "
                                 f"received {shared.size} shared rows (e.g. {shared[:5].tolist()})")
    union = np.concatenate(list(parts.values()))
    if union.size != n or not np.array_equal(np.sort(union), np.arange(n)):
        raise ValueError(f"train_idx, val_idx, test_idx: expected to cover rows 0..{n - 1} "
                         f"exactly, received {union.size} rows")


def part_size(value, name: str, n: int) -> int:
    """Rows of a part of ``n`` rows given as a count (an int >= 1) or a fraction in (0, 1)."""
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return check_int(name, value, 1, note=" (a row count)")
    count = int(round(check_real(name, value, 0, 1, note=" (a fraction) or a row count") * n))
    if count < 1:
        raise ValueError(f"{name}: expected at least 1 row, received {value} ({count} rows of {n})")
    return count


def digits_splits(seed=0, val_size: float | int = 0.15, test_size: float | int = 0.15) -> Splits:
    """Stratified train / validation / test split of scikit-learn's 8x8 digits.

    Parameters
    ----------
    seed : int or numpy.random.Generator
        Fixes the split (the same seed always gives the same rows).
    val_size, test_size : float or int
        Fraction of all 1,797 rows (in (0, 1)) or number of rows of each part.

    Returns
    -------
    Splits
        ``X_*`` of shape ``(n_part, 64)``, float64 in [0, 1] (pixels / 16);
        ``y_*`` of shape ``(n_part,)``, int labels 0..9; the sorted index arrays. Every
        part has the class proportions of the whole up to rounding.

    Raises
    ------
    ValueError
        If the parts would be empty or leave no training rows, or (never expected) if
        the split is not a disjoint cover of the data.
    """
    from sklearn.datasets import load_digits  # imported here: sklearn is a lab dependency only
    from sklearn.model_selection import train_test_split

    data = load_digits()
    X = data.data.astype(np.float64) / 16.0
    y = data.target.astype(np.intp)
    n = y.size
    n_test, n_val = part_size(test_size, "test_size", n), part_size(val_size, "val_size", n)
    if n_test + n_val >= n:
        raise ValueError(f"val_size, test_size: expected fewer than {n} rows together so that "
                         f"training keeps some, received {n_val} + {n_test}")
    states = as_generator(seed).integers(0, 2**31 - 1, size=2)
    rest, test_idx = train_test_split(np.arange(n), test_size=n_test, stratify=y,
                                      random_state=int(states[0]))
    train_idx, val_idx = train_test_split(rest, test_size=n_val, stratify=y[rest],
                                          random_state=int(states[1]))
    train_idx, val_idx, test_idx = np.sort(train_idx), np.sort(val_idx), np.sort(test_idx)
    check_partition(train_idx, val_idx, test_idx, n)
    return Splits(X[train_idx], y[train_idx], X[val_idx], y[val_idx], X[test_idx], y[test_idx],
                  train_idx, val_idx, test_idx)


# --- MNIST --------------------------------------------------------------------------

IDX_UBYTE = 0x08
MNIST_SIDE = 28


def _read_bytes(path) -> bytes:
    """File contents, gunzipped if the file starts with the gzip signature."""
    with open(os.fspath(path), "rb") as handle:
        raw = handle.read()
    if raw[:2] == b"\x1f\x8b":
        try:
            return gzip.decompress(raw)
        except (OSError, EOFError, zlib.error) as err:
            raise ValueError(f"{path}: damaged gzip file ({err})") from err
    return raw


def read_idx(path, expected_ndim: int) -> np.ndarray:
    """Read an IDX file of unsigned bytes (optionally gzipped).

    IDX layout: two zero bytes, a type byte (0x08 = unsigned byte), a byte with the
    number of dimensions, one big-endian 32-bit size per dimension, then the data.

    Parameters
    ----------
    path : str or os.PathLike
    expected_ndim : int
        3 for MNIST images ``(N, 28, 28)``, 1 for labels ``(N,)``.

    Returns
    -------
    numpy.ndarray of uint8 with ``expected_ndim`` dimensions

    Raises
    ------
    ValueError
        Wrong magic number (not IDX, not unsigned bytes, or the wrong number of
        dimensions), a truncated file, or trailing bytes after the data.
    """
    raw = _read_bytes(path)
    if len(raw) < 4:
        raise ValueError(f"{path}: truncated file: {len(raw)} bytes, shorter than the 4-byte magic number")
    magic = int.from_bytes(raw[:4], "big")
    expected_magic = (IDX_UBYTE << 8) | expected_ndim
    if magic != expected_magic:
        raise ValueError(f"{path}: wrong magic number: expected 0x{expected_magic:08x} "
                         f"(unsigned bytes, {expected_ndim} dimensions), received 0x{magic:08x}")
    header = 4 + 4 * expected_ndim
    if len(raw) < header:
        raise ValueError(f"{path}: truncated file: header needs {header} bytes, file has {len(raw)}")
    dims = tuple(int.from_bytes(raw[4 + 4 * i: 8 + 4 * i], "big") for i in range(expected_ndim))
    expected = header + int(np.prod(dims, dtype=np.int64))
    if len(raw) < expected:
        raise ValueError(f"{path}: truncated file: dimensions {dims} need {expected} bytes, "
                         f"file has {len(raw)}")
    if len(raw) > expected:
        raise ValueError(f"{path}: {len(raw) - expected} unexpected bytes after the data of "
                         f"dimensions {dims}")
    return np.frombuffer(raw, dtype=np.uint8, offset=header).reshape(dims)


def _finish(images: np.ndarray, labels: np.ndarray, source: str) -> tuple[np.ndarray, np.ndarray]:
    """Check shapes and values, flatten to ``(N, 784)`` and scale to [0, 1]."""
    if images.ndim == 3:
        if images.shape[1:] != (MNIST_SIDE, MNIST_SIDE):
            raise ShapeError(f"{source} images: expected {MNIST_SIDE}x{MNIST_SIDE} images, "
                             f"received {images.shape[1]}x{images.shape[2]}")
        images = images.reshape(images.shape[0], MNIST_SIDE * MNIST_SIDE)
    elif images.ndim != 2 or images.shape[1] != MNIST_SIDE * MNIST_SIDE:
        raise ShapeError(f"{source} images: expected shape (N, 28, 28) or (N, 784), received {images.shape}")
    if labels.ndim != 1:
        raise ShapeError(f"{source} labels: expected shape (N,), received {labels.shape}")
    if images.shape[0] != labels.shape[0]:
        raise ValueError(f"{source}: mismatched counts: {images.shape[0]} images but {labels.shape[0]} labels")
    if not np.issubdtype(labels.dtype, np.integer):
        raise TypeError(f"{source} labels: expected integers, received dtype {labels.dtype}")
    if labels.size and (labels.min() < 0 or labels.max() > 9):
        raise ValueError(f"{source} labels: expected digits 0..9, received values from "
                         f"{labels.min()} to {labels.max()}")
    if images.dtype == np.uint8:
        X = images.astype(np.float64) / 255.0
    elif np.issubdtype(images.dtype, np.floating):
        if not np.all(np.isfinite(images)) or images.min(initial=0.0) < 0 or images.max(initial=0.0) > 1:
            raise ValueError(f"{source} images: expected float pixels in [0, 1] (or uint8 0..255)")
        X = images.astype(np.float64)
    else:
        raise TypeError(f"{source} images: expected uint8 or float pixels, received dtype {images.dtype}")
    return X, labels.astype(np.intp)


def load_mnist(path_images, path_labels) -> tuple[np.ndarray, np.ndarray]:
    """Load MNIST from the original IDX files (e.g. ``train-images-idx3-ubyte.gz``).

    Parameters
    ----------
    path_images : str or os.PathLike
        IDX file of N images of 28x28 unsigned bytes (magic 0x00000803), plain or gzipped.
    path_labels : str or os.PathLike
        IDX file of N labels (magic 0x00000801), plain or gzipped.

    Returns
    -------
    X : numpy.ndarray, shape (N, 784), float64 in [0, 1]
        Pixels / 255, each image flattened row by row.
    y : numpy.ndarray, shape (N,), int
        Digits 0..9.

    Raises
    ------
    ValueError
        Wrong magic number, truncated or damaged file, mismatched image and label
        counts, labels outside 0..9.
    ShapeError
        Images that are not 28x28.
    """
    return _finish(read_idx(path_images, 3), read_idx(path_labels, 1), "load_mnist")


def load_mnist_npz(path, x_key: str = "x_train", y_key: str = "y_train") -> tuple[np.ndarray, np.ndarray]:
    """Load MNIST from a ``.npz`` file (the layout of Keras' ``mnist.npz`` by default).

    Parameters
    ----------
    path : str or os.PathLike
    x_key, y_key : str
        Names of the image array (``(N, 28, 28)`` or ``(N, 784)``, uint8 0..255 or float
        in [0, 1]) and of the label array ``(N,)``; for Keras' file, ``"x_test"`` and
        ``"y_test"`` give the test part.

    Returns
    -------
    X : numpy.ndarray, shape (N, 784), float64 in [0, 1]
    y : numpy.ndarray, shape (N,), int

    Raises
    ------
    KeyError
        A missing key (the message lists the keys in the file).
    ValueError, ShapeError, TypeError
        As for ``load_mnist``; also a file that is not a valid ``.npz``.
    """
    try:
        archive = np.load(os.fspath(path), allow_pickle=False)
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as err:
        raise ValueError(f"{path}: not a readable .npz file ({err})") from err
    if not isinstance(archive, np.lib.npyio.NpzFile):
        raise ValueError(f"{path}: expected an .npz archive, received a single .npy array")
    with archive:
        missing = [k for k in (x_key, y_key) if k not in archive.files]
        if missing:
            raise KeyError(f"{path}: no array named {missing[0]!r}; the file has {sorted(archive.files)}")
        try:
            images, labels = archive[x_key], archive[y_key]
        except (OSError, ValueError, EOFError, zlib.error, zipfile.BadZipFile) as err:
            raise ValueError(f"{path}: damaged .npz file ({err})") from err
    return _finish(images, labels, os.fspath(path))


# --------------------------------------------------------------------------- MNIST

#: The original file names (each may also end in ``.gz``): train images, train labels,
#: test images, test labels.
MNIST_IDX_FILES = ("train-images-idx3-ubyte", "train-labels-idx1-ubyte",
                   "t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte")


def _find(directory: Path, name: str) -> Path | None:
    for candidate in (directory / name, directory / f"{name}.gz"):
        if candidate.is_file():
            return candidate
    return None


def _load_mnist_dir(directory) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, str]:
    """The official train and test parts from ``mnist.npz`` or the four IDX files."""
    directory = Path(os.fspath(directory))
    if not directory.is_dir():
        raise FileNotFoundError(f"directory: expected a folder holding MNIST, received {str(directory)!r}, "
                                "which is not a folder")
    npz = directory / "mnist.npz"
    if npz.is_file():
        X_train, y_train = load_mnist_npz(npz, "x_train", "y_train")
        X_test, y_test = load_mnist_npz(npz, "x_test", "y_test")
        return X_train, y_train, X_test, y_test, str(npz)
    paths = [_find(directory, name) for name in MNIST_IDX_FILES]
    if any(p is None for p in paths):
        missing = [name for name, p in zip(MNIST_IDX_FILES, paths) if p is None]
        raise FileNotFoundError(f"directory {str(directory)!r}: expected mnist.npz or the four IDX files "
                                f"{', '.join(MNIST_IDX_FILES)} (each optionally .gz); missing {', '.join(missing)}")
    X_train, y_train = load_mnist(paths[0], paths[1])
    X_test, y_test = load_mnist(paths[2], paths[3])
    return X_train, y_train, X_test, y_test, ", ".join(p.name for p in paths)


def mnist_splits(directory, val_size: int | float = 10_000, seed=0) -> tuple[Splits, str]:
    """MNIST from files you supply, split into train / validation / test.

    The validation part is a seeded random subset of the official *training* part; the
    official test part is the test part, untouched (mixing it into training would make the
    test estimate meaningless).

    Parameters
    ----------
    directory : str or os.PathLike
        A folder holding ``mnist.npz`` (Keras' layout: ``x_train``, ``y_train``, ``x_test``,
        ``y_test``) or the four original IDX files (see :data:`MNIST_IDX_FILES`).
    val_size : int or float
        Validation rows taken from the official training part: a count, or a fraction in (0, 1).
    seed : int or numpy.random.Generator
        Chooses the validation rows.

    Returns
    -------
    splits : Splits
        ``X_*`` of shape ``(n_part, 784)`` in [0, 1]; index arrays count the official training
        rows first, then the test rows (``test_idx = n_train_official + arange(n_test)``), and
        are checked to be disjoint and to cover all rows.
    source : str
        The file or files that were read.
    """
    X_full, y_full, X_test, y_test, source = _load_mnist_dir(directory)
    n = X_full.shape[0]
    n_val = part_size(val_size, "val_size", n)
    if not 1 <= n_val < n:
        raise ValueError(f"val_size: expected between 1 and {n - 1} validation rows (the official training "
                         f"part has {n}), received {val_size!r}")
    order = as_generator(seed).permutation(n)
    val_idx, train_idx = np.sort(order[:n_val]), np.sort(order[n_val:])
    test_idx = n + np.arange(X_test.shape[0])
    check_partition(train_idx, val_idx, test_idx, n + X_test.shape[0])
    return Splits(X_full[train_idx], y_full[train_idx], X_full[val_idx], y_full[val_idx], X_test, y_test,
                  train_idx, val_idx, test_idx), source
