package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
)

// The workspace's preferences (the settings table's main keys).

// Settings are a workspace's preferences. They travel with the workspace file.
type Settings struct {
	UserAgentSuffix string `json:"userAgentSuffix"` // appended to the crawler's User-Agent (who runs it)
	From            string `json:"from"`            // e-mail address sent in the From header
	DelayMs         int    `json:"delayMs"`         // default gap between requests to one host
	PerHost         int    `json:"perHost"`         // default parallel requests per host
	Agents          int    `json:"agents"`          // default parallel fetches
	Theme           string `json:"theme"`           // system | light | dark
	// MaxPerHost caps the pages a crawl run fetches from one host (a spider-trap guard).
	MaxPerHost int `json:"maxPerHost"`
	// MaxQueryVariants caps the URLs of one path that differ only in their query that a
	// crawl run queues (faceted navigation, calendars).
	MaxQueryVariants int `json:"maxQueryVariants"`
	// MaxBody caps a document's body: a longer one is cut there and marked "truncated".
	MaxBody int64 `json:"maxBody"`
	// Render is the crawls' default choice of pages read in a browser: auto (shells
	// only), always or never.
	Render string `json:"render"`
}

// DefaultSettings are the settings of a new workspace.
func DefaultSettings() Settings {
	return Settings{DelayMs: 1000, PerHost: 2, Agents: 16, Theme: "system",
		MaxPerHost: 100_000, MaxQueryVariants: 200, MaxBody: 10 << 20, Render: "auto"}
}

const settingsKey = "settings"

// Settings returns the workspace's settings (the defaults where none are stored).
func (s *Store) Settings(ctx context.Context) (Settings, error) {
	set := DefaultSettings()
	var v string
	err := s.read.QueryRowContext(ctx, `SELECT value FROM settings WHERE key = ?`, settingsKey).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return set, nil
	}
	if err != nil {
		return set, fmt.Errorf("read settings: %w", err)
	}
	if err := json.Unmarshal([]byte(v), &set); err != nil {
		return DefaultSettings(), fmt.Errorf("read settings: %w", err)
	}
	return set, nil
}

// SaveSettings stores the workspace's settings and commits them.
func (s *Store) SaveSettings(ctx context.Context, set Settings) error {
	js, err := json.Marshal(set)
	if err != nil {
		return err
	}
	err = s.writer.Do(ctx, func(tx *Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO settings(key, value) VALUES (?, ?)
			ON CONFLICT(key) DO UPDATE SET value = excluded.value`, settingsKey, string(js))
		return err
	})
	if err != nil {
		return fmt.Errorf("save settings: %w", err)
	}
	return s.writer.Flush(ctx)
}
