"""Tests of mlp_ref.labs.digits.data: digits splits, and MNIST loaders and splits on files written here."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import numpy as np
import pytest

from mlp_ref.labs.digits.data import check_partition, digits_splits, load_mnist, load_mnist_npz, mnist_splits
from mlp_ref.validation import ShapeError
from tests.labs.digits.mnist_files import idx_bytes, write_idx


@pytest.fixture(scope="module")
def splits():
    return digits_splits(0)


def test_digits_splits_sizes_and_scaling(splits):
    n = len(splits.y_train) + len(splits.y_val) + len(splits.y_test)
    assert n == 1797
    assert len(splits.y_test) == round(0.15 * 1797) == len(splits.y_val)
    for X, y in ((splits.X_train, splits.y_train), (splits.X_val, splits.y_val), (splits.X_test, splits.y_test)):
        assert X.shape == (len(y), 64) and X.dtype == np.float64
        assert X.min() >= 0.0 and X.max() <= 1.0
    assert splits.X_train.max() == 1.0  # 16 / 16


def test_digits_splits_match_sklearn_rows(splits):
    from sklearn.datasets import load_digits

    data = load_digits()
    np.testing.assert_array_equal(splits.X_test * 16, data.data[splits.test_idx])  # / 16 then * 16: exact (a power of 2)
    np.testing.assert_array_equal(splits.y_val, data.target[splits.val_idx])


def test_digits_splits_disjoint_and_covering(splits):
    all_idx = np.concatenate([splits.train_idx, splits.val_idx, splits.test_idx])
    assert np.array_equal(np.sort(all_idx), np.arange(1797))


def test_digits_splits_are_stratified(splits):
    from sklearn.datasets import load_digits

    overall = np.bincount(load_digits().target, minlength=10) / 1797
    for y in (splits.y_train, splits.y_val, splits.y_test):
        counts = np.bincount(y, minlength=10)
        assert np.all(np.abs(counts - overall * len(y)) <= 1.0)


def test_digits_splits_reproducible_by_seed(splits):
    again = digits_splits(seed=0)
    other = digits_splits(seed=1)
    assert np.array_equal(again.test_idx, splits.test_idx)
    assert not np.array_equal(other.test_idx, splits.test_idx)


def test_digits_splits_counts_and_bad_sizes():

    s = digits_splits(seed=3, val_size=100, test_size=200)
    assert (len(s.y_val), len(s.y_test), len(s.y_train)) == (100, 200, 1497)
    with pytest.raises(ValueError, match=r"test_size: expected a number in \(0, 1\) \(a fraction\) or a row count"):
        digits_splits(seed=0, test_size=1.5)
    with pytest.raises(ValueError, match="val_size, test_size"):
        digits_splits(seed=0, val_size=0.5, test_size=0.6)
    with pytest.raises(TypeError, match="seed"):
        digits_splits(seed=None)


def test_check_partition_raises_on_overlap_and_gaps():
    check_partition(np.array([0, 2]), np.array([1]), np.array([3]), 4)
    with pytest.raises(ValueError, match="train_idx and test_idx: expected disjoint.*1 shared rows"):
        check_partition(np.array([0, 2]), np.array([1]), np.array([2, 3]), 4)
    with pytest.raises(ValueError, match="cover rows 0..4"):
        check_partition(np.array([0, 2]), np.array([1]), np.array([3]), 5)
    with pytest.raises(ValueError, match="val_idx: contains repeated"):
        check_partition(np.array([0]), np.array([1, 1]), np.array([2]), 3)


@pytest.fixture
def tiny():
    rng = np.random.default_rng(0)
    images = rng.integers(0, 256, size=(3, 28, 28), dtype=np.uint8)
    images[0, 0, 0], images[1, 27, 27] = 255, 0
    labels = np.array([7, 0, 9], dtype=np.uint8)
    return images, labels


def write(path, data):
    path.write_bytes(data)
    return path


@pytest.mark.parametrize("gzipped", [False, True])
def test_load_mnist_plain_and_gzipped(tmp_path, tiny, gzipped):
    images, labels = tiny
    pack = gzip.compress if gzipped else (lambda b: b)
    X, y = load_mnist(write(tmp_path / "img", pack(idx_bytes(images))),
                      write(tmp_path / "lab", pack(idx_bytes(labels))))
    assert X.shape == (3, 784) and X.dtype == np.float64
    assert y.tolist() == [7, 0, 9]
    assert X[0, 0] == 1.0 and X[1, 783] == 0.0
    assert X[2, 28 * 5 + 3] == images[2, 5, 3] / 255  # row-major flattening


def test_load_mnist_wrong_magic(tmp_path, tiny):
    images, labels = tiny
    lab = write(tmp_path / "lab", idx_bytes(labels))
    with pytest.raises(ValueError, match="wrong magic number: expected 0x00000803.*received 0x00000801"):
        load_mnist(lab, lab)  # labels passed as images
    with pytest.raises(ValueError, match="wrong magic number.*received 0x00000d03"):
        load_mnist(write(tmp_path / "f32", idx_bytes(images, type_code=0x0D)), lab)


def test_load_mnist_truncated(tmp_path, tiny):
    images, labels = tiny
    lab = write(tmp_path / "lab", idx_bytes(labels))
    data = idx_bytes(images)
    with pytest.raises(ValueError, match="truncated file: dimensions \\(3, 28, 28\\) need 2368 bytes, file has 2367"):
        load_mnist(write(tmp_path / "cut", data[:-1]), lab)
    with pytest.raises(ValueError, match="truncated file: header"):
        load_mnist(write(tmp_path / "hdr", data[:10]), lab)
    with pytest.raises(ValueError, match="truncated file: 2 bytes"):
        load_mnist(write(tmp_path / "tiny", data[:2]), lab)
    with pytest.raises(ValueError, match="damaged gzip"):
        load_mnist(write(tmp_path / "gz", gzip.compress(data)[:-20]), lab)
    with pytest.raises(ValueError, match="1 unexpected bytes"):
        load_mnist(write(tmp_path / "long", data + b"\x00"), lab)


def test_load_mnist_mismatched_counts_and_dims(tmp_path, tiny):
    images, labels = tiny
    img = write(tmp_path / "img", idx_bytes(images))
    with pytest.raises(ValueError, match="mismatched counts: 3 images but 2 labels"):
        load_mnist(img, write(tmp_path / "lab2", idx_bytes(labels[:2])))
    with pytest.raises(ShapeError, match="expected 28x28 images, received 8x8"):
        load_mnist(write(tmp_path / "small", idx_bytes(np.zeros((3, 8, 8)))), write(tmp_path / "lab", idx_bytes(labels)))
    with pytest.raises(ValueError, match="expected digits 0..9, received values from 0 to 12"):
        load_mnist(img, write(tmp_path / "bad", idx_bytes([7, 0, 12])))


def test_load_mnist_npz(tmp_path, tiny):
    images, labels = tiny
    path = tmp_path / "mnist.npz"
    np.savez_compressed(path, x_train=images, y_train=labels.astype(np.int64),
                        x_test=images[:1].reshape(1, 784) / 255.0, y_test=labels[:1])
    X, y = load_mnist_npz(path)
    assert X.shape == (3, 784) and y.tolist() == [7, 0, 9]
    assert X[2, 28 * 5 + 3] == images[2, 5, 3] / 255
    X_test, y_test = load_mnist_npz(path, "x_test", "y_test")
    assert X_test.shape == (1, 784) and y_test.tolist() == [7]


def test_load_mnist_npz_errors(tmp_path, tiny):
    images, labels = tiny
    path = tmp_path / "m.npz"
    np.savez(path, x_train=images, y_train=labels)
    with pytest.raises(KeyError, match="no array named 'x_test'.*'x_train', 'y_train'"):
        load_mnist_npz(path, "x_test", "y_test")
    cut = write(tmp_path / "cut.npz", path.read_bytes()[:-100])
    with pytest.raises(ValueError, match="not a readable .npz|damaged .npz"):
        load_mnist_npz(cut)
    np.savez(tmp_path / "n.npz", x_train=images, y_train=labels[:2])
    with pytest.raises(ValueError, match="mismatched counts: 3 images but 2 labels"):
        load_mnist_npz(tmp_path / "n.npz")
    np.savez(tmp_path / "w.npz", x_train=images.reshape(3, 28 * 28)[:, :700], y_train=labels)
    with pytest.raises(ShapeError, match="expected shape \\(N, 28, 28\\) or \\(N, 784\\)"):
        load_mnist_npz(tmp_path / "w.npz")
    np.savez(tmp_path / "f.npz", x_train=images.astype(np.float64), y_train=labels)
    with pytest.raises(ValueError, match="float pixels in \\[0, 1\\]"):
        load_mnist_npz(tmp_path / "f.npz")
    np.savez(tmp_path / "l.npz", x_train=images, y_train=labels.astype(np.float64))
    with pytest.raises(TypeError, match="labels: expected integers"):
        load_mnist_npz(tmp_path / "l.npz")


def test_mnist_splits_from_idx_files(tmp_path):
    X, y, Xt, yt = write_idx(tmp_path)
    splits, source = mnist_splits(tmp_path, val_size=50, seed=0)
    assert "t10k-images-idx3-ubyte.gz" in source and "train-labels-idx1-ubyte" in source
    assert splits.X_train.shape == (150, 784) and splits.X_val.shape == (50, 784) and splits.X_test.shape == (60, 784)
    # The official test part, untouched and in order: pixels / 255.
    assert np.array_equal(splits.X_test, Xt.reshape(60, 784) / 255.0) and np.array_equal(splits.y_test, yt)
    # Train and validation rows are the official training rows their indices name.
    assert np.array_equal(splits.X_val, X.reshape(200, 784)[splits.val_idx] / 255.0)
    assert np.array_equal(splits.y_train, y[splits.train_idx])
    assert set(splits.train_idx).isdisjoint(splits.val_idx)
    assert set(splits.train_idx) | set(splits.val_idx) == set(range(200))
    assert np.array_equal(splits.test_idx, 200 + np.arange(60))


def test_mnist_npz_gives_the_same_splits_as_idx(tmp_path):
    idx_dir, npz_dir = tmp_path / "idx", tmp_path / "npz"
    idx_dir.mkdir()
    npz_dir.mkdir()
    X, y, Xt, yt = write_idx(idx_dir)
    np.savez(npz_dir / "mnist.npz", x_train=X, y_train=y, x_test=Xt, y_test=yt)
    a, _ = mnist_splits(idx_dir, val_size=0.25, seed=5)
    b, source = mnist_splits(npz_dir, val_size=0.25, seed=5)
    assert source.endswith("mnist.npz") and a.y_val.size == 50
    for name in ("X_train", "y_train", "X_val", "y_val", "X_test", "y_test", "train_idx", "val_idx"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name


def test_mnist_missing_files_and_bad_val_size(tmp_path):
    write_idx(tmp_path)
    (tmp_path / "t10k-labels-idx1-ubyte").unlink()
    with pytest.raises(FileNotFoundError, match="missing t10k-labels-idx1-ubyte"):
        mnist_splits(tmp_path)
    with pytest.raises(FileNotFoundError, match="not a folder"):
        mnist_splits(tmp_path / "nowhere")
    full = tmp_path / "full"
    full.mkdir()
    write_idx(full)
    with pytest.raises(ValueError, match="val_size: expected between 1 and 199"):
        mnist_splits(full, val_size=200)
    with pytest.raises(ValueError, match=r"val_size: expected a number in \(0, 1\) \(a fraction\) or a row count"):
        mnist_splits(full, val_size=1.5)


LAB_A = Path(__file__).resolve().parents[3] / "docs" / "labs" / "digits.py"


MARKDOWN_FENCE = re.compile(r"^# ```python\n(?P<body>.*?)^# ```$", re.MULTILINE | re.DOTALL)


def _openml_recipe() -> str:
    """The ```python example of Lab A's MNIST section, as the reader sees it (not executed at build)."""
    fences = [m["body"] for m in MARKDOWN_FENCE.finditer(LAB_A.read_text(encoding="utf-8"))
              if "fetch_openml" in m["body"]]
    assert len(fences) == 1, f"expected one fetch_openml example in {LAB_A.name}, found {len(fences)}"
    return "".join(line[2:] if line.startswith("# ") else line.lstrip("#") for line in
                   fences[0].splitlines(keepends=True))


def test_the_labs_fetch_openml_recipe_writes_what_the_loader_reads(tmp_path, monkeypatch):
    """Nothing here may download MNIST: the recipe runs with fetch_openml replaced by a fake of
    the same return layout (float pixels 0..255, labels as strings), 12 training rows + 10,000 test rows."""
    datasets = pytest.importorskip("sklearn.datasets")
    from sklearn.utils import Bunch

    from mlp_ref.labs.digits.data import mnist_splits

    n = 12 + 10_000
    calls = []

    def fake_fetch_openml(*args, **kwargs):
        calls.append((args, kwargs))
        pixel = (np.arange(n) % 256).astype(np.float64)[:, None]  # row i: every pixel i % 256
        return Bunch(data=np.broadcast_to(pixel, (n, 784)),
                     target=np.array([str(i % 10) for i in range(n)], dtype=object))

    monkeypatch.setattr(datasets, "fetch_openml", fake_fetch_openml)
    monkeypatch.chdir(tmp_path)
    exec(compile(_openml_recipe(), str(LAB_A), "exec"), {"__name__": "recipe"})
    assert calls == [(("mnist_784",), {"version": 1, "as_frame": False})]

    X, y = load_mnist_npz(tmp_path / "mnist" / "mnist.npz")  # the default keys: x_train, y_train
    assert X.shape == (12, 784) and y.tolist() == [i % 10 for i in range(12)]
    assert np.allclose(X[:, 0] * 255, np.arange(12), rtol=0, atol=1e-9)
    X_test, y_test = load_mnist_npz(tmp_path / "mnist" / "mnist.npz", "x_test", "y_test")
    assert X_test.shape == (10_000, 784) and y_test[0] == 12 % 10
    assert np.isclose(X_test[0, 0] * 255, 12, rtol=0, atol=1e-9)
    splits, source = mnist_splits(tmp_path / "mnist", val_size=4, seed=0)  # what section 8 runs
    assert source.endswith("mnist.npz") and splits.y_train.size == 8 and splits.y_test.size == 10_000
