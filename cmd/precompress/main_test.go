package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/internal/precompress"
)

func TestWritesCopiesThatInflateToTheFile(t *testing.T) {
	for _, tc := range []struct {
		name string
		raw  []byte
	}{
		{"empty", nil},
		{"text", []byte("the client, compressed once at build time")},
		{"repetitive", bytes.Repeat([]byte("wasm"), 10_000)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			name := filepath.Join(t.TempDir(), "app.wasm")
			require.NoError(t, os.WriteFile(name, tc.raw, 0o644))
			var out strings.Builder
			require.NoError(t, run([]string{name}, &out))
			assert.Contains(t, out.String(), name+":")
			for _, e := range precompress.Encodings {
				data, err := os.ReadFile(name + e.Ext)
				require.NoError(t, err, e.Name)
				back, err := e.Decompress(data, len(tc.raw))
				require.NoError(t, err, e.Name)
				assert.Equal(t, len(tc.raw), len(back), e.Name)
				assert.True(t, bytes.Equal(tc.raw, back), e.Name)
			}
		})
	}
}

func TestMissingFileFails(t *testing.T) {
	err := run([]string{filepath.Join(t.TempDir(), "nope.wasm")}, &strings.Builder{})
	require.Error(t, err)
}
