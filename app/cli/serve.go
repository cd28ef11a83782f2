package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"net/http"

	"github.com/spf13/cobra"

	"mundaneum/app"
	"mundaneum/app/web"
	"mundaneum/backend/exchange"
)

// Frontend is the built frontend `mundaneum serve` serves: the FS main embeds (holding
// frontend/dist) or the dist directory itself. main sets it before Run.
var Frontend fs.FS

// serveInfo is the --json output of serve, printed once it listens.
type serveInfo struct {
	URL       string `json:"url"`
	Workspace string `json:"workspace"`
	Public    bool   `json:"public"`
}

func (e *env) serveCmd() *cobra.Command {
	var addr string
	var public bool
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the app to a web browser on this machine (for headless machines)",
		Long: `Serve the Mundaneum app (the same interface and API as the window) to a web browser,
and print its URL. It listens on loopback only, on a free port unless --addr gives one.

It also offers the workspace's page summaries to other instances, as a gzip SOIF stream
at /exchange/soif, to holders of a token issued with 'mundaneum token issue' (read-only,
revocable); they add this address with 'mundaneum source add URL --token TOKEN'.

Listening on any other address needs --public: then anyone who can reach it can read
and change the workspace.`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
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
			ctx := cmd.Context()
			st, err := e.open(ctx, false)
			if err != nil {
				return err
			}
			a, err := app.New(st) // it closes st
			if err != nil {
				return err
			}
			url := web.URL(ln)
			srv, err := web.New(web.Options{Assets: Frontend, Bind: []any{a}, Files: app.ArchiveHandler(a), Logf: func(format string, args ...any) {
				fmt.Fprintf(e.stderr, "mundaneum serve: "+format+"\n", args...)
			}, Mounts: map[string]http.Handler{exchange.Path: app.ExchangeHandler(a, func() string { return url }),
				app.DocumentPath: app.DocumentHandler(a)}, Capture: app.CaptureAPI(a)})
			if err != nil {
				return err
			}
			app.Attach(ctx, a, srv.Emit)
			app.ServeCapture(a, url) // browser extensions call serve's own address
			// Pause running crawls on the way out, so that they resume next time.
			defer app.Detach(a)

			if exposed {
				fmt.Fprintf(e.stderr, "mundaneum serve: WARNING: listening on %s: anyone who can reach this machine can read and change the workspace\n", ln.Addr())
			}
			if e.json {
				if err := e.printJSON(serveInfo{URL: url, Workspace: st.Path(), Public: exposed}); err != nil {
					return err
				}
			} else {
				fmt.Fprintf(e.stdout, "Mundaneum is serving %s at %s\nOpen it in a browser on this machine; Ctrl-C stops.\n", st.Path(), url)
			}
			return srv.Serve(ctx, ln)
		},
	}
	f := cmd.Flags()
	f.StringVar(&addr, "addr", "127.0.0.1:0", "address to listen on, host:port (port 0: a free one)")
	f.BoolVar(&public, "public", false, "allow an address other machines can reach (no access control yet)")
	return cmd
}
