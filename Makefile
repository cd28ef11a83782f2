# Mundaneum: build, run and test. On a fresh Debian/Ubuntu machine `make run` and
# `make test` are all you need; both run `make setup` first, which installs only what is
# missing. `make help` lists the rest.

SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := help
MAKEFLAGS += --no-print-directory

# The Wails CLI, pinned in scripts/setup.sh; installed to the first GOPATH's bin.
WAILS := $(firstword $(subst :, ,$(shell go env GOPATH)))/bin/wails
export WAILS
# staticcheck, pinned in scripts/setup.sh like the Wails CLI.
STATICCHECK := $(firstword $(subst :, ,$(shell go env GOPATH)))/bin/staticcheck
export STATICCHECK
BIN := build/bin/mundaneum
# This checkout's version (git describe; scripts/version.sh), embedded by the build.
VERSION := $(shell scripts/version.sh)
# The desktop build tags (webkit2_41 is also in wails.json's build:tags, for `wails dev`).
DESKTOP_TAGS := desktop,production,webkit2_41
GO_TEST_TIMEOUT ?= 5m
ARGS ?=

GO_SRC := $(shell find . -name '*.go' -not -path './frontend/*' -not -path './build/*' -not -path './extension/*') go.mod go.sum
FRONTEND_SRC := $(shell find frontend/src frontend/public -type f 2>/dev/null) \
	frontend/index.html frontend/vite.config.ts frontend/svelte.config.js \
	frontend/tsconfig.json frontend/package.json frontend/package-lock.json
BINDINGS := frontend/wailsjs/go/models.ts frontend/wailsjs/go/app/App.d.ts \
	frontend/wailsjs/go/app/App.js
DIST := frontend/dist/index.html

# Steps depend on each other's side effects (setup installs what the rest use): one at a time.
.NOTPARALLEL:

.PHONY: help setup build run test test-go lint test-frontend test-extension extension smoke bindings frontend clean package test-package bench bench-window relevance relevance-check bench-search bench-toward bench-graph bench-graphview bench-check check-build fuzz bench-library bench-warc bench-soif bench-capture bench-offline bench-render bench-stall

help: ## list the targets
	@awk 'BEGIN { FS = ":.*## " } /^[a-z-]+:.*## / { printf "  make %-14s %s\n", $$1, $$2 }' $(MAKEFILE_LIST)

setup: ## install missing Debian packages, the Wails CLI and npm packages (quick when done)
	@scripts/setup.sh

# The generated bindings are committed; regenerate them when the bound API changes. The
# generator runs the app in a special mode: keep it away from the user's real workspace.
$(BINDINGS) &: $(wildcard app/*.go) wails.json
	@echo "bindings: frontend/wailsjs from app/"
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
		XDG_DATA_HOME=$$tmp XDG_CONFIG_HOME=$$tmp "$(WAILS)" generate module -nocolour >"$$tmp/log" 2>&1 || \
		{ cat "$$tmp/log"; exit 1; }
	@$(FIX_MODES)
	@touch $(BINDINGS)

# The Wails CLI writes frontend/wailsjs with mode 0755 (generate) or 0644 (build): both
# leave a clone dirty. The files are committed 0644; every step that writes them resets that.
FIX_MODES := find frontend/wailsjs -type f -exec chmod 0644 {} +

bindings: $(BINDINGS) ## regenerate frontend/wailsjs if app/ changed

$(DIST): $(FRONTEND_SRC) $(BINDINGS)
	cd frontend && npm run --silent build

frontend: $(DIST) ## build the frontend into frontend/dist

build: setup $(BIN) ## build the desktop binary build/bin/mundaneum (only when a source changed)

# The binary is a file target: `make run` rebuilds it only when a Go source, the built
# frontend or the project file is newer.
$(BIN): $(GO_SRC) $(DIST) wails.json
	@# -m: no `go mod tidy` (see shared/PLATFORM.md); -nosyncgomod: never edit go.mod;
	@# -s, -skipbindings: the frontend and the bindings are made by the rules above.
	@echo "build: $(BIN)"
	@start=$$(date +%s); \
	"$(WAILS)" build -m -nosyncgomod -s -skipbindings -nocolour -v 0 -o mundaneum \
		-ldflags "-X mundaneum/backend/crawl.Version=$(VERSION)"; \
	$(FIX_MODES); \
	test -x $(BIN); touch $(BIN); \
	echo "build: $(BIN) built in $$(( $$(date +%s) - start ))s"

check-build: ## check that a build leaves the tree as it was and the binary up to date
	@if git rev-parse --git-dir >/dev/null 2>&1; then \
		changed=$$(git diff --summary | grep 'mode change' || true); \
		if [[ -n "$$changed" ]]; then echo "check-build: the build changed mode bits of tracked files:"; echo "$$changed"; exit 1; fi; \
	fi
	@$(MAKE) -q $(BIN) || { echo "check-build: $(BIN) is out of date right after a build: make run would build it again"; exit 1; }
	@echo "check-build: the tree is as it was and $(BIN) is up to date"

run: build ## set up, build and open the window; without a display, serve it to a browser (ARGS="--db FILE")
	@if [[ -z "$${DISPLAY:-}$${WAYLAND_DISPLAY:-}" ]]; then \
		echo "make run: no graphical session (DISPLAY and WAYLAND_DISPLAY are unset): serving the app to a browser instead."; \
		exec $(BIN) serve $(ARGS); \
	fi
	$(BIN) $(ARGS)

test: setup ## set up and run every test: Go, lint, frontend, build, relevance floor, window smoke test, browser e2e
	@start=$$(date +%s); \
	$(MAKE) test-go lint test-frontend test-extension build check-build relevance-check smoke e2e; \
	echo "make test: all passed in $$(( $$(date +%s) - start ))s"

test-go: ## Go unit tests (no cgo: Wails compiles to a stub); what make setup installs must be there
	MUNDANEUM_REQUIRE_SETUP=1 CGO_ENABLED=0 go test -count=1 -timeout $(GO_TEST_TIMEOUT) ./...

lint: ## gofmt, go vet (with and without the desktop build tags), staticcheck (installed by make setup), and the docs: every image and link they name exists, the map names every package
	@unformatted=$$(gofmt -l $(filter %.go,$(GO_SRC))); \
	if [[ -n "$$unformatted" ]]; then echo "gofmt needed:"; echo "$$unformatted"; exit 1; fi
	CGO_ENABLED=0 go vet ./...
	go vet -tags $(DESKTOP_TAGS) . ./app/
	@test -x "$(STATICCHECK)" || scripts/setup.sh
	CGO_ENABLED=0 "$(STATICCHECK)" ./...
	CGO_ENABLED=0 go run ./scripts/checkdocs

test-frontend: $(BINDINGS) ## svelte-check (strict TypeScript) and Vitest
	cd frontend && npm run --silent check
	cd frontend && npm test --silent

test-extension: ## the browser extension: strict TypeScript check and Vitest
	cd extension && npm run --silent check
	cd extension && npm test --silent

# A few seconds: always built, so that the zips are those of the sources as they are.
extension: setup ## build the browser extension (Manifest V3): build/mundaneum-capture-{chromium,firefox}.zip and build/extension/, Firefox's checked by web-ext lint
	cd extension && node build.mjs

.PHONY: e2e
e2e: build extension ## browser end-to-end tests: chromium on `mundaneum serve` and a hostile site, the extension in firefox-esr (SCREENSHOTS=1: docs/screenshots)
	@start=$$(date +%s); \
	cd frontend && MUNDANEUM_BIN="$(CURDIR)/$(BIN)" \
		E2E_SCREENSHOTS="$(if $(SCREENSHOTS),$(CURDIR)/docs/screenshots,$(CURDIR)/build/e2e)" \
		node --test e2e/; \
	cd "$(CURDIR)/extension" && MUNDANEUM_BIN="$(CURDIR)/$(BIN)" node --test e2e/; \
	$(if $(SCREENSHOTS),for f in "$(CURDIR)"/docs/screenshots/*.png; do convert "$$f" -dither None -colors 256 "PNG8:$$f"; done;) \
	echo "e2e: passed in $$(( $$(date +%s) - start ))s (screenshots in $(if $(SCREENSHOTS),docs/screenshots,build/e2e))"

smoke: ## open the built window under Xvfb (build/smoke.png), and on a workspace serve holds (build/held.png)
	scripts/smoke-window.sh $(BIN)
	scripts/smoke-held.sh $(BIN)

package: setup $(DIST) ## build the .deb and a tarball into build/package/ (binary, menu entry, icon, file type, man pages, completions)
	scripts/package.sh

test-package: package ## install the .deb here with apt (root or sudo), open the installed window under Xvfb, remove it cleanly
	scripts/test-package.sh

clean: ## remove build outputs (keeps node_modules)
	rm -rf build/bin build/smoke.png build/held.png build/package
	find frontend/dist -mindepth 1 -not -name .gitkeep -delete

FUZZTIME ?= 10m
fuzz: ## run every Go fuzz target for FUZZTIME each (default 10m; FUZZ=pattern, FUZZ_PARALLEL=workers); not part of make test
	FUZZTIME="$(FUZZTIME)" scripts/fuzz.sh

bench: ## crawl vs Colly on a loopback synthetic web: stored, searchable, bytes/page, peak RSS and WAL (PAGES=40000 HOSTS=4 RUNS=1; PAGES=100000 HOSTS=1 for the 100k figures)
	PAGES="$(or $(PAGES),40000)" HOSTS="$(or $(HOSTS),4)" RUNS="$(or $(RUNS),1)" scripts/bench-crawl.sh

bench-soif: frontend ## SOIF export and broker-to-broker pull rates on a synthetic crawl (PAGES=3000)
	PAGES="$(or $(PAGES),3000)" scripts/bench-soif.sh

bench-offline: build ## reading offline: a click in an offline copy of Debian's PostgreSQL manual to the stored target shown, in chromium (CLICKS=200 KEEP=DIR)
	CLICKS="$(or $(CLICKS),200)" BIN="$(CURDIR)/$(BIN)" $(if $(KEEP),KEEP="$(KEEP)") scripts/bench-offline.sh

bench-check: ## link checking vs linkchecker and wget on Debian's PostgreSQL and Rust docs via nginx (DOCS="postgresql rust" RUNS=3 KEEP=)
	DOCS="$(or $(DOCS),postgresql rust)" RUNS="$(or $(RUNS),3)" $(if $(KEEP),KEEP="$(KEEP)") scripts/bench-check.sh

bench-stall: build ## the process held back by its background threads: Status calls beside a crawl, with busy loops on the cores (BUSY=12 SECONDS=40)
	cd frontend && node e2e/stall-perf.mjs --bin "$(CURDIR)/$(BIN)" --busy "$(or $(BUSY),12)" --seconds "$(or $(SECONDS),40)"

bench-window: build ## launch-to-painted time of the desktop window under Xvfb (DB=COPY-OF-WORKSPACE RUNS=5)
	scripts/bench-window.sh --runs "$(or $(RUNS),5)" $(if $(DB),--db "$(DB)") $(BIN)

relevance: ## search relevance vs Xapian on Debian's Python, PostgreSQL, Git and SQLite docs (DOCS=1: update docs/relevance.md; SPLIT=tune)
	CGO_ENABLED=0 go run ./scripts/relevance -install $(if $(DOCS),-write-docs) $(if $(SPLIT),-split $(SPLIT))

relevance-check: build ## the relevance floor on the Git docs with the built binary (part of `make test`, ~20 s)
	@echo "relevance-check: Git docs against Xapian, report in build/relevance-check.md"
	@CGO_ENABLED=0 go run ./scripts/relevance -corpus git -bin "$(CURDIR)/$(BIN)" >build/relevance-check.md

bench-search: ## search latency on a synthetic index (PAGES=100000 QUERIES=2000 FACETS=1 CPUPROFILE= SEARCH_ARGS=)
	@[[ -r /usr/share/dict/words ]] || { echo "bench-search: installing wamerican (the word list)"; \
		apt-get install -y -qq wamerican >/dev/null || sudo apt-get install -y -qq wamerican; }
	CGO_ENABLED=0 go run ./scripts/benchsearch -pages "$(or $(PAGES),100000)" -queries "$(or $(QUERIES),2000)" \
		$(if $(FACETS),-facets) $(if $(CPUPROFILE),-cpuprofile "$(CPUPROFILE)") $(SEARCH_ARGS)

bench-toward: ## query-directed crawl vs breadth-first on a planted-topic web: pages visited until the topic is found (PAGES=3000 PLANTED=30 AGENTS=1)
	CGO_ENABLED=0 go run ./scripts/benchtoward -pages "$(or $(PAGES),3000)" -planted "$(or $(PLANTED),30)" -agents "$(or $(AGENTS),1)"

bench-graph: ## path questions on a synthetic web of LINKS links (LINKS=1000000 PAIRS=300 CPUPROFILE=)
	CGO_ENABLED=0 go run ./scripts/benchgraph -links "$(or $(LINKS),1000000)" -pairs "$(or $(PAIRS),300)" \
		$(if $(CPUPROFILE),-cpuprofile "$(CPUPROFILE)")

bench-graphview: build ## the Graph view at 10,000 pages in headless chromium: paint, frames while moving, force layout (PAGES=10000 RUNS=2 PROFILE=1)
	PAGES="$(or $(PAGES),10000)" RUNS="$(or $(RUNS),2)" BIN="$(BIN)" $(if $(PROFILE),PROFILE=1) scripts/bench-graphview.sh

bench-library: build ## the library: import 100k bookmarks, search in it, open 10k postings in the window (BOOKMARKS=100000 QUERIES=2000 OPEN=10000)
	@[[ -r /usr/share/dict/words ]] || { echo "bench-library: installing wamerican (the word list)"; \
		apt-get install -y -qq wamerican >/dev/null || sudo apt-get install -y -qq wamerican; }
	CGO_ENABLED=0 go run ./scripts/benchlibrary -bookmarks "$(or $(BOOKMARKS),100000)" -queries "$(or $(QUERIES),2000)" \
		-open "$(or $(OPEN),10000)" -bin "$(BIN)"
	cd frontend && node e2e/library-perf.mjs --db "$${TMPDIR:-/tmp}/mundaneum-benchlibrary/big-$(or $(OPEN),10000).mundaneum" --bin "$(CURDIR)/$(BIN)"

bench-render: build ## pages built by scripts: rendered pages/s and the browser's memory on PAGES of them, auto vs never on the PostgreSQL manual, hostile pages (PAGES=1000 RUNS=3)
	@[[ -r /usr/share/doc/postgresql-doc-15/html/index.html ]] || { echo "bench-render: installing postgresql-doc-15"; \
		apt-get install -y -qq postgresql-doc-15 >/dev/null || sudo apt-get install -y -qq postgresql-doc-15; }
	CGO_ENABLED=0 go run ./scripts/benchrender -bin "$(BIN)" -pages "$(or $(PAGES),1000)" -runs "$(or $(RUNS),3)"

bench-warc: ## import of a synthetic WARC file of MB MiB: pages/s and peak RSS (MB=1024 KEEP=DIR)
	MB="$(or $(MB),1024)" scripts/bench-warc.sh

bench-capture: build extension ## a page captured from the extension: added, in the library, searchable, p50/p95 in chromium (RUNS=40 PAGES=3000 BUSY=1: during a crawl)
	cd frontend && node e2e/captureperf.mjs --bin "$(CURDIR)/$(BIN)" --runs "$(or $(RUNS),40)" --pages "$(or $(PAGES),3000)" $(if $(BUSY),--busy)
