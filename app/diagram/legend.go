package diagram

import (
	"spacetime/core/faults"
	"spacetime/core/sim"
	"spacetime/core/trace"
)

// Swatch is how a legend entry shows what it explains.
type Swatch uint8

// The swatches.
const (
	// SwatchLine is a stroke, as messages and cut lines are drawn.
	SwatchLine Swatch = iota + 1
	// SwatchGlyph is a character, for marks on events.
	SwatchGlyph
	// SwatchBar is a filled bar; SwatchOutline a hollow one; SwatchBand a
	// faint band.
	SwatchBar
	SwatchOutline
	SwatchBand
)

// LegendEntry explains one thing the diagram draws.
type LegendEntry struct {
	Swatch Swatch
	Color  Color
	Width  float64
	Dashed bool
	// Symbol is the glyph of a SwatchGlyph entry, or the mark a message
	// kind's line carries.
	Symbol string
	Label  string
}

// LegendOptions says what the view on screen shows beyond the run.
type LegendOptions struct {
	// Selected says an event's causal past and future are ringed, and the
	// events concurrent with it greyed; Other that a second event is
	// compared with it.
	Selected, Other bool
	// Cut says the learner's own cut is drawn.
	Cut bool
	// Highlight says messages that failed an invariant are pointed at.
	Highlight bool
	// Overlays are the algorithm's overlays at the step on screen: the
	// legend explains the roles of those drawn.
	Overlays []sim.Overlay
}

// Legend lists what the diagram of the first k steps of an indexed run of
// spec draws: the algorithm's message kinds and annotation roles, the
// faults that happened, timers if any were armed, and the marks of the
// view. Nothing of another algorithm appears.
func (ix *Index) Legend(spec *sim.Spec, k int, opt LegendOptions) []LegendEntry {
	var out []LegendEntry
	if spec != nil {
		for _, ks := range spec.Kinds {
			color, width, flags := KindStyle(ks)
			e := LegendEntry{Swatch: SwatchLine, Color: color, Width: width, Dashed: flags&FlagDashed != 0, Label: ks.Name}
			if ks.Glyph != sim.GlyphNone {
				e.Symbol = ks.Glyph.Symbol()
			}
			out = append(out, e)
		}
		drawn := map[string]bool{}
		for _, o := range opt.Overlays {
			drawn[o.Role] = true
		}
		for _, rs := range spec.Picture.Roles {
			if rs.Style.Overlays() && !drawn[rs.Name] {
				continue
			}
			e := LegendEntry{Color: ToneColor(rs.Tone), Label: rs.Legend}
			switch rs.Style {
			case sim.StyleHidden:
				continue
			case sim.StyleGlyph, sim.StyleCut:
				e.Swatch, e.Symbol = SwatchGlyph, rs.Glyph.Symbol()
			case sim.StyleBar:
				e.Swatch = SwatchBar
			case sim.StyleOutline:
				e.Swatch = SwatchOutline
			case sim.StyleBand:
				e.Swatch = SwatchBand
			case sim.StyleArrow:
				e.Swatch, e.Width, e.Dashed = SwatchLine, 1.5, true
			case sim.StyleHalo:
				e.Swatch, e.Width = SwatchLine, 4
			case sim.StyleToken:
				e.Swatch, e.Symbol = SwatchGlyph, sim.GlyphToken.Symbol()
			case sim.StyleLabel:
				e.Swatch, e.Symbol = SwatchGlyph, "9"
			case sim.StyleState:
				continue // words under a process, which say what they are
			case sim.StyleWait:
				e.Swatch, e.Width = SwatchLine, 2.5
			case sim.StyleHeld:
				e.Swatch, e.Width = SwatchLine, blockedWidth
			case sim.StyleLine:
				e.Swatch, e.Width = SwatchLine, 2
			case sim.StyleCells:
				e.Swatch = SwatchBand
			}
			out = append(out, e)
		}
	}
	seen := map[string]bool{}
	if len(ix.tr.Down) > 0 {
		seen[leaving(sim.Crashed)] = true // drawn as that fault leaves a process
	}
	timers := false
	k = min(max(k, 0), ix.tr.Len())
	for _, s := range stepsBefore(ix.faulted, k) {
		r := &ix.tr.Records[s]
		if r.Kind == trace.Fault {
			seen[r.Tag()] = true
		}
	}
	for i := range ix.spans {
		if ix.spans[i].kind == spanTimer && ix.spans[i].from < k {
			timers = true
			break
		}
	}
	for _, f := range faults.Registry {
		if seen[f.Name] {
			out = append(out, LegendEntry{Swatch: SwatchGlyph, Color: ToneColor(f.Tone), Symbol: f.Glyph.Symbol(), Label: f.Legend})
		}
	}
	if timers {
		out = append(out, LegendEntry{Swatch: SwatchLine, Color: ControlColor, Width: 1, Label: "timer armed (dashed: still to run, ends where it is due)"})
	}
	out = append(out, LegendEntry{Swatch: SwatchLine, Color: NowColor, Width: 1, Dashed: true, Label: "now (messages still in flight end here)"})
	if opt.Highlight {
		out = append(out, LegendEntry{Swatch: SwatchLine, Color: HighlightColor, Width: 6, Label: "messages a failing invariant points at"})
	}
	if opt.Cut {
		out = append(out, LegendEntry{Swatch: SwatchLine, Color: UserCutColor, Width: 3, Label: "your cut"})
	}
	if opt.Selected {
		out = append(out,
			LegendEntry{Swatch: SwatchGlyph, Color: PastColor, Symbol: "◯", Label: "causal past"},
			LegendEntry{Swatch: SwatchGlyph, Color: FutureColor, Symbol: "◯", Label: "causal future"},
			LegendEntry{Swatch: SwatchGlyph, Color: Faint, Symbol: "●", Label: "concurrent with it (greyed)"})
	}
	if opt.Selected && opt.Other {
		out = append(out, LegendEntry{Swatch: SwatchGlyph, Color: Ink, Symbol: "◯", Label: "the event compared with it (dashed ring)"})
	}
	return out
}
