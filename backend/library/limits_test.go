package library

import (
	"os"
	"regexp"
	"strconv"
	"testing"

	"mundaneum/backend/urlnorm"
)

// The window's forms stop where the library refuses (their maxlength): the limits the
// frontend keeps (frontend/src/lib/library.ts, libLimits) are these.
func TestFrontendKeepsTheseLimits(t *testing.T) {
	src, err := os.ReadFile("../../frontend/src/lib/library.ts")
	if err != nil {
		t.Fatal(err)
	}
	block := regexp.MustCompile(`(?s)export const libLimits = \{(.*?)\} as const`).FindSubmatch(src)
	if block == nil {
		t.Fatal("no libLimits in library.ts")
	}
	got := map[string]int{}
	for _, m := range regexp.MustCompile(`(?m)^\s*(\w+): (\d+),`).FindAllSubmatch(block[1], -1) {
		got[string(m[1])], _ = strconv.Atoi(string(m[2]))
	}
	want := map[string]int{
		"title": MaxTitle, "url": urlnorm.MaxLength, "tags": MaxTags * (MaxTag + 2), "notes": MaxNotes,
		"body": MaxBody, "author": maxAuthor, "email": maxEmail, "password": MaxPassword, "path": maxPath,
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("libLimits.%s = %d, the library's is %d", k, got[k], v)
		}
	}
	if len(got) != len(want) {
		t.Errorf("libLimits has %v, want the keys of %v", got, want)
	}
}
