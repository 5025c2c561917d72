package main

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// testServer serves h with the server's settings, its timeouts shortened
// to test's, until the test ends.
func testServer(t *testing.T, h http.Handler, timeout time.Duration) string {
	srv := newServer("", h)
	srv.ReadHeaderTimeout, srv.ReadTimeout, srv.IdleTimeout = timeout, 2*timeout, timeout
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String()
}

// A client that holds a connection open without finishing a request, or
// keeps an idle one, is disconnected after the server's timeout.
func TestSlowClientsAreDisconnected(t *testing.T) {
	const timeout = 500 * time.Millisecond
	ok := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") })
	addr := testServer(t, ok, timeout)
	for _, tc := range []struct {
		name  string
		start string        // sent at once
		drip  string        // then sent again and again
		every time.Duration // how often
	}{
		{"a header line every 200 ms (slowloris)", "GET / HTTP/1.1\r\nHost: x\r\n", "X-Slow: 1\r\n", 200 * time.Millisecond},
		{"a byte of the request line every 200 ms", "", "G", 200 * time.Millisecond},
		{"a silent connection", "", "", 0},
		{"an idle connection after a request", "GET / HTTP/1.1\r\nHost: x\r\n\r\n", "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			conn, err := net.Dial("tcp", addr)
			require.NoError(t, err)
			defer conn.Close()
			start := time.Now()
			_, err = io.WriteString(conn, tc.start)
			require.NoError(t, err)
			stop := make(chan struct{})
			defer close(stop)
			if tc.drip != "" {
				go func() {
					for {
						select {
						case <-stop:
							return
						case <-time.After(tc.every):
						}
						if _, err := io.WriteString(conn, tc.drip); err != nil {
							return
						}
					}
				}()
			}
			// the server closes the connection: the read ends (after the
			// answer to a complete request) before the test's own deadline
			const patience = 10 * time.Second
			require.NoError(t, conn.SetReadDeadline(time.Now().Add(patience)))
			_, err = io.Copy(io.Discard, conn)
			held := time.Since(start)
			var netErr net.Error
			require.False(t, errors.As(err, &netErr) && netErr.Timeout(), "still open after %s", patience)
			assert.GreaterOrEqual(t, held, timeout/2, "not cut off before the timeout")
			assert.Less(t, held, 6*timeout, "cut off soon after the timeout (held %s)", held)
		})
	}
}

// On shutdown a request in flight finishes, then Serve returns
// http.ErrServerClosed; one that takes longer than the grace is cut off.
func TestGracefulShutdown(t *testing.T) {
	for _, tc := range []struct {
		name        string
		grace       time.Duration
		finishAfter time.Duration // the request in flight takes this long after shutdown starts
		completes   bool
	}{
		{"a request in flight finishes", 5 * time.Second, 300 * time.Millisecond, true},
		{"a request past the grace is cut off", 200 * time.Millisecond, 3 * time.Second, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			entered, release := make(chan struct{}), make(chan struct{})
			slow := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				close(entered)
				select {
				case <-release:
				case <-time.After(10 * time.Second):
				}
				io.WriteString(w, "finished")
			})
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			require.NoError(t, err)
			url := "http://" + ln.Addr().String() + "/"
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			srv := newServer("", slow)
			served := make(chan error, 1)
			go func() { served <- serveUntil(ctx, srv, ln, tc.grace) }()

			type answer struct {
				body string
				err  error
			}
			answered := make(chan answer, 1)
			go func() {
				res, err := http.Get(url)
				if err != nil {
					answered <- answer{err: err}
					return
				}
				defer res.Body.Close()
				b, err := io.ReadAll(res.Body)
				answered <- answer{string(b), err}
			}()
			<-entered
			cancel()
			// new connections are refused at once
			require.Eventually(t, func() bool {
				c, err := net.DialTimeout("tcp", ln.Addr().String(), time.Second)
				if err == nil {
					c.Close()
				}
				return err != nil
			}, 2*time.Second, 20*time.Millisecond, "the listener closes")
			time.AfterFunc(tc.finishAfter, func() { close(release) })

			a := <-answered
			err = <-served
			if tc.completes {
				require.NoError(t, a.err)
				assert.Equal(t, "finished", a.body)
				assert.ErrorIs(t, err, http.ErrServerClosed)
			} else {
				assert.Error(t, a.err, "the client sees the connection cut")
				require.Error(t, err)
				assert.NotErrorIs(t, err, http.ErrServerClosed)
				assert.Contains(t, err.Error(), "cut off")
			}
		})
	}
}

// SIGINT and SIGTERM end the server's context, and so start the shutdown.
func TestSignalsStartTheShutdown(t *testing.T) {
	for _, tc := range []struct {
		name string
		sig  syscall.Signal
	}{
		{"SIGINT", syscall.SIGINT},
		{"SIGTERM", syscall.SIGTERM},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, stop := shutdownSignals(context.Background())
			defer stop()
			require.NoError(t, syscall.Kill(syscall.Getpid(), tc.sig))
			select {
			case <-ctx.Done():
				assert.Contains(t, context.Cause(ctx).Error(), "signal received")
			case <-time.After(5 * time.Second):
				t.Fatal("the signal did not end the context")
			}
		})
	}
}

// The server's limits are set: without them 300 slow clients kept 300
// connections open indefinitely.
func TestServerHasLimits(t *testing.T) {
	srv := newServer("127.0.0.1:0", http.NotFoundHandler())
	for name, d := range map[string]time.Duration{
		"ReadHeaderTimeout": srv.ReadHeaderTimeout, "ReadTimeout": srv.ReadTimeout,
		"WriteTimeout": srv.WriteTimeout, "IdleTimeout": srv.IdleTimeout,
	} {
		assert.Positive(t, d, name)
	}
	assert.GreaterOrEqual(t, srv.WriteTimeout, 2*time.Minute, "the 9 MB client on a slow link")
	assert.Positive(t, srv.MaxHeaderBytes)
}

// A long link still fits in the request line.
func TestLongLinkFitsTheHeaderLimit(t *testing.T) {
	ok := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, r.URL.Query().Get("in")[:3]) })
	addr := testServer(t, ok, 5*time.Second)
	for _, tc := range []struct {
		name   string
		size   int
		status int
	}{
		{"5000 inputs", 5000 * 4, http.StatusOK},
		{"half a megabyte", 512 << 10, http.StatusOK},
		{"past the limit", 2 << 20, http.StatusRequestHeaderFieldsTooLarge},
	} {
		t.Run(tc.name, func(t *testing.T) {
			conn, err := net.Dial("tcp", addr)
			require.NoError(t, err)
			defer conn.Close()
			go io.WriteString(conn, "GET /?in="+strings.Repeat("1d0,", tc.size/4)+" HTTP/1.1\r\nHost: x\r\n\r\n")
			res, err := http.ReadResponse(bufio.NewReader(conn), nil)
			require.NoError(t, err)
			res.Body.Close()
			assert.Equal(t, tc.status, res.StatusCode)
		})
	}
}
