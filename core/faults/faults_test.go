package faults

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParse(t *testing.T) {
	tests := []struct {
		in   string
		want Kind
		err  string
	}{
		{in: "crash", want: Crash},
		{in: "recover", want: Recover},
		{in: "pause", want: Pause},
		{in: "drop", want: Drop},
		{in: "Crash", err: `unknown fault "Crash"`},
		{in: "", err: "want one of crash, recover, pause, drop"},
	}
	for _, tt := range tests {
		got, err := Parse(tt.in)
		if tt.err != "" {
			require.Error(t, err, tt.in)
			assert.Contains(t, err.Error(), tt.err)
			continue
		}
		require.NoError(t, err, tt.in)
		assert.Equal(t, tt.want, got)
	}
}

func TestHealth(t *testing.T) {
	tests := []struct {
		h       Health
		name    string
		running bool
	}{
		{Health{}, "up", true},
		{Health{State: Crashed}, "crashed", false},
		{Health{State: Paused, Until: 9}, "paused", false},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.name, tt.h.State.String())
		assert.Equal(t, tt.running, tt.h.Running(), tt.name)
	}
}
