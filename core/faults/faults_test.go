package faults

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/sim"
)

func TestParseListsTheRegistry(t *testing.T) {
	for _, f := range Registry {
		got, err := Parse(f.Name)
		require.NoError(t, err)
		assert.Same(t, f, got)
	}
	_, err := Parse("melt")
	require.Error(t, err)
	assert.Contains(t, err.Error(), `unknown fault "melt" (known: crash, recover, pause, drop, delay, duplicate, cut, heal, partition, skew, drift, fifo)`)
}

func TestEveryEntryIsComplete(t *testing.T) {
	letters, names := map[byte]string{}, map[string]bool{}
	for _, f := range Registry {
		assert.NotEmpty(t, f.Name)
		assert.False(t, names[f.Name], "%s is registered twice", f.Name)
		names[f.Name] = true
		assert.NotContains(t, "dk", string(f.Letter), "%s: d and k are deliveries and commands in links", f.Name)
		assert.Empty(t, letters[f.Letter], "%s and %s share the link letter %c", f.Name, letters[f.Letter], f.Letter)
		letters[f.Letter] = f.Name
		assert.NotEmpty(t, f.Help, f.Name)
		assert.NotEmpty(t, f.Menus, "%s is offered somewhere in the page", f.Name)
		assert.NotEmpty(t, f.Label, f.Name)
		assert.NotNil(t, f.Check, f.Name)
		assert.NotNil(t, f.Apply, f.Name)
		assert.NotEmpty(t, f.Legend, f.Name)
		assert.Contains(t, sim.Tones, f.Tone, f.Name)
		b, ok := ByLetter(f.Letter)
		assert.True(t, ok)
		assert.Same(t, f, b)
	}
}

func TestHealth(t *testing.T) {
	tests := []struct {
		h       Health
		name    string
		running bool
	}{
		{Health{}, "up", true},
		{Health{State: sim.Crashed}, "crashed", false},
		{Health{State: sim.Paused, Until: 9}, "paused", false},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.name, tt.h.State.String())
		assert.Equal(t, tt.running, tt.h.Running(), tt.name)
	}
}

func args(mod func(*Args)) Args {
	a := NoArgs()
	mod(&a)
	return a
}

// TestValidateAndLinkRoundTrip checks, for every fault, arguments that are
// valid on their own (and that their link text reads back the same) and
// arguments that are refused, with the field named.
func TestValidateAndLinkRoundTrip(t *testing.T) {
	tests := []struct {
		fault string
		args  Args
		link  string
		field string // "" when valid; else the field refused
		want  string
	}{
		{fault: "crash", args: args(func(a *Args) { a.Node = 1 }), link: "c2"},
		{fault: "crash", args: args(func(a *Args) { a.Node = 5 }), field: "node", want: "there is no process 6 (the processes are 1 to 4)"},
		{fault: "recover", args: args(func(a *Args) { a.Node = 0 }), link: "r1"},
		{fault: "pause", args: args(func(a *Args) { a.Node = 2; *a = a.With("for", ParamTicks.Num(15)) }), link: "p3.15"},
		{fault: "pause", args: args(func(a *Args) { a.Node = 2 }), field: "for", want: "it lasts at least one tick, got 0"},
		{fault: "drop", args: args(func(a *Args) { a.Msg = 12 }), link: "x12"},
		{fault: "drop", args: args(func(a *Args) { a.Msg = -3 }), field: "msg", want: "a message id is 0 or more"},
		{fault: "delay", args: args(func(a *Args) { a.Msg = 4; *a = a.With("for", ParamTicks.Num(30)) }), link: "y4.30"},
		{fault: "duplicate", args: args(func(a *Args) { a.Msg = 7 }), link: "u7"},
		{fault: "cut", args: args(func(a *Args) { a.Node = 0; a.Target = 3 }), link: "l1.4"},
		{fault: "cut", args: args(func(a *Args) { a.Node = 0; a.Target = 3; *a = a.With("oneway", ParamFlag.Bool(true)) }), link: "l1.4.1"},
		{fault: "cut", args: args(func(a *Args) { a.Node = 2; a.Target = 2 }), field: "target", want: "another process than 3"},
		{fault: "heal", args: args(func(a *Args) {}), link: "h"},
		{fault: "heal", args: args(func(a *Args) { a.Node = 1; a.Target = 0 }), link: "h2.1"},
		{fault: "heal", args: args(func(a *Args) { a.Node = 1 }), field: "", want: "both ends of a link"},
		{fault: "partition", args: args(func(a *Args) { *a = a.With("groups", ParamGroups.Of([][]sim.NodeID{{0, 1}, {2, 3}})) }), link: "g1~2_3~4"},
		{fault: "partition", args: args(func(a *Args) { *a = a.With("groups", ParamGroups.Of([][]sim.NodeID{{0, 1}, {1, 3}})) }), field: "groups", want: "process 2 is in two groups"},
		{fault: "partition", args: args(func(a *Args) { *a = a.With("groups", ParamGroups.Of([][]sim.NodeID{{0, 1, 2, 3}})) }), field: "groups", want: "at least two groups"},
		{fault: "skew", args: args(func(a *Args) { a.Node = 3; *a = a.With("by", ParamOffset.Num(-5)) }), link: "s4.-5"},
		{fault: "skew", args: args(func(a *Args) { a.Node = 3; *a = a.With("by", ParamOffset.Num(MaxTicks+1)) }), field: "by", want: "got 1000001"},
		{fault: "fifo", args: args(func(a *Args) { *a = a.With("on", ParamFlag.Bool(false)) }), link: "f0"},
		{fault: "fifo", args: args(func(a *Args) { *a = a.With("on", ParamFlag.Bool(true)) }), link: "f1"},
	}
	for _, tt := range tests {
		t.Run(tt.fault+"/"+tt.link+tt.want, func(t *testing.T) {
			f, ok := Lookup(tt.fault)
			require.True(t, ok)
			given := f.Given(tt.args)
			if tt.fault == "pause" && tt.args.Ticks("for") == 0 {
				given = func(string) bool { return true } // "for": 0 given
			}
			err := f.Validate(tt.args, 4, given)
			if tt.want != "" {
				require.NotNil(t, err)
				assert.Equal(t, tt.field, err.Field)
				assert.Contains(t, err.Problem, tt.want)
				return
			}
			require.Nil(t, err)
			text := f.EncodeArgs(tt.args)
			assert.Equal(t, tt.link, text)
			back, derr := f.DecodeArgs(text[1:], 1)
			require.NoError(t, derr)
			assert.Equal(t, tt.args, back, "the link reads back the same arguments")
		})
	}
}

func TestFirstVersionLinksCountProcessesFromZero(t *testing.T) {
	f, _ := Lookup("pause")
	a, err := f.DecodeArgs("2.15", 0)
	require.NoError(t, err)
	assert.Equal(t, sim.NodeID(2), a.Node, "v=1 links wrote the 0-based index")
	a, err = f.DecodeArgs("2.15", 1)
	require.NoError(t, err)
	assert.Equal(t, sim.NodeID(1), a.Node)
}

func TestDecodeArgsErrors(t *testing.T) {
	tests := []struct{ fault, text, want string }{
		{"pause", "2", "pause takes 2 number(s), got 1"},
		{"cut", "1", "cut takes 2 to 3 number(s), got 1"},
		{"crash", "x", `"x" is not a number`},
		{"crash", "0", "there is no process 0"},
		{"cut", "1.2.7", "oneway is 0 or 1, got 7"},
		{"partition", "1~a_2", `"a" is not a process number`},
		{"drop", "-1", "there is no message #-1"},
	}
	for _, tt := range tests {
		f, _ := Lookup(tt.fault)
		_, err := f.DecodeArgs(tt.text, 1)
		require.Error(t, err, tt.text)
		assert.Contains(t, err.Error(), tt.want)
	}
}

// An unknown fault's name is quoted clipped, not echoed back whole (found
// by FuzzParse through a scenario's script).
func TestParseClipsAnUnknownName(t *testing.T) {
	_, err := Parse(strings.Repeat("x", 5000))
	require.Error(t, err)
	assert.Less(t, len(err.Error()), 200)
	assert.Contains(t, err.Error(), `unknown fault "xxxxxxxxxxxxxxxxxxxxxxxx…" (known: crash,`)
}
