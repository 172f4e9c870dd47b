# Collects every page of docs/ as tests (see tests/page_blocks.py).
pytest_plugins = ["tests.page_blocks"]
