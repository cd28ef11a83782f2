package crawl

import (
	"net"
	"net/url"
	"path"
	"strings"

	"golang.org/x/net/publicsuffix"
)

// scope decides which URLs a crawl follows.
type scope struct {
	kind  string
	sites map[string]bool // host:port with http/https default ports unified
	trees []string        // site + directory prefixes
	doms  map[string]bool // registrable domains
	seeds map[string]bool
}

func newScope(kind string, seeds []*url.URL) *scope {
	s := &scope{kind: kind, sites: map[string]bool{}, doms: map[string]bool{}, seeds: map[string]bool{}}
	for _, u := range seeds {
		s.seeds[u.String()] = true
		s.sites[siteKey(u)] = true
		dir := u.EscapedPath()
		if !strings.HasSuffix(dir, "/") {
			dir = path.Dir(dir)
			if !strings.HasSuffix(dir, "/") {
				dir += "/"
			}
		}
		s.trees = append(s.trees, siteKey(u)+dir)
		s.doms[domain(u.Hostname())] = true
	}
	return s
}

// contains reports whether u is in scope.
func (s *scope) contains(u *url.URL) bool {
	switch s.kind {
	case ScopeSite:
		return s.sites[siteKey(u)]
	case ScopeTree:
		k := siteKey(u) + u.EscapedPath()
		for _, t := range s.trees {
			if strings.HasPrefix(k, t) {
				return true
			}
		}
		return false
	case ScopeDomain:
		return s.doms[domain(u.Hostname())]
	default: // list
		return s.seeds[u.String()]
	}
}

// siteKey is host and effective port; http://h and https://h are one site.
func siteKey(u *url.URL) string {
	port := u.Port()
	if port == "" || (port == "80" && u.Scheme == "http") || (port == "443" && u.Scheme == "https") {
		port = "default"
	}
	return strings.ToLower(u.Hostname()) + ":" + port
}

// domain is the registrable domain of host (eTLD+1); IP addresses and single labels stand
// for themselves.
func domain(host string) string {
	host = strings.ToLower(host)
	if net.ParseIP(host) != nil {
		return host
	}
	d, err := publicsuffix.EffectiveTLDPlusOne(host)
	if err != nil {
		return host
	}
	return d
}
