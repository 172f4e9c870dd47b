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


def test_a_one_line_fence_is_backed_by_the_claims_of_the_generator_it_calls():
    """The section's fence only calls lesson02.perceptron_xor_table(); its claim is in the module."""
    page = ('# 2. A page\n\n```python exec="on" session="x"\nfrom mlp_ref.course.generators import lesson02\n```\n\n'
            '## Checked\n\nThe rule never stops on XOR.\n\n```python exec="on" session="x"\n'
            'print(lesson02.perceptron_xor_table())\n```\n\n'
            '## Unchecked\n\nThe trace never stops.\n\n```python exec="on" session="x"\n'
            'print(lesson02.xor_trace())\n```\n')
    assert [(s.line, s.backing) for s in sentences(page, "en")] == [(9, "claim"), (17, "-")]
