// Package core is the root of Spacetime's deterministic simulator: pure Go,
// standard library only, compiling natively and to js/wasm. Its packages are
// sim (the contract between engine and algorithms), strictjson (the strict
// JSON decoder of files, links and params), engine, network, faults,
// clock, trace, algo (one package per algorithm and the algo/all
// registry), scenario (the document and its compiled Plan), logimport
// (ShiViz and GoVector logs made plans) and report.
//
// Nothing in core imports go-app, syscall/js, time, math/rand (v1), os, net
// or sync: a process is a plain state machine, time is a tick count and
// randomness comes from the scenario's seed. purity_test.go enforces this
// from `go list`, counting direct imports of non-test files only.
package core
