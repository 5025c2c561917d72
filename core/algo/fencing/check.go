package fencing

import (
	"fmt"

	"spacetime/core/check"
	"spacetime/core/sim"
)

// NoStaleWrite is the invariant fencing is for: when the storage accepts a
// write, its token is the lock's current one. stale says why a token is
// not, in the algorithm's words, or "" when it is.
func NoStaleWrite(name, help string, stale func(v sim.View, token int64) string) sim.Invariant {
	return sim.Invariant{
		Name: name,
		Help: help,
		Check: func(v sim.View) sim.Verdict {
			for _, a := range v.LastAnnotations() {
				if a.Role != RoleAccepted {
					continue
				}
				if why := stale(v, int64(a.Group)); why != "" {
					var msgs []int
					if a.Msg >= 0 {
						msgs = []int{a.Msg}
					}
					return sim.Verdict{Detail: why, Msgs: msgs}
				}
			}
			return sim.Verdict{OK: true}
		},
	}
}

// StorageRuleName names the StorageRule invariant.
const StorageRuleName = "the storage takes or refuses each write by its rule"

// StorageRule is the invariant that the storage does what its rule says:
// with fencing it rejects a write whose token is smaller than the largest
// it has seen and takes any other, whose token is then the largest; without
// fencing it takes every write. Fencing is only as good as this check.
var StorageRule = sim.Invariant{
	Name: StorageRuleName,
	Help: "with fencing, a write with a token smaller than the largest seen is rejected and any other is taken; without fencing, every write is taken",
	Check: func(v sim.View) sim.Verdict {
		s := StoreOf(v)
		for _, a := range v.LastAnnotations() {
			if a.Role != RoleAccepted && a.Role != RoleRejected {
				continue
			}
			if why := s.breaks(a.Role == RoleAccepted, int64(a.Group)); why != "" {
				var msgs []int
				if a.Msg >= 0 {
					msgs = []int{a.Msg}
				}
				return sim.Verdict{Detail: why, Msgs: msgs}
			}
		}
		return sim.Verdict{OK: true}
	},
}

// breaks says how taking (or rejecting) a write with token, as the storage
// just did, breaks its rule, or "" when it keeps it.
func (s *Store) breaks(took bool, token int64) string {
	switch {
	case took && s.Fencing && token < s.MaxToken:
		return fmt.Sprintf("the storage took a write with token %d, smaller than %d, the largest it has seen", token, s.MaxToken)
	case took && token > s.MaxToken:
		return fmt.Sprintf("the storage took a write with token %d but remembers %d as the largest it has seen", token, s.MaxToken)
	case !took && !s.Fencing:
		return fmt.Sprintf("the storage rejected a write with token %d, though it does not check tokens", token)
	case !took && token >= s.MaxToken:
		return fmt.Sprintf("the storage rejected a write with token %d, which is not smaller than %d, the largest it has seen", token, s.MaxToken)
	}
	return ""
}

// WritesAnsweredName names the WritesAnswered invariant.
const WritesAnsweredName = "every write goes out on its timer with its token, and is answered"

// WritesAnswered is the invariant that a client's write goes out and the
// storage takes it up: a write being prepared has its timer armed to
// send it; a WRITE goes out only when that timer fires, once, with the
// token it was prepared with; and one sent is on its way, or its answer
// (WRITTEN or REJECTED) is, or it has arrived. A storage that ignored
// writes would pass the storage's rule, which judges what it decides; a
// client that wrote early, twice or without its token would pass the
// storage's too.
var WritesAnswered = sim.Invariant{
	Name: WritesAnsweredName,
	Help: "a write being prepared has its timer set to send it; a WRITE goes out only when that timer fires, with the write's token; a write that went out is on its way to the storage, or the storage's answer is on its way back, or has come",
	Check: func(v sim.View) sim.Verdict {
		if detail := wroteNow(v); detail != "" {
			return sim.Verdict{Detail: detail}
		}
		storage := StorageOf(v)
		for _, id := range Clients(v) {
			n, ok := v.Node(id).(Writing)
			if !ok || v.Health(id) == sim.Crashed {
				continue
			}
			w := n.Writes()
			if w != nil && !w.Waits(v, id) {
				return sim.Verdict{Detail: fmt.Sprintf("%s prepares a write (token %d) with no timer to send it", v.Name(id), w.Token)}
			}
			if w != nil && w.Awaiting && !check.Carries(v, id, storage, KindWrite) && !check.Carries(v, storage, id, KindWritten, KindRejected) {
				return sim.Verdict{Detail: fmt.Sprintf("%s's write with token %d reached the storage, which neither took nor refused it", v.Name(id), w.Token)}
			}
		}
		return sim.Verdict{OK: true}
	},
}

// wroteNow says what is wrong with the WRITEs the step just taken sent:
// each goes out when its client's write timer fires, one a step, with
// the token of the write it prepared.
func wroteNow(v sim.View) string {
	id, ev, ok := v.LastStep()
	if !ok {
		return ""
	}
	n, writes := v.Node(id).(Writing)
	sent := 0
	for e := range check.SentThisStep(v, id) {
		if e.Kind != KindWrite {
			continue
		}
		sent++
		if !writes || n.Writes() == nil {
			return fmt.Sprintf("%s, which does not write, sent a WRITE", v.Name(id))
		}
		if w := n.Writes(); ev.Kind != sim.Timer || ev.Tag != TimerWrite || sent > 1 || e.Value != w.Token || !w.Awaiting {
			return fmt.Sprintf("%s sent a WRITE with token %d on %s %q, its write prepared with token %d", v.Name(id), e.Value, ev.Kind, ev.Tag, w.Token)
		}
	}
	return ""
}

// WritesLost is the known limit of WritesAnswered: a lost write or answer
// leaves its client waiting.
var WritesLost = sim.KnownLimit{Invariant: WritesAnsweredName, Faults: []string{"drop", "cut", "partition"}, Why: "a write or its answer that the network loses leaves its client waiting for the answer: the clients do not write again"}
