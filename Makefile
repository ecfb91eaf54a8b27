# unokit — every target installs what it needs first.
#   make serve   install and run the web app with bots (http://127.0.0.1:8000)
#   make test    install everything (Python packages, Debian's chromium) and run all tests
#   make sim     install and run a simulation
#   make bench   the speed benchmarks (= make bench-speed): engine, environments
#                and C core against RLCard; also bench-server, bench-bots and
#                bench-strength, each bounded to minutes (benchmarks/README.md)
#   make dataset write the sample dataset: 1,000 recorded matches per variant (dataset/)
#   make screenshots  the web app's pictures in docs/img (Debian's chromium)
#   make fuzz    fuzz the rules engine (SECONDS=600 for ten minutes; SEED=n)
#   make fuzz-core  compare the C core with the Python engine command by command
#   make fuzz-vector  compare the batched environments with engine games step by step
#   make sanitize  the C core under AddressSanitizer + UBSan, a short differential fuzz (in make test)

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-dev
# The shared rules scenarios sit beside the checkout; tests/scenarios keeps a
# copy of them and the project's own (S-R*: the rules hardening of issue 10).
# `make conformance` runs both folders; in `make test` pytest runs every
# scenario file once (tests/engine/test_conformance_runner.py).
SCENARIOS := $(wildcard ../shared/rules/scenarios) tests/scenarios
DATASET ?= dataset

.PHONY: cc install install-web system-deps test sanitize lint typecheck conformance unit sim bench bench-speed bench-server bench-bots bench-strength serve dataset screenshots clean fuzz fuzz-core fuzz-vector

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

# torch on its own first (the CPU build), so that the RL recipes' libraries
# (extra rl-recipes: SB3, sb3-contrib, Tianshou, RLlib) never pull a CUDA torch.
# pip compiles the C rules core (src/unokit/_core) with gcc and Python's
# headers: on a fresh Debian, install them (Debian packages) first.
cc:
	@if ! command -v gcc >/dev/null 2>&1; then \
	  echo "installing gcc (Debian package) to build the C rules core"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gcc libc6-dev >/dev/null; \
	fi
	@if ! $(PYTHON) -c "import os, sysconfig, sys; sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()['include'], 'Python.h')))"; then \
	  echo "installing Python's headers (Debian package python3-dev) to build the C rules core"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-dev >/dev/null; \
	fi

$(STAMP): pyproject.toml | cc $(VENV)/bin/python
	$(BIN)/pip install -q torch==2.13.0
	$(BIN)/pip install -q -e ".[dev,rl-recipes]"
	touch $@

# the web app, plus what the README's next commands need: the terminal game
# (unokit play: [tui]) and unokit analyse (the expert bot's value net: numpy)
$(VENV)/.installed-web: pyproject.toml | cc $(VENV)/bin/python
	$(BIN)/pip install -q -e ".[web,tui]" "numpy>=1.26"
	touch $@

# The C rules core (src/unokit/_core, docs/core.md) is rebuilt with the
# machine's gcc whenever one of its sources changes.
CORE_SRC := $(wildcard src/unokit/_core/*.c src/unokit/_core/*.h)
CORE_SO  := $(VENV)/.core-built

$(CORE_SO): $(CORE_SRC) | $(STAMP)
	$(BIN)/pip install -q --no-deps --no-build-isolation -e .
	touch $@

install: $(STAMP) $(CORE_SO)

install-web: $(VENV)/.installed-web

# Browser tests need Debian's chromium (never `playwright install`); the engine
# protocol tests compile the C reference engine with gcc.
system-deps:
	@if ! command -v chromium >/dev/null 2>&1; then \
	  echo "installing chromium (Debian package) for the browser tests"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null; \
	fi
	@if ! command -v gcc >/dev/null 2>&1; then \
	  echo "installing gcc (Debian package) for the engine protocol tests"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gcc libc6-dev >/dev/null; \
	fi
	@# the reactions' colour emoji (tests/e2e/test_player_ux.py checks their colour)
	@if ! fc-list 2>/dev/null | grep -qi "color emoji"; then \
	  echo "installing an emoji font (Debian package) for the table's reactions"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-noto-color-emoji fontconfig >/dev/null; \
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
	$(BIN)/ruff check src tests benchmarks scripts
	$(BIN)/ruff format --check src tests benchmarks scripts examples

typecheck: install
	$(BIN)/mypy

conformance: install
	$(BIN)/unokit conformance --core $(SCENARIOS)

# Each area runs in its own process: browser sessions and event loops of one
# area must not leak into another's tests.
TEST_GROUPS := "tests/engine src/unokit tests/cli" "tests/bots tests/envs" tests/agents tests/recipes tests/tui tests/web tests/scale "tests/web_static tests/e2e"

unit: install system-deps
	@status=0; for group in $(TEST_GROUPS); do \
	  paths=""; for p in $$group; do [ -e "$$p" ] && paths="$$paths $$p"; done; \
	  [ -n "$$paths" ] || continue; \
	  echo "== pytest$$paths"; $(BIN)/pytest $$paths || status=1; \
	done; exit $$status

# The unit tests run every scenario (tests/engine/test_conformance_runner.py),
# so `test` does not run `conformance` a second time.
test: install system-deps lint typecheck sanitize unit

# The C core built with AddressSanitizer and UBSan into build/sanitize (the
# in-place extension is left alone) runs a 30 s differential fuzz against the
# reference engine (scripts/sanitize_core.py); any memory error, undefined
# behaviour or disagreement fails. About a minute with the build.
sanitize: install
	$(BIN)/python scripts/sanitize_core.py --seconds 30

sim: install-web
	$(BIN)/unokit sim --variant classic --players 4 --games 2000 --seed 1 --bots heuristic,random,random,random
	$(BIN)/unokit sim --variant flip --players 4 --games 2000 --seed 1 --bots heuristic,random,random,random
	$(BIN)/unokit sim --variant flex --players 4 --games 2000 --seed 1 --bots heuristic,random,random,random

# 1,000 bot matches per variant as game records (docs/record-format.md);
# tests/data/records holds a small committed sample of the same command.
dataset: install
	$(BIN)/unokit record sample $(DATASET) --games 1000 --players 4 --seed 1 --bots heuristic --force
	$(BIN)/unokit record validate --quiet $(DATASET)/*.jsonl

# Benchmarks by kind (benchmarks/README.md: what each script measures and its
# anchor, measured in the same run). Each target is bounded to a few minutes;
# the scripts' own options run longer measurements.
BENCH_OUT ?= artifacts/bench

bench: bench-speed

# rounds/s of random play (engine, C core, environments) against RLCard's UNO
bench-speed: install
	$(BIN)/python benchmarks/speed/bench_engine.py --seconds 1 --repeats 3
	$(BIN)/python benchmarks/speed/bench_core.py --seconds 1 --repeats 3

# CPU per decision of every bot level as the table runs it (anchor: heuristic)
bench-bots: install
	$(BIN)/python benchmarks/bots/level_cost.py --players 2 --positions 20

# win rates of the search levels' defaults against heuristic, 60 duplicate
# games per variant (a smoke of benchmarks/strength/strength.py: the
# intervals are wide; --games 500 for a real measurement)
bench-strength: install
	mkdir -p $(BENCH_OUT) && rm -f $(BENCH_OUT)/strength.jsonl
	$(BIN)/python benchmarks/strength/strength.py --out $(BENCH_OUT)/strength.jsonl --games 60 \
	  --only "classic hard:race1000-heuristic,flip hard:race1000-heuristic,flex hard:race2500-heuristic"
	$(BIN)/python benchmarks/strength/strength.py --out $(BENCH_OUT)/strength.jsonl --report

# Seeded random matches over every variant, player count, option and valid
# handSize, checked after every command (src/unokit/testing/fuzz.py). Prints matches,
# rounds, commands checked and every failure with the seed that replays it
# (python -m unokit.testing.fuzz --replay SEED). A bounded pass is part of `make test`
# (tests/engine/test_fuzz.py).
SECONDS ?= 120
SEED ?= 0
fuzz: install
	$(BIN)/python -m unokit.testing.fuzz --seconds $(SECONDS) --seed $(SEED)

# The C core against Game, command by command (docs/core.md): states, legal
# move lists and refusals must agree after every command.
fuzz-core: install
	$(BIN)/python -m unokit.testing.fuzz --core --seconds $(SECONDS) --seed $(SEED)

# The batched environments against engine games, step by step, over the
# fuzzer's random configurations (unokit.envs.differential, docs/envs.md).
fuzz-vector: install
	$(BIN)/python -m unokit.testing.fuzz --vector --seconds $(SECONDS) --seed $(SEED)

HOST ?= 127.0.0.1
PORT ?= 8000

# The main job: the web app with bots, on an embedded SQLite database (./data).
serve: install-web
	$(BIN)/unokit serve --host $(HOST) --port $(PORT)

# Desktop and phone pictures of the lobby and of a Classic, Flip and Flex table.
screenshots: install system-deps
	$(BIN)/python scripts/screenshots.py --out docs/img

# the web server under 100 rooms of 4 WebSocket players (20 s after 3 s of warmup)
bench-server: install
	$(BIN)/python benchmarks/server/bench_server.py

clean:
	rm -rf $(VENV) build *.egg-info .mypy_cache .ruff_cache .hypothesis artifacts $(DATASET)
