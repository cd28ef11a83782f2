package check

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// Settings are the workspace's maintenance settings (kept in its settings table under
// "check"). Politeness and identity are the workspace's crawl settings.
type Settings struct {
	DeadChecks int `json:"deadChecks"` // a link is dead after this many failing checks in a row...
	DeadDays   int `json:"deadDays"`   // ...spanning at least this many days
	// RobotsDays is how long a site's robots.txt holds (MOMspider's SitesCheck).
	RobotsDays int  `json:"robotsDays"`
	Notify     bool `json:"notify"` // desktop notifications when a run has news
	SMTP       SMTP `json:"smtp"`
}

// SMTP is the mail server that e-mails a task's news (MOMspider mailed owners).
type SMTP struct {
	Host     string `json:"host"` // "" : no e-mail
	Port     int    `json:"port"` // 587 by default
	TLS      string `json:"tls"`  // starttls (default), tls, or none (loopback relays only)
	From     string `json:"from"`
	Username string `json:"username"`
	// PasswordFile holds the password (one line). The password is never stored in the
	// workspace, which is copied, backed up and shared; MUNDANEUM_SMTP_PASSWORD also works.
	PasswordFile string `json:"passwordFile"`
}

// DefaultSettings: dead after 3 failing checks over 7 days, robots.txt for a day,
// notifications on, no e-mail.
func DefaultSettings() Settings {
	return Settings{DeadChecks: 3, DeadDays: 7, RobotsDays: 1, Notify: true, SMTP: SMTP{Port: 587, TLS: "starttls"}}
}

const settingsKey = "check"

// SettingsStore keeps settings by key; *store.Store satisfies it.
type SettingsStore interface {
	LoadSetting(ctx context.Context, key string) ([]byte, bool, error)
	SaveSetting(ctx context.Context, key string, value []byte) error
}

// LoadSettings returns the workspace's maintenance settings (the defaults where none are set).
func LoadSettings(ctx context.Context, st SettingsStore) (Settings, error) {
	s := DefaultSettings()
	b, ok, err := st.LoadSetting(ctx, settingsKey)
	if err != nil || !ok {
		return s, err
	}
	if err := json.Unmarshal(b, &s); err != nil {
		return DefaultSettings(), fmt.Errorf("maintenance settings: %w", err)
	}
	return s, nil
}

// SaveSettings checks and stores the maintenance settings.
func SaveSettings(ctx context.Context, st SettingsStore, s Settings) (Settings, error) {
	if err := s.normalize(); err != nil {
		return Settings{}, err
	}
	b, _ := json.Marshal(s)
	return s, st.SaveSetting(ctx, settingsKey, b)
}

func (s *Settings) normalize() error {
	m := &s.SMTP
	m.Host, m.From, m.Username, m.PasswordFile = strings.TrimSpace(m.Host), strings.TrimSpace(m.From),
		strings.TrimSpace(m.Username), strings.TrimSpace(m.PasswordFile)
	m.TLS = strings.ToLower(strings.TrimSpace(m.TLS))
	if m.TLS == "" {
		m.TLS = "starttls"
	}
	if m.Port == 0 {
		m.Port = 587
	}
	switch {
	case s.DeadChecks < 1 || s.DeadChecks > 100:
		return fmt.Errorf("%w: dead after 1 to 100 failing checks", ErrBadTask)
	case s.DeadDays < 0 || s.DeadDays > 365:
		return fmt.Errorf("%w: dead after 0 to 365 days", ErrBadTask)
	case s.RobotsDays < 1 || s.RobotsDays > 30:
		return fmt.Errorf("%w: robots.txt holds 1 to 30 days", ErrBadTask)
	case m.TLS != "starttls" && m.TLS != "tls" && m.TLS != "none":
		return fmt.Errorf("%w: SMTP TLS is starttls, tls or none", ErrBadTask)
	case m.Port < 1 || m.Port > 65535:
		return fmt.Errorf("%w: SMTP port %d", ErrBadTask, m.Port)
	case strings.ContainsAny(m.Host, " /\r\n"):
		return fmt.Errorf("%w: SMTP host %q", ErrBadTask, m.Host)
	case m.Host != "" && !validAddress(m.From):
		return fmt.Errorf("%w: e-mail needs a From address", ErrBadTask)
	}
	return nil
}

// Crawling is what a check run shares with the workspace's crawls: who it says it is and
// how hard it presses on a host.
type Crawling struct {
	UserAgent string // the whole header, as the crawler sends it
	From      string
	Agents    int
	PerHost   int
	DelayMs   int
}

// ConfigFor is the run configuration of a workspace: its crawl settings (identity,
// politeness, parallelism) and its maintenance settings.
func ConfigFor(ws Crawling, s Settings) Config {
	cfg := Config{
		UserAgent: ws.UserAgent,
		From:      ws.From,
		Agents:    ws.Agents,
		PerHost:   ws.PerHost,
		Delay:     time.Duration(ws.DelayMs) * time.Millisecond,
		RobotsTTL: time.Duration(s.RobotsDays) * 24 * time.Hour,
		Dead:      DeadPolicy{Checks: s.DeadChecks, Span: time.Duration(s.DeadDays) * 24 * time.Hour},
	}
	cfg.defaults()
	return cfg
}
