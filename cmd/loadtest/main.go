// Command loadtest measures the Spacetime server under a bounded load, calm
// and then hostile, and prints what it measured.
//
//	loadtest [-addr HOST:PORT] [-dir .] [-requests 200] [-duration 30s] [-concurrency 8]
//
// Without -addr it builds ./cmd/server, starts it on 127.0.0.1:0 serving
// -dir and stops it at the end (cmd/server is a program, not a package, so
// the server is measured as it ships, in a process of its own: that also
// gives its peak memory). With -addr it measures a server already running
// there, which must be on this machine (a loopback address).
//
// First it sends each hostile link (internal/hostile: messages piling up
// for a million steps, steps that send a thousand messages, a checkpoint
// every step, six views of a long run zoomed out, times at the end of the
// clock, absurd zooms and inputs) alone, then fifty at once, and reports
// each one's latency, size and whether it came with its pictures, and the
// server's memory (RSS); then it sends two heavy links whose clients give
// up after 100 ms and asks for a lesson 50 ms later, which must find a
// free slot and come with its pictures.
//
// For each ordinary target — the page /, the client /web/app.wasm in
// brotli, a deep link — it sends -requests requests, -concurrency at a
// time, for at most -duration, and reports requests, errors, throughput
// and p50/p99 latency. Then it sends the same ordinary load again while
// other goroutines send the hostile links again and again, connections
// that send their headers a line at a time (slowloris), and POSTs. It
// reports the ordinary figures under hostile load beside the calm ones,
// and the hostile requests' status codes and latencies.
//
// It exits 1 when an ordinary request failed (an error status, a wrong
// body, a timeout), a hostile link was not answered within -max-latency
// or the server held more than -max-rss while answering them, the lesson
// after the clients left came without its pictures, or the server did not
// answer after the hostile load; and 2 on bad flags.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"time"
)

// config is what one run measures and how hard it pushes.
type config struct {
	addr           string        // a running server; empty: start one
	dir            string        // the directory with web/ that a started server serves
	requests       int           // per ordinary target and phase
	hostileMax     int           // cap of each hostile kind's requests
	duration       time.Duration // cap of each target's run
	concurrency    int           // ordinary requests in flight at once
	timeout        time.Duration // per request
	slowloris      int           // slow-header connections during the hostile phase
	slowEvery      time.Duration // how often each sends a header line
	slowlorisHold  time.Duration // how long the hostile phase waits for the server to cut them off
	maxLatency     time.Duration // the longest a hostile link may take
	maxRSS         int64         // the most memory a started server may hold for them
	serverStartMax time.Duration // how long a started server may take to listen
}

func main() {
	cfg := config{serverStartMax: 3 * time.Minute}
	flag.StringVar(&cfg.addr, "addr", "", "address of a running server (default: build ./cmd/server and start it on 127.0.0.1:0)")
	flag.StringVar(&cfg.dir, "dir", ".", "directory that contains web/, for the server it starts")
	flag.IntVar(&cfg.requests, "requests", 200, "requests per ordinary target and phase")
	flag.IntVar(&cfg.hostileMax, "hostile-max", 2000, "at most this many requests of each hostile kind (each kind sends one at a time while the ordinary load runs)")
	flag.DurationVar(&cfg.duration, "duration", 30*time.Second, "cap of each target's run")
	flag.IntVar(&cfg.concurrency, "concurrency", 8, "ordinary requests in flight at once")
	flag.DurationVar(&cfg.timeout, "timeout", 30*time.Second, "client timeout of each request")
	flag.IntVar(&cfg.slowloris, "slowloris", 300, "slow-header connections during the hostile phase")
	flag.DurationVar(&cfg.slowEvery, "slow-every", 2*time.Second, "how often a slow connection sends a header line")
	flag.DurationVar(&cfg.slowlorisHold, "slowloris-hold", 30*time.Second, "how long the hostile phase waits for the server to cut the slow connections off")
	flag.DurationVar(&cfg.maxLatency, "max-latency", time.Second, "the longest a hostile link may take, alone or fifty at once")
	maxRSS := flag.Int64("max-rss", 300, "the most memory (RSS, MB) a started server may hold while it answers the hostile links")
	flag.Parse()
	cfg.maxRSS = *maxRSS << 20
	if flag.NArg() > 0 || cfg.requests < 1 || cfg.concurrency < 1 || cfg.duration <= 0 || cfg.timeout <= 0 || cfg.slowloris < 0 {
		flag.Usage()
		os.Exit(2)
	}
	if err := checkLocal(cfg.addr); err != nil {
		fmt.Fprintln(os.Stderr, "loadtest:", err)
		os.Exit(2)
	}
	rep, err := run(context.Background(), cfg, os.Stdout, os.Stderr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "loadtest:", err)
		os.Exit(1)
	}
	if problems := rep.problems(); len(problems) > 0 {
		for _, p := range problems {
			fmt.Fprintln(os.Stderr, "loadtest:", p)
		}
		os.Exit(1)
	}
}

// checkLocal refuses an address off this machine: the load test's traffic
// is only ever sent to a server here.
func checkLocal(addr string) error {
	if addr == "" {
		return nil
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("-addr %q: want HOST:PORT", addr)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return fmt.Errorf("-addr %q: a load test is only sent to this machine (127.0.0.1, ::1, localhost)", addr)
	}
	return nil
}

// run measures the server cfg names (or one it starts), prints the report
// to out as it goes and returns it; logs gets the server's log and progress.
func run(ctx context.Context, cfg config, out, logs io.Writer) (*report, error) {
	hostile, err := hostileRequests()
	if err != nil {
		return nil, err
	}
	rep := &report{cfg: cfg}
	base := "http://" + cfg.addr
	var srv *serverProcess
	if cfg.addr == "" {
		srv, err = startServer(ctx, cfg.dir, cfg.serverStartMax, logs)
		if err != nil {
			return nil, err
		}
		defer srv.stop(logs)
		base = "http://" + srv.addr
		rep.started = true
	}
	rep.base = base
	fmt.Fprintf(out, "Spacetime load test of %s/\n", base)
	fmt.Fprintf(out, "%d requests per target and phase, %d at a time, at most %s each; client timeout %s\n\n",
		cfg.requests, cfg.concurrency, cfg.duration, cfg.timeout)

	fmt.Fprintln(logs, "loadtest: hostile links alone, then fifty at once")
	rep.bounded, rep.burst, rep.leave, err = boundedPhase(ctx, cfg, base, srv)
	if err != nil {
		return nil, err
	}
	if srv != nil {
		rep.boundedPeakRSS = srv.peakRSS()
	}

	fmt.Fprintln(logs, "loadtest: calm phase")
	for _, t := range ordinaryTargets {
		rep.calm = append(rep.calm, runTarget(ctx, cfg, base, t))
	}
	if srv != nil {
		rep.calmPeakRSS = srv.peakRSS()
	}

	fmt.Fprintln(logs, "loadtest: hostile phase")
	h := startHostile(ctx, cfg, base, hostile)
	time.Sleep(time.Second) // let the slow connections open and the big prerender start
	for _, t := range ordinaryTargets {
		rep.underHostile = append(rep.underHostile, runTarget(ctx, cfg, base, t))
	}
	rep.hostile, rep.slow = h.stop(cfg.slowlorisHold)
	if srv != nil {
		rep.hostilePeakRSS = srv.peakRSS()
	}
	rep.afterwards = healthCheck(ctx, cfg, base)
	rep.print(out)
	return rep, nil
}
