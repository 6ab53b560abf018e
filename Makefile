# Two commands build everything from a clean clone: `make book` and `make test`.
# Both create .venv on first use and install lazylib with its book and test extras (editable).

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: book test bench clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[book,test]"
	touch $(STAMP)

## Cold build of the HTML book: every chapter executed, any warning or failing cell fails the build.
book: $(STAMP)
	rm -rf _build
	$(BIN)/jupyter-book build . -n -W --keep-going
	@echo "The book is in $(CURDIR)/_build/html/index.html"

## Unit, paper and oracle tests, doctests, and every chapter executed through nbval.
test: $(STAMP)
	$(BIN)/pytest

## Speed table of the distance functions (writes benchmarks/results.md).
bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -e ".[bench]"
	$(BIN)/python benchmarks/run.py --output benchmarks/results.md

clean:
	rm -rf _build .venv *.egg-info
