package backend

import (
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/truora/minidyn/server"

	"github.com/dynosql/dynosql/internal/errs"
)

// Embedded is an in-memory DynamoDB (minidyn) served over HTTP on a
// loopback port, so that the ordinary SDK client talks to it exactly as
// it talks to AWS.
type Embedded struct {
	srv      *http.Server
	url      string
	done     chan error
	close    sync.Once
	closeErr error
}

// StartEmbedded starts an empty in-memory server on 127.0.0.1 at a free
// port. Close stops it.
func StartEmbedded() (*Embedded, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, errs.New(errs.Backend, "cannot start the embedded backend: %v", err).Wrap(err)
	}
	e := &Embedded{
		srv: &http.Server{
			Handler:           server.NewServer(),
			ReadHeaderTimeout: 10 * time.Second,
			// net/http logs connection-level trouble; the user cannot act
			// on it and the SDK reports failed requests anyway.
			ErrorLog: log.New(io.Discard, "", 0),
		},
		url:  "http://" + ln.Addr().String(),
		done: make(chan error, 1),
	}
	go func() { e.done <- e.srv.Serve(ln) }()
	return e, nil
}

// URL returns the server's base URL, for Options.Endpoint.
func (e *Embedded) URL() string { return e.url }

// Close stops the server and drops its data. Later calls do nothing.
func (e *Embedded) Close() error {
	e.close.Do(func() {
		e.closeErr = e.srv.Close()
		if serveErr := <-e.done; !errors.Is(serveErr, http.ErrServerClosed) && e.closeErr == nil {
			e.closeErr = serveErr
		}
	})
	return e.closeErr
}
