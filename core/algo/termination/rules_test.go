package termination_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"spacetime/core/algo/termination"
	"spacetime/core/check"
	"spacetime/core/sim"
	"spacetime/internal/algotest"
	"spacetime/internal/scenariotest"
)

// The computation's and the counts' checks hold on the spanning tree's
// lesson, and each names a process whose state breaks a rule at a step:
// a task started at the wrong depth, a WORK not queued, a passive
// process wrong about when, a message not counted, an announcement
// forgotten.
func TestTheRulesChecksNameAProcessThatBreaksThem(t *testing.T) {
	spec := termination.DSSpec
	broken := func(v sim.View, name, want string, undo func()) {
		t.Helper()
		assert.Contains(t, algotest.Check(t, spec, v, name).Detail, want)
		undo()
	}
	_, r := scenariotest.Run(t, "termination-ds")
	broke := map[string]bool{}
	algotest.Steps(r, func(k int, v sim.View, id sim.NodeID, ev sim.Event) {
		algotest.Holds(t, spec, v, k, termination.WorksName, termination.CountsName)
		d := v.Node(id).(*termination.DS)
		w := d.Computation()
		now := v.Steps() - 1
		was := v.DrawnBefore(id, termination.RoleActive, 0, now)
		switch {
		case ev.Kind == sim.Deliver && ev.Msg.Kind == termination.KindWork && !was && !broke["start"]:
			w.Doing++
			broken(v, termination.WorksName, "while passive", func() { w.Doing-- })
			broke["start"] = true
		case ev.Kind == sim.Deliver && ev.Msg.Kind == termination.KindWork && was && !broke["queue"]:
			q := w.Queue
			w.Queue = q[:len(q)-1]
			broken(v, termination.WorksName, "while doing a task", func() { w.Queue = q })
			broke["queue"] = true
		case ev.Kind == sim.Timer && ev.Tag == termination.TimerWork && !w.Busy && !broke["passive"]:
			w.PassiveAt--
			broken(v, termination.WorksName, "went passive at", func() { w.PassiveAt++ })
			broke["passive"] = true
		case len(check.SentKind(v, id, termination.KindAck)) > 0 && !broke["control"]:
			c := d.Control
			d.Control = 0
			broken(v, termination.CountsName, "counts 0 in all", func() { d.Control = c })
			broke["control"] = true
		}
		if said, at := d.Announced(); said && at == v.Now() && !broke["announce"] {
			d.Said = false
			broken(v, termination.CountsName, "remembers it: false", func() { d.Said = true })
			broke["announce"] = true
		}
	})
	assert.Len(t, broke, 5)
}

// By seed 003's rule a process keeps the credit that comes back to it;
// what it kept is lost with its memory in a crash, and the root judges
// its credit once all it held at a step is in: a copied WORK once let
// it announce with 1 back and then, at the same step, hold 9/8.
func TestKeptCreditIsLostInACrashAndJudgedWhole(t *testing.T) {
	for name, doc := range map[string]string{
		"crash": `{"algorithm": "credit-recovery", "n": 4, "seed": 13828901158517160855, "network": {"fifo": true, "delay": [2, 5]}, "params": {"seed_parent": true},
			"script": [{"at": 6, "node": "1", "target": "4", "fault": "cut"}, {"at": 7, "fault": "duplicate", "msg": 3}, {"at": 19, "node": "3", "fault": "crash"}, {"at": 27, "node": "3", "fault": "recover"}, {"at": 32, "fault": "heal"}],
			"until": {"quiescent": true}}`,
		"copy": `{"algorithm": "credit-recovery", "n": 2, "seed": 17382246244356204001, "network": {"fifo": true, "delay": [2, 12]}, "params": {"seed_parent": true},
			"script": [{"at": 5, "fault": "duplicate", "msg": 2}, {"at": 7, "node": "1", "fault": "pause", "for": 44}, {"at": 14, "node": "1", "fault": "skew", "by": 35}, {"at": 39, "node": "2", "fault": "pause", "for": 2}],
			"until": {"quiescent": true}}`,
	} {
		t.Run(name, func(t *testing.T) {
			r := algotest.Run(t, doc)
			algotest.Steps(r, func(k int, v sim.View, id sim.NodeID, ev sim.Event) {
				algotest.Holds(t, termination.CreditSpec, v, k, termination.CreditName)
			})
		})
	}
}

// Each detector's rules check holds on its lesson and names a process
// whose state breaks a rule at a step.
func TestTheDetectorsChecksNameAProcessThatBreaksThem(t *testing.T) {
	isWork := func(ev sim.Event) bool { return ev.Kind == sim.Deliver && ev.Msg.Kind == termination.KindWork }
	for _, c := range []struct {
		lesson, check, want string
		spec                *sim.Spec
		// breaks breaks the process's state after a step, if it is one
		// to break, and returns how to mend it
		breaks func(v sim.View, id sim.NodeID, ev sim.Event) func()
	}{
		{"termination-ds", termination.TreeName, "outside the tree", termination.DSSpec, func(v sim.View, id sim.NodeID, ev sim.Event) func() {
			d := v.Node(id).(*termination.DS)
			if !isWork(ev) || !d.Engaged || len(check.SentKind(v, id, termination.KindAck)) > 0 {
				return nil
			}
			p := d.Parent
			d.Parent = (p + 1) % sim.NodeID(v.N())
			if d.Parent == id {
				d.Parent = (d.Parent + 1) % sim.NodeID(v.N())
			}
			return func() { d.Parent = p }
		}},
		{"termination-in-flight", termination.PollName, "answered", termination.PollSpec, func(v sim.View, id sim.NodeID, ev sim.Event) func() {
			q := v.Node(id).(*termination.Poll)
			if ev.Kind != sim.Deliver || ev.Msg.Kind != termination.KindProbe {
				return nil
			}
			q.Busy = !q.Busy
			return func() { q.Busy = !q.Busy }
		}},
		{"termination-credit", termination.CreditName, "while passive", termination.CreditSpec, func(v sim.View, id sim.NodeID, ev sim.Event) func() {
			c := v.Node(id).(*termination.Credit)
			if !isWork(ev) || len(check.SentKind(v, id, termination.KindCredit)) > 0 || c.Parent != ev.From {
				return nil
			}
			c.Exp++
			return func() { c.Exp-- }
		}},
		{"termination-credit-integer", termination.UnitsName, "holds", termination.IntegerCreditSpec, func(v sim.View, id sim.NodeID, ev sim.Event) func() {
			c := v.Node(id).(*termination.IntegerCredit)
			if !isWork(ev) || len(ev.Msg.Data) == 0 || ev.Msg.Data[0] != 1 {
				return nil
			}
			u := c.Units
			c.Units = 0
			return func() { c.Units = u }
		}},
		{"termination-snapshot", termination.SnapsName, "adds up snapshot", termination.SnapshotSpec, func(v sim.View, id sim.NodeID, ev sim.Event) func() {
			s := v.Node(id).(*termination.Snap)
			if id != termination.Root || ev.Kind != sim.Deliver || ev.Msg.Kind != termination.KindReport || len(s.Results) == 0 {
				return nil
			}
			r := &s.Results[len(s.Results)-1]
			r.InChannel++
			return func() { r.InChannel-- }
		}},
	} {
		t.Run(c.lesson, func(t *testing.T) {
			_, r := scenariotest.Run(t, c.lesson)
			broke := false
			algotest.Steps(r, func(k int, v sim.View, id sim.NodeID, ev sim.Event) {
				algotest.Holds(t, c.spec, v, k, c.check)
				if broke {
					return
				}
				if mend := c.breaks(v, id, ev); mend != nil {
					assert.Contains(t, algotest.Check(t, c.spec, v, c.check).Detail, c.want, "step %d", k)
					mend()
					broke = true
				}
			})
			assert.True(t, broke, "no step to break")
		})
	}
}
