# Two commands on a fresh machine: `make run` and `make test`.
# Each creates the virtual environment on first use.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: run test lint bench clean

$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@

run: $(BIN)/.installed
	$(BIN)/travel-bot run

lint: $(BIN)/.installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

test: lint
	$(BIN)/pytest

bench: $(BIN)/.installed
	$(BIN)/python bench/latency.py

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
