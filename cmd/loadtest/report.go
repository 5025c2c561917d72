package main

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"
	"time"
)

// report is everything one run measured.
type report struct {
	cfg            config
	base           string
	started        bool // the load test started the server
	calm           []targetResult
	underHostile   []targetResult
	hostile        []*hostileResult
	slow           slowResult
	afterwards     error // the health check after the hostile phase
	bounded        []boundedResult
	burst          burstResult
	leave          leaveResult
	boundedPeakRSS int64
	calmPeakRSS    int64
	hostilePeakRSS int64
}

// problems are the reasons the run failed: ordinary requests that failed,
// calm or under hostile load, and a server that no longer answers.
func (r *report) problems() []string {
	var out []string
	for _, phase := range []struct {
		name    string
		results []targetResult
	}{{"calm", r.calm}, {"under hostile load", r.underHostile}} {
		for _, t := range phase.results {
			if t.errors > 0 {
				out = append(out, fmt.Sprintf("%s: %d of %d ordinary requests failed %s (%s)", t.target, t.errors, t.sent, phase.name, strings.Join(t.samples, "; ")))
			}
			if t.sent == 0 {
				out = append(out, fmt.Sprintf("%s: no request was answered %s", t.target, phase.name))
			}
		}
	}
	if r.afterwards != nil {
		out = append(out, fmt.Sprintf("the server did not answer after the hostile load: %v", r.afterwards))
	}
	max := r.cfg.maxLatency
	for _, b := range r.bounded {
		switch {
		case b.status != "200":
			out = append(out, fmt.Sprintf("hostile link %q: %s", b.name, b.status))
		case b.latency > max:
			out = append(out, fmt.Sprintf("hostile link %q took %s (at most %s)", b.name, ms(b.latency), ms(max)))
		case b.refused && !b.said:
			out = append(out, fmt.Sprintf("hostile link %q: the page does not say why it is refused", b.name))
		}
		if r.cfg.maxRSS > 0 && b.rss > r.cfg.maxRSS {
			out = append(out, fmt.Sprintf("after hostile link %q the server held %s (at most %s)", b.name, mb(b.rss), mb(r.cfg.maxRSS)))
		}
	}
	if len(r.bounded) > 0 {
		if b := r.burst; b.ok < b.sent || b.slowest > max {
			out = append(out, fmt.Sprintf("fifty hostile links at once: %d of %d answered, the slowest in %s (at most %s)", b.ok, b.sent, ms(b.slowest), ms(max)))
		}
		if r.cfg.maxRSS > 0 && r.burst.peakRSS > r.cfg.maxRSS {
			out = append(out, fmt.Sprintf("fifty hostile links at once: the server held %s (at most %s)", mb(r.burst.peakRSS), mb(r.cfg.maxRSS)))
		}
		if l := r.leave; l.err != nil || !l.pictures {
			out = append(out, fmt.Sprintf("a lesson asked for 50 ms after two clients left came without its pictures (their slots were not free): %v", l.err))
		}
	}
	return out
}

// print writes the report's tables.
func (r *report) print(out io.Writer) {
	w := tabwriter.NewWriter(out, 2, 4, 2, ' ', 0)
	if len(r.bounded) > 0 {
		fmt.Fprintln(w, "hostile link, alone	status	latency	bytes	pictures	server RSS after	")
		for _, b := range r.bounded {
			pictures := "no"
			switch {
			case b.refused && b.said:
				pictures = "refused, says why"
			case b.pictures:
				pictures = "yes"
			}
			fmt.Fprintf(w, "%s\t%s\t%s\t%d\t%s\t%s\t\n", b.name, b.status, ms(b.latency), b.bytes, pictures, mb(b.rss))
		}
		w.Flush()
		fmt.Fprintf(out, "fifty hostile links at once: %d of %d answered, the slowest in %s; server RSS at most %s (sampled every 10 ms)\n",
			r.burst.ok, r.burst.sent, ms(r.burst.slowest), mb(r.burst.peakRSS))
		l := r.leave
		fmt.Fprintf(out, "a lesson asked for 50 ms after two heavy links' clients left: %s, pictures: %v\n\n", ms(l.latency), l.pictures)
	}
	fmt.Fprintln(w, "ordinary requests\tphase\trequests\terrors\ttimeouts\treq/s\tp50\tp99\t")
	for i := range r.calm {
		for _, t := range []struct {
			phase string
			res   targetResult
		}{{"calm", r.calm[i]}, {"hostile", r.underHostile[i]}} {
			fmt.Fprintf(w, "%s\t%s\t%d\t%d\t%d\t%.1f\t%s\t%s\t\n", t.res.target, t.phase, t.res.sent, t.res.errors, t.res.timeouts,
				float64(t.res.sent)/t.res.elapsed.Seconds(), ms(percentile(t.res.latencies, 50)), ms(percentile(t.res.latencies, 99)))
		}
	}
	w.Flush()
	fmt.Fprintln(out)
	fmt.Fprintln(w, "hostile requests (one at a time each)\trequests\tstatuses\tp50\tp99\tmax\t")
	for _, h := range r.hostile {
		fmt.Fprintf(w, "%s\t%d\t%s\t%s\t%s\t%s\t\n", h.kind, h.sent, statuses(h.statuses),
			ms(percentile(h.latencies, 50)), ms(percentile(h.latencies, 99)), ms(percentile(h.latencies, 100)))
	}
	w.Flush()
	s := r.slow
	fmt.Fprintf(out, "slow headers, a line every %s: %d connections (%d refused); the server cut %d off", r.cfg.slowEvery, s.opened, s.refused, s.cut)
	if s.cut > 0 {
		fmt.Fprintf(out, " after %s (p50), %s (max)", ms(percentile(s.held, 50)), ms(percentile(s.held, 100)))
	}
	fmt.Fprintf(out, "; %d still open when the phase ended (it waits up to %s for them)\n", s.openAtEnd, s.hold)
	if r.started {
		fmt.Fprintf(out, "server peak memory (RSS): %s after the hostile links, %s after the calm phase, %s after the hostile one\n", mb(r.boundedPeakRSS), mb(r.calmPeakRSS), mb(r.hostilePeakRSS))
	}
	if r.afterwards == nil {
		fmt.Fprintln(out, "after the hostile load the server answers the page")
	}
	if p := r.problems(); len(p) > 0 {
		fmt.Fprintf(out, "FAILED: %s\n", strings.Join(p, "; "))
	} else {
		fmt.Fprintln(out, "ok: no ordinary request failed, calm or under hostile load")
	}
}

// percentile is the p-th percentile of ds by nearest rank; 0 for none.
func percentile(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	rank := int(p/100*float64(len(s))+0.999999) - 1
	return s[max(0, min(rank, len(s)-1))]
}

// statuses lists status counts: "200×12 timeout×1".
func statuses(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s×%d", k, m[k])
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, " ")
}

func ms(d time.Duration) string {
	switch {
	case d >= 10*time.Second:
		return fmt.Sprintf("%.1fs", d.Seconds())
	case d >= time.Second:
		return fmt.Sprintf("%.2fs", d.Seconds())
	}
	return fmt.Sprintf("%.1fms", float64(d)/float64(time.Millisecond))
}

func mb(n int64) string {
	if n <= 0 {
		return "unknown"
	}
	return fmt.Sprintf("%.0f MB", float64(n)/(1<<20))
}
