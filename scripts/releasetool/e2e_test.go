package main

import (
	"bufio"
	"bytes"
	"context"
	"debug/elf"
	"debug/macho"
	"debug/pe"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// checkBinary reads a binary's headers: the format and the architecture
// of its platform.
func checkBinary(path string, p platform) error {
	switch p.goos {
	case "linux":
		f, err := elf.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		want := map[string]elf.Machine{"amd64": elf.EM_X86_64, "arm64": elf.EM_AARCH64}[p.goarch]
		if f.Machine != want || f.Class != elf.ELFCLASS64 || f.Type != elf.ET_EXEC && f.Type != elf.ET_DYN {
			return fmt.Errorf("ELF %v %v %v; want a 64-bit %v executable", f.Class, f.Machine, f.Type, want)
		}
		if libs, _ := f.ImportedLibraries(); len(libs) > 0 {
			return fmt.Errorf("ELF needs %v; want a static binary", libs)
		}
	case "darwin":
		f, err := macho.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		want := map[string]macho.Cpu{"amd64": macho.CpuAmd64, "arm64": macho.CpuArm64}[p.goarch]
		if f.Cpu != want || f.Type != macho.TypeExec {
			return fmt.Errorf("Mach-O %v %v; want a %v executable", f.Cpu, f.Type, want)
		}
		// arm64 Macs run only signed code: the linker's ad-hoc signature.
		// (Intel Macs need none, and zig signs only arm64.)
		signed := p.goarch != "arm64"
		for _, l := range f.Loads {
			if raw := l.Raw(); len(raw) >= 4 && f.ByteOrder.Uint32(raw) == 0x1d { // LC_CODE_SIGNATURE
				signed = true
			}
		}
		if !signed {
			return fmt.Errorf("Mach-O has no code signature")
		}
	case "windows":
		f, err := pe.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		if f.Machine != pe.IMAGE_FILE_MACHINE_AMD64 {
			return fmt.Errorf("PE machine %#x; want AMD64", f.Machine)
		}
		if f.Characteristics&pe.IMAGE_FILE_EXECUTABLE_IMAGE == 0 {
			return fmt.Errorf("PE is not an executable image")
		}
		libs, _ := f.ImportedLibraries()
		for _, l := range libs {
			if strings.Contains(strings.ToLower(l), "libstdc++") || strings.Contains(strings.ToLower(l), "libgcc") || strings.Contains(strings.ToLower(l), "winpthread") {
				return fmt.Errorf("PE needs %s, which Windows lacks; want it linked in", l)
			}
		}
	default:
		return fmt.Errorf("no check for %s", p)
	}
	return nil
}

// TestReleaseBinaries checks the headers of every binary of a full
// release built beforehand: ZUMBA_RELEASE_DIST=dist (scripts/release.sh's
// folder).
func TestReleaseBinaries(t *testing.T) {
	dist := os.Getenv("ZUMBA_RELEASE_DIST")
	if dist == "" {
		t.Skip("set ZUMBA_RELEASE_DIST to a folder scripts/release.sh wrote")
	}
	r := release{dist: dist}
	for _, p := range npmPlatforms {
		path := r.binary(p)
		fi, err := os.Stat(path)
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		if err := checkBinary(path, p); err != nil {
			t.Errorf("%s: %v", p, err)
		}
		t.Logf("%s: %s, %.1f MB", p, path, float64(fi.Size())/1e6)
	}
}

// TestReleaseNPM builds this machine's release with scripts/release.sh
// --host, installs its two npm tarballs (the main package and this
// platform's) into an empty folder with npm --offline, and talks MCP over
// stdio to `npx -y zumba-mcp mcp DIR` there, with the npm registry set to
// an address nothing answers: what a user gets from the published
// packages, checked without the registry. ZUMBA_RELEASE_E2E=1 runs it (CI
// does); it needs node and npm.
func TestReleaseNPM(t *testing.T) {
	if os.Getenv("ZUMBA_RELEASE_E2E") != "1" {
		t.Skip("set ZUMBA_RELEASE_E2E=1 to build the host's release and run it from npm")
	}
	for _, tool := range []string{"node", "npm", "npx", "bash"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is missing", tool)
		}
	}
	host, err := parsePlatform(runtime.GOOS + "/" + runtime.GOARCH)
	if err != nil {
		t.Skip(err)
	}
	const version = "0.0.0-ci"
	dist := t.TempDir()
	start := time.Now()
	run(t, "../..", nil, "bash", "scripts/release.sh", "--host", "--dist", dist, version)
	t.Logf("release.sh --host: %v", time.Since(start).Round(time.Second))

	r := release{dist: dist, version: version}
	if err := checkBinary(r.binary(host), host); err != nil {
		t.Errorf("%s: %v", r.binary(host), err)
	}
	out := run(t, dist, nil, r.binary(host), "version")
	if !strings.HasPrefix(out, "zumba "+version+"\ncommit ") || !strings.Contains(out, runtime.Version()) {
		t.Errorf("zumba version = %q; want zumba %s, the commit, %s", out, version, runtime.Version())
	}
	run(t, dist, nil, "sha256sum", "-c", "SHA256SUMS")

	// An empty folder, as a user's; only the two tarballs, no registry.
	noRegistry := []string{"npm_config_registry=http://127.0.0.1:9/", "npm_config_update_notifier=false", "npm_config_cache=" + filepath.Join(dist, "npm-cache")}
	user := filepath.Join(dist, "user")
	if err := os.Mkdir(user, 0o755); err != nil {
		t.Fatal(err)
	}
	start = time.Now()
	run(t, user, noRegistry, "npm", "install", "--offline", "--no-audit", "--no-fund",
		filepath.Join(dist, "npm", npmMain+"-"+version+".tgz"), filepath.Join(dist, "npm", host.npmName()+"-"+version+".tgz"))
	t.Logf("npm install --offline: %v", time.Since(start).Round(time.Millisecond))
	// Both packages, as npm installed them from their tarballs, carry
	// the licence and the third-party notices.
	for _, pkg := range []string{npmMain, host.npmName()} {
		for _, f := range []string{licenseFile, noticesFile} {
			want, _ := os.ReadFile(filepath.Join("../..", f))
			got, err := os.ReadFile(filepath.Join(user, "node_modules", pkg, f))
			if err != nil || len(want) == 0 || !bytes.Equal(got, want) {
				t.Errorf("the installed %s has no %s as the repository's: %v", pkg, f, err)
			}
		}
	}

	proj := filepath.Join(dist, "project")
	if err := os.MkdirAll(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	src := "package demo\n\n// Greet says hello.\nfunc Greet(name string) string { return \"hello \" + name }\n\ntype Server struct{}\n\nfunc (s *Server) Serve() {}\n"
	if err := os.WriteFile(filepath.Join(proj, "demo.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	start = time.Now()
	answers := mcpSession(t, user, noRegistry, []string{"npx", "-y", npmMain, "mcp", proj},
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"release-test","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"outline","arguments":{"path":"demo.go"}}}`)
	t.Logf("npx -y %s mcp: initialize and tools/call in %v", npmMain, time.Since(start).Round(time.Millisecond))
	if len(answers) != 2 {
		t.Fatalf("%d answers; want 2: %q", len(answers), answers)
	}
	var init struct {
		ID     int
		Result struct {
			ProtocolVersion string
			ServerInfo      struct{ Name, Version string }
		}
	}
	if err := json.Unmarshal([]byte(answers[0]), &init); err != nil || init.ID != 1 || init.Result.ServerInfo.Name != "zumba" || init.Result.ServerInfo.Version != version || init.Result.ProtocolVersion != "2025-06-18" {
		t.Errorf("initialize answered %s (%v); want zumba %s, protocol 2025-06-18", answers[0], err, version)
	}
	var call struct {
		ID     int
		Result struct {
			Content []struct{ Type, Text string }
			IsError bool
		}
	}
	want := "4 function Greet\n6 struct Server\n8 method Server.Serve"
	if err := json.Unmarshal([]byte(answers[1]), &call); err != nil || call.ID != 2 || call.Result.IsError || len(call.Result.Content) != 1 || call.Result.Content[0].Text != want {
		t.Errorf("tools/call outline answered %s (%v); want the text %q", answers[1], err, want)
	}
}

// run runs a command in dir and returns its stdout; a failure ends the
// test with its output.
func run(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\n%s%s", name, strings.Join(args, " "), err, stdout.String(), stderr.String())
	}
	return stdout.String()
}

// mcpSession starts an MCP server over stdio, sends the lines, closes
// stdin and returns the lines it answered (the server exits at the end
// of its input).
func mcpSession(t *testing.T, dir string, env, argv []string, lines ...string) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdin = strings.NewReader(strings.Join(lines, "\n") + "\n")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v\nstdout: %s\nstderr: %s", strings.Join(argv, " "), err, stdout.String(), stderr.String())
	}
	var answers []string
	sc := bufio.NewScanner(&stdout)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		answers = append(answers, sc.Text())
	}
	return answers
}
