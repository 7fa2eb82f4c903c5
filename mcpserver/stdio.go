package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
)

// MCP's stdio transport: one JSON-RPC message per line in, one reply per
// line out. Tool calls run concurrently and answer in the order they end;
// quick methods are answered in line.

// MaxLine is the longest message accepted, in bytes, without its newline.
const MaxLine = 64 << 20

// Serve reads requests from r, one per line, and writes replies to w until r
// ends or ctx is cancelled. At the end of input it waits for the requests in
// flight, then returns nil. It returns an error only when r or w fails.
func (s *Server) Serve(ctx context.Context, r io.Reader, w io.Writer) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if s.cfg.Index != nil {
		defer s.serveIndex(ctx)()
	}
	st := &stdioStream{core: newCallCore(s), calls: newCallSet(), out: newLineWriter(w)}
	defer st.wg.Wait()
	if s.cfg.ClientRoots {
		s.client.mu.Lock()
		s.client.send = st.out.write
		s.client.mu.Unlock()
	}
	// Lines are read in their own goroutine so that a cancelled ctx (a
	// signal) ends Serve even while the client keeps stdin open and quiet.
	// The channel is unbuffered: the reader holds at most one line while
	// the loop below waits, which keeps back-pressure intact.
	lines := make(chan inputLine)
	done := make(chan struct{})
	defer close(done)
	go readLines(r, lines, done)
	for {
		var in inputLine
		select {
		case <-ctx.Done():
			return nil
		case <-st.out.broken:
			return fmt.Errorf("write output: %w", st.out.failure())
		case in = <-lines:
		}
		if in.tooLong {
			st.out.send(errorReply(nullID, CodeInvalidRequest, fmt.Sprintf("invalid request: message longer than %d bytes; skipped", MaxLine)))
		} else if len(bytes.TrimSpace(in.line)) > 0 {
			req, reply := parse(in.line)
			switch {
			case reply != nil:
				st.out.send(reply)
			case req != nil:
				st.dispatch(ctx, req)
			default:
				// A reply of the client, to the server's roots/list.
				s.answered(in.line)
			}
		}
		if in.err != nil {
			if errors.Is(in.err, io.EOF) {
				return nil
			}
			return fmt.Errorf("read input: %w", in.err)
		}
	}
}

// stdioStream is one Serve: its calls, its replies and its goroutines.
type stdioStream struct {
	core  *callCore
	calls *callSet
	out   *lineWriter
	wg    sync.WaitGroup
}

// dispatch serves one request. Quick methods are answered in line, so a
// slow tool call never delays them; tool calls run concurrently, and one
// cancelled by name gets no reply.
func (st *stdioStream) dispatch(ctx context.Context, req *request) {
	if req.id == nil {
		st.calls.notify(req)
		st.core.s.notified(ctx, req.method)
		return
	}
	if req.method != "tools/call" {
		st.out.send(st.core.handle(ctx, req))
		return
	}
	cl, reply := st.core.admit(ctx, st.calls, req)
	if reply != nil {
		st.out.send(reply)
	}
	if cl == nil {
		return
	}
	st.wg.Add(1)
	go func() {
		defer st.wg.Done()
		defer cl.release()
		if reply, cancelled := cl.run(); !cancelled {
			st.out.send(reply)
		}
	}()
}

// inputLine is one line of input, or the end of it.
type inputLine struct {
	line    []byte
	tooLong bool
	err     error
}

// readLines sends r's lines on lines until r fails or done is closed. The
// last line sent carries the read error (io.EOF at the end of input).
func readLines(r io.Reader, lines chan<- inputLine, done <-chan struct{}) {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, tooLong, err := readLine(br, MaxLine)
		select {
		case lines <- inputLine{line: line, tooLong: tooLong, err: err}:
		case <-done:
			return
		}
		if err != nil {
			return
		}
	}
}

// readLine reads one line without its "\n" (and "\r"). A line longer than
// max is consumed and reported as tooLong, without keeping it in memory.
func readLine(br *bufio.Reader, max int) (line []byte, tooLong bool, err error) {
	for {
		chunk, e := br.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > max+2 {
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if e == bufio.ErrBufferFull {
			continue
		}
		if e != nil {
			err = e
		}
		break
	}
	line = bytes.TrimSuffix(line, []byte("\n"))
	line = bytes.TrimSuffix(line, []byte("\r"))
	if !tooLong && len(line) > max {
		tooLong, line = true, nil
	}
	return line, tooLong, err
}

// lineWriter writes whole replies, one per line, from any goroutine. Once
// a write fails it drops every later reply and closes broken.
type lineWriter struct {
	mu     sync.Mutex
	w      *bufio.Writer
	err    error
	broken chan struct{}
}

func newLineWriter(w io.Writer) *lineWriter {
	return &lineWriter{w: bufio.NewWriter(w), broken: make(chan struct{})}
}

func (lw *lineWriter) send(r *response) { lw.write(encodeReply(r)) }

// write writes b, a whole message ending in a newline.
func (lw *lineWriter) write(b []byte) {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	if lw.err != nil {
		return
	}
	_, err := lw.w.Write(b)
	if err == nil {
		err = lw.w.Flush()
	}
	if err != nil {
		lw.err = err
		close(lw.broken)
	}
}

func (lw *lineWriter) failure() error {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	return lw.err
}
