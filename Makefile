# Spacetime: `make run` builds everything and serves http://127.0.0.1:8080;
# `make test` runs every test (the browser tests need Debian's chromium).
GO       ?= go
ADDR     ?= 127.0.0.1:8080
WASMEXEC := $(shell $(GO) env GOROOT)/lib/wasm/go_js_wasm_exec
SOURCES  := $(shell find app core internal wasm -name '*.go' -not -name '*_test.go') $(wildcard core/scenario/builtin/*.json) go.mod go.sum

.PHONY: all build run test test-native test-wasm bench clean

all: build

build: web/app.wasm.br bin/server bin/spacetime

# The client: built alone (no server code linked in), stripped, and
# precompressed so the server can send it as brotli or gzip.
web/app.wasm: $(SOURCES)
	GOOS=js GOARCH=wasm $(GO) build -trimpath -ldflags='-s -w' -o $@ ./wasm

web/app.wasm.br: web/app.wasm cmd/precompress/main.go
	$(GO) run ./cmd/precompress web/app.wasm

bin/server: $(SOURCES) $(wildcard cmd/server/*.go)
	$(GO) build -o $@ ./cmd/server

bin/spacetime: $(SOURCES) $(wildcard cmd/spacetime/*.go)
	$(GO) build -o $@ ./cmd/spacetime

run: build
	./bin/server -addr $(ADDR)

test: build test-native test-wasm

# Every Go test, browser tests included (cmd/server drives headless Chromium).
test-native:
	$(GO) vet ./...
	$(GO) test -count=1 ./...

# The core and the conformance suite again under js/wasm (Node.js): the
# same scenarios must give the same traces as natively.
test-wasm:
	GOOS=js GOARCH=wasm $(GO) test -count=1 -exec="$(WASMEXEC)" ./core/... ./internal/conformance

clean:
	rm -rf bin web/app.wasm web/app.wasm.br web/app.wasm.gz

# Figures against the budgets: a table, then one JSON line (see cmd/bench).
# BENCHCOUNT=10 repeats the micro-benchmarks for benchstat (out/bench.txt).
BENCHCOUNT ?= 1
bench: build
	$(GO) run ./cmd/bench -count $(BENCHCOUNT)
