package momfile

import (
	"fmt"
	"io"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Actions of an avoid file entry.
const (
	Avoid = "avoid" // never request URLs under the prefix
	Leaf  = "leaf"  // test URLs under the prefix, never traverse them
)

// Rule is one entry of an avoid file: an action on a URL prefix, with an optional expiry
// (zero: never expires).
type Rule struct {
	Action  string // Avoid or Leaf
	Prefix  string // an absolute http(s) URL prefix, as written
	Expires time.Time
}

// ReadAvoid reads an avoid file (appendix C): lines "Avoid PREFIX [date]" or
// "Leaf PREFIX [date]", entry types in any case, "#" comments and blank lines ignored.
func ReadAvoid(r io.Reader) ([]Rule, error) {
	var out []Rule
	err := lines(r, func(n int, line string) error {
		if comment(line) {
			return nil
		}
		if len(out) == MaxEntries {
			return lineErr(n, "more than %d entries", MaxEntries)
		}
		typ, prefix, exp, err := splitEntry(n, line)
		if err != nil {
			return err
		}
		action := strings.ToLower(typ)
		if action != Avoid && action != Leaf {
			return lineErr(n, "entry type %q is neither Avoid nor Leaf", clip(typ))
		}
		if err := checkPrefix(prefix); err != nil {
			return lineErr(n, "%v", err)
		}
		out = append(out, Rule{Action: action, Prefix: prefix, Expires: exp})
		return nil
	})
	return out, err
}

// checkPrefix accepts an absolute http or https URL (prefix) with a host.
func checkPrefix(p string) error {
	if len(p) > MaxURL {
		return fmt.Errorf("a prefix longer than %d bytes", MaxURL)
	}
	u, err := url.Parse(p)
	if err != nil {
		return fmt.Errorf("%q is not a URL", clip(p))
	}
	if s := strings.ToLower(u.Scheme); (s != "http" && s != "https") || u.Host == "" {
		return fmt.Errorf("%q is not an http or https URL prefix", clip(p))
	}
	return nil
}

// WriteAvoid writes rules in the avoid file format, with MOMspider's header comment.
func WriteAvoid(w io.Writer, rules []Rule) error {
	var b strings.Builder
	b.WriteString("# MOMspider Avoid File (written by Mundaneum): URL prefixes to avoid or leaf.\n" +
		"# The file format is: EntryType URLprefix [ExpireDate]\n" +
		"# where EntryType = \"Avoid\" or \"Leaf\", ExpireDate = [*] for never expire, or [date]\n")
	for _, r := range rules {
		typ := "Avoid"
		if r.Action == Leaf {
			typ = "Leaf"
		}
		fmt.Fprintf(&b, "%s %s %s\n", typ, oneToken(r.Prefix), FormatDate(r.Expires))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// oneToken keeps a value from spilling into other fields of a line: white space and
// brackets are percent-encoded (an URL means the same either way).
func oneToken(s string) string {
	return strings.NewReplacer(" ", "%20", "\t", "%09", "\n", "%0A", "\r", "%0D", "[", "%5B", "]", "%5D").Replace(s)
}

// Site is one entry of a sites file: a host and port whose robots.txt was checked, and
// when it must be checked again (zero: never).
type Site struct {
	Host    string // host name or IP address, lower case
	Port    int
	Expires time.Time
}

// ReadSites reads a sites file (appendix D): lines "Site HOST:PORT [date]".
func ReadSites(r io.Reader) ([]Site, error) {
	var out []Site
	err := lines(r, func(n int, line string) error {
		if comment(line) {
			return nil
		}
		if len(out) == MaxEntries {
			return lineErr(n, "more than %d entries", MaxEntries)
		}
		typ, hostport, exp, err := splitEntry(n, line)
		if err != nil {
			return err
		}
		if !strings.EqualFold(typ, "Site") {
			return lineErr(n, "entry type %q is not Site", clip(typ))
		}
		host, portText, err := net.SplitHostPort(hostport)
		if err != nil {
			return lineErr(n, "want HOST:PORT, got %q", clip(hostport))
		}
		port, err := strconv.Atoi(portText)
		if err != nil || port < 1 || port > 65535 {
			return lineErr(n, "bad port %q", clip(portText))
		}
		if host == "" || len(host) > 253 || strings.ContainsAny(host, "/?#@ ") {
			return lineErr(n, "bad host %q", clip(host))
		}
		out = append(out, Site{Host: strings.ToLower(host), Port: port, Expires: exp})
		return nil
	})
	return out, err
}

// WriteSites writes sites in the sites file format.
func WriteSites(w io.Writer, sites []Site) error {
	var b strings.Builder
	b.WriteString("# MOMspider Sites File (written by Mundaneum): sites whose robots.txt was checked.\n" +
		"# The file format is: Site IPaddress:Port [ExpireDate]\n")
	for _, s := range sites {
		fmt.Fprintf(&b, "Site %s %s\n", net.JoinHostPort(s.Host, strconv.Itoa(s.Port)), FormatDate(s.Expires))
	}
	_, err := io.WriteString(w, b.String())
	return err
}
