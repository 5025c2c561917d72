package main

import (
	"fmt"
	"os"
	"path/filepath"
)

// versus measures the page of this checkout and of another one (its
// directory, built with make build) side by side in one sitting,
// alternating between them so that the machine's noise falls on both, and
// prints each figure with its ratio to the other's: how a change shows
// that it kept the page as fast.
func versus(server, chromium, other string) error {
	ctx, closeBrowser, err := startBrowser(chromium)
	if err != nil {
		return err
	}
	defer closeBrowser()
	type site struct {
		dir, url                              string
		brotli                                int64
		cold, again, returning, step, compare []float64
	}
	sites := []*site{{dir: "."}, {dir: other}}
	for _, s := range sites {
		sizes, err := sizesIn(filepath.Join(s.dir, "web"))
		if err != nil {
			return err
		}
		s.brotli = sizes["brotli"]
		bin := server
		if s.dir != "." {
			bin = filepath.Join(s.dir, server)
		}
		url, stop, err := startServer(bin, s.dir)
		if err != nil {
			return fmt.Errorf("%s: %w", s.dir, err)
		}
		defer stop()
		s.url = url
	}
	for round := range 5 {
		for _, s := range sites {
			fmt.Fprintf(os.Stderr, "bench: versus, round %d, %s…\n", round+1, s.dir)
			l, err := coldAndWarm(ctx, s.url+"/?s=snapshot-bank", round < 3)
			if err != nil {
				return fmt.Errorf("%s: %w", s.dir, err)
			}
			s.cold = append(s.cold, l.cold)
			if round >= 3 {
				continue
			}
			s.again, s.returning = append(s.again, l.again), append(s.returning, l.returning)
			step, err := medianStep(ctx, s.url+"/?s=snapshot-bank&k=0")
			if err != nil {
				return fmt.Errorf("%s: %w", s.dir, err)
			}
			compare, err := medianStep(ctx, s.url+sixRuns)
			if err != nil {
				return fmt.Errorf("%s: %w", s.dir, err)
			}
			s.step, s.compare = append(s.step, step), append(s.compare, compare)
		}
	}
	this, that := sites[0], sites[1]
	fmt.Printf("%-52s %14s %14s %7s\n", "figure (this / "+other+")", "this", "other", "ratio")
	row := func(name string, a, b float64, unit string) {
		fmt.Printf("%-52s %11.1f %s %11.1f %s %7.3f\n", name, a, unit, b, unit, a/b)
	}
	row("app.wasm brotli", float64(this.brotli)/1e3, float64(that.brotli)/1e3, "kB")
	row("first interactive frame, cold (median of 5)", median(this.cold), median(that.cold), "ms")
	row("first interactive frame, opened again (median of 3)", median(this.again), median(that.again), "ms")
	row("first interactive frame, returning in a fresh tab (median of 3)", median(this.returning), median(that.returning), "ms")
	row("step in a lesson (median of 3 medians of 40)", median(this.step), median(that.step), "ms")
	row("step in six runs (median of 3 medians of 40)", median(this.compare), median(that.compare), "ms")
	fmt.Printf("ranges: returning %.0f–%.0f vs %.0f–%.0f ms\n", minOf(this.returning), maxOf(this.returning), minOf(that.returning), maxOf(that.returning))
	fmt.Printf("ranges: cold %.0f–%.0f vs %.0f–%.0f ms; step %.1f–%.1f vs %.1f–%.1f ms; six runs %.1f–%.1f vs %.1f–%.1f ms\n",
		minOf(this.cold), maxOf(this.cold), minOf(that.cold), maxOf(that.cold),
		minOf(this.step), maxOf(this.step), minOf(that.step), maxOf(that.step),
		minOf(this.compare), maxOf(this.compare), minOf(that.compare), maxOf(that.compare))
	return nil
}

func minOf(xs []float64) float64 {
	m := xs[0]
	for _, x := range xs {
		m = min(m, x)
	}
	return m
}

func maxOf(xs []float64) float64 {
	m := xs[0]
	for _, x := range xs {
		m = max(m, x)
	}
	return m
}
