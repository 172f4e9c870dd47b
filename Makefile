# The two commands a reader needs are `make serve` and `make test`; both create the
# virtual environment on first use. See README.md.

PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
HOST   ?= 127.0.0.1:8000

.PHONY: help serve site test bench serve-timing audit lock clean

help:
	@echo "make serve  - build the site and serve it on http://$(HOST) with live reload"
	@echo "make test   - run every check: mlp_ref, page code, snippets, strict build, browser"
	@echo "make site   - build the static site into site/"
	@echo "make bench  - run the benchmarks (ratios against peers measured in the same run)"
	@echo "make serve-timing - how quickly the live preview follows an edit of prose and of mlp_ref"
	@echo "make audit  - Lighthouse performance and accessibility of every built page; fails below target"
	@echo "make lock   - re-resolve requirements.in into the pins of requirements.txt"

NODE_STAMP := node_modules/.package-lock.json

# The stamp holds the folder the environment was installed for. A copied or moved checkout's .venv
# still imports mlp_ref and the site's plugin from the old folder (editable installs name it), so
# it is installed again here, for this folder (tests/test_checkout.py holds it).
ifneq ($(wildcard $(STAMP)),)
ifneq ($(file < $(STAMP)),$(CURDIR))
$(info $(VENV) was installed for "$(file < $(STAMP))", not for this folder ($(CURDIR)): installing it again)
$(shell rm -f $(STAMP))
endif
endif

# Re-installs whenever the pins or the package metadata change. The site's build also needs
# the npm packages of package-lock.json (Temml renders the math when the site is built; the
# Latin Modern Math font that draws it is kept in site_plugin/mlp_site/fonts/) and the site's MkDocs plugin (site_plugin/: a project of its own,
# so that mlp_ref's wheel does not ship it).
$(STAMP): requirements.txt pyproject.toml site_plugin/pyproject.toml $(NODE_STAMP)
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --require-hashes --requirement requirements.txt
	$(BIN)/python -m pip install --quiet --no-deps --no-build-isolation --editable . --editable site_plugin
	@echo "$(CURDIR)" > $@

# npm writes node_modules/.package-lock.json on every install; `npm ci` installs exactly the
# versions of package-lock.json (from the npm registry on first use, then from npm's cache).
$(NODE_STAMP): package.json package-lock.json
	@command -v npm >/dev/null || { echo "npm (Node.js) is needed to build the site's math: install nodejs and npm"; exit 1; }
	npm ci --no-audit --no-fund --silent
	@touch $@

# `python -m mkdocs`, as the tests build: it puts the checkout on sys.path, where the pages' code
# imports prose/ (the `mkdocs` script does not, and a warm build that re-rendered the glossary failed).
serve: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/python -m mkdocs serve --dev-addr $(HOST)

site: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/python -m mkdocs build --strict --clean --site-dir site

# The tests run on every core (pytest-xdist); a file's tests stay in one worker, which opens its browser
# or its fixtures once. The shared work (the build, the browser's visits, the reader's environment) runs
# once, in xdist's controller (tests/early.py). TEST_WORKERS=0 runs everything in one process.
TEST_WORKERS ?= auto
test: $(STAMP)
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadfile

bench: $(STAMP)
	@set -e; for script in benchmarks/bench_*.py; do \
		echo "== $$script"; $(BIN)/python $$script; done

serve-timing: $(STAMP)
	$(BIN)/python benchmarks/serve_timing.py

# Lighthouse, pinned in audit/package-lock.json, installed with npm ci in a folder of its own (the
# root package.json holds what the site build needs; Lighthouse is only for the audit).
AUDIT_NPM := audit/node_modules/.package-lock.json
$(AUDIT_NPM): audit/package.json audit/package-lock.json
	cd audit && npm ci --no-audit --no-fund --loglevel=error
	@touch $@

# Every page of a fresh strict build, served with gzip, as a phone and as a desktop (audit/lighthouse.py):
# the home page, the lessons and the labs of both editions AUDIT_RUNS times each (the median counts),
# every other page once.
AUDIT_RUNS ?= 3
audit: site $(AUDIT_NPM)
	$(BIN)/python -m audit.lighthouse site --runs $(AUDIT_RUNS)

# Resolve the top-level requirements into requirements.txt with uv (pinned there): every pin with the
# SHA-256 of each of its files on the public index, so pip installs requirements.txt and the reader's
# requirements in hash-checking mode. The resolution is universal (every platform and every Python from
# LOCK_PYTHON on, with markers where they differ), so the pins hold on a reader's Windows or Mac too.
# uv reads no pip configuration, and --no-config with no UV_* variable keeps its own away: only the
# public index can put a release into the pins, as on a reader's machine; the check after the lock
# fails on any pin it could not serve. Existing pins are kept where they still fit (a new requirement
# adds its own); `make lock LOCK_FLAGS=--upgrade` moves every pin to the newest release.
PUBLIC_INDEX := https://pypi.org/simple
LOCK_PYTHON  := 3.11
LOCK_FLAGS   ?=
lock: $(STAMP)
	env $$(env | sed -n 's/^\(\(PIP\|UV\)_[A-Z_]*\)=.*/-u \1/p') $(BIN)/uv pip compile --quiet --universal \
	  --python-version $(LOCK_PYTHON) --generate-hashes --no-config --default-index $(PUBLIC_INDEX) \
	  --custom-compile-command "make lock" $(LOCK_FLAGS) requirements.in --output-file requirements.txt
	$(BIN)/python -m tests.readerkit check requirements.txt
	@echo "requirements.txt updated; run 'make test' and commit it."

clean:
	rm -rf site .pytest_cache .hypothesis .cache node_modules
