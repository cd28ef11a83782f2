package check

import (
	"context"
	"fmt"
	"net"
	"time"
)

// Probe tells whether this machine reaches the internet: nil if it does, else why not.
type Probe func(ctx context.Context) error

// probeTimeout bounds a probe.
const probeTimeout = 5 * time.Second

// InternetProbe is the default Probe: a route to the internet (a UDP "connection" to a
// root name server's address, which sends nothing), a name that always exists resolving
// (example.com, reserved by IANA for examples), and a TCP connection to it.
func InternetProbe(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	var d net.Dialer
	c, err := d.DialContext(ctx, "udp", "198.41.0.4:53")
	if err != nil {
		return fmt.Errorf("no route to the internet: %w", err)
	}
	c.Close()
	if _, err := net.DefaultResolver.LookupHost(ctx, "example.com"); err != nil {
		return fmt.Errorf("names do not resolve: %w", err)
	}
	c, err = d.DialContext(ctx, "tcp", "example.com:443")
	if err != nil {
		return fmt.Errorf("no connection to the internet: %w", err)
	}
	c.Close()
	return nil
}
