package cli

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"mundaneum/app"
	"mundaneum/backend/check"
	"mundaneum/backend/store"
)

// A pointer's permanent redirect is accepted (the old URL kept as an alias, by which the
// library still finds the pointer), undone, and refused when temporary or unchecked; and
// is:broken finds a pointer only once the link checks call it dead.
func TestAcceptRedirectAndIsBroken(t *testing.T) {
	srv := checkSite(t)
	db := filepath.Join(t.TempDir(), "w.mundaneum")
	must := func(args ...string) string {
		t.Helper()
		code, out, errOut := run(t, append(args, "--db", db)...)
		if code != ExitOK {
			t.Fatalf("%q: %d %s", args, code, errOut)
		}
		return out
	}
	must("library", "mkdir", "/R")
	must("library", "add", srv.URL+"/old", "--title", "Moved", "--to", "/R")
	must("library", "add", srv.URL+"/missing", "--title", "Lost", "--to", "/R")
	must("library", "add", srv.URL+"/", "--title", "Home", "--to", "/R")
	// Dead after two failing checks, however close together.
	st, err := store.Open(context.Background(), db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := check.DefaultSettings()
	s.DeadChecks, s.DeadDays = 2, 0
	if _, err := check.SaveSettings(context.Background(), st, s); err != nil {
		t.Fatal(err)
	}
	st.Close()

	if code, _, errOut := run(t, "library", "accept-redirect", "/R/Moved", "--db", db); code == ExitOK || !strings.Contains(errOut, "not been checked") {
		t.Errorf("accept before any check: %d %s", code, errOut)
	}
	must("task", "add", "lib", "--library", "/R")
	check := func() {
		t.Helper()
		if code, out, errOut := run(t, "check", "--db", db, "--json", "--delay", "0", "--task", "lib"); !strings.Contains(out, `"verdict"`) {
			t.Fatalf("check: %d %s %s", code, out, errOut)
		}
	}
	titles := func(query string) string {
		t.Helper()
		var res app.LibSearchResults
		out := must("library", "search", query, "--json")
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatalf("library search %q: %v %s", query, err, out)
		}
		var ts []string
		for _, h := range res.Hits {
			ts = append(ts, h.Title)
		}
		return strings.Join(ts, ",")
	}
	check()
	if got := titles("is:broken"); got != "" {
		t.Errorf("is:broken after one failing check = %q, want none (not dead yet)", got)
	}
	if got := titles("is:failed"); got != "Lost" {
		t.Errorf("is:failed = %q", got)
	}
	if got := titles("is:redirect"); got != "Moved" {
		t.Errorf("is:redirect = %q", got)
	}
	check()
	if got := titles("is:broken"); got != "Lost" {
		t.Errorf("is:broken after two failing checks = %q, want Lost", got)
	}
	if got := titles(" -is:broken"); got != "Home,Moved" && got != "Moved,Home" {
		t.Errorf("-is:broken = %q", got)
	}

	var p app.LibPosting
	if err := json.Unmarshal([]byte(must("library", "show", "/R/Moved", "--json")), &p); err != nil || p.Health == nil || !p.Health.Permanent {
		t.Fatalf("show: %+v %v", p, err)
	}
	if out := must("library", "show", "/R/Moved"); !strings.Contains(out, "redirected permanently to "+srv.URL+"/new") {
		t.Errorf("show:\n%s", out)
	}
	var moved []app.LibPosting
	if err := json.Unmarshal([]byte(must("library", "accept-redirect", "/R/Moved", "--json")), &moved); err != nil || len(moved) != 1 {
		t.Fatalf("accept-redirect --json: %v", err)
	}
	if m := moved[0]; m.URL != srv.URL+"/new" || len(m.Aliases) != 1 || m.Aliases[0] != srv.URL+"/old" {
		t.Errorf("accepted: url %s aliases %v", m.URL, m.Aliases)
	}
	if out := must("library", "show", "/R/Moved"); !strings.Contains(out, "was:     "+srv.URL+"/old") {
		t.Errorf("show after accepting:\n%s", out)
	}
	// The old URL still finds the pointer: in a search, and as a duplicate.
	if got := titles(srv.URL + "/old"); got != "Moved" {
		t.Errorf("a search for the old URL = %q", got)
	}
	if code, _, errOut := run(t, "library", "add", srv.URL+"/old", "--to", "/R", "--db", db); code == ExitOK || !strings.Contains(errOut, "already") {
		t.Errorf("adding the old URL again beside it: %d %s", code, errOut)
	}
	// A second accept has nothing to take.
	if code, _, _ := run(t, "library", "accept-redirect", "/R/Moved", "--db", db); code == ExitOK {
		t.Error("accepted twice")
	}
	// Undo puts the old URL back, without the alias.
	must("library", "undo")
	if err := json.Unmarshal([]byte(must("library", "show", "/R/Moved", "--json")), &p); err != nil || p.URL != srv.URL+"/old" || len(p.Aliases) != 0 {
		t.Errorf("after undo: %s %v (%v)", p.URL, p.Aliases, err)
	}
	if got := titles(srv.URL + "/old"); got != "Moved" {
		t.Errorf("a search for the URL after undo = %q", got)
	}
	if code, _, errOut := run(t, "library", "accept-redirect", "/R/Home", "--db", db); code == ExitOK || !strings.Contains(errOut, "not redirected") {
		t.Errorf("accepting an ok pointer: %d %s", code, errOut)
	}
}
