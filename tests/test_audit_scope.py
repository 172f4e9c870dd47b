"""make audit's scope (audit/lighthouse.py): the pages a reader spends the most time on, the home
page, the lessons and the labs of both editions, are measured AUDIT_RUNS times; every other page once."""

from __future__ import annotations

from audit import lighthouse


def test_the_home_page_lessons_and_labs_of_both_editions_are_the_key_pages(tmp_path):
    built = ["", "ru/", "lessons/", "lessons/03-forward-pass/", "ru/lessons/03-forward-pass/", "labs/charlm/",
             "ru/labs/digits/", "sources/", "ru/sources/", "reference/mlp_ref/layers/", "lessons/03-forward-pass/x/"]
    for page in built:
        (tmp_path / page).mkdir(parents=True, exist_ok=True)
        (tmp_path / page / "index.html").write_text("<html></html>")
    assert lighthouse.pages(tmp_path) == sorted(built)
    key = [page for page in lighthouse.pages(tmp_path) if lighthouse.is_key_page(page)]
    assert key == ["", "labs/charlm/", "lessons/03-forward-pass/", "ru/", "ru/labs/digits/", "ru/lessons/03-forward-pass/"], (
        f"pages measured AUDIT_RUNS times: expected the home pages, lessons and labs, found {key}")
