package diagram

import (
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
)

// texName reads names as the regular expression of TeX-safe names does.
func TestTexNameIsLettersThenLettersAndDigits(t *testing.T) {
	re := regexp.MustCompile(`^[A-Za-z][A-Za-z0-9]*$`)
	for _, n := range []string{"", "A", "z", "p1", "P10x", "1", "1a", "a-b", "a b", "é", "aé", "a_", "Z9", "@", "[", "`", "{", "a/", "a:"} {
		assert.Equal(t, re.MatchString(n), texName(n), "%q", n)
	}
}
