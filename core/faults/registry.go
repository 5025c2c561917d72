package faults

import (
	"fmt"
	"strings"

	"spacetime/core/sim"
)

// Registry is every fault, in the order menus and legends list them.
var Registry = []*Fault{
	{
		Name: "crash", Letter: 'c',
		Help:   "stop the process: it takes no events, its timers are cancelled, and messages to it wait in their channels",
		Params: []Param{{Field: "node", Kind: ParamNode}},
		Menus:  []Menu{MenuProcess}, Label: "Crash {node}",
		Check: func(w World, a Args) error {
			if w.Health(a.Node).State == sim.Crashed {
				return fmt.Errorf("%s has already crashed", w.Name(a.Node))
			}
			return nil
		},
		Apply: func(w World, a Args) string {
			w.SetHealth(a.Node, Health{State: sim.Crashed})
			dropped := w.DropTimers(a.Node)
			w.EndIntervals(a.Node)
			text := fmt.Sprintf("%s crashes: it takes no events and its timers are cancelled; messages to it wait in their channels", w.Name(a.Node))
			if dropped > 0 {
				text += fmt.Sprintf(" (%d timer(s) dropped)", dropped)
			}
			return text
		},
		Glyph: sim.GlyphCross, Tone: sim.Red, Legend: "crash (the line is dashed while the process is down)",
		Leaves: sim.Crashed,
		Draw: func(s Scene, d *Dice) (Args, bool) {
			return drawAtProcess(s, d, func(h Health) bool { return h.State != sim.Crashed })
		},
		Search: func(s Scene) []Args {
			return eachProcess(s, func(h Health) bool { return h.State != sim.Crashed })
		},
	},
	{
		Name: "recover", Letter: 'r',
		Help:   "restart a crashed process; the algorithm decides what it forgot",
		Params: []Param{{Field: "node", Kind: ParamNode}},
		Menus:  []Menu{MenuProcess}, Label: "Recover {node}",
		Check: func(w World, a Args) error {
			if w.Health(a.Node).State != sim.Crashed {
				return fmt.Errorf("%s has not crashed", w.Name(a.Node))
			}
			return nil
		},
		Apply: func(w World, a Args) string {
			w.SetHealth(a.Node, Health{})
			if text := w.Restart(a.Node); text != "" {
				return text
			}
			return w.Name(a.Node) + " recovers"
		},
		Glyph: sim.GlyphRing, Tone: sim.Ink, Legend: "recovery",
		Draw: func(s Scene, d *Dice) (Args, bool) {
			return drawAtProcess(s, d, func(h Health) bool { return h.State == sim.Crashed })
		},
		Search: func(s Scene) []Args {
			return eachProcess(s, func(h Health) bool { return h.State == sim.Crashed })
		},
	},
	{
		Name: "pause", Letter: 'p',
		Help:   "freeze the process as a long GC pause does: events for it queue up, and it wakes believing no time has passed",
		Params: []Param{{Field: "node", Kind: ParamNode}, {Field: "for", Kind: ParamTicks, Before: "for", After: "ticks"}},
		Menus:  []Menu{MenuProcess}, Label: "GC-pause {node}",
		Check: func(w World, a Args) error {
			if h := w.Health(a.Node); h.State != sim.Up {
				return fmt.Errorf("%s is %s and cannot pause", w.Name(a.Node), h.State)
			}
			return nil
		},
		Apply: func(w World, a Args) string {
			w.SetHealth(a.Node, Health{State: sim.Paused, Until: w.Now() + a.Ticks("for")})
			return fmt.Sprintf("%s stops for a GC pause of %d ticks: events for it queue up", w.Name(a.Node), a.Ticks("for"))
		},
		Glyph: sim.GlyphBar, Tone: sim.Orange, Legend: "GC pause (a band while the process is paused)",
		Leaves: sim.Paused,
		Draw: func(s Scene, d *Dice) (Args, bool) {
			a, ok := drawAtProcess(s, d, func(h Health) bool { return h.State == sim.Up })
			a = a.With("for", ParamTicks.Num(int64(d.Ticks())))
			return a, ok
		},
	},
	{
		Name: "drop", Letter: 'x',
		Help:   "the network loses the message",
		Params: []Param{{Field: "msg", Kind: ParamMsg}},
		Menus:  []Menu{MenuMessage}, Label: "Lose {msg}",
		Check: inFlight,
		Apply: func(w World, a Args) string {
			text := "the network loses " + w.Describe(a.Msg)
			w.Lose(a.Msg)
			return text
		},
		Glyph: sim.GlyphCross, Tone: sim.Red, Legend: "message lost",
		Draw:   drawOfMessage,
		Search: eachMessage,
	},
	{
		Name: "delay", Letter: 'y',
		Help:   "the network holds the message back: it cannot arrive for a while",
		Params: []Param{{Field: "msg", Kind: ParamMsg}, {Field: "for", Kind: ParamTicks, Before: "by", After: "ticks"}},
		Menus:  []Menu{MenuMessage}, Label: "Delay {msg}",
		Check: inFlight,
		Apply: func(w World, a Args) string {
			due := w.Delay(a.Msg, a.Ticks("for"))
			return fmt.Sprintf("the network delays %s by %d ticks: it cannot arrive before time %d", w.Describe(a.Msg), a.Ticks("for"), due)
		},
		Glyph: sim.GlyphRing, Tone: sim.Orange, Legend: "message delayed by the network",
		Draw: func(s Scene, d *Dice) (Args, bool) {
			a, ok := drawOfMessage(s, d)
			a = a.With("for", ParamTicks.Num(int64(d.Ticks())))
			return a, ok
		},
	},
	{
		Name: "duplicate", Letter: 'u',
		Help:   "the network delivers the message twice: a copy joins its channel",
		Params: []Param{{Field: "msg", Kind: ParamMsg}},
		Menus:  []Menu{MenuMessage}, Label: "Duplicate {msg}",
		Check: inFlight,
		Apply: func(w World, a Args) string {
			text := w.Describe(a.Msg)
			c := w.Duplicate(a.Msg)
			return fmt.Sprintf("the network duplicates %s: a second copy (#%d) is on its way behind it", text, c)
		},
		Glyph: sim.GlyphDiamond, Tone: sim.Purple, Legend: "message duplicated by the network (dotted: the copy)",
		Draw:   drawOfMessage,
		Search: eachMessage,
	},
	{
		Name: "cut", Letter: 'l',
		Help: "cut the link between two processes: what is in flight on it and what is sent on it is lost until it heals",
		Params: []Param{{Field: "node", Kind: ParamNode}, {Field: "target", Kind: ParamTarget, Before: "to"},
			{Field: "oneway", Kind: ParamFlag, Optional: true, After: "one way only"}},
		Menus: []Menu{MenuProcess, MenuLink}, Label: "Cut the link from {node}",
		MenuLabels: map[Menu]string{MenuLink: "Cut this link"},
		Check: func(w World, a Args) error {
			if !w.LinkUp(a.Node, a.Target) && (a.Flag("oneway") || !w.LinkUp(a.Target, a.Node)) {
				return fmt.Errorf("the link %s is already cut", linkName(w, a.Node, a.Target, a.Flag("oneway")))
			}
			return nil
		},
		Apply: func(w World, a Args) string {
			lost := w.SetLink(a.Node, a.Target, false)
			if !a.Flag("oneway") {
				lost += w.SetLink(a.Target, a.Node, false)
			}
			return fmt.Sprintf("the link %s is cut: messages sent on it are lost until it heals%s", linkName(w, a.Node, a.Target, a.Flag("oneway")), lostWords(lost))
		},
		Glyph: sim.GlyphCross, Tone: sim.Grey, Legend: "link cut (its messages are lost until it heals)",
		Draw: func(s Scene, d *Dice) (Args, bool) { return drawLink(s, d, s.LinkUp) },
	},
	{
		Name: "heal", Letter: 'h',
		Help: "heal a cut link, or with no process every cut link",
		Params: []Param{{Field: "node", Kind: ParamNode, Optional: true}, {Field: "target", Kind: ParamTarget, Optional: true, Before: "to"},
			{Field: "oneway", Kind: ParamFlag, Optional: true, After: "one way only"}},
		Menus: []Menu{MenuProcess, MenuLink, MenuNetwork}, Label: "Heal the link from {node}",
		MenuLabels: map[Menu]string{MenuNetwork: "Heal every cut link", MenuLink: "Heal this link"},
		Valid: func(a Args, n int) error {
			if (a.Node == sim.None) != (a.Target == sim.None) {
				return fmt.Errorf("heal names both ends of a link (node and target), or neither to heal every link")
			}
			return nil
		},
		Check: func(w World, a Args) error {
			if a.Node == sim.None {
				if countCut(w) == 0 {
					return fmt.Errorf("no link is cut")
				}
				return nil
			}
			if w.LinkUp(a.Node, a.Target) && (a.Flag("oneway") || w.LinkUp(a.Target, a.Node)) {
				return fmt.Errorf("the link %s is not cut", linkName(w, a.Node, a.Target, a.Flag("oneway")))
			}
			return nil
		},
		Apply: func(w World, a Args) string {
			if a.Node == sim.None {
				k := countCut(w)
				for i := range w.N() {
					for j := range w.N() {
						if i != j {
							w.SetLink(sim.NodeID(i), sim.NodeID(j), true)
						}
					}
				}
				return fmt.Sprintf("the network heals: %d cut link(s) carry messages again", k)
			}
			w.SetLink(a.Node, a.Target, true)
			if !a.Flag("oneway") {
				w.SetLink(a.Target, a.Node, true)
			}
			return fmt.Sprintf("the link %s heals: messages sent on it arrive again", linkName(w, a.Node, a.Target, a.Flag("oneway")))
		},
		Glyph: sim.GlyphRing, Tone: sim.Grey, Legend: "link healed",
		Draw: func(s Scene, d *Dice) (Args, bool) {
			cut := func(from, to sim.NodeID) bool { return !s.LinkUp(from, to) }
			if len(linksWhere(s, cut)) > 0 && d.OneIn(3) {
				return NoArgs(), true // every link
			}
			return drawLink(s, d, cut)
		},
	},
	{
		Name: "partition", Letter: 'g',
		Help:   "split the network into groups: every link between two groups is cut",
		Params: []Param{{Field: "groups", Kind: ParamGroups, Before: "groups"}},
		Menus:  []Menu{MenuNetwork}, Label: "Partition the network into",
		Check: func(w World, a Args) error {
			for _, g := range a.Groups("groups") {
				for _, id := range g {
					if int(id) >= w.N() {
						return fmt.Errorf("there is no process %d", id.Number())
					}
				}
			}
			return nil
		},
		Apply: func(w World, a Args) string {
			lost := 0
			for gi, g := range a.Groups("groups") {
				for hi, h := range a.Groups("groups") {
					if gi == hi {
						continue
					}
					for _, p := range g {
						for _, q := range h {
							if w.LinkUp(p, q) {
								lost += w.SetLink(p, q, false)
							}
						}
					}
				}
			}
			parts := make([]string, len(a.Groups("groups")))
			for i, g := range a.Groups("groups") {
				names := make([]string, len(g))
				for j, id := range g {
					names[j] = w.Name(id)
				}
				parts[i] = "{" + strings.Join(names, ", ") + "}"
			}
			return fmt.Sprintf("the network partitions into %s: every link between the groups is cut%s", strings.Join(parts, " and "), lostWords(lost))
		},
		Glyph: sim.GlyphCross, Tone: sim.Grey, Legend: "partition",
		Draw: func(s Scene, d *Dice) (Args, bool) {
			if s.N() < 2 {
				return Args{}, false
			}
			a := NoArgs()
			a = a.With("groups", ParamGroups.Of(d.Groups(s.N())))
			return a, true
		},
	},
	{
		Name: "skew", Letter: 's',
		Help:   "set the process's clock ahead of real time, or behind it when negative",
		Params: []Param{{Field: "node", Kind: ParamNode}, {Field: "by", Kind: ParamOffset, Before: "by", After: "ticks (negative: behind)"}},
		Menus:  []Menu{MenuProcess}, Label: "Skew {node}'s clock",
		Check: func(w World, a Args) error { return nil },
		Apply: func(w World, a Args) string {
			w.SetSkew(a.Node, a.Ticks("by"))
			switch {
			case a.Ticks("by") > 0:
				return fmt.Sprintf("%s's clock runs %d ticks ahead: it reads %d at time %d", w.Name(a.Node), a.Ticks("by"), w.Now()+a.Ticks("by"), w.Now())
			case a.Ticks("by") < 0:
				return fmt.Sprintf("%s's clock runs %d ticks behind: it reads %d at time %d", w.Name(a.Node), -a.Ticks("by"), w.Now()+a.Ticks("by"), w.Now())
			}
			return fmt.Sprintf("%s's clock is set right: it reads the time, %d", w.Name(a.Node), w.Now())
		},
		Glyph: sim.GlyphTriangle, Tone: sim.Cyan, Legend: "clock skew",
		Mark: func(a Args) string { return fmt.Sprintf("%+d", a.Ticks("by")) },
		Draw: func(s Scene, d *Dice) (Args, bool) {
			a := AtProcess(sim.NodeID(d.IntN(s.N())))
			a = a.With("by", ParamOffset.Num(int64(d.Offset())))
			return a, true
		},
	},
	{
		Name: "drift", Letter: 't',
		Help:   "make the process's clock run fast or slow from now on: it counts rate ticks for every one that passes (1 is right, 0.5 half speed, 0 stands still)",
		Params: []Param{{Field: "node", Kind: ParamNode}, {Field: "rate", Kind: ParamRate, Before: "to", After: "ticks per 100 (100: right)"}},
		Menus:  []Menu{MenuProcess}, Label: "Drift {node}'s clock",
		Check: func(w World, a Args) error {
			if w.ClockRate(a.Node) == a.Int("rate") {
				return fmt.Errorf("%s's clock runs at that rate already", w.Name(a.Node))
			}
			return nil
		},
		Apply: func(w World, a Args) string {
			w.SetClockRate(a.Node, a.Int("rate"))
			name, reads := w.Name(a.Node), w.Now()+w.Skew(a.Node)
			switch rate := a.Int("rate"); {
			case rate == 100:
				return fmt.Sprintf("%s's clock runs at the right rate again: it reads %d at time %d, and keeps time from now on", name, reads, w.Now())
			case rate == 0:
				return fmt.Sprintf("%s's clock stops: it reads %d at time %d, and will read %d for as long as it is stopped", name, reads, w.Now(), reads)
			default:
				return fmt.Sprintf("%s's clock drifts: from now on it counts %s ticks for every one that passes (%s), and reads %d at time %d", name, sim.RateText(rate), map[bool]string{true: "fast", false: "slow"}[rate > 100], reads, w.Now())
			}
		},
		Glyph: sim.GlyphTriangle, Tone: sim.Cyan, Legend: "clock drift: the clock runs fast or slow from here",
		// the event says what changed; the lane says the rate it runs at
		Mark: func(a Args) string { return "drift ×" + sim.RateText(a.Int("rate")) },
		Draw: func(s Scene, d *Dice) (Args, bool) {
			a := AtProcess(sim.NodeID(d.IntN(s.N())))
			return a.With("rate", ParamRate.Draw(d, s.N())), true
		},
	},
	{
		Name: "fifo", Letter: 'f',
		Help:   "switch first-in-first-out delivery on or off from now on",
		Params: []Param{{Field: "on", Kind: ParamFlag, After: "FIFO channels"}},
		Menus:  []Menu{MenuNetwork}, Label: "Switch FIFO {on} from now",
		Check: func(w World, a Args) error {
			if w.FIFO() == a.Flag("on") {
				return fmt.Errorf("FIFO is already %s", onOff(a.Flag("on")))
			}
			return nil
		},
		Apply: func(w World, a Args) string {
			w.SetFIFO(a.Flag("on"))
			if a.Flag("on") {
				return "channels deliver in send order again (FIFO on): only the oldest message of a channel may arrive next"
			}
			return "channels stop keeping send order (FIFO off): any message in flight may arrive next"
		},
		Glyph: sim.GlyphSquare, Tone: sim.Grey, Legend: "FIFO switched on or off",
		Mark: func(a Args) string { return "FIFO " + onOff(a.Flag("on")) },
		Draw: func(s Scene, d *Dice) (Args, bool) {
			a := NoArgs()
			a = a.With("on", ParamFlag.Bool(!s.FIFO()))
			return a, true
		},
	},
}

func inFlight(w World, a Args) error {
	if _, _, ok := w.InFlight(a.Msg); !ok {
		return fmt.Errorf("message #%d is not in flight", a.Msg)
	}
	return nil
}

func linkName(w World, a, b sim.NodeID, oneWay bool) string {
	if oneWay {
		return w.Name(a) + "→" + w.Name(b)
	}
	return w.Name(a) + "↔" + w.Name(b)
}

func lostWords(lost int) string {
	if lost == 0 {
		return ""
	}
	return fmt.Sprintf("; %d message(s) in flight on it are lost", lost)
}

func countCut(w World) int {
	k := 0
	for i := range w.N() {
		for j := range w.N() {
			if i != j && !w.LinkUp(sim.NodeID(i), sim.NodeID(j)) {
				k++
			}
		}
	}
	return k
}

func onOff(on bool) string {
	if on {
		return "on"
	}
	return "off"
}
