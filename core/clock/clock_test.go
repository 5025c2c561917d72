package clock

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestLamport(t *testing.T) {
	tests := []struct {
		name string
		got  Lamport
		want Lamport
	}{
		{"tick", Lamport(3).Tick(), 4},
		{"receive later stamp", Lamport(2).Receive(7), 8},
		{"receive earlier stamp", Lamport(9).Receive(1), 10},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, tt.got, tt.name)
	}
}

func TestVectorCompare(t *testing.T) {
	tests := []struct {
		a, b Vector
		want Order
	}{
		{Vector{1, 0, 0}, Vector{1, 0, 0}, Equal},
		{Vector{1, 0, 0}, Vector{2, 1, 0}, Before},
		{Vector{2, 1, 0}, Vector{1, 0, 0}, After},
		{Vector{1, 0, 0}, Vector{0, 1, 0}, Concurrent},
		{nil, Vector{0, 0, 1}, Before},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, Compare(tt.a, tt.b), "%v vs %v", tt.a, tt.b)
	}
	assert.True(t, HappenedBefore(Vector{0, 1}, Vector{1, 1}))
	assert.False(t, HappenedBefore(Vector{0, 1}, Vector{1, 0}))
}

func TestVectorMergeTick(t *testing.T) {
	v := NewVector(3)
	v.Tick(0)
	v.Merge(Vector{0, 4, 2})
	v.Tick(0)
	assert.Equal(t, Vector{2, 4, 2}, v)
	c := v.Clone()
	c.Tick(1)
	assert.Equal(t, Vector{2, 4, 2}, v, "clone is independent")
}

func BenchmarkVector(b *testing.B) {
	for _, n := range []int{3, 32} {
		v, m := NewVector(n), NewVector(n)
		for i := range n {
			m[i] = int32(i)
		}
		b.Run("merge-tick/n="+string(rune('0'+n/10))+string(rune('0'+n%10)), func(b *testing.B) {
			for b.Loop() {
				v.Merge(m)
				v.Tick(0)
			}
		})
		b.Run("compare/n="+string(rune('0'+n/10))+string(rune('0'+n%10)), func(b *testing.B) {
			for b.Loop() {
				Compare(v, m)
			}
		})
	}
}

// A log writes a clock by name, zero entries left out, names quoted.
func TestFormatLog(t *testing.T) {
	names := []string{"A", `b"c`, "C"}
	name := func(i int) string { return names[i] }
	assert.Equal(t, `{"A":2, "C":1}`, FormatLog([]int64{2, 0, 1}, name))
	assert.Equal(t, `{"b\"c":3}`, FormatLog(Vector{0, 3, 0}, name))
	assert.Equal(t, `{}`, FormatLog([]int32{0, 0, 0}, name))
	quoted := []string{`"A"`, `"b\"c"`, `"C"`}
	for _, v := range [][]int64{{2, 0, 1}, {0, 3, 0}, {0, 0, 0}, {4, 5, 6}} {
		assert.Equal(t, "at "+FormatLog(v, name), string(AppendLog([]byte("at "), v, quoted)))
	}
}
