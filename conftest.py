# Collects every page of docs/ as tests (see tests/page_blocks.py); prints the time of each
# stage of the run at its end (tests/timing.py).
pytest_plugins = ["tests.timing", "tests.early", "tests.page_blocks"]  # each after the plugins it imports

# Exercise folders hold a reader's starter file and its tests, which are meant to fail
# until the reader solves them; tests/test_exercises.py runs them in isolation instead.
collect_ignore_glob = ["docs/exercises/*"]
