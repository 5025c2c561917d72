package main

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"
)

// The server's limits. A request is a GET without a body, so reading one is
// quick; sending the client (9 MB raw, 1.8 MB in brotli) to a slow link
// takes longest.
const (
	// readHeaderTimeout cuts off a client that sends its headers a line at
	// a time to hold a connection open (slowloris).
	readHeaderTimeout = 10 * time.Second
	// readTimeout bounds reading a whole request.
	readTimeout = 30 * time.Second
	// writeTimeout bounds a response from the end of its request's headers,
	// its prerendering included: 2 minutes send the raw client at 600 kbit/s.
	writeTimeout = 2 * time.Minute
	// idleTimeout closes a kept-alive connection that asks nothing more.
	idleTimeout = time.Minute
	// maxHeaderBytes is room for the request line of a link, which carries
	// the whole view, a packed scenario included.
	maxHeaderBytes = 1 << 20
	// shutdownGrace is how long requests in flight may take to finish once
	// the server is told to stop.
	shutdownGrace = 20 * time.Second
)

// newServer is the server for h on addr, with its limits, and the site's
// security headers and allowed methods on every response.
func newServer(addr string, h http.Handler) *http.Server {
	return &http.Server{
		Addr:              addr,
		Handler:           withPolicy(h),
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
		// "OPTIONS *" asks what the server allows: not 200 with nothing
		// said, as net/http answers by itself, but withPolicy's 405 and
		// Allow header
		DisableGeneralOptionsHandler: true,
	}
}

// shutdownSignals is a context that ends on SIGINT or SIGTERM: the server
// then stops taking connections and lets the requests in flight finish.
func shutdownSignals(parent context.Context) (context.Context, context.CancelFunc) {
	ctx, stop := signal.NotifyContext(parent, os.Interrupt, syscall.SIGTERM)
	// once told, the signals work as usual again: a second Ctrl-C ends the
	// server at once
	context.AfterFunc(ctx, stop)
	return ctx, stop
}

// serveUntil serves on ln until ctx ends, then shuts the server down: it
// closes the listener and idle connections at once and waits up to grace
// for the requests in flight, then closes what is left. It returns
// http.ErrServerClosed after a shutdown, or why serving failed.
func serveUntil(ctx context.Context, srv *http.Server, ln net.Listener, grace time.Duration) error {
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	log.Printf("shutting down (%v): finishing the requests in flight, for at most %s", context.Cause(ctx), grace)
	deadline, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	if err := srv.Shutdown(deadline); err != nil {
		srv.Close()
		<-served
		return fmt.Errorf("requests still in flight after %s were cut off: %w", grace, err)
	}
	err := <-served
	if errors.Is(err, http.ErrServerClosed) {
		log.Printf("stopped")
	}
	return err
}
