package robots

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/temoto/robotstxt"
)

// TestAgreesWithTemotoOnPlainRules checks the matcher against github.com/temoto/robotstxt,
// which it replaced, where temoto is right: rules without wildcards, end anchors or queries
// (temoto weighs a wildcard rule by the length of its regular expression, see match.go).
// Both read the same random rules (Allow lines first: temoto lets the first of two equally
// long matches win, RFC 9309 the Allow) against the same random paths.
func TestAgreesWithTemotoOnPlainRules(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	word := func() string {
		const alphabet = "ab/c."
		var b strings.Builder
		b.WriteByte('/')
		for range rng.IntN(6) {
			b.WriteByte(alphabet[rng.IntN(len(alphabet))])
		}
		return b.String()
	}
	for round := range 2000 {
		var allows, disallows []string
		for range 1 + rng.IntN(6) {
			if rng.IntN(2) == 0 {
				allows = append(allows, word())
			} else {
				disallows = append(disallows, word())
			}
		}
		var b strings.Builder
		b.WriteString("User-agent: *\n")
		for _, p := range allows {
			b.WriteString("Allow: " + p + "\n")
		}
		for _, p := range disallows {
			b.WriteString("Disallow: " + p + "\n")
		}
		theirs, err := robotstxt.FromString(b.String())
		if err != nil {
			t.Fatal(err)
		}
		ours := compile([]byte(b.String()), "mundaneum")
		for range 20 {
			path := word() + word()
			if got, want := ours.rules.allowed(matchPath(path, "")), theirs.TestAgent(path, "mundaneum"); got != want {
				t.Fatalf("round %d: %q on\n%s: allowed = %v, temoto says %v", round, path, b.String(), got, want)
			}
		}
	}
}
