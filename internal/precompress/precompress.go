// Package precompress makes and checks the compressed copies of a file
// (FILE.br and FILE.gz) that let a server send it compressed without
// compressing it on every request. cmd/precompress writes them at build
// time; cmd/server loads them at start, checks that each inflates to the
// file's content and rebuilds any that does not.
package precompress

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/andybalholm/brotli"
)

// Encoding is one compressed form of a file.
type Encoding struct {
	// Name is the Content-Encoding token: "br" or "gzip".
	Name string
	// Ext is what the copy's file name adds to the file's: ".br" or ".gz".
	Ext string

	writer func(io.Writer) io.WriteCloser
	reader func(io.Reader) (io.Reader, error)
}

// Encodings are the copies made beside a file, in the order a server
// prefers them: brotli is the smaller.
var Encodings = []Encoding{
	{
		Name:   "br",
		Ext:    ".br",
		writer: func(w io.Writer) io.WriteCloser { return brotli.NewWriterLevel(w, brotli.BestCompression) },
		reader: func(r io.Reader) (io.Reader, error) { return brotli.NewReader(r), nil },
	},
	{
		Name: "gzip",
		Ext:  ".gz",
		writer: func(w io.Writer) io.WriteCloser {
			zw, _ := gzip.NewWriterLevel(w, gzip.BestCompression) // the level is valid
			return zw
		},
		reader: func(r io.Reader) (io.Reader, error) { return gzip.NewReader(r) },
	},
}

// Compress compresses raw at the encoding's best level.
func (e Encoding) Compress(raw []byte) ([]byte, error) {
	var b bytes.Buffer
	w := e.writer(&b)
	if _, err := w.Write(raw); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// ErrTooLarge says a compressed copy inflates to more than it may.
var ErrTooLarge = errors.New("inflates to more than expected")

// Decompress inflates data. It stops after limit bytes and then returns
// ErrTooLarge, so that a corrupt copy cannot make it allocate without
// bound.
func (e Encoding) Decompress(data []byte, limit int) ([]byte, error) {
	r, err := e.reader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	out, err := io.ReadAll(io.LimitReader(r, int64(limit)+1))
	if err != nil {
		return nil, err
	}
	if len(out) > limit {
		return nil, ErrTooLarge
	}
	return out, nil
}

// Write compresses the file name into every encoding's copy beside it and
// returns the copies' sizes by encoding name.
func Write(name string) (map[string]int, error) {
	raw, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	copies, err := compressAll(raw, Encodings)
	if err != nil {
		return nil, err
	}
	sizes := map[string]int{}
	for _, e := range Encodings {
		if err := writeAtomically(name+e.Ext, copies[e.Name]); err != nil {
			return nil, err
		}
		sizes[e.Name] = len(copies[e.Name])
	}
	return sizes, nil
}

// File is a file's content and its compressed copies, each checked to
// inflate to exactly that content.
type File struct {
	// Raw is the file's content.
	Raw []byte
	// ModTime is the file's modification time when it was read.
	ModTime time.Time
	// Copies are the compressed copies by encoding name.
	Copies map[string][]byte
}

// Rebuilt tells of a copy that Load had to compress again.
type Rebuilt struct {
	// Path is the copy's file name.
	Path string
	// Reason says what was wrong with the copy on disk: "missing", or
	// "stale" or "corrupt" and why.
	Reason string
	// WriteErr is set when the fresh copy could not be written back: it is
	// then only in memory, and the next Load rebuilds it again.
	WriteErr error
}

// Load reads the file name and its compressed copies and checks that each
// copy inflates to exactly the file's content. It compares contents, not
// modification times, which a plain cp reorders. A copy that is missing,
// corrupt or stale is compressed again and written back in place; Load
// reports each one it rebuilt.
func Load(name string) (*File, []Rebuilt, error) {
	raw, err := os.ReadFile(name)
	if err != nil {
		return nil, nil, err
	}
	st, err := os.Stat(name)
	if err != nil {
		return nil, nil, err
	}
	f := &File{Raw: raw, ModTime: st.ModTime(), Copies: map[string][]byte{}}
	var stale []Encoding
	reasons := map[string]string{}
	for _, e := range Encodings {
		data, reason := check(e, name, raw)
		if reason != "" {
			stale = append(stale, e)
			reasons[e.Name] = reason
			continue
		}
		f.Copies[e.Name] = data
	}
	fresh, err := compressAll(raw, stale)
	if err != nil {
		return nil, nil, err
	}
	var rebuilt []Rebuilt
	for _, e := range stale {
		f.Copies[e.Name] = fresh[e.Name]
		rebuilt = append(rebuilt, Rebuilt{
			Path:     name + e.Ext,
			Reason:   reasons[e.Name],
			WriteErr: writeAtomically(name+e.Ext, fresh[e.Name]),
		})
	}
	return f, rebuilt, nil
}

// check reads the copy of the file name (whose content is raw) in
// encoding e and says what is wrong with it, if anything.
func check(e Encoding, name string, raw []byte) ([]byte, string) {
	data, err := os.ReadFile(name + e.Ext)
	if errors.Is(err, os.ErrNotExist) {
		return nil, "missing"
	}
	if err != nil {
		return nil, fmt.Sprintf("unreadable (%v)", err)
	}
	out, err := e.Decompress(data, len(raw))
	switch {
	case errors.Is(err, ErrTooLarge):
		return nil, "stale (it inflates to more bytes than " + filepath.Base(name) + " has)"
	case err != nil:
		return nil, fmt.Sprintf("corrupt (%v)", err)
	case !bytes.Equal(out, raw):
		return nil, "stale (it inflates to other content than " + filepath.Base(name) + ")"
	}
	return data, ""
}

// compressAll compresses raw into each encoding at once: brotli at its best
// level takes about a minute for the 9 MB client, and gzip can run beside it.
func compressAll(raw []byte, encs []Encoding) (map[string][]byte, error) {
	out := make([][]byte, len(encs))
	errs := make([]error, len(encs))
	var wg sync.WaitGroup
	for i, e := range encs {
		wg.Go(func() { out[i], errs[i] = e.Compress(raw) })
	}
	wg.Wait()
	copies := map[string][]byte{}
	for i, e := range encs {
		if errs[i] != nil {
			return nil, fmt.Errorf("compressing as %s: %w", e.Name, errs[i])
		}
		copies[e.Name] = out[i]
	}
	return copies, nil
}

// writeAtomically replaces path with data by renaming a finished temporary
// file over it, so that a reader never sees half a copy.
func writeAtomically(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // fails harmlessly once renamed
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
