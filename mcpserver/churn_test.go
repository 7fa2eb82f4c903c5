package mcpserver

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/zumba-dev/zumba/search"
)

// TestCallsWhileFilesChange sends a flood of concurrent tool calls to an
// indexed server while another goroutine creates, rewrites and deletes
// files under it. Every call gets exactly one reply, none a protocol
// error. Under -race (CI) it also checks the index, the watcher and the
// tools for data races.
func TestCallsWhileFilesChange(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for i := range 20 {
		writeChurn(t, dir, fmt.Sprintf("pkg%d/f.go", i%4), i)
	}
	root, err := openRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Root: root, Index: &search.IndexOptions{CacheFile: "-"}}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	served := make(chan error, 1)
	go func() {
		err := New(cfg).Serve(context.Background(), inR, outW)
		outW.Close()
		served <- err
	}()

	calls := 300
	if testing.Short() {
		calls = 60
	}
	replies := map[string]int{}
	var protocolErrors []string
	readDone := make(chan struct{})
	go func() {
		defer close(readDone)
		sc := bufio.NewScanner(outR)
		sc.Buffer(make([]byte, 1<<20), 1<<26)
		for sc.Scan() {
			var r struct {
				ID    json.RawMessage `json:"id"`
				Error *rpcError       `json:"error"`
			}
			if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
				protocolErrors = append(protocolErrors, "bad line: "+sc.Text())
				continue
			}
			replies[string(r.ID)]++
			if r.Error != nil {
				protocolErrors = append(protocolErrors, sc.Text())
			}
		}
	}()

	stop := make(chan struct{})
	var churn sync.WaitGroup
	churn.Add(1)
	go func() {
		defer churn.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			name := fmt.Sprintf("pkg%d/g%d.go", i%4, i%7)
			if i%3 == 2 {
				os.Remove(filepath.Join(dir, filepath.FromSlash(name)))
			} else {
				writeChurn(t, dir, name, i)
			}
		}
	}()

	var send sync.Mutex
	var senders sync.WaitGroup
	for c := range 4 {
		senders.Add(1)
		go func() {
			defer senders.Done()
			for i := c; i < calls; i += 4 {
				var params map[string]any
				switch i % 4 {
				case 0:
					params = map[string]any{"name": "outline", "arguments": map[string]string{"path": fmt.Sprintf("pkg%d/f.go", i%4)}}
				case 1:
					params = map[string]any{"name": "find_symbol", "arguments": map[string]string{"name": "Churn"}}
				case 2:
					params = map[string]any{"name": "find_references", "arguments": map[string]string{"name": "value"}}
				default:
					params = map[string]any{"name": "find_symbol", "arguments": map[string]string{"name": "hur"}}
				}
				msg, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": params})
				send.Lock()
				_, err := inW.Write(append(msg, '\n'))
				send.Unlock()
				if err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	senders.Wait()
	inW.Close()
	if err := <-served; err != nil {
		t.Errorf("Serve: %v", err)
	}
	<-readDone
	close(stop)
	churn.Wait()

	for _, e := range protocolErrors {
		t.Errorf("protocol error: %s", e)
	}
	for i := range calls {
		if n := replies[fmt.Sprint(i)]; n != 1 {
			t.Errorf("request %d got %d replies; want 1", i, n)
		}
	}
}

func writeChurn(t *testing.T, dir, name string, i int) {
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Error(err)
		return
	}
	src := fmt.Sprintf("package p\n\n// Churn%d is rewritten while the server answers.\nfunc Churn%d() int { value := %d; return value }\n", i, i, i)
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Error(err)
	}
}
