// Command server serves the Spacetime page: the go-app handler with the
// client (web/app.wasm, sent precompressed when the browser accepts it), the
// painter script, styles and icons from the web/ directory.
//
//	server [-addr 127.0.0.1:8080] [-dir .]
//
// -dir is the directory that contains web/; it defaults to the working
// directory, so `make run` serves the tree it built.
package main

import (
	"errors"
	"flag"
	"fmt"
	"log"
	"net/http"
	"os"
	"path/filepath"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "address to listen on")
	dir := flag.String("dir", ".", "directory that contains web/")
	flag.Parse()
	h, err := newHandler(*dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "server:", err)
		os.Exit(1)
	}
	log.Printf("Spacetime is serving http://%s/ (version %s)", *addr, h.version)
	if err := http.ListenAndServe(*addr, h); err != nil {
		fmt.Fprintln(os.Stderr, "server:", err)
		os.Exit(1)
	}
}

// checkWeb makes sure the client was built, with a message that says how.
func checkWeb(dir string) error {
	wasm := filepath.Join(dir, "web", "app.wasm")
	if _, err := os.Stat(wasm); errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("%s is missing: build it with `make build` (or run `make run`)", wasm)
	}
	return nil
}
