package tokenring

import (
	"fmt"
	"strings"

	"spacetime/core/algo/mutex"
	"spacetime/core/sim"
)

func process(v sim.View, id sim.NodeID) *Process { return v.Node(id).(*Process) }

var deadlock = mutex.Deadlock(blocked)

// blocked says where the token went, or "" while a process that is up
// holds it (it will pass it on).
func blocked(v sim.View) string {
	var lostWith []string
	for i := range v.N() {
		if p := process(v, sim.NodeID(i)); p.Holds {
			if v.Health(sim.NodeID(i)) != sim.Crashed {
				return ""
			}
			lostWith = append(lostWith, v.Name(sim.NodeID(i)))
		}
	}
	who := mutex.WhoWaits(v)
	if len(lostWith) > 0 {
		return fmt.Sprintf("%s for the token, which was lost when %s crashed holding it", who, strings.Join(lostWith, " and "))
	}
	return fmt.Sprintf("%s for the token, which is nowhere: it was lost on its way", who)
}

// tally is the mutual-exclusion tally with the token's passes: all of
// them, and those made while some process waited for the section (an
// entry is charged those; the others are idle circulation).
type tally struct {
	*mutex.Tally
	all, charged int
}

func newTally(n int) sim.Tally { return &tally{Tally: mutex.NewTally(n).(*mutex.Tally)} }

// Note takes one step's annotations, in order, so that a pass sees who
// waits at that point of the step.
func (t *tally) Note(at sim.Time, node sim.NodeID, as []sim.Annotation) {
	for i, a := range as {
		t.Tally.Note(at, node, as[i:i+1])
		if a.Role == RolePass && node >= 0 {
			t.all++
			if t.Waiting() > 0 {
				t.charged++
			}
		}
	}
}

func (t *tally) Clone() sim.Tally { return &tally{Tally: t.Copy(), all: t.all, charged: t.charged} }

// Passes counts the token passes of the run so far, and those made while
// some process was waiting for the section.
func Passes(v sim.View) (all, charged int) {
	if t, ok := v.Tally().(*tally); ok {
		return t.all, t.charged
	}
	return 0, 0
}

// Tokens are where the tokens are now: held by a process that is up, or
// travelling.
func Tokens(v sim.View) (held []sim.NodeID, travelling int) {
	for i := range v.N() {
		if process(v, sim.NodeID(i)).Holds && v.Health(sim.NodeID(i)) != sim.Crashed {
			held = append(held, sim.NodeID(i))
		}
	}
	return held, v.InFlightTotal(KindToken).Count
}

func metrics(v sim.View) []sim.Metric {
	all, charged := Passes(v)
	held, travelling := Tokens(v)
	regenerated := 0
	for i := range v.N() {
		regenerated += process(v, sim.NodeID(i)).Regenerated
	}
	every, _ := mutex.PerEntry(v, all)
	// messages_per_entry counts the passes an entry waits for (seed 001's
	// table); passes_per_entry counts every pass, idle ones too (seed
	// 001's "constant stream"): the two figures the texts give one name
	return append(mutex.MetricsCounting(v, deadlock, charged),
		sim.Metric{Name: "passes_per_entry", Value: every},
		sim.Metric{Name: "token_passes", Value: all},
		sim.Metric{Name: "idle_passes", Value: all - charged},
		sim.Metric{Name: "tokens", Value: len(held) + travelling},
		sim.Metric{Name: "regenerated", Value: regenerated},
	)
}

// where says where the token is, in words.
func where(v sim.View) string {
	held, travelling := Tokens(v)
	var parts []string
	for _, id := range held {
		parts = append(parts, "held by "+v.Name(id))
	}
	switch travelling {
	case 0:
	case 1:
		parts = append(parts, "on its way")
	default:
		parts = append(parts, fmt.Sprintf("%d on their way", travelling))
	}
	switch n := len(held) + travelling; n {
	case 0:
		return "lost: no process holds it and none is on its way"
	case 1:
		return parts[0]
	default:
		return fmt.Sprintf("%d tokens: %s", n, strings.Join(parts, ", "))
	}
}

func panels(v sim.View) []sim.Panel {
	panel := sim.Panel{Title: "Token ring", Note: "the token is " + where(v), Columns: []string{"process", "state", "token", "passes to"}}
	for i := range v.N() {
		p := process(v, sim.NodeID(i))
		token := ""
		switch {
		case p.Holds && v.Health(sim.NodeID(i)) == sim.Crashed:
			token = "lost in the crash"
		case p.Holds:
			token = fmt.Sprintf("holds it (generation %d)", p.Token.Gen)
		}
		panel.Rows = append(panel.Rows, mutex.Row(v, sim.NodeID(i), token, v.Name(p.Next)))
	}
	return []sim.Panel{panel}
}

// formula compares the passes charged to each entry with the textbook's
// 0 to N−1 (seed 001's table says 1 to N−1), with the idle passes counted
// apart and every pass per entry beside.
func formula(v sim.View) string {
	all, charged := Passes(v)
	idle := fmt.Sprintf("%d idle passes", all-charged)
	if all-charged == 1 {
		idle = "1 idle pass"
	}
	every := ""
	if perEntry, ok := mutex.PerEntry(v, all); ok {
		every = fmt.Sprintf("; every pass counted, %.2f an entry (%d passes)", perEntry, all)
	}
	return mutex.FormulaCounting(v, charged, fmt.Sprintf("TOKEN passes while someone waits, 0 to N−1 = %d (0 when the holder itself asks; seed 001's table says 1 to N−1); %s while nobody waited%s", v.N()-1, idle, every))
}

// MovesName names the invariant checkMoves makes.
const MovesName = "a holder of the token uses it or passes it on"

// checkMoves is the token's liveness as a check of each step: a process
// that holds the token and wants the section is in it, and one that holds
// it and does not want it has the pass armed that sends it on. A token
// that stops (its pass never armed, or a holder that waits with it) keeps
// every process out for good while the deadlock check, which sees a
// holder, is content. A crashed holder has lost it (the deadlock check's
// case).
func checkMoves(v sim.View) sim.Verdict {
	for i := range v.N() {
		id := sim.NodeID(i)
		p := process(v, id)
		if !p.Holds || v.Health(id) == sim.Crashed {
			continue
		}
		switch p.State {
		case mutex.Wanting:
			return sim.Verdict{Detail: fmt.Sprintf("%s holds the token and wants the section, but has not entered it", v.Name(id))}
		case mutex.Idle:
			if _, armed := v.Timer(id, TimerPass); !armed {
				return sim.Verdict{Detail: fmt.Sprintf("%s holds the token, does not want the section, and has no pass armed: the token stops here", v.Name(id))}
			}
		}
	}
	return sim.Verdict{OK: true}
}
