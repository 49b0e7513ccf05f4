# Table Companion — every target does its own set-up on a fresh Debian 12 / Raspberry Pi OS machine.
#   make run    set up, then play (camera if found, else the built-in simulated table)
#   make test   set up, then lint and run the whole test suite (UI tests under Xvfb)

SHELL := /bin/bash
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
# On a Pi, picamera2 comes from the OS (python3-picamera2), so the venv must see system packages.
IS_PI := $(shell grep -qs "Raspberry Pi" /proc/device-tree/model && echo yes)
VENV_FLAGS := $(if $(IS_PI),--system-site-packages,)
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# System packages: GL/EGL and mtdev for Kivy's SDL2 window, Xvfb for headless UI tests,
# a CJK font that covers Japanese and Traditional Chinese, gettext for the catalogues.
APT_PACKAGES := python3-venv libgl1 libegl1 libmtdev1 libgles2 xvfb xauth fonts-noto-cjk gettext
APT_PACKAGES_PI := $(if $(IS_PI),python3-picamera2,)

.PHONY: run test lint system-deps venv catalogues screenshots bench install uninstall clean help

help:
	@echo "make run | make test | make lint | make bench | make screenshots | make install | make uninstall"

run: venv catalogues
	$(BIN)/companion run $(ARGS)

test: venv catalogues
	$(BIN)/ruff check companion tests hardware benchmarks
	bash scripts/with-display.sh $(BIN)/python -m pytest $(PYTEST_ARGS)

lint: venv
	$(BIN)/ruff check companion tests hardware benchmarks

bench: venv
	$(BIN)/companion bench $(ARGS)

screenshots: venv catalogues
	bash scripts/with-display.sh $(BIN)/python -m companion.ui.screenshots docs/screenshots

# Installs only what is missing; `apt-get update` runs once, and only when something is missing.
system-deps:
	@missing=""; for p in $(APT_PACKAGES) $(APT_PACKAGES_PI); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing system packages:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	fi

venv: $(VENV)/.installed

# Re-run pip only when the project's metadata changed since the last install.
$(VENV)/.installed: pyproject.toml | system-deps
	@[ -x $(BIN)/python ] || $(PYTHON) -m venv $(VENV_FLAGS) $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	@touch $@

catalogues: venv
	@$(BIN)/python -m companion.i18n compile

install:
	bash systemd/install.sh $(ARGS)

uninstall:
	bash systemd/uninstall.sh $(ARGS)

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache
