# The two commands: `make run` and `make test`. Everything they need is installed here, on first use.
# `make deploy STAGE=dev|prod` brings the shop live on AWS (docs/deploy.md); `make destroy` takes it down.
SHELL := /bin/bash
.DEFAULT_GOAL := help

VENV        := .venv
MOTO_PIN    := moto[server]==5.2.5
CFNLINT_PIN := cfn-lint==1.58.0
# A fake, stateful Stripe API for the local stack and the tests (scripts/localstripe_serve.py runs it).
STRIPE_PIN  := localstripe==1.15.10
# The API fuzzer: reads the OpenAPI document the gateway serves (make fuzz, part of make test).
FUZZ_PIN    := schemathesis==4.32.5
# The OpenAPI document's TypeScript generator and the local API page's renderer (tools/openapi).
OPENAPI_TOOLS := tools/openapi
# The AWS SAM CLI in its own venv: it pins a boto3 that clashes with moto's. cargo-lambda beside it builds
# the arm64 functions for `sam build`; scripts/deploy.py runs on this venv's boto3.
SAM_PIN     := aws-sam-cli==1.170.0
LAMBDA_PIN  := cargo-lambda==1.9.2
# scripts/deploy.py's CloudFront key value store client signs with SigV4A, which botocore does through awscrt
# (the version both venvs' botocore asks for): in the SAM venv for make publish, in .venv for its test.
AWSCRT_PIN  := awscrt==0.38.0
SAM_VENV    := .tools/sam
SAM         := SAM_CLI_TELEMETRY=0 PATH="$(CURDIR)/$(SAM_VENV)/bin:$$PATH" $(SAM_VENV)/bin/sam
DEPLOY      := $(SAM_VENV)/bin/python scripts/deploy.py
STAGE       ?= dev
PORT        ?= 3000
# make bench's volume step: items across the tables, and sent mails.
# N: the volume benchmark's items (100,000) and the mail benchmark's subscribers (20,000), unless given.
VOLUME_N    := $(if $(filter command line environment,$(origin N)),$(N),100000)
MAIL_N      := $(if $(filter command line environment,$(origin N)),$(N),20000)
MAILS       ?= 10000
CHROMIUM    := /usr/bin/chromium
FRONTEND    := frontend

.PHONY: help run reset invoke test deps venv venv-test npm browser frontend build test-build lint test-rust test-frontend test-deploy e2e \
	openapi openapi-tools openapi-check test-shops fuzz bench bench-volume bench-mail bench-flash bench-rights bench-cost clean sam-cli deploy publish destroy verify-email secret token-key backfill-counts backfill-person edge \
	reconcile

help:
	@echo "make run    build everything and serve the shop on http://127.0.0.1:$(PORT)/"
	@echo "make test   formatting, lints, template lint, Rust tests, front-end lint and tests, browser tests"
	@echo "make bench  binary sizes, cold starts, bundle size, Lighthouse scores, sam build times, bench-mail, bench-volume and bench-flash"
	@echo "make reset  delete the local shop's data (kept in .run/state/ between runs)"
	@echo "make invoke FN=catalog EVENT=list-products   one function, one event, against the running shop"
	@echo "make deploy STAGE=dev|prod   check, build, deploy, publish the storefront, print the shop's address"
	@echo "make edge STAGE=dev|prod     the edge's web ACL in us-east-1 (once, before the first deploy elsewhere)"
	@echo "make publish STAGE=dev|prod  (or SITE_BUCKET=... DISTRIBUTION_ID=... PAGES_STORE_ARN=... SITE_URL=...) the storefront only"
	@echo "make backfill-counts STAGE=dev|prod  set the mail lists' counts from the subscribers (once; idempotent)"
	@echo "make backfill-person STAGE=dev|prod  tag personal items written before the data rights' index (once; idempotent)"
	@echo "make reconcile STAGE=dev|prod|local MONTH=YYYY-MM  the month's payments and refunds beside Stripe's, each difference listed"
	@echo "make destroy STAGE=dev|prod  delete the stack; tables and images are kept unless PURGE_DATA=yes"
	@echo "make bench-mail N=20000  one mailing to N subscribers with 5% SES faults: timings, exactly-once"
	@echo "make bench-cost  a metered day priced: £ per 1,000 visits, per order, per 10,000 mails, the monthly floor"
	@echo "make bench-flash  500 shoppers for the last 100 cases in 10 s, DynamoDB contention injected: sold, refused, oversold"
	@echo "make openapi  write docs/openapi.json and the front end's types from the code"
	@echo "make fuzz   schemathesis against a fresh local shop: a public and an admin pass"

# ---------------------------------------------------------------------------------------------------------
# What a fresh machine lacks

# What the shop needs to run (the emulator and localstripe); the test tools beside them come with the first
# `make test`, so a first `make run` does not wait for them.
$(VENV)/.installed: Makefile
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check '$(MOTO_PIN)' '$(STRIPE_PIN)'
	touch $@

venv: $(VENV)/.installed

$(VENV)/.test-tools: $(VENV)/.installed
	$(VENV)/bin/pip install --quiet --disable-pip-version-check '$(CFNLINT_PIN)' '$(FUZZ_PIN)' '$(AWSCRT_PIN)'
	touch $@

venv-test: $(VENV)/.test-tools

$(FRONTEND)/node_modules/.package-lock.json: $(FRONTEND)/package-lock.json
	cd $(FRONTEND) && npm ci --no-audit --no-fund

npm: $(FRONTEND)/node_modules/.package-lock.json

# Install scripts stay off: nothing here needs one, and one of them only reports usage over the network.
$(OPENAPI_TOOLS)/node_modules/.package-lock.json: $(OPENAPI_TOOLS)/package-lock.json
	cd $(OPENAPI_TOOLS) && npm ci --no-audit --no-fund --ignore-scripts

openapi-tools: $(OPENAPI_TOOLS)/node_modules/.package-lock.json

deps: venv npm openapi-tools

$(SAM_VENV)/.installed: Makefile
	python3 -m venv $(SAM_VENV)
	$(SAM_VENV)/bin/pip install --quiet --disable-pip-version-check '$(SAM_PIN)' '$(LAMBDA_PIN)' '$(AWSCRT_PIN)'
	touch $@

sam-cli: $(SAM_VENV)/.installed

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

# Only when its sources changed, into a build of its own that frontend/dist then links (frontend/scripts/build.sh):
# a shop serving dist meanwhile never sees half a build. FORCE=1 builds anyway.
frontend: npm
	cd $(FRONTEND) && npm run build

# The gateway alone: the benchmarks' and tools' binaries beside it build when their own targets run (each
# links the whole shop: building them all cost a first `make run` over a minute and a half).
build:
	cargo build -p local --bin local

# The gateway starts the AWS emulator and localstripe itself and stops them on Ctrl-C. The data (localstripe's
# payments too) is kept in .run/state/.
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

lint: venv-test sam-cli
	cargo fmt --all -- --check
	cargo clippy --workspace --all-targets -- -D warnings
	$(VENV)/bin/cfn-lint template.yaml
	$(SAM) validate --lint --region eu-west-2

# Each test binary starts its own emulator on a free port.
test-rust: venv
	cargo test --workspace

# ESLint first (typescript-eslint, the rules of hooks, jsx-a11y, which folder may import which), then Vitest.
test-frontend: npm
	cd $(FRONTEND) && npm run lint && npm test

# The template's operations rules, the preflight, publishing to the emulator's S3 and CloudFront, and the
# build plan of `sam build` (with a stand-in for cargo-lambda). No AWS account involved.
test-deploy: venv-test sam-cli
	$(VENV)/bin/python -m unittest discover -s scripts/tests -t . -v

# The first page's JavaScript budget (frontend/scripts/bundle-budget.mjs), then browser journeys against a
# real gateway on a free port, with its own emulator.
e2e: deps browser frontend $(GATEWAY_BUILD)
	cd $(FRONTEND) && npm run budget
	scripts/with-gateway.sh bash -c 'cd $(FRONTEND) && npm run e2e'

# Two local shops started together on this checkout, each with its own pages, and the storefront built again
# while both serve (scripts/two_shops.py): neither ever answers less than a whole page, nor writes the build.
test-shops: venv frontend $(GATEWAY_BUILD)
	python3 scripts/two_shops.py

# The API's contract: docs/openapi.json is read off the route tables (local/src/openapi.rs); the front end's
# types are generated from it. `make openapi` rewrites both; the tests fail when either is stale.
openapi: openapi-tools
	cargo run --quiet -p local --bin openapi > docs/openapi.json
	cargo run --quiet -p local --bin openapi -- --routes > docs/routes.md
	cd $(OPENAPI_TOOLS) && npm run --silent types

openapi-check: openapi-tools
	@tmp=$$(mktemp -d) && (cd $(OPENAPI_TOOLS) && npm run --silent generate -- "$$tmp/api-schema.ts" >/dev/null) && \
	  if ! diff -q $(FRONTEND)/src/lib/api-schema.ts "$$tmp/api-schema.ts" >/dev/null; then \
	    echo "frontend/src/lib/api-schema.ts is not what docs/openapi.json gives: run make openapi"; exit 1; fi

# schemathesis over every operation of a fresh shop, every check on, a public and an admin pass with a fixed
# seed (FUZZ_SEED, FUZZ_EXAMPLES per operation). Exclusions, if any, are listed in docs/api.md.
fuzz: venv-test $(GATEWAY_BUILD)
	scripts/with-gateway.sh $(VENV)/bin/python scripts/fuzz_api.py

# The gateway the browser journeys and the fuzzing start. On their own they build it as `make run` does.
# Under `make test` they take the one `cargo test --workspace` built already (cargo builds the workspace's
# binaries for the integration tests): `cargo build -p local` would compile most dependencies a second
# time, since auth's dev-dependency (the software passkey) turns on features of tokio, tokio-stream and syn
# that the gateway alone does not, and a dependency built with other features is another build.
GATEWAY_BUILD ?= build
test-build:
	cargo test --workspace --no-run

test: lint openapi-check test-deploy test-rust test-frontend
	$(MAKE) --no-print-directory GATEWAY_BUILD=test-build test-shops e2e fuzz

# ---------------------------------------------------------------------------------------------------------
# Benchmarks (targets, not tests)

bench: deps frontend build browser sam-cli
	scripts/bench.sh
	$(MAKE) fuzz
	$(MAKE) bench-mail
	$(MAKE) bench-volume
	$(MAKE) bench-flash
	$(MAKE) bench-rights
	$(MAKE) bench-cost

# The local store with N items across the tables and MAILS sent mails: login through the outbox, the outbox's
# and the home page's times, the emulator's memory, and a restart that brings every item back.
bench-volume: venv build
	$(VENV)/bin/python scripts/bench_volume.py --items $(VOLUME_N) --mails $(MAILS)

# One mailing to N subscribers (20,000 unless N is given) through the local stack, 5% of SES calls failing on
# purpose (a switch only the local gateway has). MAIL_RATE is the SES rate the senders share.
MAIL_RATE ?= 200
bench-mail: venv
	cargo build -p local --bin bench-mail
	N=$(MAIL_N) MAIL_RATE=$(MAIL_RATE) FAULT_PERCENT=5 ./target/debug/bench-mail

# A flash sale: SHOPPERS shoppers arriving over WINDOW_SECONDS for the last CANS cases of one drink, with the
# emulator cancelling CONFLICT_PERCENT of the writes to the hot items (the drink, the order-number counter)
# as TransactionConflict and THROTTLE_PERCENT as ProvisionedThroughputExceeded (scripts/moto_serial.py's
# switch, which only the local stack has). Prints sold, refused, oversold, charged without an order, p50/p99.
SHOPPERS       ?= 500
CANS           ?= 100
WINDOW_SECONDS ?= 10
CONFLICT_PERCENT ?= 20
THROTTLE_PERCENT ?= 5
bench-flash: venv
	cargo build -p local --bin bench-flash
	SHOPPERS=$(SHOPPERS) CANS=$(CANS) WINDOW_SECONDS=$(WINDOW_SECONDS) CONFLICT_PERCENT=$(CONFLICT_PERCENT) \
	  THROTTLE_PERCENT=$(THROTTLE_PERCENT) ./target/debug/bench-flash

# One customer's export and erasure among ORDERS orders and SUBSCRIBERS subscribers (100,000 each unless
# given), through the real router on a fresh local stack.
ORDERS ?= 100000
SUBSCRIBERS ?= 100000
bench-rights: venv
	cargo build -p local --bin bench-rights
	ORDERS=$(ORDERS) SUBSCRIBERS=$(SUBSCRIBERS) ./target/debug/bench-rights

# The cost model: a scripted day (VISITS visits, a checkout per card outcome, an admin session, a mailing to
# MAIL_READERS subscribers) through a fresh local stack, every AWS call metered and priced with
# local/src/cost/prices.rs: £ per 1,000 visits, per order, per 10,000 mails, the monthly floor (WAF=0 prices
# it without the edge's web ACL), each function's duration, peak heap and recommended memory.
VISITS ?= 20
MAIL_READERS ?= 200
WAF ?= 1
bench-cost: venv frontend
	cargo build -p local --bin bench-cost
	VISITS=$(VISITS) SUBSCRIBERS=$(MAIL_READERS) WAF=$(WAF) ./target/debug/bench-cost

# ---------------------------------------------------------------------------------------------------------
# Deploy (needs AWS credentials; never run by the tests). Settings per stage live in samconfig.toml.

# Checks come first: a missing credential, secret, sender or verified admin stops it before any change.
# sam build re-runs cargo for each function; cargo's own fingerprints make an unchanged one a no-op.
deploy: sam-cli
	$(DEPLOY) preflight --stage $(STAGE)
	$(MAKE) --no-print-directory frontend
	$(SAM) build
	$(SAM) deploy --config-env $(STAGE) --no-confirm-changeset --no-fail-on-empty-changeset
	$(DEPLOY) publish --stage $(STAGE)
	$(DEPLOY) report --stage $(STAGE)

# On its own: STAGE reads the bucket, distribution, pages store and shop address from the stack; or
# SITE_BUCKET, DISTRIBUTION_ID and PAGES_STORE_ARN (and SITE_URL). The drink, category and content pages are
# prerendered from the live shop at that address into the build just before the upload (scripts/deploy.py,
# prerender), and listed in the pages store once uploaded (CloudFront serves a page's copy only when listed).
publish: sam-cli frontend
	$(DEPLOY) publish $(if $(SITE_BUCKET),,--stage $(STAGE))

# Asks for the stack's name unless YES=yes; PURGE_DATA=yes deletes the kept tables and images bucket too.
destroy: sam-cli
	$(DEPLOY) destroy --stage $(STAGE) $(if $(filter yes,$(PURGE_DATA)),--purge-data) $(if $(filter yes,$(YES)),--yes)

# Once, on a deployed shop whose subscribers predate the list counts (or whose counts are in doubt): the sender
# function sets each combination's count from the subscribers. Idempotent; docs/operations.md says when.
backfill-counts: sam-cli
	$(DEPLOY) backfill-counts --stage $(STAGE)

# Tags a stage's personal items written before the data rights' `person` index (once; idempotent).
backfill-person: sam-cli
	$(DEPLOY) backfill-person --stage $(STAGE)

# A month's money, the shop's payments and refunds beside Stripe's charges, refunds, fees, net and payouts,
# with every difference (docs/operations.md, Reconciliation). STAGE=local asks the running local shop on PORT.
reconcile:
	@if [ -z "$(MONTH)" ]; then echo "usage: make reconcile STAGE=dev|prod|local MONTH=YYYY-MM"; exit 2; fi
	@if [ "$(STAGE)" = local ]; then \
	  cargo build --quiet -p local --bin invoke || exit 1; \
	  answer=$$(PORT=$(PORT) ./target/debug/invoke ordersexpiry reconcile "MONTH=$(MONTH)") || { echo "$$answer"; exit 1; }; \
	  echo "$$answer" | python3 -c 'import json, sys; print(json.load(sys.stdin)["text"], end="")'; \
	else \
	  $(MAKE) --no-print-directory sam-cli && $(DEPLOY) reconcile --stage $(STAGE) --month "$(MONTH)"; \
	fi

# In the SES sandbox only verified addresses receive mail: verify the admin's so the first login works.
verify-email: sam-cli
	@test -n "$(EMAIL)" || { echo "usage: make verify-email STAGE=dev EMAIL=you@yourdomain"; exit 1; }
	$(DEPLOY) verify-email "$(EMAIL)" --stage $(STAGE)

# The login tokens' signing secret, once per stage (random, never printed).
secret: sam-cli
	@test -n "$(NAME)" || { echo "usage: make secret STAGE=dev NAME=shop/dev/jwt-secret [FROM_STDIN=yes < value]"; exit 1; }
	$(DEPLOY) secret "$(NAME)" --stage $(STAGE) $(if $(FROM_STDIN),--from-stdin)

# The login tokens' Ed25519 key pair, once per stage: the private half becomes the auth function's secret, the
# public half is printed for samconfig.toml's TokenPublicKey.
token-key: sam-cli
	$(DEPLOY) token-key --stage $(STAGE)

# Once per stage outside us-east-1 (and after a change of the edge's rules): CloudFront's web ACL can only be
# made there, so template.yaml's EdgeWebAcl becomes a small stack of its own; it prints the WebAclArn to set.
edge: sam-cli
	$(DEPLOY) edge --stage $(STAGE)

clean:
	cargo clean
	rm -rf $(FRONTEND)/dist $(FRONTEND)/.build $(FRONTEND)/node_modules $(FRONTEND)/lint-typescript/node_modules $(OPENAPI_TOOLS)/node_modules $(VENV) .tools
