# unokit — every target installs what it needs first.
#   make serve   install and run the web app with bots (http://127.0.0.1:8000)
#   make test    install everything (Python packages, Debian's chromium) and run all tests
#   make sim     install and run a simulation
#   make bench   engine and environment benchmarks against RLCard

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-dev
# The shared rules scenarios sit beside the checkout; a copy is kept in tests/scenarios.
SCENARIOS := $(wildcard ../shared/rules/scenarios) tests/scenarios

.PHONY: install install-web system-deps test lint typecheck conformance unit sim bench bench-server serve clean

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

$(STAMP): pyproject.toml | $(VENV)/bin/python
	$(BIN)/pip install -q -e ".[dev]"
	touch $@

$(VENV)/.installed-web: pyproject.toml | $(VENV)/bin/python
	$(BIN)/pip install -q -e ".[web]"
	touch $@

install: $(STAMP)

install-web: $(VENV)/.installed-web

# Browser tests need Debian's chromium (never `playwright install`).
system-deps:
	@if ! command -v chromium >/dev/null 2>&1; then \
	  echo "installing chromium (Debian package) for the browser tests"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null; \
	fi
	@# the scale-out tests start their own PostgreSQL and Redis servers (tests/scale)
	@if ! command -v redis-server >/dev/null 2>&1; then \
	  echo "installing redis-server (Debian package) for the cluster tests"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null; \
	fi
	@if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && ! command -v initdb >/dev/null 2>&1; then \
	  echo "installing postgresql (Debian package) for the PostgreSQL and cluster tests"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null; \
	fi

lint: install
	$(BIN)/ruff check src tests benchmarks

typecheck: install
	$(BIN)/mypy

conformance: install
	$(BIN)/unokit conformance $(SCENARIOS)

# Each area runs in its own process: browser sessions and event loops of one
# area must not leak into another's tests.
TEST_GROUPS := "tests/engine src/unokit" "tests/bots tests/envs" tests/tui tests/web tests/scale "tests/web_static tests/e2e"

unit: install system-deps
	@status=0; for group in $(TEST_GROUPS); do \
	  paths=""; for p in $$group; do [ -e "$$p" ] && paths="$$paths $$p"; done; \
	  [ -n "$$paths" ] || continue; \
	  echo "== pytest$$paths"; $(BIN)/pytest $$paths || status=1; \
	done; exit $$status

test: install system-deps lint typecheck conformance unit

sim: install-web
	$(BIN)/unokit sim --variant classic --players 4 --games 2000 --seed 1 --bots heuristic,random,random,random
	$(BIN)/unokit sim --variant flip --players 4 --games 2000 --seed 1 --bots heuristic,random,random,random
	$(BIN)/unokit sim --variant flex --players 4 --games 2000 --seed 1 --bots heuristic,random,random,random

bench: install
	$(BIN)/python benchmarks/bench_engine.py

HOST ?= 127.0.0.1
PORT ?= 8000

# The main job: the web app with bots, on an embedded SQLite database (./data).
serve: install-web
	$(BIN)/unokit serve --host $(HOST) --port $(PORT)

bench-server: install
	$(BIN)/python benchmarks/bench_server.py

clean:
	rm -rf $(VENV) build *.egg-info .mypy_cache .ruff_cache .hypothesis artifacts
