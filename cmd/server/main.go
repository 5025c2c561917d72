// Command server serves the Spacetime page: the go-app handlers with the
// clients (web/app.wasm for the lesson page, web/write.wasm for the Write
// view at /write, each sent precompressed when the browser accepts it),
// the painter script, styles and icons from the web/ directory.
//
//	server [-addr 127.0.0.1:8080] [-dir .]
//	server -static DIR [-dir .]
//
// -dir is the directory that contains web/; it defaults to the working
// directory, so `make run` serves the tree it built. -addr with port 0
// picks a free port; the log says which. SIGINT or SIGTERM stops the
// server once the requests in flight have finished. -static writes the
// site as static files into DIR instead of serving it (make static).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime/debug"

	"spacetime/core/algo/all"
	"spacetime/core/algo/python"
	"spacetime/core/algo/python/ports"
)

// The server prerenders the Write view with the programs Spacetime ships
// (the starter, the ports, the exercises): it links the interpreter,
// which the lesson page's client leaves out. Any other program a link
// carries is run by the page alone (python.Shipped says why).
func init() { all.Add(python.Shipped(ports.Texts()...)) }

// memoryLimit is the heap the server's garbage collector works to stay
// under: two prerenders at their bound and the pages being sent fit in it
// with room to spare, and the collector runs more often as it nears it,
// so that a burst of hostile links does not double the heap before a
// collection (see make load for what the server holds under them).
const memoryLimit = 200 << 20

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "address to listen on")
	dir := flag.String("dir", ".", "directory that contains web/")
	public := flag.String("public-url", "", "the address students reach the site at (https://host), for link previews")
	static := flag.String("static", "", "write the site as static files into this directory, and stop")
	flag.Parse()
	if *static != "" {
		if err := writeStatic(*dir, *static); err != nil {
			fmt.Fprintln(os.Stderr, "server:", err)
			os.Exit(1)
		}
		return
	}
	debug.SetMemoryLimit(memoryLimit)
	ctx, stop := shutdownSignals(context.Background())
	defer stop()
	if err := run(ctx, *addr, *dir, *public); err != nil {
		fmt.Fprintln(os.Stderr, "server:", err)
		os.Exit(1)
	}
}

// run serves the site in dir on addr until ctx ends.
func run(ctx context.Context, addr, dir, public string) error {
	h, err := newHandler(dir)
	if err != nil {
		return err
	}
	if err := h.publicAt(public); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	log.Printf("Spacetime is serving http://%s/ (version %s)", ln.Addr(), h.version)
	err = serveUntil(ctx, newServer(addr, h), ln, shutdownGrace)
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// checkWeb makes sure the clients were built, with a message that says how.
func checkWeb(dir string) error {
	for _, c := range clients {
		wasm := filepath.Join(dir, "web", c.file)
		if _, err := os.Stat(wasm); errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("%s is missing: build it with `make build` (or run `make run`)", wasm)
		}
	}
	return nil
}
