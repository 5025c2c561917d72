package ui

import (
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"sync"

	"spacetime/app/lab"
)

// PreparedParam is the query parameter by which the server hands the page
// it opened for a request (within its budget, cancelled if the client
// leaves) to the prerendering component. go-app prerenders with a
// background context and sees only the URL, so the URL carries a token.
const PreparedParam = "prepared"

// Prepared is what the server opened for one request: the page, the link's
// error, or neither when the link was too much work to prerender (the
// client then opens it itself).
type Prepared struct {
	Page *lab.Page
	Err  error
}

var prepared sync.Map // token -> Prepared

// Prepare stores what the server opened for a request and returns the
// token to put in the URL under PreparedParam, and the function that
// forgets it once the page is sent.
func Prepare(p Prepared) (token string, forget func()) {
	var b [16]byte
	rand.Read(b[:])
	token = hex.EncodeToString(b[:])
	prepared.Store(token, p)
	return token, func() { prepared.Delete(token) }
}

// takePrepared finds the prepared page a prerendered URL names, removing
// the token from the query; ok is false when the URL names none.
func takePrepared(q url.Values) (p Prepared, ok bool) {
	token := q.Get(PreparedParam)
	if token == "" {
		return p, false
	}
	q.Del(PreparedParam)
	v, found := prepared.Load(token)
	if !found {
		return p, false
	}
	return v.(Prepared), true
}
