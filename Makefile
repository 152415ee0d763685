# Two commands on a fresh machine: `make run` and `make test`.
# Each creates the virtual environment on first use.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: run test lint bench clean

# setuptools prints an "Editable installation" warning box that --quiet does not hide
# (the build backend runs apart from pip); it is advice for setuptools' own users.
QUIET_BUILD := PYTHONWARNINGS="ignore:Editable installation"

$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(QUIET_BUILD) $(BIN)/python -m pip install --quiet -e '.[dev]'
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
