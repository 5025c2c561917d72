package precompress_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/internal/precompress"
)

// byName finds an encoding.
func byName(t *testing.T, name string) precompress.Encoding {
	for _, e := range precompress.Encodings {
		if e.Name == name {
			return e
		}
	}
	t.Fatalf("no encoding %q", name)
	return precompress.Encoding{}
}

func TestLoadChecksContentNotTimes(t *testing.T) {
	raw := []byte("the client as it is now")
	for _, tc := range []struct {
		name    string
		br, gz  func(t *testing.T) []byte // nil: no copy on disk
		rebuilt []string
		oldCopy bool // the copies' mtimes are older than the file's
	}{
		{name: "fresh copies, older than the file", br: compressed(raw, "br"), gz: compressed(raw, "gzip"), oldCopy: true},
		{name: "stale brotli", br: compressed([]byte("the client as it was"), "br"), gz: compressed(raw, "gzip"), rebuilt: []string{".br"}},
		{name: "corrupt gzip", br: compressed(raw, "br"), gz: func(*testing.T) []byte { return []byte("GZIP") }, rebuilt: []string{".gz"}},
		{name: "longer than the file", br: compressed(append(raw, raw...), "br"), gz: compressed(raw, "gzip"), rebuilt: []string{".br"}},
		{name: "no copies", rebuilt: []string{".br", ".gz"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			name := filepath.Join(t.TempDir(), "app.wasm")
			require.NoError(t, os.WriteFile(name, raw, 0o644))
			for ext, data := range map[string]func(*testing.T) []byte{".br": tc.br, ".gz": tc.gz} {
				if data != nil {
					require.NoError(t, os.WriteFile(name+ext, data(t), 0o644))
				}
			}
			if tc.oldCopy {
				old := time.Now().Add(-time.Hour)
				require.NoError(t, os.Chtimes(name+".br", old, old))
				require.NoError(t, os.Chtimes(name+".gz", old, old))
			}
			f, rebuilt, err := precompress.Load(name)
			require.NoError(t, err)
			assert.Equal(t, raw, f.Raw)
			var got []string
			for _, r := range rebuilt {
				assert.NoError(t, r.WriteErr)
				assert.NotEmpty(t, r.Reason)
				got = append(got, filepath.Ext(r.Path))
			}
			assert.ElementsMatch(t, tc.rebuilt, got)
			for _, e := range precompress.Encodings {
				back, err := e.Decompress(f.Copies[e.Name], len(raw))
				require.NoError(t, err, e.Name)
				assert.Equal(t, raw, back, "%s in memory", e.Name)
				disk, err := os.ReadFile(name + e.Ext)
				require.NoError(t, err)
				assert.Equal(t, f.Copies[e.Name], disk, "%s on disk is what is served", e.Name)
			}
			_, again, err := precompress.Load(name)
			require.NoError(t, err)
			assert.Empty(t, again, "a rebuilt copy is good the next time")
		})
	}
}

func compressed(raw []byte, enc string) func(t *testing.T) []byte {
	return func(t *testing.T) []byte {
		data, err := byName(t, enc).Compress(raw)
		require.NoError(t, err)
		return data
	}
}

func TestDecompressIsBounded(t *testing.T) {
	for _, e := range precompress.Encodings {
		data, err := e.Compress(make([]byte, 1<<20))
		require.NoError(t, err)
		_, err = e.Decompress(data, 1000)
		assert.ErrorIs(t, err, precompress.ErrTooLarge, e.Name)
	}
}

func TestMissingFileIsAnError(t *testing.T) {
	_, _, err := precompress.Load(filepath.Join(t.TempDir(), "app.wasm"))
	assert.ErrorIs(t, err, os.ErrNotExist)
}
