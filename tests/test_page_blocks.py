"""tests/page_blocks.py: a block that continues others runs in the state they leave, run once each."""

from __future__ import annotations

import pytest

from tests import page_blocks, pagekit

COUNT = 'import os; os.environ["MLP_FIRST_BLOCK_RUNS"] = str(int(os.environ.get("MLP_FIRST_BLOCK_RUNS", "0")) + 1)\n'


def _chain(*codes: str) -> list[pagekit.Block]:
    """Blocks of a made-up page, each continuing the one before it."""
    page = pagekit.DOCS / "made-up.md"
    chain: list[pagekit.Block] = []
    for number, code in enumerate(codes):
        block = pagekit.Block(pagekit.Fence(page, 10 * (number + 1), 0, "python", code), code)
        block.continues = chain[-1] if chain else None
        chain.append(block)
    return chain


@pytest.fixture
def fresh(monkeypatch):
    monkeypatch.setenv("MLP_FIRST_BLOCK_RUNS", "0")
    monkeypatch.setitem(page_blocks._last, "block", None)
    monkeypatch.setitem(page_blocks._last, "namespace", None)


def runs() -> int:
    import os
    return int(os.environ["MLP_FIRST_BLOCK_RUNS"])


def test_a_block_run_after_the_one_it_continues_uses_its_namespace(fresh):
    first, second, third = _chain(COUNT + "x = [1]\n", "x.append(2)\nprint(x)\n", "x.append(3)\nprint(x)\n")
    assert page_blocks.run_block(first) == ""
    assert page_blocks.run_block(second) == "[1, 2]\n"
    assert page_blocks.run_block(third) == "[1, 2, 3]\n"
    assert runs() == 1  # the chain's first block ran once, not once per block


def test_a_block_run_out_of_order_reruns_its_chain_in_a_fresh_namespace(fresh):
    first, second, third = _chain(COUNT + "x = [1]\n", "x.append(2)\nprint(x)\n", "x.append(3)\nprint(x)\n")
    assert page_blocks.run_block(third) == "[1, 2, 3]\n"  # alone, as with pytest -k
    assert page_blocks.run_block(second) == "[1, 2]\n"  # not the namespace the third block left
    assert page_blocks.run_block(third) == "[1, 2, 3]\n"  # continues the second: its namespace
    assert runs() == 2


def test_a_block_that_raised_leaves_no_namespace_to_continue(fresh):
    first, second = _chain(COUNT + "x = [1]\nraise RuntimeError('half run')\nx.append(0)\n", "print(x)\n")
    with pytest.raises(RuntimeError, match="half run"):
        page_blocks.run_block(first)
    with pytest.raises(RuntimeError, match="half run"):  # the chain again, not the half-run state
        page_blocks.run_block(second)
    assert runs() == 2
