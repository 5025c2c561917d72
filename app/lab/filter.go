package lab

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"spacetime/core/sim"
)

// Filter is which processes' lanes the diagram leaves out: a run of many
// processes (a log of thirty hosts) is read a few lanes at a time. The
// rest of the page (panels, verdicts, the process graph) shows every
// process.
type Filter struct {
	// hidden[i] says process i is left out; nil: none is.
	hidden []bool
}

// Filter is the session's filter of the diagram's lanes.
func (s *Session) Filter() *Filter { return &s.filter }

// Shown says whether process id's lane is drawn.
func (f *Filter) Shown(id sim.NodeID) bool {
	return int(id) < 0 || int(id) >= len(f.hidden) || !f.hidden[id]
}

// Set shows or leaves out process id's lane, of n processes; the last
// lane shown stays.
func (f *Filter) Set(id sim.NodeID, n int, shown bool) {
	if int(id) < 0 || int(id) >= n {
		return
	}
	if !shown && f.Count(n) == 1 && f.Shown(id) {
		return // a diagram keeps a lane
	}
	if f.hidden == nil {
		f.hidden = make([]bool, n)
	}
	f.hidden[id] = !shown
	if !slices.Contains(f.hidden, true) {
		f.hidden = nil
	}
}

// ShowAll draws every lane again.
func (f *Filter) ShowAll() { f.hidden = nil }

// Count is how many of n processes' lanes are drawn.
func (f *Filter) Count(n int) int {
	c := n
	for i, h := range f.hidden {
		if h && i < n {
			c--
		}
	}
	return c
}

// Hidden is the filter as diagram.Options takes it.
func (f *Filter) Hidden() []bool { return f.hidden }

// encode writes the hidden processes by number from 1 ("3,5"), or "".
func (f *Filter) encode() string {
	var parts []string
	for i, h := range f.hidden {
		if h {
			parts = append(parts, strconv.Itoa(i+1))
		}
	}
	return strings.Join(parts, ",")
}

// decodeFilter reads what encode wrote, for n processes: each a number
// from 1 to n, once, and at least one process left shown.
func decodeFilter(text string, n int) (Filter, error) {
	parts := strings.Split(text, ",")
	if len(parts) >= n {
		return Filter{}, fmt.Errorf("want at most %d processes left out of %d (one stays), got %d", n-1, n, len(parts))
	}
	hidden := make([]bool, n)
	for _, p := range parts {
		id, err := strconv.Atoi(p)
		if err != nil || id < 1 || id > n {
			return Filter{}, fmt.Errorf("want process numbers from 1 to %d, such as 3,5, got %q", n, clip(p))
		}
		if hidden[id-1] {
			return Filter{}, fmt.Errorf("process %d is named twice", id)
		}
		hidden[id-1] = true
	}
	return Filter{hidden: hidden}, nil
}

func readFilter(r *linkReading, raw string) error {
	if raw == "" {
		return nil
	}
	f, err := decodeFilter(raw, len(r.sess.scn.Names))
	if err != nil {
		return err
	}
	r.sess.filter = f
	return nil
}
