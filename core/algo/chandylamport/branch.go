// Package chandylamport is the Chandy–Lamport snapshot algorithm on the bank
// example of the course: branches that keep transferring money over FIFO
// channels, and markers that record a consistent global state without
// stopping them. A correct snapshot's recorded balances plus recorded channel
// contents equal the money there is; on non-FIFO channels a marker can
// overtake a transfer and the check fails.
package chandylamport

import (
	"fmt"
	"strconv"
	"strings"

	"spacetime/core/algo/snapshot"
	"spacetime/core/sim"
)

// Message kinds.
const (
	KindTransfer = "transfer"
	KindMarker   = "marker"
)

// Annotation roles.
const (
	// RoleRecorded marks a branch recording its state for snapshot Group:
	// the recording points of one snapshot make its cut.
	RoleRecorded = "recorded"
	// RoleChannel marks a delivered transfer that joins a recorded channel
	// state of snapshot Group.
	RoleChannel = "channel-state"
	// rolePartDone marks the step at which a branch finishes its part of a
	// snapshot; the last one completes the snapshot, which is when its
	// totals are checked (they never change after).
	rolePartDone = "snapshot-part-done"
)

// Commands a learner or script may give a branch.
const (
	CmdSnapshot = "snapshot"
	CmdTransfer = "transfer"
)

// Round is one branch's part of one snapshot: the marker rule's part, and
// what the branch recorded.
type Round struct {
	snapshot.Part
	// Balance is the recorded balance.
	Balance int64
	// Channel[q] are the amounts recorded on the channel from q.
	Channel [][]int64
}

// Branch is one bank branch running the snapshot algorithm.
type Branch struct {
	// Opening is the balance the branch opened with.
	Opening int64
	// Balance is the branch's live balance.
	Balance int64
	// MaxTransfer bounds a random transfer's amount.
	MaxTransfer int64
	// Rounds are the snapshots this branch has taken part in, numbered from 1.
	Rounds []Round
	// MarkersSent counts the markers this branch has sent.
	MarkersSent int
	// SeedChannels says the branch records channels by seed 003's rule 3
	// (Params.SeedChannels).
	SeedChannels bool
	// SeedOtherChannels and SeedDone say it runs seed 003's rules 2 and 4
	// (Params.SeedOtherChannels, Params.SeedDone).
	SeedOtherChannels, SeedDone bool
	// SeedFirstChannel says it runs seed 003's rule 2 for the first
	// marker's channel (Params.SeedFirstChannel); Received then holds
	// the amounts received on each channel, by sender, which that rule
	// records.
	SeedFirstChannel bool
	Received         [][]int64
}

// partDone says the branch's part r of a snapshot is done: by the paper,
// once it has recorded and every incoming channel's marker has come; by
// seed 003's rule 4 (SeedDone), once it has recorded.
func (b *Branch) partDone(r *Round, self sim.NodeID) bool {
	if b.SeedDone {
		return r.Recorded
	}
	return r.Complete(self)
}

// Clone returns a deep copy.
func (b *Branch) Clone() sim.Node {
	c := *b
	if b.Received != nil {
		c.Received = make([][]int64, len(b.Received))
		for q, amounts := range b.Received {
			c.Received[q] = append([]int64(nil), amounts...)
		}
	}
	c.Rounds = make([]Round, len(b.Rounds))
	for i, r := range b.Rounds {
		r.Part = r.Part.Clone()
		ch := make([][]int64, len(r.Channel))
		for q, amounts := range r.Channel {
			ch[q] = append([]int64(nil), amounts...)
		}
		r.Channel = ch
		c.Rounds[i] = r
	}
	return &c
}

// round returns snapshot number k (from 1), growing the list as needed.
func (b *Branch) round(env *sim.Env, k int) *Round {
	return snapshot.Round(&b.Rounds, k, func() Round {
		return Round{Part: snapshot.NewPart(env.N()), Channel: make([][]int64, env.N())}
	})
}

// Step reacts to one event.
func (b *Branch) Step(env *sim.Env, ev sim.Event) {
	me := env.Name(env.Self())
	switch ev.Kind {
	case sim.Init:
		env.Explain("%s opens with $%d", me, b.Balance)
	case sim.Recover:
		env.Explain("%s recovers with its balance and snapshot records intact (they are on stable storage)", me)
	case sim.Workload:
		others := env.N() - 1
		j := sim.NodeID(env.Rand().IntN(others))
		if j >= env.Self() {
			j++
		}
		amount := 1 + int64(env.Rand().IntN(int(b.MaxTransfer)))
		b.transfer(env, j, amount)
	case sim.Command:
		switch ev.Tag {
		case CmdSnapshot:
			b.startSnapshot(env)
		case CmdTransfer:
			b.transfer(env, ev.Target, ev.Arg)
		}
	case sim.Deliver:
		switch ev.Msg.Kind {
		case KindTransfer:
			b.receiveTransfer(env, ev.From, ev.MsgID, ev.Msg.Value)
		case KindMarker:
			b.receiveMarker(env, ev.From, int(ev.Msg.Value))
		}
	}
}

func (b *Branch) transfer(env *sim.Env, to sim.NodeID, amount int64) {
	me, them := env.Name(env.Self()), env.Name(to)
	if amount <= 0 || b.Balance < amount {
		env.Explain("%s would send $%d to %s but holds only $%d: no transfer (a branch never overdraws)", me, amount, them, b.Balance)
		return
	}
	b.Balance -= amount
	env.Send(to, sim.Message{Kind: KindTransfer, Value: amount, Label: "$" + strconv.FormatInt(amount, 10)})
	env.Explain("%s sends $%d to %s; %s now holds $%d", me, amount, them, me, b.Balance)
}

func (b *Branch) receiveTransfer(env *sim.Env, from sim.NodeID, msg int, amount int64) {
	me := env.Name(env.Self())
	b.Balance += amount
	if b.SeedFirstChannel {
		if b.Received == nil {
			b.Received = make([][]int64, env.N())
		}
		b.Received[from] = append(b.Received[from], amount)
	}
	var recording []string
	for k := range b.Rounds {
		r := &b.Rounds[k]
		if r.Records(from) {
			r.Channel[from] = append(r.Channel[from], amount)
			if !b.SeedChannels { // seed 003's rule 3 will drop it: it is not drawn as recorded
				env.Annotate(sim.At(RoleChannel, k+1, fmt.Sprintf("$%d", amount)).About(msg))
			}
			recording = append(recording, fmt.Sprintf("snapshot %d", k+1))
		}
	}
	if len(recording) == 0 {
		env.Explain("%s receives $%d from %s; balance $%d", me, amount, env.Name(from), b.Balance)
		return
	}
	if b.SeedOtherChannels {
		// the marker on this channel may never come: say what the rule
		// does, not that the money was in flight at the cut
		env.Explain("%s receives $%d from %s; balance $%d. %s recorded its state and has no marker on %s→%s, so it records the $%d on that channel (%s)",
			me, amount, env.Name(from), b.Balance, me, env.Name(from), me, amount, strings.Join(recording, ", "))
		return
	}
	env.Explain("%s receives $%d from %s; balance $%d. %s recorded its state but has no marker on %s→%s yet, so the $%d was in flight at the cut: it joins that channel's recorded state (%s)",
		me, amount, env.Name(from), b.Balance, me, env.Name(from), me, amount, strings.Join(recording, ", "))
}

// record records the branch's state for snapshot k and sends markers on
// every outgoing channel (by seed 003's rule 2, none back to from, the
// sender of the first marker; sim.None for the initiator); it returns the
// names the markers went to. By seed 003's rule 4 the branch's part is
// then done.
func (b *Branch) record(env *sim.Env, k int, from sim.NodeID) string {
	r := b.round(env, k)
	r.Recorded, r.Balance = true, b.Balance
	marker := sim.Message{Kind: KindMarker, Value: int64(k), Label: fmt.Sprintf("M%d", k)}
	var to []string
	for q := range env.N() {
		id := sim.NodeID(q)
		if id == env.Self() || b.SeedOtherChannels && id == from {
			continue
		}
		env.Send(id, marker)
		b.MarkersSent++
		to = append(to, env.Name(id))
	}
	env.Annotate(sim.At(RoleRecorded, k, fmt.Sprintf("$%d", b.Balance)))
	if b.SeedDone {
		env.Annotate(sim.At(rolePartDone, k, ""))
	}
	return strings.Join(to, " and ")
}

func (b *Branch) startSnapshot(env *sim.Env) {
	me := env.Name(env.Self())
	k := len(b.Rounds) + 1
	if n := len(b.Rounds); n > 0 && !b.partDone(&b.Rounds[n-1], env.Self()) {
		env.Explain("%s is still taking part in snapshot %d: it starts no new one until its markers are all in", me, n)
		return
	}
	to := b.record(env, k, sim.None)
	text := fmt.Sprintf("%s starts snapshot %d: records its balance $%d, sends a marker to %s before anything else, and starts recording every incoming channel", me, k, b.Balance, to)
	if b.SeedDone {
		text += fmt.Sprintf("; by seed 003's rule 4 its part of snapshot %d is done", k)
	}
	env.Explain("%s", text)
}

func (b *Branch) receiveMarker(env *sim.Env, from sim.NodeID, k int) {
	me, them := env.Name(env.Self()), env.Name(from)
	r := b.round(env, k)
	var to string
	first, complete := r.Marker(env.Self(), from, func() { to = b.record(env, k, from) })
	if b.SeedDone {
		complete = false // its part was done when it recorded (record)
	}
	var text string
	switch {
	case first:
		text = fmt.Sprintf("%s gets its first marker of snapshot %d, on %s→%s: records balance $%d, records %s→%s as empty, sends markers to %s and starts recording its other incoming channels",
			me, k, them, me, r.Balance, them, me, to)
		if b.SeedFirstChannel && int(from) < len(b.Received) && len(b.Received[from]) > 0 {
			r.Channel[from] = append([]int64(nil), b.Received[from]...)
			text = fmt.Sprintf("%s gets its first marker of snapshot %d, on %s→%s: records balance $%d and, by seed 003's rule 2, records %s→%s as the %s received on it before the marker (money its balance already holds), sends markers to %s and starts recording its other incoming channels",
				me, k, them, me, r.Balance, them, me, amounts(r.Channel[from]), to)
		}
		if b.SeedOtherChannels && to == "" {
			text = fmt.Sprintf("%s gets its first marker of snapshot %d, on %s→%s: records balance $%d, records %s→%s as empty and, by seed 003's rule 2, sends no marker, for its only outgoing channel goes back to %s",
				me, k, them, me, r.Balance, them, me, them)
		} else if b.SeedOtherChannels {
			text = fmt.Sprintf("%s gets its first marker of snapshot %d, on %s→%s: records balance $%d, records %s→%s as empty and, by seed 003's rule 2, sends markers on its other outgoing channels only, to %s (none back to %s), and starts recording its other incoming channels",
				me, k, them, me, r.Balance, them, me, to, them)
		}
		if complete {
			text += "; that was its only incoming channel, so its part is done"
		}
		if b.SeedDone {
			text += fmt.Sprintf("; by seed 003's rule 4 its part of snapshot %d is done", k)
		}
	case b.SeedChannels && len(r.Channel[from]) > 0:
		text = fmt.Sprintf("%s gets the marker of snapshot %d on %s→%s and, by seed 003's rule 3, records that channel as empty: the %s that arrived on it since %s recorded are dropped from the snapshot",
			me, k, them, me, amounts(r.Channel[from]), me)
		r.Channel[from] = nil
		if complete {
			text += fmt.Sprintf(". %s has now recorded its state and every incoming channel: its part of snapshot %d is complete", me, k)
		}
	default:
		text = fmt.Sprintf("%s gets the marker of snapshot %d on %s→%s and stops recording that channel: its recorded state is %s",
			me, k, them, me, amounts(r.Channel[from]))
		if complete {
			text += fmt.Sprintf(". %s has now recorded its state and every incoming channel: its part of snapshot %d is complete", me, k)
		}
	}
	if complete {
		env.Annotate(sim.At(rolePartDone, k, ""))
	}
	env.Explain("%s", text)
}

// amounts formats recorded channel contents: "[$14, $3]" or "empty".
func amounts(a []int64) string {
	if len(a) == 0 {
		return "empty"
	}
	parts := make([]string, len(a))
	for i, x := range a {
		parts[i] = fmt.Sprintf("$%d", x)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// Inspect shows the branch's live and recorded state.
func (b *Branch) Inspect() []sim.Field {
	f := []sim.Field{{Name: "balance", Value: fmt.Sprintf("$%d", b.Balance)}}
	if n := len(b.Rounds); n > 0 {
		r := b.Rounds[n-1]
		state := "waiting for a marker"
		if r.Recorded {
			state = fmt.Sprintf("recorded $%d", r.Balance)
		}
		f = append(f, sim.Field{Name: fmt.Sprintf("snapshot %d", n), Value: state})
	}
	return f
}
