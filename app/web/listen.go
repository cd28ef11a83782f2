package web

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
)

// Errors of Listen about its address (not about listening).
var (
	// ErrNotLoopback: an address other machines could reach, without public.
	ErrNotLoopback = errors.New("not a loopback address")
	// ErrAddress: not host:port with an IP address or localhost as host.
	ErrAddress = errors.New("bad listen address")
)

// Listen opens a TCP listener on addr ("host:port"; port 0 picks a free one; "localhost"
// means 127.0.0.1). Unless public is set, the host must be a loopback address. It reports
// whether the listener is reachable from other machines.
func Listen(addr string, public bool) (ln net.Listener, exposed bool, err error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, false, fmt.Errorf("%w %q: %v", ErrAddress, addr, err)
	}
	exposed, err = exposedHost(host)
	if err != nil {
		return nil, false, fmt.Errorf("%w %q: %v", ErrAddress, addr, err)
	}
	if exposed && !public {
		return nil, false, fmt.Errorf("listen address %q: %w (pass --public to share the workspace with the network)", addr, ErrNotLoopback)
	}
	if equalFoldASCII(host, "localhost") {
		host = "127.0.0.1"
	}
	ln, err = net.Listen("tcp", net.JoinHostPort(host, port))
	if err != nil {
		return nil, false, fmt.Errorf("listen: %w", err)
	}
	return ln, exposed, nil
}

// exposedHost reports whether listening on host is reachable from other machines: an empty
// host or an unspecified address (all interfaces) is; only IP literals and localhost are
// accepted, so that the answer never depends on name resolution.
func exposedHost(host string) (bool, error) {
	if equalFoldASCII(host, "localhost") {
		return false, nil
	}
	if host == "" {
		return true, nil
	}
	ip, err := netip.ParseAddr(host)
	if err != nil || ip.Zone() != "" {
		return false, fmt.Errorf("host must be an IP address or localhost, not %q", host)
	}
	return !ip.Unmap().IsLoopback(), nil
}

// URL returns the address to open in a browser for a listener: a loopback URL when it
// listens on all interfaces.
func URL(ln net.Listener) string {
	ap, err := netip.ParseAddrPort(ln.Addr().String())
	if err != nil {
		return "http://" + ln.Addr().String() + "/"
	}
	ip := ap.Addr().Unmap()
	if ip.IsUnspecified() {
		if ip.Is4() {
			ip = netip.MustParseAddr("127.0.0.1")
		} else {
			ip = netip.IPv6Loopback()
		}
	}
	return "http://" + netip.AddrPortFrom(ip.WithZone(""), ap.Port()).String() + "/"
}
