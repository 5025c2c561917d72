// Command precompress writes FILE.br and FILE.gz beside each FILE given, so
// that the server can send app.wasm compressed without compressing it on
// every request (internal/precompress does the work; the server checks the
// copies against the file when it starts).
package main

import (
	"fmt"
	"io"
	"os"
	"sync"

	"spacetime/internal/precompress"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: precompress FILE...")
		os.Exit(2)
	}
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "precompress:", err)
		os.Exit(1)
	}
}

// run compresses the files side by side (brotli's best compression keeps
// a core busy for most of a minute a client) and prints their sizes in
// the order given.
func run(names []string, out io.Writer) error {
	lines := make([]string, len(names))
	errs := make([]error, len(names))
	var wg sync.WaitGroup
	for i, name := range names {
		wg.Go(func() { lines[i], errs[i] = compress(name) })
	}
	wg.Wait()
	for i := range names {
		if errs[i] != nil {
			return errs[i]
		}
		fmt.Fprintln(out, lines[i])
	}
	return nil
}

// compress writes one file's copies and says their sizes.
func compress(name string) (string, error) {
	sizes, err := precompress.Write(name)
	if err != nil {
		return "", err
	}
	st, err := os.Stat(name)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%s: %d bytes raw, %d gzip, %d brotli", name, st.Size(), sizes["gzip"], sizes["br"]), nil
}
