package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/internal/hostile"
)

// A small run against the server built from this tree: every target is
// measured calm and under hostile load, and no ordinary request fails.
func TestSmallRunReportsEveryTarget(t *testing.T) {
	dir := filepath.Join("..", "..")
	_, err := os.Stat(filepath.Join(dir, "web", "app.wasm"))
	require.NoError(t, err, "make build first")
	cfg := config{
		dir: dir, requests: 20, hostileMax: 50, duration: 30 * time.Second, concurrency: 4, timeout: 30 * time.Second,
		slowloris: 5, slowEvery: 200 * time.Millisecond, slowlorisHold: 100 * time.Millisecond,
		// the server's own bound is 1 s; the test's requests share its
		// two cores, and a noisy machine is slower
		maxLatency: 3 * time.Second, maxRSS: 300 << 20, serverStartMax: 3 * time.Minute,
	}
	var out, logs strings.Builder
	rep, err := run(context.Background(), cfg, &out, &logs)
	require.NoError(t, err, logs.String())
	t.Log("\n" + out.String())
	assert.Empty(t, rep.problems())
	require.Len(t, rep.calm, len(ordinaryTargets))
	require.Len(t, rep.underHostile, len(ordinaryTargets))
	for i, target := range ordinaryTargets {
		for _, res := range []targetResult{rep.calm[i], rep.underHostile[i]} {
			assert.Equal(t, target.name, res.target)
			assert.Equal(t, cfg.requests, res.sent, target.name)
			assert.Zero(t, res.errors, "%s: %v", target.name, res.samples)
		}
		assert.Contains(t, out.String(), target.name)
	}
	kinds, err := hostileRequests()
	require.NoError(t, err)
	require.Len(t, rep.hostile, len(kinds))
	for i, k := range kinds {
		assert.Equal(t, k.name, rep.hostile[i].kind)
		assert.Positive(t, rep.hostile[i].sent, k.name)
		assert.Contains(t, out.String(), k.name)
	}
	post := rep.hostile[len(kinds)-1]
	assert.Equal(t, map[string]int{"405": post.sent}, post.statuses, "POST is refused")
	assert.Equal(t, cfg.slowloris, rep.slow.opened)
	assert.NoError(t, rep.afterwards)
	assert.Contains(t, out.String(), "ok: no ordinary request failed")
	assert.Contains(t, logs.String(), "server| ", "the server's log is passed on")
	assert.Contains(t, logs.String(), "stopped", "the server is shut down gracefully")

	// every hostile link, alone and fifty at once, got a bounded answer
	links, err := hostile.Links()
	require.NoError(t, err)
	require.Len(t, rep.bounded, len(links))
	for _, b := range rep.bounded {
		assert.Equal(t, "200", b.status, b.name)
		assert.Less(t, b.latency, cfg.maxLatency, b.name)
		assert.Less(t, b.bytes, 4<<20, "%s: a page is at most 4 MB", b.name)
		assert.Less(t, b.rss, cfg.maxRSS, b.name)
		if b.refused {
			assert.True(t, b.said, "%s: the page says why it is refused", b.name)
		}
		assert.Contains(t, out.String(), b.name)
	}
	assert.Equal(t, 50, rep.burst.ok)
	assert.Less(t, rep.burst.peakRSS, cfg.maxRSS)
	assert.Positive(t, rep.burst.peakRSS, "the server's memory is sampled")
	assert.True(t, rep.leave.pictures, "clients that leave free their slots")
}

// The run fails when an ordinary request fails, calm or under hostile load,
// or the server stops answering; hostile requests may fail.
func TestProblemsFailTheRun(t *testing.T) {
	good := func() []targetResult { return []targetResult{{target: "page /", sent: 20}} }
	for _, tc := range []struct {
		name   string
		change func(r *report)
		want   string // in a problem; empty: none
	}{
		{"all answered", func(r *report) {}, ""},
		{"hostile requests time out", func(r *report) {
			r.hostile = []*hostileResult{{kind: "sc", sent: 1, statuses: map[string]int{"timeout": 1}}}
		}, ""},
		{"an error under hostile load", func(r *report) {
			r.underHostile[0].errors, r.underHostile[0].samples = 1, []string{"status 503"}
		}, "under hostile load (status 503)"},
		{"a calm error", func(r *report) { r.calm[0].errors = 2 }, "2 of 20 ordinary requests failed calm"},
		{"nothing answered", func(r *report) { r.underHostile[0].sent = 0 }, "no request was answered under hostile load"},
		{"unresponsive afterwards", func(r *report) { r.afterwards = errors.New("timeout") }, "did not answer after the hostile load"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &report{calm: good(), underHostile: good()}
			tc.change(r)
			problems := strings.Join(r.problems(), "\n")
			if tc.want == "" {
				assert.Empty(t, problems)
			} else {
				assert.Contains(t, problems, tc.want)
			}
		})
	}
}

func TestPercentile(t *testing.T) {
	ms := func(n ...int) []time.Duration {
		out := make([]time.Duration, len(n))
		for i, v := range n {
			out[i] = time.Duration(v) * time.Millisecond
		}
		return out
	}
	var hundred []time.Duration
	for i := 100; i >= 1; i-- {
		hundred = append(hundred, time.Duration(i)*time.Millisecond)
	}
	for _, tc := range []struct {
		name string
		ds   []time.Duration
		p    float64
		want time.Duration
	}{
		{"none", nil, 50, 0},
		{"one", ms(7), 99, 7 * time.Millisecond},
		{"median of four", ms(4, 1, 3, 2), 50, 2 * time.Millisecond},
		{"p99 of a hundred", hundred, 99, 99 * time.Millisecond},
		{"max", ms(5, 9, 1), 100, 9 * time.Millisecond},
	} {
		assert.Equal(t, tc.want, percentile(tc.ds, tc.p), tc.name)
	}
}

func TestOnlyThisMachineIsLoaded(t *testing.T) {
	for _, tc := range []struct {
		addr string
		ok   bool
	}{
		{"", true},
		{"127.0.0.1:8080", true},
		{"127.3.2.1:80", true},
		{"[::1]:8080", true},
		{"localhost:8080", true},
		{"10.0.0.2:8080", false},
		{"example.com:80", false},
		{"8080", false},
	} {
		err := checkLocal(tc.addr)
		assert.Equal(t, tc.ok, err == nil, "%s: %v", tc.addr, err)
	}
}
