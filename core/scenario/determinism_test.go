package scenario_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/engine"
	"spacetime/core/scenario"
	"spacetime/core/scenario/scenariotest"
	"spacetime/internal/golden"
)

const hashFile = "trace-sha256.json"

func runBuiltin(t testing.TB, id string) *engine.Run {
	t.Helper()
	_, r := scenariotest.Run(t, id)
	return r
}

func traceHash(t testing.TB, r *engine.Run) string {
	t.Helper()
	data, err := r.Trace().JSON(r.Len())
	require.NoError(t, err)
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// TestSameScenarioSameTrace: a scenario run twice gives byte-identical traces.
func TestSameScenarioSameTrace(t *testing.T) {
	for _, id := range scenario.BuiltinIDs() {
		if id == "snapshot-long" {
			continue // covered by the golden hashes below
		}
		a, err := runBuiltin(t, id).Trace().JSON(1 << 30)
		require.NoError(t, err)
		b, err := runBuiltin(t, id).Trace().JSON(1 << 30)
		require.NoError(t, err)
		assert.Equal(t, string(a), string(b), id)
	}
}

// TestTraceHashes compares the SHA-256 of every built-in lesson's trace with
// the golden hashes in testdata. The same test under GOOS=js GOARCH=wasm
// proves that the browser computes exactly the traces the command line does:
//
//	GOOS=js GOARCH=wasm go test -exec="$(go env GOROOT)/lib/wasm/go_js_wasm_exec" ./core/...
//
// Regenerate the hashes with: go test ./core/scenario -run TestTraceHashes -update
func TestTraceHashes(t *testing.T) {
	got := map[string]string{}
	for _, id := range scenario.BuiltinIDs() {
		got[id] = traceHash(t, runBuiltin(t, id))
	}
	path := filepath.Join("testdata", hashFile)
	if golden.Updating() {
		data, err := json.MarshalIndent(got, "", "  ")
		require.NoError(t, err)
		require.NoError(t, os.MkdirAll("testdata", 0o755))
		require.NoError(t, os.WriteFile(path, append(data, '\n'), 0o644))
	}
	data, err := os.ReadFile(path)
	require.NoError(t, err, "run with -update to create %s", path)
	var want map[string]string
	require.NoError(t, json.Unmarshal(data, &want))
	assert.Equal(t, want, got, "traces differ from the golden hashes on %s/%s; if the change is intended, run go test ./core/scenario -run TestTraceHashes -update",
		runtime.GOOS, runtime.GOARCH)
}
