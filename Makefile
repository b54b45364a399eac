# The two commands: `make run` and `make test`. Everything they need is installed here, on first use.
SHELL := /bin/bash
.DEFAULT_GOAL := help

VENV        := .venv
MOTO_PIN    := moto[server]==5.2.5
CFNLINT_PIN := cfn-lint==1.58.0
# A fake, stateful Stripe API for the local stack and the tests (scripts/localstripe_serve.py runs it).
STRIPE_PIN  := localstripe==1.15.10
PORT        ?= 3000
CHROMIUM    := /usr/bin/chromium
FRONTEND    := frontend

.PHONY: help run test deps venv npm browser frontend build lint test-rust test-frontend e2e bench bench-mail clean

help:
	@echo "make run    build everything and serve the shop on http://127.0.0.1:$(PORT)/"
	@echo "make test   formatting, lints, template lint, Rust tests, front-end tests, browser tests"
	@echo "make bench  binary sizes, cold starts, bundle size and Lighthouse scores, then bench-mail"
	@echo "make bench-mail N=20000  one mailing to N subscribers with 5% SES faults: timings, exactly-once"

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

# The gateway starts the AWS emulator itself and stops it on Ctrl-C.
run: deps frontend build
	PORT=$(PORT) ./target/debug/local

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
	$(MAKE) bench-mail

# One mailing to N subscribers through the local stack, 5% of SES calls failing on purpose (a switch only
# the local gateway has). MAIL_RATE is the SES rate the senders share.
N         ?= 20000
MAIL_RATE ?= 200
bench-mail: venv
	cargo build -p local --bin bench-mail
	N=$(N) MAIL_RATE=$(MAIL_RATE) FAULT_PERCENT=5 ./target/debug/bench-mail

clean:
	cargo clean
	rm -rf $(FRONTEND)/dist $(FRONTEND)/node_modules $(VENV) .tools
