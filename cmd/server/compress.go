package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"sync"

	"github.com/andybalholm/brotli"
)

// A page is compressed as it is sent, as the client is (which was
// compressed at build time): a lesson's page is 30 to 400 KB of HTML
// and inline SVG, a tenth of that compressed. The levels are the fast
// ones, since every page is compressed anew: on a 52 KB page here brotli
// at 4 takes 2.7 ms for 7.5 KB, gzip at 5 1.1 ms for 7.7 KB, where
// their best levels take ten times as long for a few percent less.
const (
	pageBrotliLevel = 4
	pageGzipLevel   = 5
)

// pageEncoding is one way of compressing a page, its writers pooled: each
// holds a megabyte or so of tables.
type pageEncoding struct {
	name string
	pool sync.Pool
	// reset points a pooled writer at w.
	reset func(zw io.WriteCloser, w io.Writer)
}

// pageEncodings are the page's encodings, in the order the server prefers
// them.
var pageEncodings = []*pageEncoding{
	{
		name:  "br",
		pool:  sync.Pool{New: func() any { return brotli.NewWriterLevel(nil, pageBrotliLevel) }},
		reset: func(zw io.WriteCloser, w io.Writer) { zw.(*brotli.Writer).Reset(w) },
	},
	{
		name: "gzip",
		pool: sync.Pool{New: func() any {
			zw, _ := gzip.NewWriterLevel(nil, pageGzipLevel) // the level is valid
			return zw
		}},
		reset: func(zw io.WriteCloser, w io.Writer) { zw.(*gzip.Writer).Reset(w) },
	},
}

// pageEncodingFor is the encoding a page is sent in to a client whose
// Accept-Encoding header is header, or nil to send it as it is.
func pageEncodingFor(header string) *pageEncoding {
	accept := acceptedEncodings(header)
	for _, e := range pageEncodings {
		if accept[e.name] {
			return e
		}
	}
	return nil
}

// compress is body compressed in the encoding.
func (e *pageEncoding) compress(body []byte) []byte {
	var out bytes.Buffer
	out.Grow(len(body)/6 + 512)
	zw := e.pool.Get().(io.WriteCloser)
	e.reset(zw, &out)
	zw.Write(body) // a bytes.Buffer takes every write
	zw.Close()
	e.reset(zw, nil)
	e.pool.Put(zw)
	return out.Bytes()
}
