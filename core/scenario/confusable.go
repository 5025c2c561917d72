package scenario

import "strings"

// lookalikes maps letters and digits that are drawn like others, in the
// fonts a projector shows, to the one they are taken for: Cyrillic and
// Greek capitals and small letters that look Latin, and the Latin letters
// and digits that look alike (0 and O; 1, l and I). It follows Unicode's
// confusables (UTS #39) for the characters a process name is likely to
// hold; fullwidth forms and mathematical letters are folded by range.
var lookalikes = map[rune]rune{
	// Cyrillic
	'А': 'A', 'В': 'B', 'Е': 'E', 'К': 'K', 'М': 'M', 'Н': 'H', 'О': 'O', 'Р': 'P', 'С': 'C', 'Т': 'T', 'Х': 'X',
	'У': 'Y', 'Ѕ': 'S', 'І': 'l', 'Ј': 'J', 'Ԛ': 'Q', 'Ԝ': 'W', 'Ү': 'Y', 'Һ': 'h', 'Ӏ': 'l', 'З': '3', 'Ь': 'b',
	'а': 'a', 'е': 'e', 'о': 'o', 'р': 'p', 'с': 'c', 'у': 'y', 'х': 'x', 'ѕ': 's', 'і': 'i', 'ј': 'j',
	'ԁ': 'd', 'ԛ': 'q', 'ԝ': 'w', 'һ': 'h', 'ӏ': 'l', 'ь': 'b', 'г': 'r', 'п': 'n', 'к': 'k',
	// Greek
	'Α': 'A', 'Β': 'B', 'Ε': 'E', 'Ζ': 'Z', 'Η': 'H', 'Ι': 'l', 'Κ': 'K', 'Μ': 'M', 'Ν': 'N', 'Ο': 'O', 'Ρ': 'P',
	'Τ': 'T', 'Υ': 'Y', 'Χ': 'X', 'ο': 'o', 'ν': 'v', 'ρ': 'p', 'ι': 'i', 'κ': 'k', 'α': 'a', 'τ': 't', 'υ': 'u',
	// Armenian and Latin lookalikes
	'Օ': 'O', 'օ': 'o', 'ս': 'u', 'ց': 'g', 'ı': 'i', 'ȷ': 'j', 'ɑ': 'a', 'ɡ': 'g', 'ʏ': 'y',
	// digits and letters taken for each other
	'0': 'O', '1': 'l', 'I': 'l', '|': 'l',
}

// skeleton is what a name looks like: two names with one skeleton cannot
// be told apart on a slide ("A" in Latin and "А" in Cyrillic).
func skeleton(name string) string {
	var b strings.Builder
	for _, r := range name {
		switch {
		case r >= 0xFF01 && r <= 0xFF5E: // fullwidth forms
			r -= 0xFF01 - '!'
		case r >= 0x1D400 && r <= 0x1D6A3: // mathematical letters, by style
			if k := (r - 0x1D400) % 52; k < 26 {
				r = 'A' + k
			} else {
				r = 'a' + k - 26
			}
		case r >= 0x1D7CE && r <= 0x1D7FF: // mathematical digits
			r = '0' + (r-0x1D7CE)%10
		}
		if l, ok := lookalikes[r]; ok {
			r = l
		}
		b.WriteRune(r)
	}
	return b.String()
}
