// Package check holds the invariants that do not belong to one algorithm:
// whether a cut through the processes' histories is consistent, the
// invariant that every cut a snapshot records is, and whether anything is
// still on its way that could move a run on.
package check

import (
	"fmt"
	"iter"
	"slices"
	"strings"

	"spacetime/core/sim"
)

// Inside says process p's event at step is inside cut. A cut gives each
// process a step: the process's events before that step are inside the
// cut, the step itself outside (-1 puts the whole history inside).
func Inside(cut []int, p sim.NodeID, step int) bool { return cut[p] < 0 || step < cut[p] }

// StraightCut is the cut at one step for every one of n processes: the
// world as it stood before that step.
func StraightCut(n, step int) []int {
	cut := make([]int, n)
	for i := range cut {
		cut[i] = step
	}
	return cut
}

// Inconsistent lists the messages that make a cut inconsistent. A message
// received inside the cut but sent outside it records an effect without
// its cause.
func Inconsistent(v sim.View, cut []int) []int {
	var bad []int
	for id := range v.NumSent() {
		e := v.Envelope(id)
		if e.RecvStep >= 0 && Inside(cut, e.To, e.RecvStep) && !Inside(cut, e.From, e.SendStep) {
			bad = append(bad, id)
		}
	}
	return bad
}

// SentInside are the messages sent inside cut, in send order: what a
// check reads to know what the processes had said by a cut (a wait-for
// graph, the references on their way), off the messages rather than off
// the processes it judges.
func SentInside(v sim.View, cut []int) iter.Seq[sim.Envelope] {
	return func(yield func(sim.Envelope) bool) {
		end := v.NumSent()
		if !slices.Contains(cut, -1) {
			end = v.SentFrom(slices.Max(cut)) // none sent later is inside
		}
		for id := range end {
			if e := v.Envelope(id); Inside(cut, e.From, e.SendStep) && !yield(e) {
				return
			}
		}
	}
}

// FirstSent is the step at which process from first sent a message of
// kind whose value is value (the round it starts, say), or -1.
func FirstSent(v sim.View, from sim.NodeID, kind string, value int64) int {
	for id := range v.NumSent() {
		if e := v.Envelope(id); e.From == from && e.Kind == kind && e.Value == value {
			return e.SendStep
		}
	}
	return -1
}

// RecordedCutName names the RecordedCuts invariant.
const RecordedCutName = "recorded cut is consistent"

// RecordedCuts is the invariant that every cut an algorithm records is
// consistent: each process's recording point (its annotation of the given
// role, one group per cut) cuts its history, the recording step itself
// outside. It is checked when the last process of a cut records, since no
// later message can change it.
func RecordedCuts(role string) sim.Invariant {
	return sim.Invariant{
		Name:  RecordedCutName,
		Help:  "no message is received inside a recorded cut but sent outside it",
		Check: func(v sim.View) sim.Verdict { return checkRecordedCuts(v, role) },
	}
}

func checkRecordedCuts(v sim.View, role string) sim.Verdict {
	for _, m := range v.LastAnnotations() {
		if m.Role != role {
			continue
		}
		cut := v.AnnotationSteps(role, m.Group)
		complete := true
		for _, s := range cut {
			complete = complete && s >= 0
		}
		if !complete {
			continue
		}
		if bad := Inconsistent(v, cut); len(bad) > 0 {
			e := v.Envelope(bad[0])
			var names []string
			for _, id := range bad {
				names = append(names, describe(v, v.Envelope(id)))
			}
			return sim.Verdict{
				Detail: fmt.Sprintf("cut %d is inconsistent: %s was received inside it but sent after %s recorded (%s)",
					m.Group, describe(v, e), v.Name(e.From), strings.Join(names, "; ")),
				Msgs: bad,
			}
		}
	}
	return sim.Verdict{OK: true}
}

// RecordedChannelName names the RecordedChannels invariant.
const RecordedChannelName = "a channel records only what was sent inside the cut"

// RecordedChannels is the invariant that a snapshot records on a channel
// only messages its sender sent before recording its own state: a
// message annotated with the channel role (group k) must have been sent
// before its sender's recording point of that role and group, if the
// sender has one. It is checked at the step that records the message. A
// channel whose marker never comes (a marker not sent, lost or overtaken)
// goes on recording the sender's later messages, and fails it.
func RecordedChannels(recorded, channel string) sim.Invariant {
	return sim.Invariant{
		Name:  RecordedChannelName,
		Help:  "every message recorded as a channel's state was sent before its sender recorded",
		Check: func(v sim.View) sim.Verdict { return checkRecordedChannels(v, recorded, channel) },
	}
}

func checkRecordedChannels(v sim.View, recorded, channel string) sim.Verdict {
	for _, m := range v.LastAnnotations() {
		if m.Role != channel || m.Msg < 0 || m.Msg >= v.NumSent() {
			continue
		}
		e := v.Envelope(m.Msg)
		at := v.AnnotationSteps(recorded, m.Group)[e.From]
		if at < 0 || e.SendStep < at {
			continue
		}
		return sim.Verdict{
			Detail: fmt.Sprintf("snapshot %d records %s on its channel, but %s sent it at step %d, after recording its state at step %d: it is no part of the cut",
				m.Group, describe(v, e), v.Name(e.From), e.SendStep+1, at+1),
			Msgs: []int{m.Msg},
		}
	}
	return sim.Verdict{OK: true}
}

func describe(v sim.View, e sim.Envelope) string {
	label := e.Kind
	if e.Label != "" {
		label += " " + e.Label
	}
	return fmt.Sprintf("%s %s→%s", label, v.Name(e.From), v.Name(e.To))
}

// Overtaken finds a message of kind late that arrived before an earlier
// message of kind early on the same channel (sent before it by the same
// process): the pair a non-FIFO network reordered. It returns the latest
// such pair as [early, late], or nil.
func Overtaken(v sim.View, late, early string) []int {
	for id := v.NumSent() - 1; id >= 0; id-- {
		l := v.Envelope(id)
		if l.Kind != late || l.RecvStep < 0 {
			continue
		}
		for e := id - 1; e >= 0; e-- {
			m := v.Envelope(e)
			if m.Kind == early && m.From == l.From && m.To == l.To && m.SendStep < l.SendStep && (m.RecvStep < 0 || m.RecvStep > l.RecvStep) {
				return []int{m.ID, l.ID}
			}
		}
	}
	return nil
}

// InFlightToLive reports whether some message is on its way to a process
// that is up or paused: one to a crashed process waits in its channel and
// moves nothing until the process recovers. The deadlock and liveness
// invariants ask it when nobody can move without a message.
func InFlightToLive(v sim.View) bool {
	if v.InFlightCount() == 0 {
		return false
	}
	for from := range v.N() {
		for to := range v.N() {
			if from != to && v.Health(sim.NodeID(to)) != sim.Crashed && len(v.InFlight(sim.NodeID(from), sim.NodeID(to))) > 0 {
				return true
			}
		}
	}
	return false
}

// Steps is how many steps process id has taken so far: its own entry of
// the run's vector clock, a count the engine keeps for every algorithm
// (a recovery and a refused command are steps too).
func Steps(v sim.View, id sim.NodeID) int { return int(v.Vector(id).At(int(id))) }

// Carries says a message of one of kinds is on its way from→to.
func Carries(v sim.View, from, to sim.NodeID, kinds ...string) bool {
	for _, id := range v.InFlight(from, to) {
		if slices.Contains(kinds, v.Envelope(id).Kind) {
			return true
		}
	}
	return false
}

// CarriesAbout says a message of one of kinds whose value is value (the
// request or round it is about) is on its way from→to.
func CarriesAbout(v sim.View, from, to sim.NodeID, value int64, kinds ...string) bool {
	for _, id := range v.InFlight(from, to) {
		if e := v.Envelope(id); e.Value == value && slices.Contains(kinds, e.Kind) {
			return true
		}
	}
	return false
}

// SentThisStep yields the messages the step just taken sent from a
// process, in the order it sent them; the network's copies of them are
// left out.
func SentThisStep(v sim.View, from sim.NodeID) iter.Seq[sim.Envelope] {
	return func(yield func(sim.Envelope) bool) {
		for id := v.SentFrom(v.Steps() - 1); id < v.NumSent(); id++ {
			if e := v.Envelope(id); e.From == from && e.Original == e.ID && !yield(e) {
				return
			}
		}
	}
}

// SentKind lists the messages of kind the step just taken sent from a
// process, in the order it sent them, the network's copies left out.
func SentKind(v sim.View, from sim.NodeID, kind string) []sim.Envelope {
	var sent []sim.Envelope
	for e := range SentThisStep(v, from) {
		if e.Kind == kind {
			sent = append(sent, e)
		}
	}
	return sent
}

// SentAny says the step just taken sent a message from a process.
func SentAny(v sim.View, from sim.NodeID) bool {
	for range SentThisStep(v, from) {
		return true
	}
	return false
}

// ToEveryOther says sent went to every one of n processes but from, once
// each.
func ToEveryOther(sent []sim.Envelope, from sim.NodeID, n int) bool {
	if len(sent) != n-1 {
		return false
	}
	for i, e := range sent {
		if e.To == from || slices.ContainsFunc(sent[:i], func(f sim.Envelope) bool { return f.To == e.To }) {
			return false
		}
	}
	return true
}

// Marked says the step just taken made an annotation of role and group:
// what a check reads to tell what a process did at its step.
func Marked(v sim.View, role string, group int) bool {
	for _, a := range v.LastAnnotations() {
		if a.Role == role && a.Group == group {
			return true
		}
	}
	return false
}

// StepRule is the check of a rule for the step just taken: rule says how
// process id broke it on event ev, or "" if it did not. A step that no
// process took (a fault) passes.
func StepRule(rule func(v sim.View, id sim.NodeID, ev sim.Event) string) func(sim.View) sim.Verdict {
	return func(v sim.View) sim.Verdict {
		id, ev, ok := v.LastStep()
		if !ok {
			return sim.Verdict{OK: true}
		}
		if detail := rule(v, id, ev); detail != "" {
			return sim.Verdict{Detail: detail}
		}
		return sim.Verdict{OK: true}
	}
}

// ProcessRule is StepRule for a rule about the process that stepped: its
// detail is said of that process, whose name the verdict puts first.
func ProcessRule(rule func(v sim.View, id sim.NodeID, ev sim.Event) string) func(sim.View) sim.Verdict {
	return StepRule(func(v sim.View, id sim.NodeID, ev sim.Event) string {
		if detail := rule(v, id, ev); detail != "" {
			return v.Name(id) + " " + detail
		}
		return ""
	})
}

// Stepped judges the live process that took the step just taken, or,
// after a step no process took, every live one that has started: only a
// process's own step changes its state. judge says what is wrong, or "";
// the first wrong fails the check.
func Stepped(v sim.View, judge func(id sim.NodeID) string) sim.Verdict {
	for id := range steppers(v) {
		if detail := judge(id); detail != "" {
			return sim.Verdict{Detail: detail}
		}
	}
	return sim.Verdict{OK: true}
}

// steppers yields the processes whose state the step just taken can have
// changed: the live process that took it, or, after a step no process
// took (a fault), every live one that has started. A process that is
// down, or has not taken its first step, is left out.
func steppers(v sim.View) iter.Seq[sim.NodeID] {
	return func(yield func(sim.NodeID) bool) {
		judged := func(id sim.NodeID) bool { return v.Health(id) != sim.Crashed && Steps(v, id) > 0 }
		if id, _, ok := v.LastStep(); ok {
			if judged(id) {
				yield(id)
			}
			return
		}
		for i := range v.N() {
			if id := sim.NodeID(i); judged(id) && !yield(id) {
				return
			}
		}
	}
}

// SentNow says the step just taken sent a message of kind from→to: what
// a check reads to hold a process to a command it was given.
func SentNow(v sim.View, from, to sim.NodeID, kind string) bool {
	for e := range SentThisStep(v, from) {
		if e.To == to && e.Kind == kind {
			return true
		}
	}
	return false
}

// Misdrawn finds a process whose interval of role and group the diagram
// draws open when is, the process's state, says it should not be, or
// closed when it should; it returns the process and whether it is drawn
// (sim.None when every process is drawn as it is). A process that is
// down (a crash ends every interval) or has not started (its init draws
// the first) is left out; and since only a process's own step, or a
// fault, changes its state or its picture, after a step only the process
// that took it is read again.
func Misdrawn(v sim.View, role string, group int, is func(sim.NodeID) bool) (sim.NodeID, bool) {
	for id := range steppers(v) {
		if drawn := v.Drawn(id, role, group); drawn != is(id) {
			return id, drawn
		}
	}
	return sim.None, false
}

// Cleared says every element of xs is its type's zero: what a check reads
// of a process that must have forgotten counts or flags (in a crash, or
// on taking over).
func Cleared[T comparable](xs []T) bool {
	var zero T
	for _, x := range xs {
		if x != zero {
			return false
		}
	}
	return true
}

// CopyDelivered finds the step, before the step just taken, at which
// process to got another copy of message msg (the original or a
// network's duplicate of it), or -1: what a check reads to hold a
// process that keeps a token to taking it once. Copies are made after
// their original, so the search starts there.
func CopyDelivered(v sim.View, to sim.NodeID, msg int) int {
	now, original := v.Steps()-1, v.Envelope(msg).Original
	for m := original; m < v.NumSent(); m++ {
		if e := v.Envelope(m); m != msg && e.Original == original && e.To == to && e.RecvStep >= 0 && e.RecvStep < now {
			return e.RecvStep
		}
	}
	return -1
}

// Data lists the numbers messages carried, for a check's detail.
func Data(msgs []sim.Envelope) [][]int64 {
	out := make([][]int64, len(msgs))
	for i, e := range msgs {
		out[i] = e.Data
	}
	return out
}
