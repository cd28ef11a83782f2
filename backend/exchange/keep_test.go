package exchange

import (
	"context"
	"errors"
	"strings"
	"testing"

	"mundaneum/backend/store"
)

// Tokens and sources kept by the process that owns the workspace and, beside it, by a
// short-writing one (the CLI's token and source commands while serve runs): each sees
// the other's writes, and a missing id is ErrNotFound in both.
func TestTokensAndSourcesBesideTheOwner(t *testing.T) {
	ctx := context.Background()
	owner := newInstance(t, "owner")
	cli, err := store.Open(ctx, owner.st.Path(), store.Options{Shared: true})
	if err != nil {
		t.Fatal(err)
	}
	defer cli.Close()

	tok, err := Issue(ctx, cli, "a friend")
	if err != nil {
		t.Fatal(err)
	}
	if tok.ID == 0 || !strings.HasPrefix(tok.Secret, tokenPrefix) {
		t.Fatalf("issued %+v", tok)
	}
	if _, err := Issue(ctx, cli, "  "); !errors.Is(err, ErrInvalid) {
		t.Fatalf("a token without a name: %v", err)
	}
	// The owner checks the secret the CLI issued, twice; a wrong secret is refused.
	for range 2 {
		if id, err := Check(ctx, owner.st, tok.Secret); err != nil || id != tok.ID {
			t.Fatalf("check: %d, %v", id, err)
		}
	}
	if _, err := Check(ctx, owner.st, tokenPrefix+"wrong"); !errors.Is(err, ErrRefused) {
		t.Fatalf("a wrong secret: %v", err)
	}
	if err := owner.st.Writer().Flush(ctx); err != nil {
		t.Fatal(err)
	}
	ts, err := Tokens(ctx, cli)
	if err != nil || len(ts) != 1 || ts[0].ID != tok.ID || ts[0].Name != "a friend" || ts[0].Uses != 2 ||
		ts[0].UsedAt == 0 || ts[0].RevokedAt != 0 || ts[0].Secret != "" {
		t.Fatalf("tokens: %+v, %v", ts, err)
	}
	if err := Revoke(ctx, cli, tok.ID+1); !errors.Is(err, ErrNotFound) || err.Error() != "token 2: not found" {
		t.Fatalf("revoke an unknown token: %v", err)
	}
	if err := Revoke(ctx, cli, tok.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := Check(ctx, owner.st, tok.Secret); !errors.Is(err, ErrRefused) {
		t.Fatalf("a revoked token: %v", err)
	}

	src, err := AddPeer(ctx, cli, "http://127.0.0.1:9/exchange/soif", "mdx_x")
	if err != nil {
		t.Fatal(err)
	}
	if src.ID == 0 || src.Kind != KindPeer || src.URL != "http://127.0.0.1:9/" || src.token != "mdx_x" || src.CreatedAt == 0 {
		t.Fatalf("added %+v", src)
	}
	if _, err := AddPeer(ctx, owner.st, "http://127.0.0.1:9", "mdx_y"); !errors.Is(err, ErrInvalid) {
		t.Fatalf("the same peer again: %v", err)
	}
	f1, err := fileSource(ctx, owner.st, "summaries.soif")
	if err != nil {
		t.Fatal(err)
	}
	if f2, err := fileSource(ctx, cli, "summaries.soif"); err != nil || f2.ID != f1.ID || f2.Kind != KindFile {
		t.Fatalf("the same file again: %+v, %v (first %+v)", f2, err, f1)
	}
	if err := finishPull(ctx, cli, src, ImportReport{}, errors.New("the peer was away")); err != nil {
		t.Fatal(err)
	}
	if got, err := Get(ctx, owner.st, src.ID); err != nil || got.Error != "the peer was away" || got.Cursor.Seq != 0 {
		t.Fatalf("after a failed pull: %+v, %v", got, err)
	}
	rep := ImportReport{Gatherer: "their workspace", Cursor: Cursor{Seq: 7, Time: 1234}}
	if err := finishPull(ctx, owner.st, src, rep, nil); err != nil {
		t.Fatal(err)
	}
	rep.Cursor, rep.Gatherer = Cursor{Seq: 3}, "" // an older cursor does not move it back
	if err := finishPull(ctx, cli, src, rep, nil); err != nil {
		t.Fatal(err)
	}
	got, err := Get(ctx, cli, src.ID)
	if err != nil || got.Error != "" || got.Cursor != (Cursor{Seq: 7, Time: 1234}) || got.Name != "their workspace" || got.PulledAt == 0 {
		t.Fatalf("after pulls: %+v, %v", got, err)
	}
	if err := Remove(ctx, owner.st, src.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := Get(ctx, cli, src.ID); !errors.Is(err, ErrNotFound) || err.Error() != "source 1: not found" {
		t.Fatalf("a removed source: %v", err)
	}
	if err := Remove(ctx, cli, src.ID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("remove again: %v", err)
	}
	ss, err := List(ctx, cli)
	if err != nil || len(ss) != 1 || ss[0].ID != f1.ID {
		t.Fatalf("sources: %+v, %v", ss, err)
	}
}
