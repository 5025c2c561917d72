# Spacetime: `make run` builds everything and serves http://127.0.0.1:8080;
# `make test` runs every test (the browser tests need Debian's chromium).
GO       ?= go
ADDR     ?= 127.0.0.1:8080
WASMEXEC := $(shell $(GO) env GOROOT)/lib/wasm/go_js_wasm_exec
SOURCES  := $(shell find app core internal wasm -name '*.go' -not -name '*_test.go') $(wildcard core/scenario/builtin/*.json core/scenario/builtin/compare/*.json) go.mod go.sum

.PHONY: all build run static test test-native test-wasm test-fuzz test-long golden bench load mutants clean

all: build

build: web/app.wasm.br web/write.wasm.br bin/server bin/spacetime

# The clients: built alone (no server code linked in), stripped, and
# precompressed so the server can send them as brotli or gzip. app.wasm
# is the lesson page's; write.wasm the Write view's (/write), the same
# client with the interpreter of learners' programs (core/algo/python),
# which app.wasm leaves out to stay small. The two are built, and then
# compressed, side by side (a grouped target: one recipe makes both), as
# linking and brotli's best compression each keep one core busy for long.
WASMBUILD = GOOS=js GOARCH=wasm $(GO) build -trimpath -ldflags='-s -w'
web/app.wasm web/write.wasm &: $(SOURCES)
	$(WASMBUILD) -o web/app.wasm ./wasm & app=$$!; \
	$(WASMBUILD) -o web/write.wasm ./wasm/write; write=$$?; \
	wait $$app && exit $$write

web/app.wasm.br web/write.wasm.br &: web/app.wasm web/write.wasm cmd/precompress/main.go internal/precompress/precompress.go
	$(GO) run ./cmd/precompress web/app.wasm web/write.wasm

bin/server: $(SOURCES) $(wildcard cmd/server/*.go)
	$(GO) build -o $@ ./cmd/server

bin/spacetime: $(SOURCES) $(wildcard cmd/spacetime/*.go)
	$(GO) build -o $@ ./cmd/spacetime

run: build
	./bin/server -addr $(ADDR)

# The site as static files in $(DIST), for any static host and any path
# on it (see README.md, "A static site").
DIST ?= dist
static: build
	./bin/server -static $(DIST)

# make test runs every test in its short form (-short): a campaign,
# a property test or a browser matrix samples what make test-long runs
# whole. CI runs both.
test: build test-native test-wasm

# Every Go test, browser tests included (cmd/server drives headless Chromium).
test-native:
	$(GO) vet ./...
	$(GO) test -count=1 -short ./...

# Under js/wasm (Node.js), as the page runs them: the lessons, which must
# give the same traces (their hashes) as natively, and learners' Python
# with its ports. make test-long runs the whole conformance suite and
# every core package there.
WASMTEST = GOOS=js GOARCH=wasm $(GO) test -count=1 -exec="$(WASMEXEC)"
test-wasm:
	$(WASMTEST) -short ./internal/conformance ./core/algo/python/...

# What make test samples, whole (CI runs it after make test): every seed
# of the property tests, the 200-run campaign, every lesson's TikZ
# figure, the tests that only measure (the cost of a step late in a long
# run), the browser tests that have a short form (LONGBROWSER) in all
# their frames, every core package under js/wasm, and the fuzzing.
LONGBROWSER = TestEveryClaimReadsWhole
test-long: build
	$(GO) test -count=1 $(shell $(GO) list ./... | grep -v '/cmd/server$$')
	$(GO) test -count=1 -run '^($(LONGBROWSER))$$' ./cmd/server
	$(WASMTEST) ./core/... ./internal/conformance
	$(MAKE) test-fuzz

# Every decoder of user input fuzzed for a short while, in make
# test-long, one target per run (go fuzzes one target at a time):
# scenario files, algorithm params, fault arguments, links, their input
# logs, cuts and packed scenarios, the ShiViz and GoVector logs a learner
# opens, the windows that zooming and panning write into links, the
# messages a slide deck sends an embedded page, and any text a scenario
# carries into the server's page (which must stay text). The seed
# corpora (testdata/fuzz/) run as unit tests in make test; a failing
# input is written there. Each target runs a count of inputs (about 4 s
# here) rather than a duration: Go before 1.27 can fail a duration-bound
# run with "context deadline exceeded" as it ends (go.dev/issue/75804).
# FUZZTIME=3m fuzzes every target for longer.
FUZZFLAGS = -run='^$$' -fuzzminimizetime=100x
fuzz = $(GO) test $(FUZZFLAGS) -fuzztime=$(or $(FUZZTIME),$(3)) -fuzz='^$(1)$$' $(2)
test-fuzz:
	$(call fuzz,FuzzParse,./core/scenario,8000x)
	$(call fuzz,FuzzFromLog,./core/logimport,10000x)
	$(call fuzz,FuzzQuickClock,./core/logimport,20000x)
	$(call fuzz,FuzzParamsEncode,./core/algo/logreplay,20000x)
	$(call fuzz,FuzzDecode,./core/strictjson,8000x)
	$(call fuzz,FuzzDecodeArgs,./core/faults,15000x)
	$(call fuzz,FuzzPageFromQuery,./app/lab,800x)
	$(call fuzz,FuzzDecodeInputs,./app/lab,1500x)
	$(call fuzz,FuzzCut,./app/lab,2000x)
	$(call fuzz,FuzzPackedScenario,./app/lab,800x)
	$(call fuzz,FuzzCodeLink,./app/lab,1500x)
	$(call fuzz,FuzzZoomPan,./app/lab,2000x)
	$(call fuzz,FuzzDecodeSlideMessage,./app/lab,3000x)
	$(call fuzz,FuzzPageText,./app/ui,300x)

# Rewrites every golden file (testdata/*.golden, the lessons' transcripts)
# from what the code does now; read the diff before committing it. -update
# is internal/golden's flag, so it goes only to the packages whose tests
# link that package: any other test binary would refuse the flag.
GOLDEN_PKGS = $(shell $(GO) list -test -f '{{if .ForTest}}{{.ForTest}} {{join .Deps " "}}{{end}}' ./... | awk '/ spacetime\/internal\/golden( |$$)/ {print $$1}' | sort -u)
golden:
	$(GO) test $(GOLDEN_PKGS) -update

clean:
	rm -rf bin dist web/app.wasm web/app.wasm.br web/app.wasm.gz web/write.wasm web/write.wasm.br web/write.wasm.gz

# Figures against the budgets: a table, then one JSON line (see cmd/bench).
# BENCHCOUNT=10 repeats the micro-benchmarks for benchstat (out/bench.txt).
BENCHCOUNT ?= 1
bench: build
	$(GO) run ./cmd/bench -count $(BENCHCOUNT)

# The mutation campaign (see cmd/mutants): every mutant of every
# algorithm's package, built into a checker of its own and judged by the
# algorithm's lessons and 1,000 seeded runs with faults. It builds one
# binary a mutant, so it takes hours; MUTANTS='-packages snapshot' (or
# -match, -sample, -runs) narrows it. make test keeps a few watched
# mutants killed (cmd/mutants's test).
mutants:
	mkdir -p out
	$(GO) run ./cmd/mutants -json out/mutants.json $(MUTANTS)

# Load on 127.0.0.1: the page, the client and a deep link, calm and under
# hostile links and slow clients (see cmd/loadtest); it prints figures.
load: build
	$(GO) run ./cmd/loadtest -dir .
