package algotest

import (
	"encoding/json"
	"fmt"
	"strconv"
	"testing"

	"spacetime/core/faults"
	"spacetime/core/sim"
)

// Percent is a kind of fault argument that no fault of the registry has:
// a share from 0 to 100, written "40%" in a link.
var Percent = &faults.Kind{
	Name:  "percent",
	Words: func(field string) string { return fmt.Sprintf("a share from 0 to 100 (%q)", field) },
	Check: func(v faults.Value, _ faults.Args, _ int) error {
		if v.Int < 0 || v.Int > 100 {
			return fmt.Errorf("want a share from 0 to 100, got %d", v.Int)
		}
		return nil
	},
	Read: func(raw json.RawMessage, _ faults.Procs) (faults.Value, error) {
		var x int64
		if err := json.Unmarshal(raw, &x); err != nil {
			return faults.Value{}, fmt.Errorf("want a share from 0 to 100, got %s", raw)
		}
		return faults.Value{Int: x}, nil
	},
	Write: func(v faults.Value, _ func(sim.NodeID) json.RawMessage) json.RawMessage {
		return strconv.AppendInt(nil, v.Int, 10)
	},
	Encode: func(v faults.Value) string { return strconv.FormatInt(v.Int, 10) + "%" },
	Decode: func(text string, _ int) (faults.Value, error) {
		x, err := strconv.ParseInt(text[:max(len(text)-1, 0)], 10, 64)
		if err != nil || text[len(text)-1] != '%' {
			return faults.Value{}, fmt.Errorf("%q is not a share such as 40%%", text)
		}
		return faults.Value{Int: x}, nil
	},
	Input: faults.Input{Type: faults.InputNumber, Min: 0, Max: 100, Default: 50},
	Draw:  func(d *faults.Dice, _ int) faults.Value { return faults.Value{Int: int64(d.IntN(101))} },
}

// Jam is a fault that tests add to the registry (WithJam), with two
// flags and an argument of a kind no fault of the registry has (Percent):
// the proof that such a fault takes its entry and its kind, and no change
// anywhere else.
var Jam = &faults.Fault{
	Name: "jam", Letter: 'w',
	Help: "a test's fault: the process's share of messages is jammed",
	Params: []faults.Param{
		{Field: "node", Kind: faults.ParamNode},
		{Field: "share", Kind: Percent, Before: "jam", After: "%"},
		{Field: "loud", Kind: faults.ParamFlag, Optional: true, After: "loudly"},
		{Field: "late", Kind: faults.ParamFlag, Optional: true, After: "late"},
	},
	Menus: []faults.Menu{faults.MenuProcess}, Label: "Jam {node}",
	Check: func(w faults.World, a faults.Args) error { return nil },
	Apply: func(w faults.World, a faults.Args) string {
		return fmt.Sprintf("%s is jammed at %d%% (loud %t, late %t)", w.Name(a.Node), a.Int("share"), a.Flag("loud"), a.Flag("late"))
	},
	Glyph: sim.GlyphSquare, Tone: sim.Grey, Legend: "jammed",
	Mark: func(a faults.Args) string { return strconv.FormatInt(a.Int("share"), 10) + "%" },
	Draw: func(s faults.Scene, d *faults.Dice) (faults.Args, bool) {
		a := faults.AtProcess(sim.NodeID(d.IntN(s.N())))
		return a.With("share", Percent.Draw(d, s.N())), true
	},
}

// WithJam adds Jam to the fault registry for the test.
func WithJam(t testing.TB) {
	saved := faults.Registry
	faults.Registry = append(append([]*faults.Fault(nil), saved...), Jam)
	t.Cleanup(func() { faults.Registry = saved })
}
