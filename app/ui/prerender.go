package ui

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"html"
	"net/url"
	"strings"
	"sync"
	"unicode"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

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

var prepared sync.Map // token -> *preparation

// preparation is one request's Prepared, and the page's title and
// description as its component named them.
type preparation struct {
	Prepared
	title, description string
}

// Prepare stores what the server opened for a request. It returns the
// token to put in the URL under PreparedParam, and finish, which takes
// the page go-app rendered for it, writes the page's title and
// description into it (see namePage) and forgets the token.
func Prepare(p Prepared) (token string, finish func(page []byte) []byte) {
	var b [16]byte
	rand.Read(b[:])
	token = hex.EncodeToString(b[:])
	prep := &preparation{Prepared: p}
	prepared.Store(token, prep)
	return token, func(page []byte) []byte {
		prepared.Delete(token)
		for _, text := range []struct{ placeholder, text string }{
			{titlePlaceholder(token), prep.title},
			{descriptionPlaceholder(token), prep.description},
		} {
			page = bytes.ReplaceAll(page, []byte(text.placeholder), []byte(headText(text.text)))
		}
		return page
	}
}

// takePrepared finds the prepared page a prerendered URL names, removing
// the token from the query; ok is false when the URL names none.
func takePrepared(q url.Values) (p *preparation, token string) {
	token = q.Get(PreparedParam)
	if token == "" {
		return nil, ""
	}
	q.Del(PreparedParam)
	v, found := prepared.Load(token)
	if !found {
		return nil, ""
	}
	return v.(*preparation), token
}

// The server's page names itself in its head twice over: as text in
// <title>, and as attribute values in the description and link-preview
// tags, which go-app writes with strconv.Quote (see attrText). No one
// string is right for both once go-app has escaped it, so on the server
// the component names the page by placeholders (its token's, which no
// link can guess) and Prepare's finish writes the texts in their place,
// escaped for HTML, which is right for both.
func titlePlaceholder(token string) string       { return "spacetime-title-" + token }
func descriptionPlaceholder(token string) string { return "spacetime-description-" + token }

// headText is a page's title or description as HTML, right as text and as
// a quoted attribute's value: escaped, valid UTF-8, without control
// characters (a NUL would be read as U+FFFD, a new line in a title is
// nothing a tab can show).
func headText(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, strings.ToValidUTF8(s, "\uFFFD"))
	return html.EscapeString(s)
}

// namePage sets the page's title and description (description "" leaves
// the site's). In the browser they are set through the DOM; on the
// server, where go-app would write them into attributes unescaped, by the
// placeholders of the request's token that Prepare's finish replaces, or
// not at all when the server did not prepare the page (token "" or gone).
func namePage(ctx app.Context, token, title, description string) {
	if !app.IsServer {
		ctx.Page().SetTitle("%s", title)
		return
	}
	v, found := prepared.Load(token)
	if !found {
		return
	}
	prep := v.(*preparation)
	prep.title = title
	ctx.Page().SetTitle("%s", titlePlaceholder(token))
	if description != "" {
		prep.description = description
		ctx.Page().SetDescription("%s", descriptionPlaceholder(token))
	}
}
