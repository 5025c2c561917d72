package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// -only chooses steps by name, a step whose name has a comma included.
func TestOnlyChoosesSteps(t *testing.T) {
	for _, tc := range []struct {
		only, name string
		want       bool
	}{
		{"wasm size", "wasm size", true},
		{"wasm size,floor client", "floor client", true},
		{"wasm size,floor client", "page in Chromium", false},
		{"programs (wasm, Node.js)", "programs (wasm, Node.js)", true},
		{"programs (wasm, Node.js)", "programs (native)", false},
		{"programs (native);programs (wasm, Node.js)", "programs (wasm, Node.js)", true},
		{"programs (native);programs (wasm, Node.js)", "throughput (native)", false},
	} {
		assert.Equal(t, tc.want, chosen(tc.only, tc.name), "%q chooses %q", tc.only, tc.name)
	}
}
