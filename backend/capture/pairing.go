package capture

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"mundaneum/backend/store"
)

// Pairing: the window (or serve's page) shows a one-time code; the extension sends it with
// its Origin and gets a token that only that Origin may use. The code is short enough to
// type, so it is guarded instead: it lives CodeLifetime, works once, and dies after
// maxFailures wrong guesses (a web page cannot even try: its Origin is refused first).

// CodeLifetime is how long a pairing code may be used.
const CodeLifetime = 10 * time.Minute

// maxFailures wrong codes end the current one.
const maxFailures = 5

// codeAlphabet has no letters easily mistaken for others (0/O, 1/I/L, U/V).
const codeAlphabet = "23456789ABCDEFGHJKMNPQRSTWXYZ"

// codeLength is the code's characters, shown as two groups of four: 29^8 ≈ 5·10^11.
const codeLength = 8

// Code is a pairing code as the window shows it.
type Code struct {
	Code    string    // "ABCD-EFGH"
	Expires time.Time // when it stops working
}

// Pairing holds the pairing code of a running Mundaneum (one at a time: a new one replaces
// the old). Codes live in memory only: a restart ends them.
type Pairing struct {
	now func() time.Time

	mu       sync.Mutex
	code     string // normalised, "" for none
	expires  time.Time
	failures int
}

// NewPairing returns a Pairing that reads the time from now (nil: time.Now).
func NewPairing(now func() time.Time) *Pairing {
	if now == nil {
		now = time.Now
	}
	return &Pairing{now: now}
}

// New makes a fresh code, ending any earlier one.
func (p *Pairing) New() (Code, error) {
	b := make([]byte, codeLength)
	if _, err := rand.Read(b); err != nil {
		return Code{}, fmt.Errorf("make a pairing code: %w", err)
	}
	for i := range b {
		// 256 is not a multiple of 29: the first 232 values map evenly, the rest are
		// drawn again.
		for b[i] >= 232 {
			var one [1]byte
			if _, err := rand.Read(one[:]); err != nil {
				return Code{}, fmt.Errorf("make a pairing code: %w", err)
			}
			b[i] = one[0]
		}
		b[i] = codeAlphabet[int(b[i])%len(codeAlphabet)]
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.code, p.expires, p.failures = string(b), p.now().Add(CodeLifetime), 0
	return Code{Code: formatCode(p.code), Expires: p.expires}, nil
}

// Current returns the code in force, if any.
func (p *Pairing) Current() (Code, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.code == "" || !p.now().Before(p.expires) {
		return Code{}, false
	}
	return Code{Code: formatCode(p.code), Expires: p.expires}, true
}

// Cancel ends the code in force.
func (p *Pairing) Cancel() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.code = ""
}

// redeem uses up the code if given matches it; a wrong one counts towards maxFailures.
func (p *Pairing) redeem(given string) error {
	g := normaliseCode(given)
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case p.code == "":
		return fmt.Errorf("%w: no pairing code is waiting: make one in Mundaneum's Settings", ErrForbidden)
	case !p.now().Before(p.expires):
		p.code = ""
		return fmt.Errorf("%w: the pairing code has expired: make a new one in Settings", ErrForbidden)
	case subtle.ConstantTimeCompare([]byte(g), []byte(p.code)) != 1:
		p.failures++
		if p.failures >= maxFailures {
			p.code = ""
			return fmt.Errorf("%w: wrong pairing code, %d times: the code is void, make a new one in Settings", ErrForbidden, maxFailures)
		}
		return fmt.Errorf("%w: wrong pairing code", ErrForbidden)
	}
	p.code = ""
	return nil
}

func formatCode(c string) string { return c[:4] + "-" + c[4:] }

// normaliseCode takes a code as typed: any case, with spaces or dashes anywhere.
func normaliseCode(s string) string {
	if len(s) > 64 {
		return ""
	}
	var b strings.Builder
	for _, r := range strings.ToUpper(s) {
		if r == '-' || unicode.IsSpace(r) {
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Client is a paired browser, as a call's check found it.
type Client = store.CaptureClient

// Paired is the answer to a successful pairing: the token the extension keeps (and
// Mundaneum forgets: only its hash is stored).
type Paired struct {
	Token  string
	Client Client
}

// Pair redeems a pairing code sent from origin (which must be an extension's) and records
// the browser, returning its token. browser is the name the extension gives itself.
func Pair(ctx context.Context, st Store, p *Pairing, code, origin, browser string) (Paired, error) {
	o, ok := ExtensionOrigin(origin)
	if !ok {
		return Paired{}, fmt.Errorf("%w: pairing is open to browser extensions only, not to %q", ErrForbidden, clipText(origin, 80))
	}
	if err := p.redeem(code); err != nil {
		return Paired{}, err
	}
	token, err := newToken()
	if err != nil {
		return Paired{}, err
	}
	c, err := st.AddCaptureClient(ctx, o, cleanBrowser(browser), HashToken(token))
	if err != nil {
		return Paired{}, err
	}
	return Paired{Token: token, Client: c}, nil
}

// Authorize finds the browser a call comes from: its token must be one this workspace
// issued, and origin the one it was paired from.
func Authorize(ctx context.Context, st Store, token, origin string) (Client, error) {
	if token == "" {
		return Client{}, fmt.Errorf("%w: no token: pair this browser in Mundaneum's Settings", ErrForbidden)
	}
	if len(token) > 256 {
		return Client{}, fmt.Errorf("%w: not a token of this workspace", ErrForbidden)
	}
	c, err := st.CaptureClientByHash(ctx, HashToken(token))
	if errors.Is(err, store.ErrNotFound) {
		return Client{}, fmt.Errorf("%w: this browser is not paired with the workspace open now (or was unpaired): pair it again", ErrForbidden)
	}
	if err != nil {
		return Client{}, err
	}
	o, ok := ExtensionOrigin(origin)
	if !ok || subtle.ConstantTimeCompare([]byte(o), []byte(c.Origin)) != 1 {
		return Client{}, fmt.Errorf("%w: this token was paired from another origin", ErrForbidden)
	}
	return c, nil
}

// HashToken is the form in which a token is stored: SHA-256, hex.
func HashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

func newToken() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("make a token: %w", err)
	}
	return hex.EncodeToString(b), nil
}

// cleanBrowser makes a browser's name one line of at most MaxBrowser bytes.
func cleanBrowser(s string) string {
	s = strings.Join(strings.FieldsFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) || unicode.IsControl(r) || r == utf8.RuneError
	}), " ")
	return clipText(s, MaxBrowser)
}

// clipText cuts s to at most n bytes at a character boundary.
func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
