package library_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"mundaneum/backend/library"
)

// Issue 28, item 12: a refused input reads as a sentence saying what is wrong and what is
// kept ("the title is 1001 characters long: at most 1000 are kept"), not "invalid: a title
// longer than 1000 characters"; it stays ErrInvalid for the code the window acts on.
func TestRefusedInputReadsAsASentence(t *testing.T) {
	ctx := context.Background()
	_, lib := open(t)
	long := strings.Repeat("é", library.MaxTitle+1)
	for _, tc := range []struct {
		name string
		err  func() error
		want string
	}{
		{"title", func() error {
			_, err := lib.Create(ctx, library.RootID, library.LibraryInput{Title: long})
			return err
		}, "the title is 1001 characters long: at most 1000 are kept"},
		{"notes", func() error {
			_, err := lib.Point(ctx, library.RootID, library.PointerInput{URL: "https://a.example/", Notes: strings.Repeat("n", library.MaxNotes+1)})
			return err
		}, "the notes are 65 KiB long: at most 64 KiB are kept"},
		{"tag", func() error {
			_, err := lib.Point(ctx, library.RootID, library.PointerInput{URL: "https://a.example/", Tags: []string{strings.Repeat("t", library.MaxTag+1)}})
			return err
		}, "characters long: at most 100 are kept"},
		{"empty title", func() error {
			_, err := lib.Create(ctx, library.RootID, library.LibraryInput{Title: "  "})
			return err
		}, "the title is empty: give it one"},
	} {
		err := tc.err()
		if !errors.Is(err, library.ErrInvalid) {
			t.Errorf("%s: %v is not ErrInvalid", tc.name, err)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "invalid") {
			t.Errorf("%s: %q, want %q and no \"invalid\"", tc.name, err, tc.want)
		}
	}
}
