// Package mutex is what every mutual-exclusion algorithm shares: a
// process's wish for the critical section and its time there (the
// request-cs command, the waiting and critical-section intervals, the
// release after params.cs_time ticks), the safety and deadlock invariants,
// and the report's metrics. An algorithm embeds Want in its nodes, decides
// when a process may enter, and calls Enter and Leave.
package mutex

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"spacetime/core/sim"
	"spacetime/core/strictjson"
)

// The command, annotation roles and timer every mutual-exclusion
// algorithm uses.
const (
	// CmdRequest makes a process want the critical section.
	CmdRequest = "request-cs"
	// RoleWaiting is the interval from a request to the entry.
	RoleWaiting = "waiting"
	// RoleCS is the interval in the critical section.
	RoleCS = "critical-section"
	// TimerRelease fires when a process has been in the section for CSTime
	// ticks.
	TimerRelease = "release"
	// DefaultCSTime is how long a process holds the section by default.
	DefaultCSTime = 5
	// MaxCSTime bounds params.cs_time.
	MaxCSTime = 1_000_000
)

// The message kinds the algorithms share, each with its own glyph on the
// diagram, so that a REQUEST looks the same in every algorithm.
const (
	KindRequest = "REQUEST"
	KindReply   = "REPLY"
	KindRelease = "RELEASE"
	KindGrant   = "GRANT"
	KindToken   = "TOKEN"
)

// The kinds' specs: an algorithm lists those it sends.
var (
	RequestKind = sim.KindSpec{Name: KindRequest, Role: sim.RoleControl, Tone: sim.Blue, Glyph: sim.GlyphTriangle}
	ReplyKind   = sim.KindSpec{Name: KindReply, Role: sim.RoleControl, Tone: sim.Green, Glyph: sim.GlyphRing}
	ReleaseKind = sim.KindSpec{Name: KindRelease, Role: sim.RoleControl, Tone: sim.Grey, Glyph: sim.GlyphSquare}
	GrantKind   = sim.KindSpec{Name: KindGrant, Role: sim.RoleControl, Tone: sim.Green, Glyph: sim.GlyphDiamond}
	TokenKind   = sim.KindSpec{Name: KindToken, Role: sim.RoleToken, Tone: sim.Gold, Glyph: sim.GlyphToken}
)

// Request is the request-cs command's spec, taken by every process.
var Request = sim.CommandSpec{Name: CmdRequest, Help: "want the critical section (held for cs_time ticks, then released)"}

// Roles are the intervals every mutual-exclusion algorithm draws.
var Roles = []sim.RoleSpec{
	{Name: RoleWaiting, Style: sim.StyleOutline, Tone: sim.Orange, Legend: "waiting for the critical section"},
	{Name: RoleCS, Style: sim.StyleBar, Tone: sim.Red, Legend: "in the critical section"},
}

// State is where a process stands with the critical section.
type State uint8

// The states of a process.
const (
	Idle State = iota
	Wanting
	InCS
)

func (s State) String() string {
	switch s {
	case Wanting:
		return "wanting"
	case InCS:
		return "in the critical section"
	}
	return "idle"
}

// Want is a process's part of the critical section, embedded in every
// algorithm's node: its state, since when, and its figures.
type Want struct {
	State State
	// Since is when the process asked (Wanting) or entered (InCS).
	Since sim.Time
	// CSTime is how long the process stays in the section.
	CSTime sim.Time
	// Entries, WaitTotal and WaitMax are the process's figures: how often
	// it entered and how long it waited, in ticks; Sent counts the
	// algorithm's messages it sent (the algorithm counts them).
	Entries            int
	WaitTotal, WaitMax sim.Time
	Sent               int
}

// Ask records a request; it reports false, explaining why, when the
// process already wants or holds the section.
func (w *Want) Ask(env *sim.Env) bool {
	if w.State != Idle {
		env.Explain("%s asks for the critical section but is already %s", env.Name(env.Self()), w.State)
		return false
	}
	w.State, w.Since = Wanting, env.Now()
	env.Annotate(sim.Opens(RoleWaiting, 0, "wants"))
	return true
}

// Enter takes the process into the section and arms its release.
func (w *Want) Enter(env *sim.Env) {
	wait := env.Now() - w.Since
	w.State, w.Since = InCS, env.Now()
	w.Entries++
	w.WaitTotal += wait
	w.WaitMax = max(w.WaitMax, wait)
	env.Annotate(sim.Closes(RoleWaiting, 0), sim.Opens(RoleCS, 0, "in"))
	env.SetTimer(TimerRelease, w.CSTime)
}

// Leave takes the process out of the section.
func (w *Want) Leave(env *sim.Env) {
	w.State = Idle
	env.Annotate(sim.Closes(RoleCS, 0))
}

// Forget drops the process's wish and its place in the section, as a crash
// does to volatile state; a recovering process calls it, and its waiting
// or critical-section interval ends there.
func (w *Want) Forget(env *sim.Env) {
	switch w.State {
	case Wanting:
		env.Annotate(sim.Closes(RoleWaiting, 0))
	case InCS:
		env.Annotate(sim.Closes(RoleCS, 0))
	}
	w.State = Idle
}

// Fields are the process's part of its Inspect view.
func (w *Want) Fields() []sim.Field {
	return []sim.Field{
		{Name: "state", Value: w.State.String()},
		{Name: "entries", Value: strconv.Itoa(w.Entries)},
	}
}

// count says a number of things in words: "1 message", "3 entries".
func count(n int, thing string) string {
	switch {
	case n == 1:
		return "1 " + thing
	case strings.HasSuffix(thing, "y"):
		return strconv.Itoa(n) + " " + strings.TrimSuffix(thing, "y") + "ies"
	}
	return strconv.Itoa(n) + " " + thing + "s"
}

// Stamp is a request's timestamp in the algorithms that order requests by
// Lamport clock: the requester's clock, then its id to break ties.
type Stamp struct {
	Clock int64
	From  sim.NodeID
}

// Before reports whether s is the earlier request.
func (s Stamp) Before(o Stamp) bool {
	return s.Clock < o.Clock || (s.Clock == o.Clock && s.From < o.From)
}

// Compare orders stamps for sorting and searching: -1, 0 or 1.
func (s Stamp) Compare(o Stamp) int {
	switch {
	case s.Before(o):
		return -1
	case o.Before(s):
		return 1
	}
	return 0
}

func (s Stamp) String() string {
	// by hand: captions write many stamps per step
	return "(" + strconv.FormatInt(s.Clock, 10) + ", " + strconv.Itoa(s.From.Number()) + ")"
}

// Wanter is a node with a Want, for the shared invariants and metrics.
type Wanter interface {
	Wish() *Want
}

// Params are the parameters every mutual-exclusion algorithm takes; an
// algorithm's own params embed them.
type Params struct {
	// CSTime is how long a process stays in the critical section (ticks).
	CSTime sim.Time `json:"cs_time"`
}

// Defaults are the shared parameters' defaults.
func Defaults() Params { return Params{CSTime: DefaultCSTime} }

// DecodeParams reads and checks the params of an algorithm that takes only
// the shared ones.
func DecodeParams(raw json.RawMessage) (Params, error) {
	p := Defaults()
	if err := sim.DecodeParams(raw, &p); err != nil {
		return p, err
	}
	return p, p.Check()
}

// Check refuses shared parameters out of range, naming the field.
func (p Params) Check() error {
	return sim.CheckTicks("params.cs_time", p.CSTime, MaxCSTime)
}

// Waiting lists the processes that are up (or paused) and want the
// section, in id order.
func Waiting(v sim.View) []sim.NodeID {
	var out []sim.NodeID
	for i := range v.N() {
		if wish(v, sim.NodeID(i)).State == Wanting && v.Health(sim.NodeID(i)) != sim.Crashed {
			out = append(out, sim.NodeID(i))
		}
	}
	return out
}

// WhoWaits names the waiting processes with their verb: "2 waits",
// "2 and 3 wait".
func WhoWaits(v sim.View) string {
	waiting := Waiting(v)
	names := make([]string, len(waiting))
	for i, id := range waiting {
		names[i] = v.Name(id)
	}
	if len(names) == 1 {
		return names[0] + " waits"
	}
	return strings.Join(names, " and ") + " wait"
}

// CheckProcess refuses a process number in params (a coordinator, a first
// token holder) that is not one of the n processes, naming the field.
func CheckProcess(field string, num, n int) error {
	if num < 1 || num > n {
		return strictjson.FieldErrorf(field, "want a process number from 1 to %d, got %d", n, num)
	}
	return nil
}

// Row is a process's row of an algorithm's panel: its name and state, then
// the algorithm's cells, with the state marked while it is in the section
// (and marked bad when it crashed there: nobody is using the section, yet
// nobody else may enter it).
func Row(v sim.View, id sim.NodeID, cells ...string) sim.Row {
	w := wish(v, id)
	state, mark := w.State.String(), ""
	switch {
	case w.State == InCS && v.Health(id) == sim.Crashed:
		state, mark = "crashed in the critical section", "bad"
	case w.State == InCS:
		mark = "good"
	}
	row := sim.Row{Cells: append([]string{v.Name(id), state}, cells...)}
	if mark != "" {
		row.CellEmphasis = []string{"", mark}
	}
	return row
}

// Stamper is a node whose requests carry a Lamport stamp, for Fairness.
type Stamper interface {
	// Stamp is the stamp of the process's current request.
	Stamp() Stamp
}

// FairnessName names the Fairness invariant.
const FairnessName = "granted in timestamp order"

// Fairness is the invariant of the algorithms that order requests by
// Lamport stamp (Lamport's, Ricart–Agrawala): a process enters only when
// no process that is up and still waits has an earlier request.
var Fairness = sim.Invariant{
	Name: FairnessName,
	Help: "requests enter the critical section in the order of their (Lamport clock, id) stamps",
	Check: func(v sim.View) sim.Verdict {
		for _, a := range v.LastAnnotations() {
			if a.Role != RoleCS || a.Phase != sim.Begin {
				continue
			}
			for i := range v.N() {
				in := sim.NodeID(i)
				if wish(v, in).State != InCS || v.Health(in) == sim.Crashed {
					continue
				}
				mine := v.Node(in).(Stamper).Stamp()
				for _, w := range Waiting(v) {
					// the stamps' order, restated: by clock, then by id
					theirs := v.Node(w).(Stamper).Stamp()
					if theirs.Clock < mine.Clock || theirs.Clock == mine.Clock && theirs.From < mine.From {
						return sim.Verdict{Detail: fmt.Sprintf("%s entered with %s while %s still waits with the earlier %s", v.Name(in), mine, v.Name(w), theirs)}
					}
				}
			}
		}
		return sim.Verdict{OK: true}
	},
}

// Totals are the entries into the section and the algorithm's messages
// sent, over every process.
func Totals(v sim.View) (entries, sent int) {
	for i := range v.N() {
		w := wish(v, sim.NodeID(i))
		entries += w.Entries
		sent += w.Sent
	}
	return entries, sent
}

// Formula is the message-count line: the measured messages per entry
// beside the textbook's count, in words ("2(N−1) = 4").
func Formula(v sim.View, textbook string) string {
	_, sent := Totals(v)
	return FormulaCounting(v, sent, textbook)
}

// FormulaCounting is Formula with the messages an entry is charged
// counted by the algorithm, as MetricsCounting.
func FormulaCounting(v sim.View, sent int, textbook string) string {
	entries, _ := Totals(v)
	if entries == 0 {
		return fmt.Sprintf("Messages per entry: %s (none yet).", textbook)
	}
	return fmt.Sprintf("Messages per entry: %.2f measured (%s, %s); %s.", float64(sent)/float64(entries), count(sent, "message"), count(entries, "entry"), textbook)
}

// Metrics are the figures every mutual-exclusion algorithm reports;
// deadlock is the algorithm's Deadlock invariant.
func Metrics(v sim.View, deadlock sim.Invariant) []sim.Metric {
	_, sent := Totals(v)
	return MetricsCounting(v, deadlock, sent)
}

// MetricsCounting is Metrics with the messages an entry is charged
// counted by the algorithm (a ring's token passes while someone waits,
// not its idle circulation).
func MetricsCounting(v sim.View, deadlock sim.Invariant, sent int) []sim.Metric {
	entries, _ := Totals(v)
	in := 0
	var waitTotal, waitMax sim.Time
	for i := range v.N() {
		w := wish(v, sim.NodeID(i))
		waitTotal += w.WaitTotal
		waitMax = max(waitMax, w.WaitMax)
		if w.State == InCS && v.Health(sim.NodeID(i)) != sim.Crashed {
			in++ // as Safety counts: a crash ends what a process was doing
		}
	}
	h := ReadHistory(v)
	syncMean := 0.0
	if h.Handovers > 0 {
		syncMean = float64(h.SyncTotal) / float64(h.Handovers)
	}
	perEntry, _ := PerEntry(v, sent)
	mean := 0.0
	if entries > 0 {
		mean = float64(waitTotal) / float64(entries)
	}
	return []sim.Metric{
		{Name: "cs_entries", Value: entries},
		{Name: "messages_per_entry", Value: perEntry},
		{Name: "in_cs", Value: in},
		{Name: "max_in_cs", Value: h.MostInCS},
		{Name: "deadlock", Value: !deadlock.Check(v).OK},
		{Name: "waiting_time", Value: map[string]float64{"mean": round2(mean), "max": float64(waitMax)}},
		{Name: "sync_delay", Value: map[string]float64{"mean": round2(syncMean), "max": float64(h.SyncMax)}},
		busiest(v),
	}
}

// busiest is the load on the process that handles the most messages: the
// share of every message sent that it sent or received, a central
// coordinator's bottleneck measured (1: every message goes to it or from
// it). The first such process counts on a tie.
func busiest(v sim.View) sim.Metric {
	handled := make([]int, v.N())
	for id := range v.NumSent() {
		e := v.Envelope(id)
		handled[e.From]++
		if e.RecvStep >= 0 && e.To != e.From {
			handled[e.To]++
		}
	}
	top := 0
	for i, h := range handled {
		if h > handled[top] {
			top = i
		}
	}
	share := 0.0
	if n := v.NumSent(); n > 0 {
		share = round2(float64(handled[top]) / float64(n))
	}
	return sim.Metric{Name: "busiest", Value: map[string]any{"process": v.Name(sim.NodeID(top)), "share": share}}
}
