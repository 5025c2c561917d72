package main

import (
	"bytes"
	"errors"
	"fmt"
	"html"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"spacetime/app/ui"
	"spacetime/core/scenario"
)

// A static site: the same pages the server sends, written as files that any
// static host serves (a project page such as https://user.github.io/spacetime/
// included), and that work offline after the first visit. Every page sits
// in the site's top directory and names what it loads relative to itself,
// so the site works from whatever path it is put at; the client learns
// that path in the browser (staticRoot).

// staticResources resolves the site's resources relative to its pages.
type staticResources struct{ servedSite }

// Resolve makes the server's absolute paths relative: "/web/x" is
// "./web/x", "/" is "./".
func (s staticResources) Resolve(loc string) string {
	r := s.servedSite.Resolve(loc)
	if strings.HasPrefix(r, "/") {
		return "." + r
	}
	return r
}

// staticRoot is put after the environment in app.js. go-app routes a path
// once GOAPP_ROOT_PREFIX is trimmed from it, and the static site cannot
// know that prefix when it is written: it is the page's directory, found
// here. A page file's name becomes the route it stands for, so that
// reloading keeps working: index.html is the site's root, compare.html
// /compare, write.html /write (the Write view), and a lesson's page (snapshot-bank.html) the root with the
// lesson in its link (?s=snapshot-bank) unless the link names another.
const staticRoot = `
// a static site: the root is the page's directory, wherever it is served
(() => {
  const dir = location.pathname.replace(/[^/]*$/, "");
  const file = location.pathname.slice(dir.length);
  let path = location.pathname, search = location.search;
  if (file === "index.html") {
    path = dir;
  } else if (file === "compare.html") {
    path = dir + "compare";
  } else if (file === "write.html") {
    path = dir + "write";
  } else if (/^[a-z0-9-]+\.html$/.test(file)) {
    path = dir;
    if (!new URLSearchParams(search).has("s")) {
      search = "?s=" + file.slice(0, -5) + (search ? "&" + search.slice(1) : "");
    }
  }
  if (path !== location.pathname || search !== location.search) {
    history.replaceState(history.state, "", path + search + location.hash);
  }
  goappEnv.GOAPP_ROOT_PREFIX = dir.replace(/\/$/, "");
})();
`

// writeStatic writes the site of the directory root (which holds web/)
// into dir: index.html, compare.html and write.html (the Write view), a
// page for every built-in lesson with its picture, go-app's scripts (the
// Write view's loader, write.js, beside app.js), worker and manifest, and
// web/ (the clients with their precompressed copies, the styles, scripts,
// icons and the example deck).
func writeStatic(root, dir string) error {
	h, err := newHandler(root)
	if err != nil {
		return err
	}
	h.Handler = pageHandler(staticResources{h.web}, h.version)
	h.write = pageHandler(writeResources{staticResources{h.web}}, h.version)
	srv := httptest.NewServer(h)
	defer srv.Close()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	get := func(path string) ([]byte, error) {
		res, err := http.Get(srv.URL + path)
		if err != nil {
			return nil, err
		}
		defer res.Body.Close()
		body, err := io.ReadAll(res.Body)
		if err != nil {
			return nil, err
		}
		if res.StatusCode != http.StatusOK {
			return nil, fmt.Errorf("%s: %s", path, res.Status)
		}
		return body, nil
	}
	files := map[string]string{
		"index.html":           "/",
		"compare.html":         "/compare",
		"write.html":           ui.WritePath,
		"app.js":               "/app.js",
		"write.js":             writeLoader,
		"app-worker.js":        "/app-worker.js",
		"manifest.webmanifest": "/manifest.webmanifest",
		"app.css":              "/app.css",
		"wasm_exec.js":         "/wasm_exec.js",
	}
	for _, l := range scenario.BuiltinList() {
		files[l.ID+".html"] = "/?s=" + url.QueryEscape(l.ID)
	}
	for name, path := range files {
		body, err := get(path)
		if err != nil {
			return fmt.Errorf("writing %s: %w", name, err)
		}
		if name == "manifest.webmanifest" {
			// the app's scope is the site's directory, not the host's root
			body = []byte(strings.Replace(string(body), `"scope":"/"`, `"scope":"./"`, 1))
		}
		if strings.HasSuffix(name, ".html") {
			if body, err = withPolicyMeta(body); err != nil {
				return fmt.Errorf("writing %s: %w", name, err)
			}
		}
		if name == "app.js" || name == "write.js" {
			const env = "const goappEnv = "
			i := strings.Index(string(body), env)
			end := i + strings.Index(string(body[i:]), ";\n")
			if i < 0 || end < i {
				return errors.New("go-app's app.js changed: review staticRoot")
			}
			body = []byte(string(body[:end+2]) + staticRoot + string(body[end+2:]))
		}
		if err := os.WriteFile(filepath.Join(dir, name), body, 0o644); err != nil {
			return err
		}
	}
	return copyDir(filepath.Join(root, "web"), filepath.Join(dir, "web"))
}

// withPolicyMeta puts the site's security policy into a page as the
// server sends it in headers, which a static host may not let the site
// set: the content security policy (but frame-ancestors, which a page
// cannot set for itself: a browser ignores it there and says so) and the
// referrer policy, right after the character set, before anything they
// govern.
func withPolicyMeta(page []byte) ([]byte, error) {
	const charset = `<meta charset="UTF-8">`
	at := bytes.Index(page, []byte(charset))
	if at < 0 {
		return nil, errors.New("the page has no " + charset + ": review withPolicyMeta")
	}
	var kept []string
	for _, directive := range strings.Split(contentSecurityPolicy(ui.InlineScripts), "; ") {
		if !strings.HasPrefix(directive, "frame-ancestors ") {
			kept = append(kept, directive)
		}
	}
	meta := fmt.Sprintf(`<meta http-equiv="Content-Security-Policy" content="%s"><meta name="referrer" content="no-referrer">`, html.EscapeString(strings.Join(kept, "; ")))
	end := at + len(charset)
	return slices.Concat(page[:end], []byte(meta), page[end:]), nil
}

// copyDir copies the files of a directory tree.
func copyDir(from, to string) error {
	return filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(from, path)
		if err != nil {
			return err
		}
		target := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
}
