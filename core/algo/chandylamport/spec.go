package chandylamport

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"spacetime/core/check"
	"spacetime/core/sim"
	"spacetime/core/strictjson"
)

// ID is the algorithm's id in scenario files and on the command line.
const ID = "chandy-lamport"

// Params are the scenario's algorithm parameters.
type Params struct {
	// Balances are the opening balances, one per branch (default 100 each).
	Balances []int64 `json:"balances"`
	// MaxTransfer bounds a random transfer (default 20).
	MaxTransfer int64 `json:"max_transfer"`
	// SeedChannels runs seed 003's rule 3 (and its pseudocode): a channel
	// whose marker comes after the branch recorded is recorded as empty,
	// which drops the money that was in flight on it.
	SeedChannels bool `json:"seed_channels"`
	// SeedOtherChannels runs seed 003's rule 2: at its first marker a
	// branch sends markers on its "other" outgoing channels, none back
	// on the marker's channel.
	SeedOtherChannels bool `json:"seed_other_channels"`
	// SeedDone runs seed 003's rule 4: a branch's part is done once it
	// has recorded its state, whatever its channels still record.
	SeedDone bool `json:"seed_done"`
	// SeedFirstChannel runs seed 003's rule 2 for the first marker's
	// channel: its state is the messages received on it before the
	// marker, which the branch's recorded balance already holds.
	SeedFirstChannel bool `json:"seed_first_channel"`
}

// SeedChannelsSwitch is the switch to seed 003's rule for channels.
var SeedChannelsSwitch = sim.Switch{
	Param: "seed_channels", Label: "seed 003: later channels empty",
	Help: "record a channel as empty when its marker comes after the branch recorded, as seed 003's rule 3 and pseudocode say, rather than as the money that arrived on it in between: the money in flight at the cut is lost from the snapshot",
}

// SeedOtherChannelsSwitch is the switch to seed 003's rule 2.
var SeedOtherChannelsSwitch = sim.Switch{
	Param: "seed_other_channels", Label: "seed 003: markers on other channels",
	Help: "at its first marker a branch sends markers only on its other outgoing channels, none back to the marker's sender, as seed 003's rule 2 says, rather than on every outgoing channel, as the paper does: the channels into the sender never get their marker, keep recording money sent after the cut, and the snapshot never completes",
}

// SeedFirstChannelSwitch is the switch to seed 003's rule 2 for the
// first marker's channel.
var SeedFirstChannelSwitch = sim.Switch{
	Param: "seed_first_channel", Label: "seed 003: first channel's messages",
	Help: "at its first marker a branch records the marker's channel as the messages received on it before the marker, as seed 003's rule 2 says, rather than as empty, as the paper (and seed 003's own pseudocode) does: that money is already in the balance the branch records, and the snapshot counts it twice",
}

// SeedDoneSwitch is the switch to seed 003's rule 4.
var SeedDoneSwitch = sim.Switch{
	Param: "seed_done", Label: "seed 003: done when all have recorded",
	Help: "call a branch's part done once it has recorded its state, as seed 003's rule 4 says, rather than once every incoming channel has brought its marker, as the paper does: the snapshot is read while channels still record, and misses the money on them",
}

// MaxMoney bounds a balance and a transfer, so that no sum of them can
// overflow: 64 branches of MaxMoney stay far below 2^63.
const MaxMoney = 1_000_000_000_000

// Spec registers the algorithm.
var Spec = &sim.Spec{
	ID:      ID,
	Title:   "Chandy–Lamport snapshot",
	Summary: "Bank branches keep transferring money; markers record a consistent global state without stopping them. Recorded balances plus recorded channel contents must equal the money there is.",
	MinN:    2,
	MaxN:    64,
	Kinds: []sim.KindSpec{
		{Name: KindTransfer, Role: sim.RoleMessage, Application: true},
		{Name: KindMarker, Role: sim.RoleMarker},
	},
	Learner: sim.LearnerSpec{
		Commands: []sim.CommandSpec{
			{Name: CmdSnapshot, Help: "record a snapshot, starting here"},
			{Name: CmdTransfer, Help: "send money to another branch", Target: true, Arg: "amount", ArgMin: 1, ArgMax: MaxMoney},
		},
		Switches: []sim.Switch{SeedChannelsSwitch, SeedFirstChannelSwitch, SeedOtherChannelsSwitch, SeedDoneSwitch},
	},
	Picture: sim.PictureSpec{
		Roles: []sim.RoleSpec{
			{Name: RoleRecorded, Style: sim.StyleCut, Glyph: sim.GlyphDiamond, Tone: sim.Purple, Legend: "state recorded; a snapshot's recording points make its cut"},
			{Name: RoleChannel, Style: sim.StyleHalo, Tone: sim.Teal, Legend: "recorded in channels", Of: RoleRecorded},
			{Name: rolePartDone, Style: sim.StyleHidden},
		},
		Topology: sim.CompleteTopology,
	},
	New: newBranches,
	Checks: sim.CheckSpec{
		Invariants: []sim.Invariant{
			{Name: "money is conserved", Help: "live balances plus money in flight equal the opening total", Check: checkLive},
			{Name: "snapshot total equals the money there is", Help: "a complete snapshot's recorded balances plus recorded channels equal the opening total", Check: checkSnapshots},
			check.RecordedCuts(RoleRecorded),
			check.RecordedChannels(RoleRecorded, RoleChannel),
			transfers,
			markers,
			{Name: PartsDoneName, Help: "a branch that has recorded, when every other has recorded too and no marker is on its way to it, has finished its part of the snapshot", Check: checkPartsDone},
		},
		KnownLimits: []sim.KnownLimit{
			{Invariant: "money is conserved", Faults: lossy, Why: "a lost or duplicated transfer destroys or makes money: the algorithm assumes reliable channels"},
			{Invariant: "snapshot total equals the money there is", Faults: append([]string{"fifo"}, lossy...), Why: "without FIFO a marker overtakes a transfer; a lost or duplicated transfer changes the money there is"},
			{Invariant: check.RecordedCutName, Faults: append([]string{"fifo"}, losing...), Why: "without FIFO a transfer sent after the sender's recording can arrive before the marker, and when the network loses the marker such a transfer arrives before the receiver records: the algorithm assumes reliable FIFO channels"},
			{Invariant: PartsDoneName, Faults: losing, Why: "a marker the network loses never closes its channel: the algorithm assumes reliable channels"},
			{Invariant: check.RecordedChannelName, Faults: append([]string{"fifo"}, losing...), Why: "without FIFO a transfer sent after the marker can overtake it, and when the network loses the marker its channel is recorded for ever: the algorithm assumes reliable FIFO channels"},
		},
	},
	Figures: sim.FigureSpec{
		Metrics: metrics,
		Panels:  panels,
		Formula: formula,
		Measure: money,
	},
	Done: done,
}

// losing are the faults that lose messages (a cut link or a partition
// loses what is on it); lossy adds the one that copies them.
var (
	losing = []string{"drop", "cut", "partition"}
	lossy  = []string{"drop", "duplicate", "cut", "partition"}
)

func newBranches(names []string, raw json.RawMessage) ([]sim.Node, error) {
	p := Params{MaxTransfer: 20}
	if err := sim.DecodeParams(raw, &p); err != nil {
		return nil, err
	}
	n := len(names)
	if p.Balances == nil {
		p.Balances = make([]int64, n)
		for i := range p.Balances {
			p.Balances[i] = 100
		}
	}
	if len(p.Balances) != n {
		return nil, strictjson.FieldErrorf("params.balances", "want %d balances, one per branch, got %d", n, len(p.Balances))
	}
	if p.MaxTransfer < 1 || p.MaxTransfer > MaxMoney {
		return nil, strictjson.FieldErrorf("params.max_transfer", "want an amount from 1 to %d, got %d", MaxMoney, p.MaxTransfer)
	}
	nodes := make([]sim.Node, n)
	for i, bal := range p.Balances {
		if bal < 0 || bal > MaxMoney {
			return nil, strictjson.FieldErrorf(fmt.Sprintf("params.balances[%d]", i), "a balance is from $0 to $%d, got %d", MaxMoney, bal)
		}
		nodes[i] = &Branch{Opening: bal, Balance: bal, MaxTransfer: p.MaxTransfer, SeedChannels: p.SeedChannels, SeedOtherChannels: p.SeedOtherChannels, SeedDone: p.SeedDone, SeedFirstChannel: p.SeedFirstChannel}
	}
	return nodes, nil
}

func branch(v sim.View, id sim.NodeID) *Branch { return v.Node(id).(*Branch) }

// opening is the money the bank started with.
func opening(v sim.View) int64 {
	var t int64
	for i := range v.N() {
		t += branch(v, sim.NodeID(i)).Opening
	}
	return t
}

// inFlight lists the transfers in flight on from→to, and their sum.
func inFlight(v sim.View, from, to sim.NodeID) (sum int64, amounts []int64) {
	for _, id := range v.InFlight(from, to) {
		if e := v.Envelope(id); e.Kind == KindTransfer {
			sum += e.Value
			amounts = append(amounts, e.Value)
		}
	}
	return sum, amounts
}

// liveTotals are the live balances' sum and the money in flight.
func liveTotals(v sim.View) (balances, flight int64) {
	for i := range v.N() {
		balances += branch(v, sim.NodeID(i)).Balance
	}
	return balances, v.InFlightTotal(KindTransfer).Sum
}

// rounds is the number of snapshots any branch has heard of.
func rounds(v sim.View) int {
	k := 0
	for i := range v.N() {
		k = max(k, len(branch(v, sim.NodeID(i)).Rounds))
	}
	return k
}

// complete reports whether every branch has finished its part of snapshot k.
func complete(v sim.View, k int) bool {
	for i := range v.N() {
		b := branch(v, sim.NodeID(i))
		if len(b.Rounds) < k || !b.partDone(&b.Rounds[k-1], sim.NodeID(i)) {
			return false
		}
	}
	return true
}

// recordedTotal is snapshot k's recorded balances and channel contents.
func recordedTotal(v sim.View, k int) (balances, channels int64) {
	for i := range v.N() {
		b := branch(v, sim.NodeID(i))
		if len(b.Rounds) < k {
			continue
		}
		r := b.Rounds[k-1]
		if r.Recorded {
			balances += r.Balance
		}
		for _, ch := range r.Channel {
			for _, a := range ch {
				channels += a
			}
		}
	}
	return balances, channels
}

func done(v sim.View) bool {
	k := rounds(v)
	for i := 1; i <= k; i++ {
		if !complete(v, i) {
			return false
		}
	}
	return k > 0
}

func checkLive(v sim.View) sim.Verdict {
	bal, flight := liveTotals(v)
	want := opening(v)
	if bal+flight == want {
		return sim.Verdict{OK: true}
	}
	var lost []int
	for id := range v.NumSent() {
		if e := v.Envelope(id); e.Kind == KindTransfer && e.DropStep >= 0 {
			lost = append(lost, id)
		}
	}
	return sim.Verdict{Detail: fmt.Sprintf("balances $%d + in flight $%d = $%d, not $%d: the network lost money in %d transfer(s)",
		bal, flight, bal+flight, want, len(lost)), Msgs: lost}
}

// checkSnapshots checks a snapshot's totals at the step that completes it.
func checkSnapshots(v sim.View) sim.Verdict {
	want := opening(v)
	for _, m := range v.LastAnnotations() {
		k := m.Group
		if m.Role != rolePartDone || !complete(v, k) {
			continue
		}
		bal, ch := recordedTotal(v, k)
		if bal+ch == want {
			continue
		}
		// the reason first: it is what a learner needs from the verdict
		detail := fmt.Sprintf("snapshot %d records $%d ($%d in balances + $%d in channels), not $%d", k, bal+ch, bal, ch, want)
		why, msgs := overtaken(v, k)
		if why == "" {
			why, msgs = lostMoney(v)
		}
		if why == "" {
			why = stillRecording(v, k)
		}
		if why == "" && branch(v, 0).SeedFirstChannel {
			why = "seed 003's rule 2 counts twice what came on the first markers' channels before them"
		}
		if why != "" {
			detail = why + ": " + detail
		}
		return sim.Verdict{Detail: detail, Msgs: msgs}
	}
	return sim.Verdict{OK: true}
}

// overtaken finds a marker of snapshot k and a transfer on the same channel
// that arrived in the other order than they were sent, which is what a
// non-FIFO channel does to the algorithm.
func overtaken(v sim.View, k int) (string, []int) {
	markers := map[[2]sim.NodeID]sim.Envelope{}
	for id := range v.NumSent() {
		if e := v.Envelope(id); e.Kind == KindMarker && e.Value == int64(k) {
			markers[[2]sim.NodeID{e.From, e.To}] = e
		}
	}
	for id := range v.NumSent() {
		t := v.Envelope(id)
		m, ok := markers[[2]sim.NodeID{t.From, t.To}]
		if t.Kind != KindTransfer || !ok || m.RecvStep < 0 || t.DropStep >= 0 {
			continue
		}
		from, to := v.Name(t.From), v.Name(t.To)
		switch {
		case t.SendStep < m.SendStep && (t.RecvStep < 0 || t.RecvStep > m.RecvStep):
			return fmt.Sprintf("on %s→%s the marker overtook the $%d transfer sent before it, which is in neither %s's record nor the channel's",
				from, to, t.Value, from), []int{m.ID, t.ID}
		case t.SendStep > m.SendStep && t.RecvStep >= 0 && t.RecvStep < m.RecvStep:
			return fmt.Sprintf("on %s→%s the $%d transfer sent after the marker overtook it, which is counted twice, in %s's record and again at %s",
				from, to, t.Value, from, to), []int{m.ID, t.ID}
		}
	}
	return "", nil
}

// stillRecording explains a wrong total by seed 003's rule 4: the
// snapshot was called done while channels were still recording.
func stillRecording(v sim.View, k int) string {
	var open []string
	for i := range v.N() {
		b := branch(v, sim.NodeID(i))
		if !b.SeedDone || len(b.Rounds) < k {
			continue
		}
		for q, closed := range b.Rounds[k-1].Closed {
			if !closed && q != i {
				open = append(open, v.Name(sim.NodeID(q))+"→"+v.Name(sim.NodeID(i)))
			}
		}
	}
	if len(open) == 0 {
		return ""
	}
	if len(open) == 1 {
		return fmt.Sprintf("by seed 003's rule 4 the snapshot is done once every branch has recorded, but %s still records", open[0])
	}
	return fmt.Sprintf("by seed 003's rule 4 the snapshot is done once every branch has recorded, but %s still record", strings.Join(open[:len(open)-1], ", ")+" and "+open[len(open)-1])
}

// lostMoney explains a wrong total by transfers the network lost: the
// algorithm assumes reliable channels.
func lostMoney(v sim.View) (string, []int) {
	var lost []int
	var sum int64
	for id := range v.NumSent() {
		if e := v.Envelope(id); e.Kind == KindTransfer && e.DropStep >= 0 {
			lost, sum = append(lost, id), sum+e.Value
		}
	}
	if len(lost) == 0 {
		return "", nil
	}
	return fmt.Sprintf("the network lost $%d in %d transfer(s), and the algorithm assumes reliable channels", sum, len(lost)), lost
}

// money is what the branches and their transfers hold: the cut tool adds
// it up at a learner's cut.
var money = &sim.Measure{
	Name:   "money",
	Format: func(x int64) string { return "$" + strconv.FormatInt(x, 10) },
	OfNode: func(n sim.Node) int64 { return n.(*Branch).Balance },
	OfMessage: func(m sim.Message) int64 {
		if m.Kind == KindTransfer {
			return m.Value
		}
		return 0
	},
}
