# The kit's set-up and checks. Every target creates .venv and installs what it needs.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: help venv bytecode lock schemas golden report report-full-size lab demo test test-unit test-hostile test-doctest test-nbval test-smoke test-browser lint format \
	bench bench-speed bench-report bench-calibration bench-soak bench-incremental clean teaching-notebook teaching-html

help:
	@echo "make report   build the demo reports (simulated data) under build/reports/"
	@echo "make test     run every test tier (unit, hostile, doctest, nbval, smoke, browser, lint)"
	@echo "make lab      JupyterLab on the notebooks (open teaching.ipynb first, then Run All)"
	@echo "make teaching-html  the teaching notebook as a page that reads offline (build/teaching/)"

# The environment is installed from the lock (requirements.lock: every package of the
# runtime and the dev extras, pip and the build backend, each pinned with its sha256 for
# every supported Python and platform), with hash checking, so that every machine gets the
# same versions: a changed lock or pyproject.toml makes a new .venv from scratch (nothing
# left over from the old one). The kit itself goes in editable, with no dependency of its
# own fetched and the locked setuptools as its build backend. The lock's sha256 is kept in
# the environment (tcsexam-lock.sha256), and every output records it (docs/reproducing.md).
LOCK := requirements.lock
$(STAMP): pyproject.toml $(LOCK)
	$(PYTHON) -m venv --clear $(VENV)
	$(BIN)/python -m pip install --quiet --require-hashes -r $(LOCK)
	$(BIN)/python -m pip install --quiet --no-deps --no-build-isolation -e .
	$(BIN)/python -m tcsexam_lib.environment --installed-from $(LOCK)
	$(BIN)/python -m tcsexam_lib.reports.kernelspec  # python3, through the kit's launcher
	$(BIN)/python -m compileall -q tcsexam_lib  # bytecode even where PYTHONDONTWRITEBYTECODE is set
	touch $(STAMP)

venv: $(STAMP)

# Refresh the lock after a change to pyproject.toml or requirements-build.in: the versions
# already locked are kept where they still fit (LOCK_ARGS=--upgrade moves everything to the
# newest release, LOCK_ARGS='--upgrade-package scipy' one package). uv comes from the lock
# itself (the dev extras). The lock is replaced only when its text changes (a new lock
# means a new .venv). Then `make golden` if a published page changes its bytes.
lock: | $(STAMP)
	cp $(LOCK) $(LOCK).new
	$(BIN)/uv pip compile pyproject.toml requirements-build.in --extra dev --universal \
		--python-version 3.11 --generate-hashes --custom-compile-command "make lock" \
		--quiet $(LOCK_ARGS) -o $(LOCK).new
	@if cmp -s $(LOCK).new $(LOCK); then rm $(LOCK).new; echo "$(LOCK) unchanged"; \
	else mv $(LOCK).new $(LOCK); echo "$(LOCK) changed: make venv installs it"; fi

# The published JSON Schemas of the kit's outputs (index-output, solver-output, provenance)
# are generated from their typed records (tcsexam_lib/documents.py): after a change of a
# record, `make schemas` rewrites them (tests/test_documents.py fails while a committed
# schema differs from the generated one).
schemas: $(STAMP)
	$(BIN)/python -m tcsexam_lib.schemas

test: test-unit test-hostile test-doctest test-nbval test-smoke test-browser lint

test-unit: $(STAMP)
	$(BIN)/python -m pytest -q -m "not smoke and not hostile and not browser" tests

# Malformed and hostile inputs through the real tcsexam process: exit code, message,
# no traceback, previous output untouched, nothing else changed.
test-hostile: $(STAMP)
	$(BIN)/python -m pytest -q -m hostile tests

# Pages and JupyterLab in a real browser: Playwright for Python driving the system Chromium
# (never a downloaded one), and an accessibility audit of every kind of page (axe-core, one
# pinned release fetched from the npm registry and checked: tests/browser/axe.py). Without a Chromium the tier says so and skips; .ci/run installs
# Debian's chromium and sets TCSEXAM_REQUIRE_BROWSER=1, so in CI a missing browser fails.
CHROMIUM ?= $(shell command -v chromium || command -v chromium-browser)
test-browser: $(STAMP)
	@if [ -z "$(CHROMIUM)" ] && [ -z "$$TCSEXAM_REQUIRE_BROWSER" ]; then \
		echo "test-browser: SKIPPED, no Chromium on PATH (apt-get install chromium to run it)"; \
	else \
		$(BIN)/python tests/browser/axe.py >/dev/null && \
		TCSEXAM_CHROMIUM="$(CHROMIUM)" $(BIN)/python -m pytest -q -m browser tests; \
	fi

# The real notebooks on the demo: the report runner over one run set, and each notebook
# run directly with its params/notebooks/*.yaml (a kernel per notebook).
test-smoke: $(STAMP)
	$(BIN)/python -m pytest -q -m smoke tests

report: $(STAMP)
	$(BIN)/tcsexam report params/demo-*.yaml -j 2
	@echo "Landing page: build/reports/index.html (SIMULATED demo data)"

# JupyterLab from the kit's environment (its kernel imports tcsexam_lib), serving the kit's
# folder and opening the teaching notebook. The kit's JupyterLab settings (.jupyterlab/):
# no autosave (the notebooks are the kit's templates: File > Save As keeps a run), no news
# or update check (nothing fetched from the network). As root (a container) it adds
# --allow-root. LAB_ARGS adds JupyterLab options, e.g. make lab LAB_ARGS=--no-browser.
LAB_OPTIONS := --ServerApp.root_dir="$(CURDIR)" --LabApp.app_settings_dir="$(CURDIR)/.jupyterlab" \
	--LabApp.default_url=/lab/tree/notebooks/teaching.ipynb --LabApp.news_url=None \
	--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate \
	$(if $(filter 0,$(shell id -u)),--allow-root)
lab: $(STAMP)
	$(BIN)/jupyter lab $(LAB_OPTIONS) $(LAB_ARGS)

# A SIMULATED run set of the size of TCSExam Full (not part of `make report`).
report-full-size: $(STAMP)
	$(BIN)/tcsexam demo generate --scale full --root build/demo-full-size
	$(BIN)/tcsexam report build/demo-full-size/demo-full-size-offline.yaml -j 2

test-doctest: $(STAMP)
	$(BIN)/python -m pytest -q --doctest-modules tcsexam_lib

# Re-runs the teaching notebook; cells tagged nbval-check-output must print their stored outputs.
test-nbval: $(STAMP)
	$(BIN)/python -m pytest -q -p no:cacheprovider --nbval-lax --nbval-current-env \
		--nbval-sanitize-with notebooks/nbval_sanitize.cfg notebooks/teaching.ipynb

# Re-executes the teaching notebook in place, as it is committed: with its outputs, without
# timing metadata, and with its widgets stored as their plain-text fallback.
teaching-notebook: $(STAMP)
	$(BIN)/jupyter nbconvert --to notebook --execute --inplace \
		--ExecutePreprocessor.record_timing=False \
		--NotebookExporter.preprocessors=tcsexam_lib.teaching.strip_widget_views \
		notebooks/teaching.ipynb

# The teaching notebook as an HTML page that reads offline (MathJax in its _assets/, never
# fetched): build/teaching/teaching.html. `make report` writes it beside the landing page too.
teaching-html: $(STAMP)
	$(BIN)/tcsexam teaching-html --output build/teaching

lint: $(STAMP)
	$(BIN)/ruff check tcsexam_lib tests notebooks benchmarks
	$(BIN)/ruff format --check tcsexam_lib tests notebooks benchmarks

format: $(STAMP)
	$(BIN)/ruff format tcsexam_lib tests notebooks benchmarks
	$(BIN)/ruff check --fix tcsexam_lib tests notebooks benchmarks

clean:
	rm -rf build .pytest_cache .ruff_cache

# Speed and memory as ratios against baselines run side by side (SIMULATED data; the stats
# scale lines: 200 and 1,000 models against tcsexam score on them), then the calibration of
# tcsexam stats. Figures are printed, never asserted.
bench: $(STAMP) bench-speed bench-report bench-calibration bench-incremental

# Bytecode for every module as it stands: where PYTHONDONTWRITEBYTECODE is set, a module
# edited since .venv was made would otherwise be compiled again by every command timed.
bytecode: $(STAMP)
	$(BIN)/python -m compileall -q tcsexam_lib

bench-speed: bytecode
	$(BIN)/python benchmarks/bench_speed.py

# Coverage of every interval, error rates, power and rank claims of tcsexam stats on
# SIMULATED cohorts (5, 8 and 20 tasks a track; 4 to 40 models): the development seed
# (where the methods were chosen, half the cohorts) then the held-out seed (the published
# figures). Each figure with its Monte Carlo standard error and its goal, PASS or MISS;
# the misses listed. About 30 CPU minutes (15 on two idle cores); CALIBRATION_ARGS=--quick
# runs the development seed with a tenth of the cohorts (about 2 minutes).
bench-calibration: bytecode
	$(BIN)/python benchmarks/bench_calibration.py $(CALIBRATION_ARGS)

# One notebook page against a bare papermill run of a one-cell notebook, side by side; then
# the cohort page of the SIMULATED 200-model run set against the 3-model one (goal: 3x).
bench-report: bytecode
	$(BIN)/python benchmarks/bench_report.py

# Kernels that do not stop cleanly, ipykernel's launcher against the kit's side by side
# (400 one-cell notebooks, about 4 minutes); then the Full-size SIMULATED run set rendered
# three times at -j 2 and once at -j 4: notebooks run and lost (goal: 0 lost of at least
# 240), kernel log lines (goal: none). About 12 minutes on two idle cores, so it is not
# part of `make bench`.
bench-soak: bytecode
	$(BIN)/python benchmarks/bench_kernel_stops.py
	$(BIN)/python benchmarks/bench_kernel_stops.py --direct 100
	$(BIN)/python benchmarks/bench_soak.py

# A living leaderboard: the SIMULATED 200-model run set (every notebook) published from
# scratch with kernels forked and cold side by side (goal: forked 0.4x of cold), then one
# model added, one attempt changed, nothing changed; each a ratio of from scratch (goals
# 5%, 5%, 2%), each compared with --force byte for byte, and from scratch against the kit
# before incremental publication (BASELINE=<a checkout of it with its own .venv>, goal
# 1.05x). About an hour on two idle cores.
BASELINE ?=
bench-incremental: bytecode
	$(BIN)/python benchmarks/bench_incremental.py $(if $(BASELINE),--baseline $(BASELINE))

# The golden digests (tests/golden/demo-digests.json): the sha256 of every file the demo
# publishes (`make report` under a fixed SOURCE_DATE_EPOCH, into build/golden) and the
# environment they were made in. Run it after an intended change of a page, a statistic or
# a locked version, and commit the file; the quick-start test compares a fresh clone's
# `make report` with it (GOLDEN_ARGS=--check compares here instead of rewriting).
golden: $(STAMP)
	$(BIN)/python tests/golden_digests.py $(GOLDEN_ARGS) build/golden

demo: $(STAMP)
	$(BIN)/tcsexam demo generate
	$(BIN)/tcsexam demo check
