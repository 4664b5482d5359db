# Everything a fresh machine with only python3 needs. `make run` and `make test` are the two set-up commands.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

# Prefect's settings: newsclean fills in what your environment and Prefect profile leave unset
# (flows/env.py); the tests use a Prefect home of their own (tests/conftest.py).

.PHONY: install run test bench clean-out

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q -U pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	$(BIN)/newsclean run raw clean

# --max-worker-restart=0: a test that crashes its worker (a native fault) fails the run at once;
# with restarts, pytest-xdist 3.8's loadgroup scheduling hangs (its issues 1323 and 1327).
test: $(STAMP)
	$(BIN)/python -m pytest -q -n auto --dist loadgroup --max-worker-restart=0

bench: $(STAMP)
	$(BIN)/python -m pip install -q -e '.[dev,bench]'
	$(BIN)/python bench/run_all.py
