# The kit's set-up and checks. Every target creates .venv and installs what it needs.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: help report report-full-size demo test test-unit test-doctest test-nbval test-smoke lint format bench clean

help:
	@echo "make report   build the demo reports (simulated data) under build/reports/"
	@echo "make test     run every test tier (unit, doctest, nbval, papermill smoke, lint)"

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	$(BIN)/python -m ipykernel install --sys-prefix --name python3 >/dev/null
	touch $(STAMP)

venv: $(STAMP)

test: test-unit test-doctest test-nbval test-smoke lint

test-unit: $(STAMP)
	$(BIN)/python -m pytest -q -m "not smoke" tests

# The real notebooks on the demo: the report runner over one run set, and each notebook
# run directly with its params/notebooks/*.yaml (a kernel per notebook).
test-smoke: $(STAMP)
	$(BIN)/python -m pytest -q -m smoke tests

report: $(STAMP)
	$(BIN)/tcsexam report params/demo-*.yaml -j 2
	@echo "Landing page: build/reports/index.html (SIMULATED demo data)"

# A SIMULATED run set of the size of TCSExam Full (not part of `make report`).
report-full-size: $(STAMP)
	$(BIN)/tcsexam demo generate --scale full --root build/demo-full-size
	$(BIN)/tcsexam report build/demo-full-size/demo-full-size-offline.yaml -j 2

test-doctest: $(STAMP)
	$(BIN)/python -m pytest -q --doctest-modules tcsexam_lib

# Re-runs the teaching notebook; cells marked NBVAL_CHECK_OUTPUT must print their stored outputs.
test-nbval: $(STAMP)
	$(BIN)/python -m pytest -q -p no:cacheprovider --nbval-lax --nbval-current-env \
		--nbval-sanitize-with notebooks/nbval_sanitize.cfg notebooks/teaching.ipynb

lint: $(STAMP)
	$(BIN)/ruff check tcsexam_lib tests notebooks
	$(BIN)/ruff format --check tcsexam_lib tests notebooks

format: $(STAMP)
	$(BIN)/ruff format tcsexam_lib tests notebooks
	$(BIN)/ruff check --fix tcsexam_lib tests notebooks

clean:
	rm -rf build .pytest_cache .ruff_cache

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_scoring.py
	$(BIN)/python benchmarks/bench_report.py

demo: $(STAMP)
	$(BIN)/tcsexam demo generate
	$(BIN)/tcsexam demo check
