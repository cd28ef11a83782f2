package exchange

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"mundaneum/backend/store"
)

// Token is a read-only token this workspace issued: whoever holds its secret may pull the
// workspace's summaries, until it is revoked. Only the secret's SHA-256 is stored; the
// secret itself is shown once, when it is issued.
type Token struct {
	ID        int64  `json:"id"`
	Name      string `json:"name"`
	Secret    string `json:"secret,omitempty"` // only from Issue
	CreatedAt int64  `json:"createdAt"`
	RevokedAt int64  `json:"revokedAt,omitempty"`
	UsedAt    int64  `json:"usedAt,omitempty"`
	Uses      int    `json:"uses"`
}

// tokenPrefix marks a secret as a Mundaneum exchange token (for people and secret scanners).
const tokenPrefix = "mdx_"

func hashSecret(secret string) string {
	h := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(h[:])
}

// Issue makes a new token named name (who it is for).
func Issue(ctx context.Context, st *store.Store, name string) (Token, error) {
	name = strings.TrimSpace(name)
	if name == "" || len(name) > 200 {
		return Token{}, fmt.Errorf("%w: name the token after whom it is for (up to 200 characters)", ErrInvalid)
	}
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return Token{}, err
	}
	t := Token{Name: name, Secret: tokenPrefix + base64.RawURLEncoding.EncodeToString(b), CreatedAt: time.Now().UnixMilli()}
	err := write(ctx, st, func(tx *store.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO exchange_tokens(name, hash, created_at) VALUES (?, ?, ?)`,
			t.Name, hashSecret(t.Secret), t.CreatedAt)
		return err
	})
	if err != nil {
		return Token{}, err
	}
	err = st.ReadDB().QueryRowContext(ctx, `SELECT id FROM exchange_tokens WHERE hash = ?`, hashSecret(t.Secret)).Scan(&t.ID)
	return t, err
}

// Tokens lists the tokens issued, oldest first (without their secrets: they are not kept).
func Tokens(ctx context.Context, st *store.Store) ([]Token, error) {
	rows, err := st.ReadDB().QueryContext(ctx, `SELECT id, name, created_at, coalesce(revoked_at, 0), coalesce(used_at, 0), uses
		FROM exchange_tokens ORDER BY id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Token{}
	for rows.Next() {
		var t Token
		if err := rows.Scan(&t.ID, &t.Name, &t.CreatedAt, &t.RevokedAt, &t.UsedAt, &t.Uses); err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// Revoke ends a token: pulls with it are refused from now on.
func Revoke(ctx context.Context, st *store.Store, id int64) error {
	var n int
	if err := st.ReadDB().QueryRowContext(ctx, `SELECT count(*) FROM exchange_tokens WHERE id = ?`, id).Scan(&n); err != nil {
		return err
	}
	if n == 0 {
		return fmt.Errorf("token %d: %w", id, ErrNotFound)
	}
	return write(ctx, st, func(tx *store.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE exchange_tokens SET revoked_at = coalesce(revoked_at, ?) WHERE id = ?`,
			time.Now().UnixMilli(), id)
		return err
	})
}

// ErrRefused means a token is unknown or revoked.
var ErrRefused = errors.New("token refused")

// Check finds the live token whose secret this is, and counts its use.
func Check(ctx context.Context, st *store.Store, secret string) (int64, error) {
	if !strings.HasPrefix(secret, tokenPrefix) || len(secret) > 128 {
		return 0, ErrRefused
	}
	var id int64
	err := st.ReadDB().QueryRowContext(ctx, `SELECT id FROM exchange_tokens WHERE hash = ? AND revoked_at IS NULL`,
		hashSecret(secret)).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, ErrRefused
	}
	if err != nil {
		return 0, err
	}
	err = st.Writer().Do(ctx, func(tx *store.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE exchange_tokens SET used_at = ?, uses = uses + 1 WHERE id = ?`, time.Now().UnixMilli(), id)
		return err
	})
	return id, err
}
