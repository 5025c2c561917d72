package mutate_test

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/internal/mutate"
)

const source = `package demo

import "spacetime/core/sim"

type Proc struct{ votes, term int; leader bool }

func (p *Proc) Step(env *sim.Env, ev sim.Event) {
	if ev.Msg.Kind == "VOTE" && p.term > 0 {
		p.votes++
	}
	if p.votes >= len(p.group)/2+1 {
		p.leader = true
		env.Send(1, sim.Message{Kind: "LEADER", Value: int64(p.term), Data: []int64{1}})
		env.Explain("%s leads with %d votes", env.Name(env.Self()), p.votes+1)
	}
}

func (p *Proc) ready() bool {
	if p.leader {
		return true
	}
	return false
}

func (p *Proc) String() string { if p.leader { return "leader" }; return "follower" }

func parse(s string) (int, error) { if s == "" { return 0, nil }; return 1, nil }

func invariant(v sim.View) sim.Verdict { return sim.Verdict{OK: v.N() > 0} }
`

// what lists the mutants' descriptions by kind.
func what(ms []mutate.Mutant) map[string][]string {
	out := map[string][]string{}
	for _, m := range ms {
		out[m.Kind] = append(out[m.Kind], m.What)
	}
	return out
}

// Each kind of change is made where the code has it, and nowhere in
// what only describes or checks a run.
func TestMutantsOfEachKind(t *testing.T) {
	ms, err := mutate.File("core/algo/demo/demo.go", []byte(source))
	require.NoError(t, err)
	got := what(ms)
	assert.Equal(t, []string{
		"== to != in ev.Msg.Kind == \"VOTE\"",
		"> to >= in p.term > 0", "> to <= in p.term > 0",
		">= to > in p.votes >= len(p.group)/2+1", ">= to < in p.votes >= len(p.group)/2+1",
	}, got[mutate.KindCompare])
	assert.Equal(t, []string{"&& to || in ev.Msg.Kind == \"VOTE\" && p.term > 0"}, got[mutate.KindAndOr])
	assert.Equal(t, []string{"if ev.Msg.Kind == \"VOTE\" && p.term > 0 negated", "if p.leader negated"}, got[mutate.KindNegate], "a lone comparison is negated by compare, not again")
	assert.Equal(t, []string{"drops p.votes++", "drops p.leader = true"}, got[mutate.KindDropWrite])
	assert.Equal(t, []string{"drops env.Send(1, sim.Message{Kind: \"LEADER\", Value..."}, got[mutate.KindDropCall], "the caption is not dropped")
	assert.Equal(t, []string{"sends without Value", "sends without Data"}, got[mutate.KindDropField])
	assert.Equal(t, []string{"0 to 1 in p.term > 0", "1 to 2 in len(p.group)/2+1", "1 to 0 in len(p.group)/2+1", "2 to 3 in len(p.group)/2", "2 to 1 in len(p.group)/2"}, got[mutate.KindOffByOne],
		"the caption's p.votes+1 is not changed")
	assert.Equal(t, []string{"return true to return false", "return false to return true"}, got[mutate.KindReturn])
	for _, m := range ms {
		assert.NotContains(t, []string{"(*Proc).String", "parse", "invariant"}, m.Func, "%s mutates what only describes, parses or checks", m.ID)
	}
}

// Every mutant changes the file, still parses, and has an id of its own.
func TestMutantsApplyAndParse(t *testing.T) {
	files, err := filepath.Glob("../../core/algo/*/*.go")
	require.NoError(t, err)
	ids := map[string]bool{}
	n := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		name := strings.TrimPrefix(filepath.ToSlash(f), "../../")
		ms, err := mutate.File(name, src)
		require.NoError(t, err)
		for _, m := range ms {
			n++
			require.False(t, ids[m.ID], "two mutants are %s", m.ID)
			ids[m.ID] = true
			out := m.Apply(src)
			require.NotEqual(t, string(src), string(out), "%s changes nothing", m.ID)
			_, err := parser.ParseFile(token.NewFileSet(), name, out, parser.SkipObjectResolution)
			require.NoError(t, err, "%s (%s) does not parse", m.ID, m.What)
		}
	}
	require.Greater(t, n, 1000, "the algorithms' packages have mutants")
}

// Observers are left alone: report.go and check.go hold invariants,
// figures and tallies.
func TestReportFilesAreNotMutated(t *testing.T) {
	ms, err := mutate.File("core/algo/demo/report.go", []byte(source))
	require.NoError(t, err)
	assert.Empty(t, ms)
	ms, err = mutate.File("core/algo/demo/demo_test.go", []byte(source))
	require.NoError(t, err)
	assert.Empty(t, ms)
}
