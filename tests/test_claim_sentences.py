"""The reading aid of tests/claim_sentences.py finds behaviour sentences and says what backs them."""

from __future__ import annotations

import pytest

from tests.claim_sentences import markdown_of, sentences

PAGE = '''# 9. A page

## Checked

The rule never stops on XOR. It has a name.

```python
claim(run.never_converges, "the rule never stops on XOR")
print("x = 1")  # "always" in code is not prose
```

## Unchecked

A unit can only draw a line, because its activation is increasing.

??? success "Answer"
    Doubling the width halves the error, as Smith et al. (2020) found.

## Sources

- A. Smith, "Every network, always", 2020.
'''


def test_behaviour_sentences_and_what_backs_them():
    found = [(s.line, s.backing, s.text) for s in sentences(PAGE, "en")]
    assert found == [
        (5, "claim", "The rule never stops on XOR."),
        (14, "-", "A unit can only draw a line, because its activation is increasing."),
        (17, "cite", "Doubling the width halves the error, as Smith et al. (2020) found."),
    ]


def test_russian_words_and_lab_cells(tmp_path):
    lab = tmp_path / "lab.ru.py"
    lab.write_text('# %% [markdown]\n# ## 1. Раздел\n#\n# Правило никогда не сходится на XOR.\n\n'
                   '# %%\nclaim(True, "x")\n', encoding="utf-8")
    assert [(s.line, s.backing) for s in sentences(markdown_of(lab), "ru")] == [(4, "claim")]
    with pytest.raises(ValueError, match="expected one of"):
        sentences(PAGE, "de")


def test_a_one_line_generator_call_brings_its_checks():
    """A block that calls a generator of mlp_ref.course.generators backs its section with the
    claims and asserts of that function (and of the functions of its module it calls)."""
    page = ('# 9. A page\n\n## Measured\n\nBatches always beat single rows.\n\n'
            '```python exec="on"\nfrom mlp_ref.course.generators import lesson08, lesson09\n\n'
            'print(lesson09.batch_rate_table())\n```\n\n'
            '## Traced\n\nThe tent always folds the line.\n\n```python exec="on"\nprint(lesson08.tent_trace())\n```\n')
    assert [(s.line, s.backing) for s in sentences(page, "en")] == [(5, "claim"), (15, "-")]
