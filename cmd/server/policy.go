package main

import (
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"net/http"
	"strings"

	"spacetime/app/ui"
)

// allowedMethods are the methods the site answers: it only serves pages and
// files, and takes nothing.
const allowedMethods = "GET, HEAD"

// maxRanges is the most byte ranges one request may ask for. A browser
// resuming a download asks for one; thousands of one-byte ranges would
// get a multipart answer ten times their size for a second of CPU.
const maxRanges = 8

// withPolicy puts the site's security headers on every response of next,
// refuses every method but GET and HEAD with 405 Method Not Allowed (go-app
// would answer them with the page) and a Range of more than maxRanges
// ranges with 416 Range Not Satisfiable.
func withPolicy(next http.Handler) http.Handler {
	csp := contentSecurityPolicy(ui.InlineScripts)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", csp)
		h.Set("X-Content-Type-Options", "nosniff")
		// a link holds the learner's whole view: it is not sent on to others
		h.Set("Referrer-Policy", "no-referrer")
		// an agent cluster of its own: a deck on another origin of the same
		// site (another port, another subdomain) would otherwise share the
		// lesson's thread, and stop drawing for most of a second while a
		// framed lesson starts (TestARevealDeckAndItsLessonAgree)
		h.Set("Origin-Agent-Cluster", "?1")
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			h.Set("Allow", allowedMethods)
			http.Error(w, "method not allowed: this site answers "+allowedMethods+" only", http.StatusMethodNotAllowed)
			return
		}
		if ranges := r.Header.Get("Range"); strings.Count(ranges, ",") >= maxRanges {
			http.Error(w, fmt.Sprintf("range not satisfiable: a request may ask for at most %d ranges, this one asks for %d", maxRanges, strings.Count(ranges, ",")+1), http.StatusRequestedRangeNotSatisfiable)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// contentSecurityPolicy is the policy that lets the page run and nothing
// else: its scripts, styles, images, worker and manifest come from this
// site, the inline scripts of the prerendered page are allowed by their
// hashes, and any page may frame it (lecturers embed it in their slides).
func contentSecurityPolicy(inlineScripts []string) string {
	var hashes strings.Builder
	for _, s := range inlineScripts {
		sum := sha256.Sum256([]byte(s))
		hashes.WriteString(" 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'")
	}
	return strings.Join([]string{
		"default-src 'self'",
		// go-app's loader and ours; compiling the client needs 'wasm-unsafe-eval'
		"script-src 'self' 'wasm-unsafe-eval'" + hashes.String(),
		// the prerendered page and go-app's client set style="" attributes;
		// style sheets only come from here (style-src is the fallback of
		// browsers that know neither of the two after it)
		"style-src 'self' 'unsafe-inline'",
		"style-src-elem 'self'",
		"style-src-attr 'unsafe-inline'",
		"img-src 'self'",
		"font-src 'self'",
		"connect-src 'self'",
		"worker-src 'self'",
		"manifest-src 'self'",
		"object-src 'none'",
		"base-uri 'none'",
		"form-action 'self'",
		// '*' alone matches network schemes only: slides opened from disk
		// (file:) would be refused
		"frame-ancestors * file: data: blob:",
	}, "; ")
}
