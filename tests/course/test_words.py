"""Tests of mlp_ref.course.words: how a value reads in a sentence of either edition."""

from fractions import Fraction

import numpy as np
import pytest

from mlp_ref.course.i18n import ru_count, ru_numeral
from mlp_ref.course.words import counted, fold, fraction_words, number, point, times, word


@pytest.mark.parametrize("x, expected", [
    (3, "3"), (101770, "101,770"), (np.float64(2.0), "2"),
    (1 - 0.8 - 0.1, "0.1"),            # 0.09999999999999998: the fewest decimals that say it
    (0.25, "0.25"), (2.0714285, "2.0714"), (Fraction(8, 3), "2.6667"), (-19.33333, "-19.3333"),
])
def test_number_uses_the_fewest_decimals_up_to_four(x, expected):
    assert number(x) == expected


def test_point_and_words_in_english(monkeypatch):
    monkeypatch.setenv("MLP_LANG", "en")
    assert point([2.0, 1.0]) == "(2, 1)"
    assert [word(0), word(3), word(12), word(13)] == ["zero", "three", "twelve", "13"]
    assert [times(2), times(4)] == ["twice", "four times"]
    assert fold(10) == "tenfold"
    assert [fraction_words(Fraction(2, 3)), fraction_words(Fraction(1, 4))] == ["two thirds", "a quarter"]


def test_russian_counts_are_digits_with_narrow_spaces(monkeypatch):
    monkeypatch.setenv("MLP_LANG", "ru")
    assert [word(3), number(101770)] == ["3", "101\u202f770"]


@pytest.mark.parametrize("bad", [Fraction(3, 2), Fraction(1, 7)])
def test_fraction_words_names_what_it_cannot_say(bad):
    with pytest.raises(ValueError, match=str(bad)):
        fraction_words(bad)


@pytest.mark.parametrize("value, expected", [
    ("1", "одна строка"), ("4", "четыре строки"), ("10", "десять строк"), ("0", "0 строк"), ("11", "11 строк"),
    ("22", "22 строки"), ("101\u202f771", "101\u202f771 строка"), ("2.5", "2.5 строки"),
])
def test_counted_agrees_the_noun_with_the_count(value, expected):
    assert counted(value, "строка", "строки", "строк", gender="f") == expected


# Written out by hand, one per gender and case that the pages use and a few more.
@pytest.mark.parametrize("n, forms, gender, case, expected", [
    (4, ("строкой", "строками", "строками"), "f", "ins", "четырьмя строками"),   # теми же четырьмя строками
    (2, ("строка", "строки", "строк"), "f", "nom", "две строки"),
    (1, ("таблица", "таблицы", "таблиц"), "f", "nom", "одна таблица"),
    (1, ("таблицу", "таблицы", "таблиц"), "f", "acc", "одну таблицу"),
    (1, ("рисунок", "рисунка", "рисунков"), "m", "acc", "один рисунок"),
    (2, ("блок", "блока", "блоков"), "m", "nom", "два блока"),
    (1, ("смещение", "смещения", "смещений"), "n", "nom", "одно смещение"),
    (2, ("смещение", "смещения", "смещений"), "n", "nom", "два смещения"),
    (3, ("угла", "углов", "углов"), "m", "gen", "трёх углов"),
    (4, ("шага", "шагов", "шагов"), "m", "gen", "четырёх шагов"),
    (1, ("слоя", "слоёв", "слоёв"), "m", "gen", "одного слоя"),
    (2, ("строке", "строкам", "строкам"), "f", "dat", "двум строкам"),
    (8, ("строке", "строкам", "строкам"), "f", "dat", "восьми строкам"),
    (1, ("строке", "строках", "строках"), "f", "pre", "одной строке"),
    (7, ("запуска", "запусков", "запусков"), "m", "gen", "семи запусков"),
    (5, ("раз", "раза", "раз"), "m", "acc", "пять раз"),
    (10, ("слоем", "слоями", "слоями"), "m", "ins", "десятью слоями"),
    (12, ("строкой", "строками", "строками"), "f", "ins", "12 строками"),
])
def test_ru_count_says_one_to_ten_in_words_agreeing_in_gender_and_case(n, forms, gender, case, expected):
    assert ru_count(n, *forms, gender=gender, case=case) == expected


@pytest.mark.parametrize("kwargs, message", [
    (dict(gender="x"), "expected a gender in"), (dict(gender="f", case="loc"), "expected a case in"),
])
def test_ru_count_names_a_wrong_gender_or_case(kwargs, message):
    with pytest.raises(ValueError, match=message):
        ru_count(12, "строка", "строки", "строк", **kwargs)  # checked above ten too, where no word is said
    with pytest.raises(ValueError, match="from 1 to 10, received 11"):
        ru_numeral(11, "f")


def test_counted_rejects_a_word():
    with pytest.raises(ValueError, match="expected a number, received 'four'"):
        counted("four", "строка", "строки", "строк", gender="f")
