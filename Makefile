# The README's two commands: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PG_PORT ?= 54329
REDIS_PORT ?= 63799
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:$(PG_PORT)/clubscore
TEST_BROKER_URL ?= redis://127.0.0.1:$(REDIS_PORT)/0
# mypy's Django plugin loads the settings: the demo's environment, nothing secret.
MYPY := DEBUG=1 DATABASE_URL=sqlite:///:memory: $(BIN)/mypy
# The demo as a club sees it: its own error pages (DEBUG off; a public, demo-only key),
# the club's time zone, plain HTTP on this machine; `make demo DEMO_PORT=8001`.
DEMO_PORT ?= 8000
DEMO_ENV := DEBUG=0 HTTPS=0 SECRET_KEY=demo-only-this-key-is-public TIME_ZONE=Asia/Tokyo ALLOW_SIGN_UP=1 LOG_LEVEL=WARNING \
	ALLOWED_HOSTS=127.0.0.1,localhost DATABASE_URL=sqlite:///$(CURDIR)/db.sqlite3 CELERY_BROKER_URL=

.PHONY: install engine engine-clean demo packages services start-services test check docs fuzz style lint bench

# The packages are installed by uv (pinned here), with the machine's certificates as pip
# uses them, and compiled to bytecode once: where PYTHONDONTWRITEBYTECODE is set, each of
# the Python processes a test run starts would otherwise compile Django and the rest again
# (docs/testing.md).
UV_VERSION := 0.13.9
$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check uv==$(UV_VERSION)
	$(BIN)/uv pip install --quiet --system-certs --compile-bytecode --python $(BIN)/python \
		-e '.[dev]'
	touch $@

install: $(VENV)/.installed

# The engine compiled with mypyc (about twice as fast); rebuilt whenever a source changes.
ENGINE_SOURCES := $(wildcard engine/*.py engine/games/*.py)
engine/.compiled: $(ENGINE_SOURCES) scripts/build_engine.py $(VENV)/.installed
	$(BIN)/python scripts/build_engine.py
	touch $@

engine: engine/.compiled

# Back to the pure-Python engine (what a bare checkout without `make engine` runs).
engine-clean:
	rm -rf build/mypyc engine/.compiled
	find engine -name '*.so' -delete

# The embedded demo: SQLite, Celery tasks run eagerly, served at http://127.0.0.1:$(DEMO_PORT)
demo: install engine
	$(DEMO_ENV) $(BIN)/python manage.py migrate --noinput
	$(DEMO_ENV) $(BIN)/python manage.py collectstatic --noinput -v0
	$(DEMO_ENV) $(BIN)/python manage.py load_demo
	@echo "Open http://127.0.0.1:$(DEMO_PORT)/ (times in Asia/Tokyo)"
	$(DEMO_ENV) $(BIN)/python manage.py runserver 127.0.0.1:$(DEMO_PORT)

# Debian packages: every recipe installs them through scripts/debian-packages.sh, once, and
# before any jobs it runs in parallel (two apt-gets at once fail on dpkg's lock;
# tests/test_project.py holds it). `make packages` installs all the suite needs.
PACKAGES := bash scripts/debian-packages.sh
packages:
	$(PACKAGES) services browser

# PostgreSQL and Redis on loopback (installed first when missing), for `check`, `fuzz`, `bench`.
services:
	$(PACKAGES) services
	$(MAKE) --no-print-directory start-services

start-services:
	bash scripts/services.sh $(PG_PORT) $(REDIS_PORT)

# The suite on PostgreSQL in parallel, one process per core (pytest-xdist; each process has
# its own test database, and the tests that share Redis run in one of them).
# A test process per core (`make test PROCESSES=3` for another number). On 2 cores a third
# process did not make the suite reliably faster and left the offline browser tests less
# time to see the network come back.
# The suite writes bytecode (gitignored) even where the machine sets PYTHONDONTWRITEBYTECODE:
# the project's modules, and the tests and pytest plugins pytest rewrites, are compiled by
# the first of the suite's Python processes and read by every later one (docs/testing.md).
PROCESSES ?= $(shell nproc)
PYTEST := DATABASE_URL=$(TEST_DATABASE_URL) CELERY_BROKER_URL=$(TEST_BROKER_URL) \
	CELERY_TASK_ALWAYS_EAGER=1 DEBUG=0 HTTPS=0 SECRET_KEY=test-only-$$(date +%s%N) \
	PYTHONDONTWRITEBYTECODE= $(BIN)/pytest -n $(PROCESSES) --dist loadgroup

# Everything: lint and every test, with real Celery workers on Redis and headless Chromium
# (tests/test_documents_site.py builds the documents and fails on a broken link).
# The Debian packages first, in one step; then the engine compiles (a gcc per core, one C
# file per module) while lint runs and the services start.
test: install
	$(PACKAGES) services browser
	$(MAKE) --no-print-directory -j4 engine lint start-services
	$(PYTEST) $(PYTEST_ARGS)

# The quick answer while working: lint and every test but the browser, worker and slow
# ones (`pytest -m` marks), in two minutes or so.  `make test` still runs them all.
check: install services
	$(MAKE) --no-print-directory -j2 engine style
	$(PYTEST) -m "not browser and not worker and not slow" $(PYTEST_ARGS)

# The documents as a site in build/site (mkdocs.yml; strict: a broken link stops it).
docs: install
	$(BIN)/mkdocs build

# More fuzzing than the suite's, by hand, with fresh randomness: the engine's records broken
# FUZZ_ROUNDS times per game (a failure prints its FUZZ_SEED) and every hypothesis test.
FUZZ_ROUNDS ?= 20000
fuzz: install engine services
	DATABASE_URL=$(TEST_DATABASE_URL) CELERY_BROKER_URL=$(TEST_BROKER_URL) \
	CELERY_TASK_ALWAYS_EAGER=1 DEBUG=0 HTTPS=0 SECRET_KEY=test-only-$$(date +%s%N) \
	FUZZ_SEED=$$(date +%s) FUZZ_ROUNDS=$(FUZZ_ROUNDS) \
	$(BIN)/pytest --hypothesis-profile=fuzz \
	  tests/engine/test_hostile_records.py tests/web/test_schema_fuzz.py

# ruff's rules and layout, djLint's layout of the templates; `lint` adds mypy.
style: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/djlint templates --check

lint: style
	$(MYPY)

# Benchmarks, run by hand (about 45 minutes the first time: federations of 100,000 and
# 1,000,000 deals and seasons of up to 1,000,000 deals are generated once into databases
# of their own); the README holds the figures.
bench: install engine services
	$(BIN)/python bench/engine_bench.py
	$(BIN)/python bench/draw_bench.py
	$(BIN)/python bench/api_bench.py
	$(BIN)/python bench/entry_cost.py
	$(BIN)/python bench/freshness_bench.py
	$(BIN)/python bench/rebuild_bench.py
	$(BIN)/python bench/pages_bench.py
	$(BIN)/python bench/sheets_bench.py
	$(BIN)/python bench/live_bench.py
