"""Tests of mlp_ref.labs.charlm.data: vocabulary, word lists, splits and context windows."""

from __future__ import annotations

import pytest

from mlp_ref.labs.charlm.data import (Vocabulary, build_windows, census_name_files, load_census_names,
                                      load_words, split_words, window_rows)


VOCAB = Vocabulary.letters()


def test_vocabulary_letters_has_end_token_first():
    assert VOCAB.chars[0] == "." and VOCAB.size == 27
    assert VOCAB.encode("az") == [1, 26]
    assert VOCAB.decode([5, 13, 13, 1]) == "emma"


def test_vocabulary_rejects_characters_outside():
    with pytest.raises(ValueError, match=r"'E' at position 0"):
        VOCAB.encode("Emma")
    with pytest.raises(ValueError, match="reserved"):
        Vocabulary.from_words(["a.b"])


def test_windows_of_emma_by_hand():
    X, Y = build_windows(["emma"], VOCAB, 3)
    e, m, a = 5, 13, 1
    assert X.tolist() == [[0, 0, 0], [0, 0, e], [0, e, m], [e, m, m], [m, m, a]]
    assert Y.tolist() == [e, m, m, a, 0]
    assert window_rows("emma", VOCAB, 3)[0] == ("[. . .]", "e")
    assert window_rows("emma", VOCAB, 3)[-1] == ("[m m a]", ".")


def test_windows_count_is_letters_plus_one_per_word():
    words = ["ab", "c", "defg"]
    X, Y = build_windows(words, VOCAB, 2)
    assert X.shape == (3 + 2 + 5, 2) and Y.shape == (10,)


def test_load_words_file(tmp_path):
    path = tmp_path / "w.txt"
    path.write_text("anna\n\n  bob \nanna\n", encoding="utf-8")
    words, vocab = load_words(path)
    assert words == ["anna", "bob", "anna"] and vocab == VOCAB
    words, vocab = load_words(path, build_vocabulary=True)
    assert vocab.chars == (".", "a", "b", "n", "o")


def test_load_words_errors(tmp_path):
    empty = tmp_path / "empty.txt"
    empty.write_text("\n \n", encoding="utf-8")
    with pytest.raises(ValueError, match="empty file"):
        load_words(empty)
    bad = tmp_path / "bad.txt"
    bad.write_text("anna\nZoe\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"line 2 'Zoe' \('Z'\).*lowercase=True.*build_vocabulary=True"):
        load_words(bad)
    assert load_words(bad, lowercase=True)[0] == ["anna", "zoe"]
    words, vocab = load_words(bad, build_vocabulary=True)
    assert "Z" in vocab.chars


def test_census_names_are_lower_letters_unique():
    names = load_census_names()
    # an independent parse of the same files: first whitespace-separated field of each line
    expected = set()
    for file in census_name_files():
        for line in file.read_text().splitlines():
            if line.strip():
                expected.add(line.split()[0].lower())
    assert set(names) == {w for w in expected if w.isalpha()}
    assert len(names) == len(set(names))
    assert all(w.isascii() and w.isalpha() and w.islower() for w in names)
    assert {"mary", "james", "emma"} <= set(names)


def test_split_is_disjoint_complete_and_seeded():
    words = [f"w{i}" for i in range(100)]
    train_w, val_w, test_w = split_words(words, 3)
    assert (len(train_w), len(val_w), len(test_w)) == (80, 10, 10)
    assert sorted(train_w + val_w + test_w) == sorted(words)
    assert split_words(words, 3) == (train_w, val_w, test_w)
    assert split_words(words, 4)[0] != train_w
    with pytest.raises(ValueError, match="too few"):
        split_words(["a", "b"], 0)


def test_load_word_list_is_the_commands_choice_of_words(tmp_path):
    """The lab's WORDS_FILE and the command's --words go through the same function."""
    from mlp_ref.labs.charlm.data import load_word_list

    assert load_word_list() == (load_census_names(), VOCAB)
    path = tmp_path / "words.txt"
    path.write_text("anna\nZoe\nanna\n", encoding="utf-8")
    words, vocabulary = load_word_list(path, build_vocab=True)
    assert words == ["anna", "Zoe", "anna"] and vocabulary.chars == (".", "Z", "a", "e", "n", "o")
    with pytest.raises(ValueError, match="line 2 'Zoe' \\('Z'\\)"):
        load_word_list(path)
    with pytest.raises(ValueError, match="BUILD_VOCAB = True needs WORDS_FILE"):
        load_word_list(None, build_vocab=True)


def own_word_list(tmp_path):
    """A reader's word list: capitalised names, a blank line, one name with a letter outside a-z."""
    path = tmp_path / "my names.txt"
    path.write_text("Anna\nbob\n\nZoë\ncarl\nEmma\n", encoding="utf-8")
    return path


def test_a_word_list_error_counts_every_bad_line_from_1_in_the_notebooks_words(tmp_path, monkeypatch):
    """The notebook's reader is told every line to fix (numbered as an editor numbers them) and which
    settings of the first cell accept the file."""
    from mlp_ref.labs.charlm.data import load_word_list

    monkeypatch.delenv("MLP_LANG", raising=False)
    with pytest.raises(ValueError) as error:
        load_word_list(own_word_list(tmp_path))
    message = str(error.value)
    assert "my names.txt: 3 of 5 words have characters outside the vocabulary" in message
    assert "line 1 'Anna' ('A'), line 4 'Zoë' ('Z', 'ë'), line 6 'Emma' ('E')" in message
    assert "LOWERCASE = True" in message and "BUILD_VOCAB = True" in message
    assert "build_vocabulary" not in message and "--build-vocab" not in message
    monkeypatch.setenv("MLP_LANG", "ru")
    with pytest.raises(ValueError, match=r"3 из 5 слов.*строка 1 'Anna'.*в первой ячейке"):
        load_word_list(own_word_list(tmp_path))


def test_a_word_list_error_on_the_command_line_names_its_flags(tmp_path):
    from mlp_ref.labs.charlm.data import load_word_list

    with pytest.raises(ValueError) as error:
        load_word_list(own_word_list(tmp_path), options="command line")
    message = str(error.value)
    assert "--lowercase" in message and "--build-vocab" in message and "BUILD_VOCAB" not in message


def test_lower_casing_accepts_capitalised_words(tmp_path):
    from mlp_ref.labs.charlm.data import load_word_list

    path = own_word_list(tmp_path)
    path.write_text("Anna\nbob\n\nZoe\n", encoding="utf-8")
    assert load_word_list(path, lowercase=True) == (["anna", "bob", "zoe"], VOCAB)
    with pytest.raises(ValueError, match=r"line 4 'zoë' \('ë'\)"):
        load_word_list(own_word_list(tmp_path), lowercase=True)  # ë stays outside a-z
    words, vocabulary = load_word_list(own_word_list(tmp_path), build_vocab=True, lowercase=True)
    assert "E" not in vocabulary.chars and "ë" in vocabulary.chars
    with pytest.raises(ValueError, match="LOWERCASE = True needs WORDS_FILE"):
        load_word_list(None, lowercase=True)
