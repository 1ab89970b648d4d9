package backend

import (
	"context"
	"errors"
	"io"
	"log"
	"math"
	"net"
	"net/http"
	"reflect"
	"strconv"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go/middleware"
	"github.com/truora/minidyn/server"

	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/value"
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

// GuardNumbers is a request option for clients of the embedded backend.
// minidyn holds every number as a float64 and returns the shortest
// decimal that float64 prints, so a number of more than about 15
// significant digits would be stored as another number, and a lookup by
// it would find nothing. GuardNumbers fails a request that carries such
// a number, naming it, before anything is sent.
func GuardNumbers(o *dynamodb.Options) {
	o.APIOptions = append(o.APIOptions, func(st *middleware.Stack) error {
		return st.Initialize.Add(middleware.InitializeMiddlewareFunc("dynosqlEmbeddedNumbers",
			func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
				if n, stored, ok := firstInexact(reflect.ValueOf(in.Parameters)); ok {
					return middleware.InitializeOutput{}, middleware.Metadata{}, errs.New(errs.Invalid,
						"the embedded backend holds numbers as 64-bit floats: %s would be stored as %s", n, stored).
						WithHint("write at most 15 significant digits, or run on DynamoDB Local or AWS, which keep 38")
				}
				return next.HandleInitialize(ctx, in)
			}), middleware.Before)
	})
}

var (
	numberType    = reflect.TypeFor[types.AttributeValueMemberN]()
	numberSetType = reflect.TypeFor[types.AttributeValueMemberNS]()
)

// firstInexact walks a request input for the first number (N, or one of
// an NS) that float64 does not hold exactly, and returns it with what
// minidyn would store instead.
func firstInexact(v reflect.Value) (n, stored string, found bool) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			return firstInexact(v.Elem())
		}
	case reflect.Struct:
		switch v.Type() {
		case numberType:
			return inexact(v.Field(0).String())
		case numberSetType:
			for i := range v.Field(0).Len() {
				if n, stored, found := inexact(v.Field(0).Index(i).String()); found {
					return n, stored, true
				}
			}
			return "", "", false
		}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				if n, stored, found := firstInexact(v.Field(i)); found {
					return n, stored, true
				}
			}
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			if n, stored, found := firstInexact(it.Value()); found {
				return n, stored, true
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			if n, stored, found := firstInexact(v.Index(i)); found {
				return n, stored, true
			}
		}
	}
	return "", "", false
}

// inexact reports whether n reads back from minidyn as another number,
// and as which: minidyn parses with strconv.ParseFloat and prints with
// FormatFloat(f, 'f', -1, 64).
func inexact(n string) (string, string, bool) {
	f, exact := value.Number(n).ExactFloat()
	switch {
	case exact:
		return "", "", false
	case math.IsInf(f, 0):
		return n, "an error (out of range)", true
	}
	return n, strconv.FormatFloat(f, 'f', -1, 64), true
}
