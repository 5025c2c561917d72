package lab

import (
	"errors"
	"fmt"
	"net/url"
	"strings"

	"spacetime/core/engine"
)

// MaxLinkParams bounds the parameters (settings separated by "&") a link's
// query may hold, as Go's url.ParseQuery does by default. It is this
// product's bound, whatever the urlmaxqueryparams GODEBUG setting says:
// the page and the server read a link alike.
const MaxLinkParams = 10_000

// ParseLinkQuery reads a link's raw query (what follows "?", without the
// "#" part) as url.ParseQuery does, but says what is wrong in the link's
// words instead of dropping it: url.URL.Query drops a setting with a bad
// escape or a ";" without a word, and every setting of a query of more than
// MaxLinkParams, which then opened the course index.
//
// A setting that is not the link's (a tracker's, such as utm_source=50%)
// and does not parse is left out, as url.ParseQuery leaves it out, so
// that the link opens as it did; one that names a link parameter (see
// linkParams), or whose name does not decode, is refused.
// On error the values are nil: a link that does not parse opens nothing,
// not the part of it that parsed.
func ParseLinkQuery(raw string) (url.Values, error) {
	// counted as url.ParseQuery counts them, before any is read
	if n := strings.Count(raw, "&") + 1; n > MaxLinkParams {
		return nil, fmt.Errorf("the link has more than %s parameters; a Spacetime link has at most %d", thousands(MaxLinkParams), maxOwnParams())
	}
	q := url.Values{}
	for rest := raw; rest != ""; {
		var setting string
		setting, rest, _ = strings.Cut(rest, "&")
		if setting == "" {
			continue
		}
		if strings.Contains(setting, ";") {
			if err := semicolon(setting); err != nil {
				return nil, err
			}
			continue // a tracker's: left out, as url.ParseQuery does
		}
		rawKey, rawValue, _ := strings.Cut(setting, "=")
		key, err := url.QueryUnescape(rawKey)
		if err != nil {
			// whose it is cannot be told
			return nil, fmt.Errorf("link parameter %q: %s", clip(rawKey), badEscape(err))
		}
		value, err := url.QueryUnescape(rawValue)
		if err != nil {
			if !isLinkParam(key) {
				continue // a tracker's: left out, as url.ParseQuery does
			}
			return nil, fmt.Errorf("link parameter %q: %s", clip(key), badEscape(err))
		}
		q[key] = append(q[key], value)
	}
	return q, nil
}

// semicolon refuses a setting that holds a ";", which url.ParseQuery drops
// whole: unless none of its pieces names a link parameter (a tracker's
// value), the link was meant to be read with ";" between parameters. The
// error names the first link parameter the setting holds, when it can.
func semicolon(setting string) error {
	for piece := range strings.SplitSeq(setting, ";") {
		k, _, _ := strings.Cut(piece, "=")
		key, err := url.QueryUnescape(k)
		switch {
		case err != nil:
			return fmt.Errorf("the link has a \";\" in %q, where parameters are separated by \"&\"", clip(setting))
		case isLinkParam(key) && strings.HasPrefix(setting, "amp;"):
			// copied from a web page's source, where "&" is written "&amp;"
			return fmt.Errorf("link parameter %q: the link has \"&amp;\" (as a web page's source writes \"&\") where parameters are separated by \"&\"", clip(key))
		case isLinkParam(key):
			return fmt.Errorf("link parameter %q: the link has a \";\" in %q, where parameters are separated by \"&\"", clip(key), clip(setting))
		}
	}
	return nil
}

// badEscape says what url.QueryUnescape refused.
func badEscape(err error) string {
	var esc url.EscapeError
	if errors.As(err, &esc) {
		return fmt.Sprintf("%q is not a valid escape: a \"%%\" takes two hexadecimal digits (\"%%25\" is \"%%\" itself)", string(esc))
	}
	return "not a valid escape"
}

// thousands writes n with commas between its thousands (10,000).
func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// PageFromRawQuery is PageFromQuery on a link's raw query, read by
// ParseLinkQuery.
func PageFromRawQuery(raw string, compare bool) (*Page, error) {
	q, err := ParseLinkQuery(raw)
	if err != nil {
		return nil, err
	}
	return PageFromQuery(q, compare)
}

// PageFromRawQueryWithin is PageFromQueryWithin on a link's raw query,
// read by ParseLinkQuery.
func PageFromRawQueryWithin(raw string, compare bool, budget *engine.Budget) (*Page, error) {
	q, err := ParseLinkQuery(raw)
	if err != nil {
		return nil, err
	}
	return PageFromQueryWithin(q, compare, budget)
}
