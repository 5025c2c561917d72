package core_test

import (
	"maps"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// forbidden says why a core package may not import path, or "" if it may.
// Subpackages count too (os/exec, net/http, sync/atomic); math/rand/v2 is
// allowed, math/rand is not.
func forbidden(path string) string {
	rules := []struct{ prefix, why string }{
		{"time", "simulated time is a tick count; wall-clock time makes runs unrepeatable"},
		{"math/rand", "randomness comes from the scenario's seed through math/rand/v2 PCG streams"},
		{"os", "the core does no I/O"},
		{"net", "the core does no I/O"},
		{"sync", "the core has no goroutines"},
		{"syscall/js", "the core is the same natively and in the browser"},
		{"github.com/maxence-charriere/go-app", "the browser side lives in app/"},
	}
	for _, r := range rules {
		if path == r.prefix || strings.HasPrefix(path, r.prefix+"/") {
			if path == "math/rand/v2" {
				return ""
			}
			return r.why
		}
	}
	return ""
}

// judged reads `go list -f '{{.ImportPath}} {{join .Imports " "}}'`
// output and lists each direct import that why finds fault with, and why.
func judged(listing string, why func(pkg, imp string) string) []string {
	var out []string
	for _, line := range strings.Split(strings.TrimSpace(listing), "\n") {
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		for _, imp := range fields[1:] {
			if w := why(fields[0], imp); w != "" {
				out = append(out, fields[0]+" imports "+imp+": "+w)
			}
		}
	}
	return out
}

// violations lists each forbidden direct import of a listing.
func violations(listing string) []string {
	return judged(listing, func(_, imp string) string { return forbidden(imp) })
}

func TestViolationsFindsForbiddenImports(t *testing.T) {
	tests := []struct {
		listing string
		bad     int
	}{
		{"spacetime/core/engine fmt math/rand/v2 sort spacetime/core/sim", 0},
		{"spacetime/core/engine fmt time", 1},
		{"spacetime/core/a math/rand\nspacetime/core/b os/exec net/http sync/atomic", 4},
		{"spacetime/core/ui github.com/maxence-charriere/go-app/v10/pkg/app syscall/js", 2},
		{"spacetime/core/x timeline/pkg ossify network/thing synchronise", 0},
		{"spacetime/core/empty", 0},
	}
	for _, tt := range tests {
		assert.Len(t, violations(tt.listing), tt.bad, tt.listing)
	}
}

// readsScenarios are the core packages that may import the scenario
// format: the run report and the fault campaigns, which the command line
// and the page give scenarios to, and the log import, which makes them.
// The rest of the core sits below it.
var readsScenarios = map[string]bool{
	"spacetime/core/scenario":  true,
	"spacetime/core/report":    true,
	"spacetime/core/campaign":  true,
	"spacetime/core/logimport": true,
	// a lesson run by its port, and an exercise's answer checked on it
	"spacetime/core/algo/python/ports": true,
	"spacetime/core/exercise":          true,
}

// upward lists each direct import in a listing that runs back up: a core
// package that imports the scenario format without being one of
// readsScenarios, or that imports anything outside the core and the
// standard library (test helpers included).
func upward(listing string) []string {
	return judged(listing, func(pkg, imp string) string {
		switch {
		case (imp == "spacetime/core/scenario" || strings.HasPrefix(imp, "spacetime/core/scenario/")) && !readsScenarios[pkg] && !strings.HasPrefix(pkg, "spacetime/core/scenario/"):
			return "only " + strings.Join(slices.Sorted(maps.Keys(readsScenarios)), ", ") + " read scenarios"
		case strings.HasPrefix(imp, "spacetime/") && !strings.HasPrefix(imp, "spacetime/core/"):
			return "the core imports nothing of the project outside it"
		}
		return ""
	})
}

func TestUpwardFindsImportsThatRunBackUp(t *testing.T) {
	tests := []struct {
		listing string
		bad     int
	}{
		{"spacetime/core/report fmt spacetime/core/scenario spacetime/core/engine", 0},
		{"spacetime/core/algo/mutex/mutextest spacetime/core/scenario testing", 1},
		{"spacetime/core/scenario/builtin spacetime/core/scenario", 0},
		{"spacetime/core/algo/x spacetime/internal/golden spacetime/app/diagram", 2},
		{"spacetime/core/algo/x spacetime/core/scenarios spacetime/core/sim", 0},
	}
	for _, tt := range tests {
		assert.Len(t, upward(tt.listing), tt.bad, tt.listing)
	}
}

// TestCoreImportsArePure lists every core package's direct imports (test
// files' imports do not count) and fails on any forbidden one.
func TestCoreImportsArePure(t *testing.T) {
	if runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		t.Skip("needs the go command (os/exec)")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not on PATH")
	}
	cmd := exec.Command(gobin, "list", "-f", `{{.ImportPath}} {{join .Imports " "}}`, "./...")
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); ok {
		t.Fatalf("go list: %v\n%s", err, ee.Stderr)
	}
	require.NoError(t, err)
	listing := string(out)
	for _, pkg := range []string{"spacetime/core/engine", "spacetime/core/sim", "spacetime/core/scenario", "spacetime/core/algo/chandylamport"} {
		require.Contains(t, listing, pkg+" ", "go list did not list %s", pkg)
	}
	for _, line := range strings.Split(strings.TrimSpace(listing), "\n") {
		require.True(t, strings.HasPrefix(line, "spacetime/core"), "not a core package: %s", line)
	}
	assert.Empty(t, violations(listing))
	assert.Empty(t, upward(listing))
}
