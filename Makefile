# Two commands build everything from a clean clone: `make book` and `make test`.
# Both create .venv on first use and install lazylib with its book, test, dev, dask and peers extras (editable;
# `peers`: distython, imbalanced-learn and gower, the outside oracles of tests/oracles/test_peers.py, which a
# `pip install --dry-run` showed change no version of numpy, scipy, scikit-learn or pandas).
#
# Every page of the book is executed once per `make test` + `make book` (as CI runs them): the nbval run of
# `make test` stores the executed pages in _build/.jupyter_cache, and `make book` reuses them only if they come
# from the current sources; otherwise it executes every page itself, in _toc.yml order, before Sphinx reads any
# (lazylib/_book/execute_once.py). `make book` alone on a clean clone executes everything.

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: book test unit lint lab times bench clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[book,test,dev,dask,peers,bench]"
	touch $(STAMP)

## The HTML book, from scratch but for the execution cache (which execute_once.py checks): any warning or failing
## cell fails the build. Then checks that the built pages load nothing from other hosts and typeset their maths.
book: $(STAMP)
	mkdir -p _build
	find _build -mindepth 1 -maxdepth 1 ! -name .jupyter_cache ! -name .jupyter_cache.stamp.json -exec rm -rf {} +
	$(BIN)/jupyter-book build . -n -W --keep-going
	$(BIN)/pytest -q tests/unit/test_book_html.py
	@echo "The book is in $(CURDIR)/_build/html/index.html"

## Unit, paper and oracle tests, doctests, and every chapter executed through nbval (in _toc.yml order), in two
## chains: one pytest-xdist worker executes the first chain from the start, the other runs the rest of the tests and
## then the second chain, whose pages reading the records wait for the first (conftest.py). Plain `pytest` runs
## everything in one process, chapters last. The 30 slowest tests and pages are named at the end (CI's 40-minute budget).
test: $(STAMP)
	$(BIN)/pytest -n 2 --dist loadscope --durations=30

## The fast loop: unit, paper and oracle tests and doctests; no chapter and no test book is executed.
unit: $(STAMP)
	$(BIN)/pytest tests lazylib -m "not book_build"

## Ruff: lint rules and the formatter (configuration in pyproject.toml).
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

## JupyterLab on the repository, every page opening as a notebook (jupytext reads and saves the Markdown as
## jupytext.toml says, so a save without edits leaves a page unchanged; no .ipynb is written): installs the lab
## extra (with jupyterlab-myst for MyST in Markdown cells) and, in this environment only (an overrides.json in
## .venv, not your own JupyterLab settings), makes "Jupytext Notebook" the default viewer of Markdown files and
## switches off the first-start questions (Jupyter news, update check, the kernel of a page without code). As root (a container), --allow-root.
LAB_SETTINGS := $(VENV)/share/jupyter/lab/settings
LAB_OVERRIDES := {"@jupyterlab/docmanager-extension:plugin": {"defaultViewers": {"markdown": "Jupytext Notebook", \
	"myst": "Jupytext Notebook"}}, "@jupyterlab/apputils-extension:notification": {"fetchNews": "false", \
	"checkForUpdates": false}, "@jupyterlab/notebook-extension:tracker": {"autoStartDefaultKernel": true}}
lab: $(STAMP)
	$(BIN)/python -m pip install --quiet -e ".[lab]"
	mkdir -p $(LAB_SETTINGS)
	printf '%s\n' '$(LAB_OVERRIDES)' > $(LAB_SETTINGS)/overrides.json
	$(BIN)/jupyter lab --ServerApp.root_dir="$(CURDIR)" $(if $(filter 0,$(shell id -u)),--allow-root) book/intro.md

## benchmarks/README.md's time table, from the last `bash .ci/run` (.ci/last_run.tsv) and the pages' execution times in the
## book's execution cache (lazylib/_book/times.py).
times: $(STAMP)
	$(BIN)/python -m lazylib._book.times

## Speed table of the distance functions (writes benchmarks/results.md).
bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -e ".[bench]"
	$(BIN)/python benchmarks/run.py --output benchmarks/results.md

clean:
	rm -rf _build .venv .scorecard *.egg-info
