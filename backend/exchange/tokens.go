package exchange

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"mundaneum/backend/exchange/record"
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
func Issue(ctx context.Context, st TokenStore, name string) (Token, error) {
	name = strings.TrimSpace(name)
	if name == "" || len(name) > 200 {
		return Token{}, fmt.Errorf("%w: name the token after whom it is for (up to 200 characters)", ErrInvalid)
	}
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return Token{}, err
	}
	t := Token{Name: name, Secret: tokenPrefix + base64.RawURLEncoding.EncodeToString(b), CreatedAt: time.Now().UnixMilli()}
	id, err := st.AddExchangeToken(ctx, record.Token{Name: t.Name, Hash: hashSecret(t.Secret), CreatedAt: t.CreatedAt})
	if err != nil {
		return Token{}, err
	}
	t.ID = id
	return t, nil
}

// Tokens lists the tokens issued, oldest first (without their secrets: they are not kept).
func Tokens(ctx context.Context, st TokenStore) ([]Token, error) {
	ts, err := st.ExchangeTokens(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]Token, len(ts))
	for i, t := range ts {
		out[i] = Token{ID: t.ID, Name: t.Name, CreatedAt: t.CreatedAt, RevokedAt: t.RevokedAt, UsedAt: t.UsedAt, Uses: t.Uses}
	}
	return out, nil
}

// Revoke ends a token: pulls with it are refused from now on.
func Revoke(ctx context.Context, st TokenStore, id int64) error {
	err := st.RevokeExchangeToken(ctx, id, time.Now().UnixMilli())
	if errors.Is(err, record.ErrNotFound) {
		return fmt.Errorf("token %d: %w", id, ErrNotFound)
	}
	return err
}

// ErrRefused means a token is unknown or revoked.
var ErrRefused = errors.New("token refused")

// Check finds the live token whose secret this is, and counts its use.
func Check(ctx context.Context, st TokenStore, secret string) (int64, error) {
	if !strings.HasPrefix(secret, tokenPrefix) || len(secret) > 128 {
		return 0, ErrRefused
	}
	id, err := st.UseExchangeToken(ctx, hashSecret(secret), time.Now().UnixMilli())
	if errors.Is(err, record.ErrNotFound) {
		return 0, ErrRefused
	}
	return id, err
}
