package chandylamport

import (
	"fmt"

	"spacetime/core/algo/snapshot"
	"spacetime/core/check"
	"spacetime/core/sim"
)

// channelName is how reports name a channel: "B->A".
func channelName(v sim.View, from, to int) string {
	return v.Name(sim.NodeID(from)) + "->" + v.Name(sim.NodeID(to))
}

func metrics(v sim.View) []sim.Metric {
	n := v.N()
	bal, flight := liveTotals(v)
	live := map[string]int64{}
	for i := range n {
		live[v.Name(sim.NodeID(i))] = branch(v, sim.NodeID(i)).Balance
	}
	markers := 0
	for i := range n {
		markers += branch(v, sim.NodeID(i)).MarkersSent
	}
	k := rounds(v)
	completed := 0
	for i := 1; i <= k; i++ {
		if complete(v, i) {
			completed++
		}
	}
	out := []sim.Metric{
		{Name: "initial_total", Value: opening(v)},
		{Name: "live_balances", Value: live},
		{Name: "live_in_flight", Value: flight},
		{Name: "live_total", Value: bal + flight},
		{Name: "snapshots", Value: k},
		{Name: "snapshots_complete", Value: completed},
		{Name: "markers", Value: markers},
		{Name: "markers_expected", Value: k * n * (n - 1)},
	}
	if k == 0 {
		return out
	}
	recorded := map[string]int64{}
	channels := map[string][]int64{}
	for i := range n {
		b := branch(v, sim.NodeID(i))
		if len(b.Rounds) < k || !b.Rounds[k-1].Recorded {
			continue
		}
		r := b.Rounds[k-1]
		recorded[v.Name(sim.NodeID(i))] = r.Balance
		for q, amounts := range r.Channel {
			if len(amounts) > 0 {
				channels[channelName(v, q, i)] = append([]int64(nil), amounts...)
			}
		}
	}
	rb, rc := recordedTotal(v, k)
	var total any
	if complete(v, k) {
		total = rb + rc
	}
	return append(out,
		sim.Metric{Name: "snapshot", Value: k},
		sim.Metric{Name: "recorded", Value: recorded},
		sim.Metric{Name: "channel_state", Value: channels},
		sim.Metric{Name: "snapshot_total", Value: total},
	)
}

// panels compare the live state with the latest snapshot, side by side.
func panels(v sim.View) []sim.Panel {
	n := v.N()
	k := rounds(v)
	var rounds []Round
	title := "no snapshot yet"
	if k > 0 {
		title = fmt.Sprintf("snapshot %d", k)
		if !complete(v, k) {
			title += " (in progress)"
		}
		for i := range n {
			b := branch(v, sim.NodeID(i))
			var r Round
			if len(b.Rounds) >= k {
				r = b.Rounds[k-1]
			}
			rounds = append(rounds, r)
		}
	}
	p := sim.Panel{
		Title:   "Money: live now vs recorded",
		Note:    "Reading every balance now misses the money in flight; a snapshot's recorded balances plus its recorded channels add up to the money there is.",
		Columns: []string{"", "live now", title},
	}
	var liveBal, recBal, liveFlight, recFlight int64
	for i := range n {
		b := branch(v, sim.NodeID(i))
		liveBal += b.Balance
		rec := "–"
		if k > 0 && rounds[i].Recorded {
			rec = fmt.Sprintf("$%d", rounds[i].Balance)
			recBal += rounds[i].Balance
		}
		p.Rows = append(p.Rows, sim.Row{Cells: []string{v.Name(sim.NodeID(i)) + " balance", fmt.Sprintf("$%d", b.Balance), rec}})
	}
	p.Rows = append(p.Rows, sim.Row{Cells: []string{"balances alone", fmt.Sprintf("$%d", liveBal), dollars(recBal, k > 0)}, Emphasis: "total"})
	for i := range n {
		for j := range n {
			if i == j {
				continue
			}
			sum, live := inFlight(v, sim.NodeID(i), sim.NodeID(j))
			liveFlight += sum
			rec, recorded := "–", false
			if k > 0 && rounds[j].Recorded {
				ch := rounds[j].Channel[i]
				rec, recorded = amounts(ch), true
				if !rounds[j].Closed[i] {
					rec += " (recording)"
				}
				for _, a := range ch {
					recFlight += a
				}
			}
			if len(live) == 0 && (!recorded || len(rounds[j].Channel[i]) == 0) {
				continue
			}
			p.Rows = append(p.Rows, sim.Row{Cells: []string{"channel " + v.Name(sim.NodeID(i)) + "→" + v.Name(sim.NodeID(j)), amounts(live), rec}})
		}
	}
	want := opening(v)
	liveEm, recEm := verdict(liveBal+liveFlight == want), ""
	recCell := "–"
	if k > 0 {
		recCell = fmt.Sprintf("$%d", recBal+recFlight)
		if complete(v, k) {
			recEm = verdict(recBal+recFlight == want)
		}
	}
	p.Rows = append(p.Rows, sim.Row{Cells: []string{fmt.Sprintf("total (opening $%d)", want), fmt.Sprintf("$%d", liveBal+liveFlight), recCell}, Emphasis: "total", CellEmphasis: []string{"", liveEm, recEm}})
	return []sim.Panel{p}
}

func dollars(x int64, ok bool) string {
	if !ok {
		return "–"
	}
	return fmt.Sprintf("$%d", x)
}

func verdict(ok bool) string {
	if ok {
		return "good"
	}
	return "bad"
}

// formula compares the markers sent with N(N−1) per snapshot.
func formula(v sim.View) string {
	n, markers := v.N(), 0
	for i := range n {
		markers += branch(v, sim.NodeID(i)).MarkersSent
	}
	return fmt.Sprintf("Markers: %d sent; the algorithm needs N(N−1) = %d per snapshot (%d for the snapshots started).",
		markers, n*(n-1), rounds(v)*n*(n-1))
}

// PartsDoneName names the invariant checkPartsDone makes.
const PartsDoneName = "a branch finishes its part once every marker to it has come"

// checkPartsDone is the marker rule's other half, read off the channels
// rather than the branch's own bookkeeping: a branch that has recorded
// snapshot k, when every other branch has recorded it too (and so sent
// it a marker) and no marker of k is on its way to it, has had every
// channel into it closed, and its part must be done. A part that never
// finishes leaves the snapshot incomplete for good, which the totals
// (checked only on complete snapshots) never see. The last two rounds
// are checked: a round finishes long before the next but one begins.
func checkPartsDone(v sim.View) sim.Verdict {
	k := rounds(v)
	for r := max(1, k-1); r <= k; r++ {
		if !everyoneRecorded(v, r) {
			continue
		}
		// a part once done stays done (records survive a crash): the
		// annotation index says so in one lookup, where partDone reads
		// every channel of the part, at every step
		doneAt := v.AnnotationSteps(rolePartDone, r)
		for i := range v.N() {
			to := sim.NodeID(i)
			if v.Health(to) == sim.Crashed || doneAt[i] >= 0 {
				continue
			}
			b := branch(v, to)
			if b.partDone(&b.Rounds[r-1], to) || markerOnItsWay(v, to, r) {
				continue
			}
			return sim.Verdict{Detail: fmt.Sprintf("every branch has recorded snapshot %d and no marker of it is on its way to %s, but %s's part of it is not done: the snapshot can never complete", r, v.Name(to), v.Name(to))}
		}
	}
	return sim.Verdict{OK: true}
}

// everyoneRecorded says every branch has recorded its state for snapshot
// k (and so sent its markers).
func everyoneRecorded(v sim.View, k int) bool {
	for i := range v.N() {
		b := branch(v, sim.NodeID(i))
		if len(b.Rounds) < k || !b.Rounds[k-1].Recorded {
			return false
		}
	}
	return true
}

// markerOnItsWay says a marker of snapshot k is in flight to process to.
func markerOnItsWay(v sim.View, to sim.NodeID, k int) bool {
	for j := range v.N() {
		for _, id := range v.InFlight(sim.NodeID(j), to) {
			if e := v.Envelope(id); e.Kind == KindMarker && e.Value == int64(k) {
				return true
			}
		}
	}
	return false
}

// The rules checks' names.
const (
	TransfersName = "a branch sends what it is told or picks at work, never more than it holds"
	MarkersName   = "a branch that records sends a marker to every other branch, is drawn recording, and haloes each transfer it records"
)

// transfers holds a branch to the bank's rules for the step it just
// took, read off its balance after it and the transfers it sent: told to
// send an amount from 1 to what it held, it sends it to the branch named,
// and otherwise nothing; at work it sends another branch an amount from
// 1 to max_transfer, and sends nothing only when it held too little for
// that; no other step sends money; and no balance is ever below zero.
var transfers = sim.Invariant{
	Name: TransfersName,
	Help: "told to transfer an amount it holds, a branch sends it to the branch named, else nothing; at work it sends another branch $1 to max_transfer, unless it holds less; nothing else sends money, and no balance goes below $0",
	Check: check.ProcessRule(func(v sim.View, id sim.NodeID, ev sim.Event) string {
		b := branch(v, id)
		if b.Balance < 0 {
			return fmt.Sprintf("holds $%d: a branch never overdraws", b.Balance)
		}
		var sent []sim.Envelope
		before := b.Balance
		for e := range check.SentThisStep(v, id) {
			if e.Kind == KindTransfer {
				sent = append(sent, e)
				before += e.Value
			}
		}
		switch {
		case ev.Kind == sim.Command && ev.Tag == CmdTransfer:
			can := ev.Arg > 0 && ev.Arg <= before
			if can != (len(sent) == 1) || len(sent) > 1 || can && (sent[0].To != ev.Target || sent[0].Value != ev.Arg) {
				return fmt.Sprintf("held $%d, was told to send $%d to %s, and sent %d transfers", before, ev.Arg, v.Name(ev.Target), len(sent))
			}
		case ev.Kind == sim.Workload:
			switch {
			case len(sent) > 1:
				return fmt.Sprintf("sent %d transfers at once at work", len(sent))
			case len(sent) == 0 && b.Balance >= b.MaxTransfer:
				return fmt.Sprintf("holds $%d, at least max_transfer ($%d), and sent nothing at work", b.Balance, b.MaxTransfer)
			case len(sent) == 1 && (sent[0].To == id || sent[0].Value < 1 || sent[0].Value > b.MaxTransfer):
				return fmt.Sprintf("sent $%d to %s at work: a branch sends another $1 to $%d", sent[0].Value, v.Name(sent[0].To), b.MaxTransfer)
			}
		case len(sent) > 0:
			return fmt.Sprintf("sent $%d on a %s, neither told to nor at work", sent[0].Value, ev.Kind)
		}
		return ""
	}),
}

// markers holds a branch to the marker rules' picture and sends, read
// after its step: a branch that records snapshot k (its first marker of
// k, or its own start) is drawn recording it and sends a marker of k to
// every other branch (by seed 003's rule 2 none back to the first
// marker's sender), none to itself; a transfer taken on a channel it is
// recording joins that channel's recorded state and is haloed as such
// (by seed 003's rule 3 it is not, as the marker will drop it).
var markers = sim.Invariant{
	Name: MarkersName,
	Help: "a branch that records a snapshot is drawn recording it and sends its marker once to every other branch; a transfer taken on a channel being recorded joins that channel's state and is haloed",
	Check: check.ProcessRule(func(v sim.View, id sim.NodeID, ev sim.Event) string {
		b := branch(v, id)
		for _, a := range v.LastAnnotations() {
			if a.Role != RoleRecorded {
				continue
			}
			to := make([]int, v.N())
			for e := range check.SentThisStep(v, id) {
				if e.Kind == KindMarker && int(e.Value) == a.Group {
					to[e.To]++
				}
			}
			for q := range v.N() {
				want := 1
				if sim.NodeID(q) == id || b.SeedOtherChannels && ev.Kind == sim.Deliver && ev.From == sim.NodeID(q) {
					want = 0
				}
				if to[q] != want {
					return fmt.Sprintf("recorded snapshot %d and sent %d markers to %s", a.Group, to[q], v.Name(sim.NodeID(q)))
				}
			}
		}
		for _, a := range v.LastAnnotations() {
			if a.Role == rolePartDone && (a.Group < 1 || a.Group > len(b.Rounds) || !partIsDone(b, &b.Rounds[a.Group-1], id)) {
				return fmt.Sprintf("is marked done with its part of snapshot %d, which it is not", a.Group)
			}
		}
		switch {
		case ev.Kind == sim.Command && ev.Tag == CmdSnapshot && v.AnnotationStep(id, RoleRecorded, len(b.Rounds)) == v.Steps()-1:
			// it started snapshot k: the one after the last it took part
			// in, whose part it had done
			if k := len(b.Rounds); k > 1 && !partIsDone(b, &b.Rounds[k-2], id) {
				return fmt.Sprintf("started snapshot %d before its part of snapshot %d was done", k, k-1)
			}
		case ev.Kind == sim.Deliver && ev.Msg.Kind == KindMarker:
			k := int(ev.Msg.Value)
			if k >= 1 && k <= len(b.Rounds) && (!b.Rounds[k-1].Recorded || v.AnnotationStep(id, RoleRecorded, k) < 0) {
				return fmt.Sprintf("took a marker of snapshot %d and has not recorded it, or is not drawn recording it", k)
			}
		case ev.Kind == sim.Deliver && ev.Msg.Kind == KindTransfer:
			for k := range b.Rounds {
				r := &b.Rounds[k]
				haloed := false
				for _, a := range v.LastAnnotations() {
					haloed = haloed || a.Role == RoleChannel && a.Group == k+1 && a.Msg == ev.MsgID
				}
				recording := r.Recorded && !r.Closed[ev.From]
				if recording && (len(r.Channel[ev.From]) == 0 || r.Channel[ev.From][len(r.Channel[ev.From])-1] != ev.Msg.Value) {
					return fmt.Sprintf("took $%d from %s while recording that channel for snapshot %d, and did not record it", ev.Msg.Value, v.Name(ev.From), k+1)
				}
				if haloed != (recording && !b.SeedChannels) {
					return fmt.Sprintf("took $%d from %s, recording that channel for snapshot %d: %t, and drew it recorded: %t", ev.Msg.Value, v.Name(ev.From), k+1, recording, haloed)
				}
			}
		}
		return ""
	}),
}

// partIsDone says a branch's part r of a snapshot is done, restated:
// recorded, and every other branch's marker in (by seed 003's rule 4,
// recorded).
func partIsDone(b *Branch, r *Round, self sim.NodeID) bool {
	if b.SeedDone {
		return r.Recorded
	}
	return snapshot.Done(&r.Part, self)
}
