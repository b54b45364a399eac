# The two commands: `make run` and `make test`. Everything they need is installed here, on first use.
SHELL := /bin/bash
.DEFAULT_GOAL := help

VENV        := .venv
MOTO_PIN    := moto[server]==5.2.5
CFNLINT_PIN := cfn-lint==1.58.0
# A fake, stateful Stripe API for the local stack and the tests (scripts/localstripe_serve.py runs it).
STRIPE_PIN  := localstripe==1.15.10
PORT        ?= 3000
# make bench's volume step: items across the tables, and sent mails.
N           ?= 100000
MAILS       ?= 10000
CHROMIUM    := /usr/bin/chromium
FRONTEND    := frontend

.PHONY: help run reset invoke test deps venv npm browser frontend build lint test-rust test-frontend e2e bench bench-volume clean

help:
	@echo "make run    build everything and serve the shop on http://127.0.0.1:$(PORT)/"
	@echo "make test   formatting, lints, template lint, Rust tests, front-end tests, browser tests"
	@echo "make bench  binary sizes, cold starts, bundle size, Lighthouse scores and the volume benchmark"
	@echo "make reset  delete the local shop's data (kept in .run/state/ between runs)"
	@echo "make invoke FN=catalog EVENT=list-products   one function, one event, against the running shop"

# ---------------------------------------------------------------------------------------------------------
# What a fresh machine lacks

$(VENV)/.installed: Makefile
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check '$(MOTO_PIN)' '$(CFNLINT_PIN)' '$(STRIPE_PIN)'
	touch $@

venv: $(VENV)/.installed

$(FRONTEND)/node_modules/.package-lock.json: $(FRONTEND)/package-lock.json
	cd $(FRONTEND) && npm ci --no-audit --no-fund

npm: $(FRONTEND)/node_modules/.package-lock.json

deps: venv npm

# Debian's Chromium for the browser tests (nothing can download a browser here).
browser:
	@if [ ! -x $(CHROMIUM) ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    apt-get update -qq && apt-get install -y -qq --no-install-recommends chromium chromium-driver fonts-liberation; \
	  else \
	    echo "Chromium is missing: sudo apt-get install -y chromium fonts-liberation"; exit 1; \
	  fi; \
	fi

# ---------------------------------------------------------------------------------------------------------
# Build and run

frontend: npm
	cd $(FRONTEND) && npm run build

build:
	cargo build -p local

# The gateway starts the AWS emulator itself and stops it on Ctrl-C. The data is kept in .run/state/.
run: deps frontend build
	PORT=$(PORT) ./target/debug/local

# Deletes everything the local shop kept (the emulator's state and localstripe's): the next `make run` starts
# from the demo shop. Refused while a shop answers on PORT, which would write its state back.
reset:
	@if curl -fsS -o /dev/null "http://127.0.0.1:$(PORT)/_local/env" 2>/dev/null; then \
	  echo "A local shop is running on port $(PORT): stop it (Ctrl-C) first."; exit 1; fi
	rm -rf .run/state
	@echo "Local data deleted: the next make run starts from the demo shop."

# One function's router, one event file (events/<function>/<EVENT>.json, or a path), with the environment
# the running shop on PORT gives that function. SET='EMAIL=a@example.com PRODUCT_ID=...' fills placeholders;
# ADMIN_TOKEN is filled with a token for the seeded admin.
invoke:
	@if [ -z "$(FN)" ] || [ -z "$(EVENT)" ]; then \
	  echo "usage: make invoke FN=catalog EVENT=list-products [SET='NAME=value ...'] [PORT=3000]"; exit 2; fi
	@cargo build --quiet -p local --bin invoke
	@PORT=$(PORT) ./target/debug/invoke '$(FN)' '$(EVENT)' $(SET)

# ---------------------------------------------------------------------------------------------------------
# Tests

lint: venv
	cargo fmt --all -- --check
	cargo clippy --workspace --all-targets -- -D warnings
	$(VENV)/bin/cfn-lint template.yaml

# Each test binary starts its own emulator on a free port.
test-rust: venv
	cargo test --workspace

test-frontend: npm
	cd $(FRONTEND) && npm test

# Browser journeys against a real gateway on a free port, with its own emulator.
e2e: deps browser frontend build
	scripts/with-gateway.sh bash -c 'cd $(FRONTEND) && npm run e2e'

test: lint test-rust test-frontend e2e

# ---------------------------------------------------------------------------------------------------------
# Benchmarks (targets, not tests)

bench: deps frontend build browser
	scripts/bench.sh
	$(MAKE) bench-volume

# The local store with N items across the tables and MAILS sent mails: login through the outbox, the outbox's
# and the home page's times, the emulator's memory, and a restart that brings every item back.
bench-volume: venv build
	$(VENV)/bin/python scripts/bench_volume.py --items $(N) --mails $(MAILS)

clean:
	cargo clean
	rm -rf $(FRONTEND)/dist $(FRONTEND)/node_modules $(VENV) .tools
