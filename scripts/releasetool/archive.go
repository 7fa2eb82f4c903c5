package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// checksums maps an archive's file name to its SHA-256, in hex.
type checksums map[string]string

// String is the SHA256SUMS file: `sha256sum -c` reads it.
func (c checksums) String() string {
	names := make([]string, 0, len(c))
	for n := range c {
		names = append(names, n)
	}
	sort.Strings(names)
	var sb strings.Builder
	for _, n := range names {
		fmt.Fprintf(&sb, "%s  %s\n", c[n], n)
	}
	return sb.String()
}

// member is one file of an archive.
type member struct {
	name string
	mode int64
	data []byte
}

// writeArchives writes each platform's archive into the dist folder: the
// binary, the README, LICENSE and THIRD_PARTY_NOTICES at the top, as
// Homebrew and the npm packages expect them.
func (r release) writeArchives() (checksums, error) {
	docs, err := r.docs()
	if err != nil {
		return nil, err
	}
	sums := checksums{}
	for _, p := range r.platforms {
		bin, err := os.ReadFile(r.binary(p))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		members := append([]member{{p.exe(), 0o755, bin}}, docs...)
		var buf bytes.Buffer
		if p.goos == "windows" {
			err = writeZip(&buf, members, r.mtime)
		} else {
			err = writeTarGz(&buf, members, r.mtime)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		name := p.archive(r.version)
		if err := os.WriteFile(filepath.Join(r.dist, name), buf.Bytes(), 0o644); err != nil {
			return nil, err
		}
		sum := sha256.Sum256(buf.Bytes())
		sums[name] = hex.EncodeToString(sum[:])
	}
	return sums, nil
}

// docs are the files every archive and package holds beside the binary:
// the README and the licences.
func (r release) docs() ([]member, error) {
	var out []member
	for _, name := range []string{"README.md", licenseFile, noticesFile} {
		b, err := os.ReadFile(filepath.Join(r.root, name))
		if err != nil {
			return nil, fmt.Errorf("read %s (run from the repository's root): %w", name, err)
		}
		out = append(out, member{name, 0o644, b})
	}
	return out, nil
}

// writeTarGz writes a gzipped tar with no owner names and one time, so
// that the same files make the same bytes.
func writeTarGz(w io.Writer, members []member, mtime time.Time) error {
	gz, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	tw := tar.NewWriter(gz)
	for _, m := range members {
		hdr := &tar.Header{Name: m.name, Mode: m.mode, Size: int64(len(m.data)), ModTime: mtime, Typeflag: tar.TypeReg, Format: tar.FormatUSTAR}
		if err := tw.WriteHeader(hdr); err != nil {
			return err
		}
		if _, err := tw.Write(m.data); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return gz.Close()
}

// writeZip writes a zip the same way.
func writeZip(w io.Writer, members []member, mtime time.Time) error {
	zw := zip.NewWriter(w)
	for _, m := range members {
		hdr := &zip.FileHeader{Name: m.name, Method: zip.Deflate, Modified: mtime}
		hdr.SetMode(os.FileMode(m.mode))
		f, err := zw.CreateHeader(hdr)
		if err != nil {
			return err
		}
		if _, err := f.Write(m.data); err != nil {
			return err
		}
	}
	return zw.Close()
}
