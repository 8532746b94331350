# Two commands for everything:
#   make run    set up (venv, install, migrate, content, translations, static) and serve
#   make test   the same set-up, then lint, type-check, engine scenarios and the tests
# Both are idempotent: a second run only redoes what changed.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PY := $(BIN)/python
# Installs are keyed to pyproject.toml: edit it and the next make reinstalls.
INSTALL_STAMP := $(VENV)/.installed

HOST ?= 127.0.0.1
PORT ?= 8000
DEV_SETTINGS := daifugo_site.settings.dev
MANAGE := DJANGO_SETTINGS_MODULE=$(DEV_SETTINGS) $(PY) manage.py

.PHONY: run test setup install engine migrate load-content messages static \
        lint typecheck scenarios pytest pure-engine browser-tests axe makemessages clean

run: setup
	DJANGO_SETTINGS_MODULE=$(DEV_SETTINGS) $(BIN)/daphne -b $(HOST) -p $(PORT) daifugo_site.asgi:application

test: setup lint typecheck scenarios pytest pure-engine browser-tests

# Translations before content: rendered rules pages contain translated words. (The pages
# also re-render HTML stamped with another catalogue, so a wrong order cannot leak English.)
setup: install engine migrate messages load-content static

install: $(INSTALL_STAMP)

$(INSTALL_STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check --upgrade pip
	$(PY) -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	touch $@

# The engine compiled with mypyc (rules_engine/native.py): about 3 times the playouts per
# second. Rebuilt when an engine source changes; if it cannot be built (no C compiler),
# the pure-Python engine runs, which is also what RULES_ENGINE_PURE=1 asks for.
ENGINE_STAMP := rules_engine/_native_build.txt
ENGINE_SOURCES := $(wildcard rules_engine/*.py rules_engine/ai/*.py)

engine: $(ENGINE_STAMP)

$(ENGINE_STAMP): $(INSTALL_STAMP) $(ENGINE_SOURCES)
	$(PY) -m rules_engine native build >/dev/null 2>.cache-engine-build.log \
		&& rm -f .cache-engine-build.log && echo "rules_engine: compiled with mypyc" \
		|| { $(PY) -m rules_engine native clean; \
		     echo "rules_engine: not compiled (see .cache-engine-build.log); running pure Python"; }

migrate: install
	$(MANAGE) migrate --noinput --verbosity 0

# Each app's AppConfig.load_site_content (see daifugo_site/pages/management/commands/).
load-content: migrate messages
	$(MANAGE) load_site_content

# Pure-Python .po -> .mo (no GNU gettext needed); only stale catalogues are rewritten.
messages: install
	$(MANAGE) compile_translations

static: install
	$(MANAGE) collectstatic --noinput --verbosity 0

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

# Files come from [tool.mypy] in pyproject.toml: rules_engine only, strict.
typecheck: install
	$(BIN)/mypy

# The engine's conformance runner over the shared suite and the project's own scenarios.
scenarios: install
	$(PY) -m rules_engine scenarios ../shared/scenarios scenarios

# Two worker processes (pytest-xdist), a test file each at a time (--dist loadfile: a file's
# fixtures, such as its throwaway Redis and PostgreSQL, stay in one worker): most of the
# suite's time is tests waiting on real servers and sockets, and serially it had grown to
# 12 of CI's 30 minutes (7 with two). PYTEST_WORKERS=0 runs it in one process.
PYTEST_WORKERS ?= 2
pytest: setup
	$(BIN)/pytest -n $(PYTEST_WORKERS) --dist loadfile

# The pure-Python engine stays the reference: its tests and the scenarios run on it too.
# The rules on the pure-Python engine: every engine test but the computer players'
# searches (tests/rules_engine/ai: minutes of playouts at a third of the compiled speed;
# they run on the compiled engine in `make pytest`, and their doctests here), then the
# scenarios. Keeps CI under 30 minutes.
pure-engine: setup
	RULES_ENGINE_PURE=1 $(BIN)/pytest -q tests/rules_engine --ignore=tests/rules_engine/ai
	RULES_ENGINE_PURE=1 $(PY) -m rules_engine scenarios ../shared/scenarios scenarios

# A separate pytest process: Playwright's sync API leaves an event loop marked running,
# which breaks async tests that run after it in the same process (STACK.md trap 6).
# Two worker processes (pytest-xdist), each with its own daphne, database and Chromium
# (the fixtures are per session, so per worker): the tests mostly wait on the computers'
# pace, and two at a time keep CI under 30 minutes. BROWSER_WORKERS=0 runs them in one.
# --journeys-full: every journey in both languages at both sizes (tests/conftest.py).
BROWSER_WORKERS ?= 2
browser-tests: setup
	$(BIN)/pytest -m browser -n $(BROWSER_WORKERS) --journeys-full

# axe-core for the accessibility browser tests (tests/browser/test_axe.py), from npm into a
# git-ignored folder. Not part of `make test`: without npm the axe tests skip, saying so,
# except under AXE_REQUIRED=1 (CI), where they fail.
AXE_VERSION ?= 4
axe:
	npm install --prefix .cache/axe --no-audit --no-fund --silent axe-core@$(AXE_VERSION)

# Author tool, not part of set-up: extract new strings into locale/*/django.po.
# Needs GNU gettext (apt-get install gettext). Then translate the empty msgstr entries.
makemessages: install
	$(MANAGE) makemessages -l zh_Hans -l ja --no-obsolete --add-location file \
		-i staticfiles -i tests

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .mypy_cache .ruff_cache .hypothesis .cache/axe
	find locale -name '*.mo' -delete
	find rules_engine -name '*.so' -delete
	rm -f $(ENGINE_STAMP) .cache-engine-build.log
