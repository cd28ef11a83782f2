// Package tokenize splits and folds text exactly as the index's FTS5 tokenizer does
// (unicode61 with remove_diacritics 2): letters, numbers, private-use characters and the
// combining marks it removes make tokens; case and diacritics are folded. It is the one
// tokenizer of the project's Go side: the pair index (backend/pairs), search's snippets,
// highlighting and second ranking stage all read text through it, so a word that the index
// holds is the word they see. Its tables come from SQLite itself (TestTable).
package tokenize

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// IsTokenRune reports whether r is part of a token for FTS5's unicode61 tokenizer: letters,
// numbers, private-use characters and the combining diacritics it removes, by SQLite's own
// tables (table.go, derived from SQLite by TestTable).
func IsTokenRune(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	i := sort.Search(len(tokenRanges), func(i int) bool { return tokenRanges[i][1] >= r })
	return i < len(tokenRanges) && tokenRanges[i][0] <= r
}

// Tokens calls fn with every token of text in order, folded (see Fold). A token of
// combining marks alone folds to nothing and is no token, as in FTS5.
func Tokens(text string, fn func(tok string)) {
	emit := func(tok string) {
		if tok = Fold(tok); tok != "" {
			fn(tok)
		}
	}
	start := -1
	for i, r := range text {
		if IsTokenRune(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			emit(text[start:i])
			start = -1
		}
	}
	if start >= 0 {
		emit(text[start:])
	}
}

// Fold lowercases a token and removes its diacritics as unicode61 with remove_diacritics 2
// does, exactly for the characters that fold to ASCII (the only ones a frequent word has).
func Fold(tok string) string {
	ascii := true
	for i := 0; i < len(tok); i++ {
		if tok[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return strings.ToLower(tok)
	}
	var b strings.Builder
	for _, r := range tok {
		switch f, ok := asciiFolds[r]; {
		case r < utf8.RuneSelf:
			b.WriteRune(unicode.ToLower(r))
		case ok && f != 0:
			b.WriteByte(f)
		case !ok:
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// List returns the tokens of text, folded.
func List(text string) []string {
	var out []string
	Tokens(text, func(tok string) { out = append(out, tok) })
	return out
}
