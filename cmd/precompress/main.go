// Command precompress writes FILE.br and FILE.gz beside each FILE given, so
// that the server can send app.wasm compressed without compressing it on
// every request (internal/precompress does the work; the server checks the
// copies against the file when it starts).
package main

import (
	"fmt"
	"io"
	"os"

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

// run compresses each file and prints its sizes.
func run(names []string, out io.Writer) error {
	for _, name := range names {
		sizes, err := precompress.Write(name)
		if err != nil {
			return err
		}
		st, err := os.Stat(name)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "%s: %d bytes raw, %d gzip, %d brotli\n", name, st.Size(), sizes["gzip"], sizes["br"])
	}
	return nil
}
