package capture

import "strings"

// An extension's calls carry its own Origin: chrome-extension://ID in Chromium and the
// browsers built on it (ID: 32 letters a-p, fixed per extension and install path), and
// moz-extension://UUID in Firefox (a random UUID per profile and install). Pairing binds
// the token to the Origin the code was redeemed from; a web page cannot send either (a
// browser sets a page's Origin itself), so a page that learnt a token still gets nothing.

// ExtensionOrigin reports whether origin is a browser extension's Origin, and returns it
// in lower case.
func ExtensionOrigin(origin string) (string, bool) {
	o := strings.ToLower(origin)
	if id, ok := strings.CutPrefix(o, "chrome-extension://"); ok && len(id) == 32 && strings.Trim(id, "abcdefghijklmnop") == "" {
		return o, true
	}
	if id, ok := strings.CutPrefix(o, "moz-extension://"); ok && isUUID(id) {
		return o, true
	}
	return "", false
}

// isUUID reports whether s is a UUID in its 8-4-4-4-12 hex form.
func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := range len(s) {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
				return false
			}
		}
	}
	return true
}
