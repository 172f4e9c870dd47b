"""Tests of mlp_ref.labs.charlm.report."""

from __future__ import annotations

from mlp_ref.labs.charlm.experiment import CharLMSettings
from mlp_ref.labs.charlm.report import command_line


def test_printed_command_line_names_the_word_file(tmp_path):
    settings = CharLMSettings(steps=7)
    argv = command_line(settings, tmp_path / "my words.txt", build_vocab=True).split(" --steps")[0]
    assert argv == f"python -m mlp_ref.labs.charlm --words '{tmp_path / 'my words.txt'}' --build-vocab"
    assert "--words" not in command_line(settings)


def test_a_finding_that_does_not_hold_says_what_the_pages_run_and_yours_found(monkeypatch):
    """Issue 28: a reader's run where batch normalization helped is not told that it "did not help"."""
    import warnings
    from types import SimpleNamespace

    import numpy as np

    from mlp_ref.course.claims import SITE_BUILD_ENV, ClaimWarning
    from mlp_ref.labs.charlm.report import check_findings

    monkeypatch.delenv(SITE_BUILD_ENV, raising=False)
    monkeypatch.delenv("MLP_LANG", raising=False)
    losses = {"MLP, naive init": [2.6, 2.9], "MLP, init fixes": [2.30, 2.31],
              "MLP + batch norm, naive init": [2.5, 2.5], "MLP + batch norm, init fixes": [2.25, 2.26]}
    report = SimpleNamespace(variants=[SimpleNamespace(label=k, val_loss=np.array(v)) for k, v in losses.items()],
                             bigram_loss={"val": 2.45})
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        check_findings(report)
    assert [str(w.message).split(";")[0] for w in record] == [
        "The page's run found that on top of the initialization fixes, batch normalization did not help: "
        "its mean validation loss was higher"]
    assert str(record[0].message).split(". The page's text")[0].endswith(
        "; yours found 2.255 with batch normalization against 2.305 without")
    assert record[0].category is ClaimWarning and record[0].filename == __file__  # the cell's line, not report.py


def _models(*tables):
    from types import SimpleNamespace

    import numpy as np

    return [SimpleNamespace(params={"C": np.asarray(C, dtype=float)}) for C in tables]


def test_nearest_neighbours_by_hand():
    import numpy as np

    from mlp_ref.labs.charlm.report import nearest_neighbours, principal_plane

    points = np.array([[0.0, 0.0], [1.0, 0.0], [5.0, 0.0], [5.0, 2.5]])
    assert nearest_neighbours(points).tolist() == [1, 0, 3, 2], "Lab B, section 8: nearest rows by hand"
    plane, share = principal_plane(np.array([[1.0, 0, 0], [-1, 0, 0], [0, 2, 0], [0, -2, 0]]))
    assert abs(share - 1.0) < 1e-12, f"Lab B, section 8: a table in a plane keeps all its variance, found {share}"


def test_section_8_counts_neighbours_in_the_table_and_in_its_picture(monkeypatch):
    """Lab B, section 8 reads no neighbourhood off one seed's picture: it counts, per seed, the characters
    whose nearest point in the 2-D projection is their nearest row of C, and vowels next to vowels."""
    import warnings

    import numpy as np

    from mlp_ref.course.claims import SITE_BUILD_ENV
    from mlp_ref.labs.charlm.report import check_embeddings, embedding_neighbours, neighbours_lines

    monkeypatch.delenv(SITE_BUILD_ENV, raising=False)
    monkeypatch.delenv("MLP_LANG", raising=False)
    chars = [".", "a", "b", "e", "c"]
    # seed 0: a lies in a plane, so the picture keeps every neighbour; a next to e, b next to c
    flat = [[0, 0, 9], [0, 0, 0], [5, 0, 0], [0, 1, 0], [5, 1.5, 0]]
    flat = np.array(flat, dtype=float)
    flat[:, 2] = 0.0
    flat[0] = [-9, 9, 0]
    # seed 1: the third coordinate, the smallest spread, decides who is nearest; a and e both next to b
    deep = np.array([[-9, 9, 0], [0, 0, 0], [0.3, 0, 0.1], [0, 0.3, 3], [5, 5, 0]], dtype=float)
    n = embedding_neighbours(_models(flat, deep), chars)
    assert n.n_chars == 5 and n.n_vowels == 2 and n.dim == 3
    assert n.vowel_next_to_vowel.tolist() == [2, 0], f"Lab B, section 8: vowels next to vowels, found {n}"
    assert n.same_in_plane[0] == 5, f"Lab B, section 8: a flat table's picture keeps every neighbour, found {n}"
    assert neighbours_lines(n).splitlines()[1] == "vowels (and y) whose nearest neighbour in 3-D is a vowel, " \
        "per seed: 2, 0 of 2"
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        check_embeddings(n)                    # seed 0's picture keeps 5 of 5: more than half
    messages = [str(w.message) for w in record]
    assert len(messages) == 1 and "fewer than half of the 5 characters" in messages[0], \
        f"Lab B, section 8: expected the picture's agreement said, found {messages}"
