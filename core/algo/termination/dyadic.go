package termination

import (
	"fmt"
	"math/big"
	"strconv"
)

// dyadic is an exact fraction whose denominator is a power of two,
// num/2^exp, the only kind credit recovery makes: adding a share 2^-e is
// a shift and an addition, with no common divisor to find, so that a sum
// costs the length of its numbers and never their product.
type dyadic struct {
	num big.Int
	exp int
}

// addShare adds sign·2^-e (sign is 1 or -1).
func (d *dyadic) addShare(e, sign int) {
	if e > d.exp {
		d.num.Lsh(&d.num, uint(e-d.exp))
		d.exp = e
	}
	var t big.Int
	t.SetBit(&t, d.exp-e, 1)
	if sign < 0 {
		d.num.Sub(&d.num, &t)
	} else {
		d.num.Add(&d.num, &t)
	}
}

// add adds another dyadic.
func (d *dyadic) add(o *dyadic) {
	if o.exp > d.exp {
		d.num.Lsh(&d.num, uint(o.exp-d.exp))
		d.exp = o.exp
	}
	var t big.Int
	t.Lsh(&o.num, uint(d.exp-o.exp))
	d.num.Add(&d.num, &t)
}

// set makes d a copy of o.
func (d *dyadic) set(o *dyadic) {
	d.num.Set(&o.num)
	d.exp = o.exp
}

// isOne reports whether d is exactly 1.
func (d *dyadic) isOne() bool {
	return d.num.BitLen() == d.exp+1 && d.num.TrailingZeroBits() == uint(d.exp)
}

// exactExp is the largest power of two written out as a denominator:
// beyond it a fraction is written over 2^k, and a numerator of more than
// 64 bits as a decimal close to it.
const exactExp = 32

// String writes the fraction in lowest terms as big.Rat does ("447/512",
// "1", "0") while its denominator has a few digits, and as "x/2^k"
// beyond.
func (d *dyadic) String() string {
	if d.num.Sign() == 0 {
		return "0"
	}
	var num big.Int
	num.Set(&d.num)
	exp := d.exp
	if z := int(num.TrailingZeroBits()); z > 0 && exp > 0 {
		z = min(z, exp)
		num.Rsh(&num, uint(z))
		exp -= z
	}
	switch {
	case exp == 0:
		return num.String()
	case exp <= exactExp:
		return num.String() + "/" + strconv.FormatUint(1<<exp, 10)
	case num.BitLen() <= 64:
		return fmt.Sprintf("%s/2^%d", num.String(), exp)
	}
	f, _ := new(big.Float).SetMantExp(new(big.Float).SetInt(&num), -exp).Float64()
	return fmt.Sprintf("%.12g (exactly a fraction over 2^%d)", f, exp)
}

// shareString writes the share 2^-e: "1/8", or "1/2^40" for a small one.
func shareString(e int) string {
	switch {
	case e == 0:
		return "1"
	case e <= exactExp:
		return "1/" + strconv.FormatUint(1<<e, 10)
	}
	return "1/2^" + strconv.Itoa(e)
}
