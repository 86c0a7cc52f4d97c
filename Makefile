# The README's two commands: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PG_PORT ?= 54329
REDIS_PORT ?= 63799
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:$(PG_PORT)/clubscore
TEST_BROKER_URL ?= redis://127.0.0.1:$(REDIS_PORT)/0
DEMO_ENV := DEBUG=1 DATABASE_URL=sqlite:///$(CURDIR)/db.sqlite3 CELERY_BROKER_URL=

.PHONY: install demo services browser-deps test lint

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check -e '.[dev]'
	touch $@

install: $(VENV)/.installed

# The embedded demo: SQLite, Celery tasks run eagerly, served at http://127.0.0.1:8000
demo: install
	$(DEMO_ENV) $(BIN)/python manage.py migrate --noinput
	$(DEMO_ENV) $(BIN)/python manage.py load_demo
	$(DEMO_ENV) $(BIN)/python manage.py runserver 127.0.0.1:8000

services:
	bash scripts/services.sh $(PG_PORT) $(REDIS_PORT)

browser-deps:
	bash scripts/browser-deps.sh

# The whole suite on PostgreSQL, with a real Celery worker on Redis for the worker tests.
test: install services browser-deps
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	DATABASE_URL=$(TEST_DATABASE_URL) CELERY_BROKER_URL=$(TEST_BROKER_URL) \
	CELERY_TASK_ALWAYS_EAGER=1 DEBUG=0 SECRET_KEY=test-only-$$(date +%s%N) \
	$(BIN)/pytest $(PYTEST_ARGS)

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
