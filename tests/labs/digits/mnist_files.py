"""MNIST files written by the tests (a helper module, not a test module): IDX bytes and a tiny synthetic MNIST."""

from __future__ import annotations

import gzip
import struct
from pathlib import Path

import numpy as np

from mlp_ref.labs.digits.data import MNIST_IDX_FILES


def idx_bytes(array, type_code=0x08) -> bytes:
    """IDX encoding written from the format description, independently of the loader: two zero
    bytes, the type code (0x08: unsigned byte), the number of dimensions, big-endian sizes, data."""
    array = np.asarray(array, dtype=np.uint8)
    header = bytes([0, 0, type_code, array.ndim]) + b"".join(struct.pack(">I", d) for d in array.shape)
    return header + array.tobytes()


def synthetic_mnist(n_train: int, n_test: int, seed: int = 0):
    """Digit k lights rows 2k+4 and 2k+5 of a 28x28 image, plus noise: easy to learn."""
    rng = np.random.default_rng(seed)

    def make(n):
        y = np.arange(n) % 10
        rng.shuffle(y)
        X = rng.integers(0, 40, (n, 28, 28)).astype(np.uint8)
        for i, k in enumerate(y):
            X[i, 2 * k + 4: 2 * k + 6, 4:24] = 255
        return X, y.astype(np.uint8)

    return make(n_train), make(n_test)


def write_idx(folder: Path, n_train=200, n_test=60, gz=(True, False, True, False)):
    """The four IDX files of a synthetic MNIST in ``folder`` (some gzipped); returns its arrays."""
    (X, y), (Xt, yt) = synthetic_mnist(n_train, n_test)
    for name, array, zipped in zip(MNIST_IDX_FILES, (X, y, Xt, yt), gz):
        data = idx_bytes(array)
        if zipped:
            (folder / f"{name}.gz").write_bytes(gzip.compress(data))
        else:
            (folder / name).write_bytes(data)
    return X, y, Xt, yt
