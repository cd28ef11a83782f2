package offline

import (
	"archive/zip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
)

// SiteFolder writes the html-site export into dir, a folder that must not exist yet: it is
// written beside it under another name and renamed at the end, so it appears whole or not
// at all.
func SiteFolder(ctx context.Context, st SiteStore, crawl int64, dir string, progress SiteProgress) (SiteReport, error) {
	dir = filepath.Clean(dir)
	if _, err := os.Lstat(dir); err == nil {
		return SiteReport{}, fmt.Errorf("%s exists: name a new folder", dir)
	} else if !errors.Is(err, os.ErrNotExist) {
		return SiteReport{}, err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), "."+filepath.Base(dir)+".*.part")
	if err != nil {
		return SiteReport{}, err
	}
	defer os.RemoveAll(tmp) // gone once renamed
	rep, err := Site(ctx, st, crawl, func(name string, data []byte) error {
		p := filepath.Join(tmp, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		return os.WriteFile(p, data, 0o644)
	}, progress)
	if err != nil {
		return rep, err
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return rep, err
	}
	return rep, os.Rename(tmp, dir)
}

// SiteZip writes the html-site export as a zip archive (for a download, or a file).
func SiteZip(ctx context.Context, st SiteStore, crawl int64, w io.Writer, progress SiteProgress) (SiteReport, error) {
	zw := zip.NewWriter(w)
	now := time.Now()
	rep, err := Site(ctx, st, crawl, func(name string, data []byte) error {
		f, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate, Modified: now})
		if err != nil {
			return err
		}
		_, err = f.Write(data)
		return err
	}, progress)
	if err != nil {
		return rep, err
	}
	return rep, zw.Close()
}
