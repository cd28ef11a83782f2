package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"mundaneum/app"
	"mundaneum/app/web"
	"mundaneum/backend/exchange"
	"mundaneum/backend/store"
)

// Frontend is the built frontend `mundaneum serve` serves: the FS main embeds (holding
// frontend/dist) or the dist directory itself. main sets it before Run.
var Frontend fs.FS

// serveInfo is the --json output of serve, printed once it listens.
type serveInfo struct {
	URL       string `json:"url"`
	Workspace string `json:"workspace"`
	Public    bool   `json:"public"`
	Guests    string `json:"guests,omitempty"` // serve --public: what guests may do (none, read)
}

func (e *env) serveCmd() *cobra.Command {
	var addr, ownerFile, guests string
	var public bool
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the app to a web browser on this machine (for headless machines)",
		Long: `Serve the Mundaneum app (the same interface and API as the window) to a web browser,
and print its URL. It listens on loopback only, on a free port unless --addr gives one.

It also offers the workspace's page summaries to other instances, as a gzip SOIF stream
at /exchange/soif, to holders of a token issued with 'mundaneum token issue' (read-only,
revocable); they add this address with 'mundaneum source add URL --token TOKEN'.

Listening on any other address needs --public, and with --public (on any address) the
workspace has an owner and guests. The owner signs in with the owner's password: set on the first public start (it
is asked for on a terminal, or read from --owner-password-file, which also replaces it),
or in the window's Settings; it is kept as an argon2id hash. Guests may do nothing
(--guests none, the default) or read everything and post only in the libraries the owner
opened to guests (--guests read; 'library edit PATH --open-to-guests'); --guests is kept
in the workspace. Wrong passwords are slowed and limited per address. A loopback serve
has one user, who needs no sign-in.`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return e.serve(cmd.Context(), addr, ownerFile, guests, public)
		},
	}
	f := cmd.Flags()
	f.StringVar(&addr, "addr", "127.0.0.1:0", "address to listen on, host:port (port 0: a free one)")
	f.BoolVar(&public, "public", false, "allow an address other machines can reach (an owner who signs in, and guests)")
	f.StringVar(&ownerFile, "owner-password-file", "", "serve --public: set the owner's password from the first line of this file")
	f.StringVar(&guests, "guests", "", "serve --public: what guests may do, none or read (kept in the workspace; default: as kept, else none)")
	return cmd
}

// serve serves the app to a browser until interrupted.
func (e *env) serve(ctx context.Context, addr, ownerFile, guests string, public bool) error {
	if Frontend == nil {
		return errors.New("this binary has no frontend to serve")
	}
	ln, exposed, err := web.Listen(addr, public)
	if err != nil {
		if errors.Is(err, web.ErrNotLoopback) || errors.Is(err, web.ErrAddress) {
			return usageError{err}
		}
		return err
	}
	defer ln.Close()
	if guests != "" && guests != app.GuestsNone && guests != app.GuestsRead {
		return usageError{fmt.Errorf("--guests is none or read, not %q", guests)}
	}
	if !public && (ownerFile != "" || guests != "") {
		return usageError{errors.New("--owner-password-file and --guests are for serve --public (a loopback serve has one user)")}
	}
	st, err := e.open(ctx, false)
	if err != nil {
		return err
	}
	var access app.Access
	if public {
		if access, err = e.serveAccess(ctx, st, ownerFile, guests); err != nil {
			st.Close()
			return err
		}
	}
	a, err := app.New(st) // it closes st
	if err != nil {
		return err
	}
	url := web.URL(ln)
	opts := web.Options{Assets: Frontend, Bind: []any{a}, Files: app.ArchiveHandler(a), Logf: func(format string, args ...any) {
		fmt.Fprintf(e.stderr, "mundaneum serve: "+format+"\n", args...)
	}, Mounts: map[string]http.Handler{exchange.Path: app.ExchangeHandler(a, func() string { return url }),
		app.DocumentPath: app.DocumentHandler(a)}, Capture: app.CaptureAPI(a)}
	if public {
		opts.Door = web.AppDoor(a)
	}
	srv, err := web.New(opts)
	if err != nil {
		return err
	}
	app.Attach(ctx, a, srv.Emit)
	app.ServeCapture(a, url) // browser extensions call serve's own address
	// Pause running crawls on the way out, so that they resume next time.
	defer app.Detach(a)

	if public {
		who := "only the owner, signed in, may use it (guests: none)"
		if access.Guests == app.GuestsRead {
			who = "the owner signs in; guests may read it and post in the libraries open to guests"
		}
		where := "on loopback only"
		if exposed {
			where = "reachable from other machines"
		}
		fmt.Fprintf(e.stderr, "mundaneum serve: listening on %s, %s: %s\n", ln.Addr(), where, who)
	}
	if e.json {
		info := serveInfo{URL: url, Workspace: st.Path(), Public: public}
		if public {
			info.Guests = access.Guests
		}
		if err := e.printJSON(info); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(e.stdout, "Mundaneum is serving %s at %s\nOpen it in a browser on this machine; Ctrl-C stops.\n", st.Path(), url)
	}
	return srv.Serve(ctx, ln)
}

// serveAccess sets up the access of serve --public: the owner's password (from a file, or
// asked for on a terminal the first time) and what guests may do.
func (e *env) serveAccess(ctx context.Context, st *store.Store, ownerFile, guests string) (app.Access, error) {
	access, err := app.LoadAccess(ctx, st)
	if err != nil {
		return access, err
	}
	changed := false
	switch {
	case ownerFile != "":
		b, err := os.ReadFile(ownerFile)
		if err != nil {
			return access, usageError{fmt.Errorf("--owner-password-file: %w", err)}
		}
		pw, _, _ := strings.Cut(string(b), "\n")
		if access.OwnerHash, err = app.HashOwnerPassword(strings.TrimRight(pw, "\r")); err != nil {
			return access, usageError{fmt.Errorf("--owner-password-file: %w", err)}
		}
		changed = true
	case access.OwnerHash == "":
		if !isTerminal(os.Stdin) || !isTerminal(os.Stderr) {
			return access, usageError{errors.New("serve --public needs an owner password first: run it on a terminal to be asked for one, " +
				"give --owner-password-file FILE, or set one in the window's Settings")}
		}
		pw, err := askNewPassword(e.stderr)
		if err != nil {
			return access, err
		}
		if access.OwnerHash, err = app.HashOwnerPassword(pw); err != nil {
			return access, usageError{err}
		}
		changed = true
	}
	if guests != "" && guests != access.Guests {
		access.Guests, changed = guests, true
	}
	if changed {
		if err := app.SaveAccess(ctx, st, access); err != nil {
			return access, err
		}
	}
	return access, nil
}

// askNewPassword asks for a new password twice on the terminal, without echo.
func askNewPassword(w io.Writer) (string, error) {
	fmt.Fprintf(w, "serve --public: this workspace has no owner yet. Choose the owner's password (at least %d characters): ", app.MinOwnerPassword)
	a, err := term.ReadPassword(int(os.Stdin.Fd()))
	fmt.Fprintln(w)
	if err != nil {
		return "", err
	}
	fmt.Fprint(w, "Again: ")
	b, err := term.ReadPassword(int(os.Stdin.Fd()))
	fmt.Fprintln(w)
	if err != nil {
		return "", err
	}
	if string(a) != string(b) {
		return "", usageError{errors.New("the two passwords differ")}
	}
	return string(a), nil
}
