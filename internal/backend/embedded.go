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

// GuardValues is a request option for clients of the embedded backend.
// It fails a request that carries a value minidyn would store as another,
// naming it, before anything is sent: a number of more than about 15
// significant digits (minidyn holds every number as a float64 and returns
// the shortest decimal that float64 prints, so a lookup by it would find
// nothing), or an empty list, map or binary (minidyn reads one back as
// another attribute's value, and an empty binary breaks every later read
// of its partition).
func GuardValues(o *dynamodb.Options) {
	o.APIOptions = append(o.APIOptions, func(st *middleware.Stack) error {
		return st.Initialize.Add(middleware.InitializeMiddlewareFunc("dynosqlEmbeddedValues",
			func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
				if err := firstUnheld(reflect.ValueOf(in.Parameters)); err != nil {
					return middleware.InitializeOutput{}, middleware.Metadata{}, err
				}
				return next.HandleInitialize(ctx, in)
			}), middleware.Before)
	})
}

var attributeValueType = reflect.TypeFor[types.AttributeValue]()

// firstUnheld walks a request input for the first attribute value, at any
// depth, that minidyn would not give back as sent, and says which.
func firstUnheld(v reflect.Value) *errs.Error {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return nil
		}
		if v.Type().Implements(attributeValueType) {
			if err := unheld(v.Interface().(types.AttributeValue)); err != nil {
				return err
			}
		}
		return firstUnheld(v.Elem())
	case reflect.Interface:
		if !v.IsNil() {
			return firstUnheld(v.Elem())
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				if err := firstUnheld(v.Field(i)); err != nil {
					return err
				}
			}
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			if err := firstUnheld(it.Value()); err != nil {
				return err
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			if err := firstUnheld(v.Index(i)); err != nil {
				return err
			}
		}
	}
	return nil
}

// unheld returns why minidyn would not give av back as sent, or nil. A
// list's or map's elements are walked by firstUnheld.
func unheld(av types.AttributeValue) *errs.Error {
	var numbers []string
	switch x := av.(type) {
	case *types.AttributeValueMemberN:
		numbers = []string{x.Value}
	case *types.AttributeValueMemberNS:
		if len(x.Value) == 0 {
			return emptyDocument("number set")
		}
		numbers = x.Value
	case *types.AttributeValueMemberL:
		if len(x.Value) == 0 {
			return emptyDocument("list")
		}
	case *types.AttributeValueMemberM:
		if len(x.Value) == 0 {
			return emptyDocument("map")
		}
	case *types.AttributeValueMemberB:
		if len(x.Value) == 0 {
			return emptyDocument("binary")
		}
	case *types.AttributeValueMemberSS:
		if len(x.Value) == 0 {
			return emptyDocument("string set")
		}
	case *types.AttributeValueMemberBS:
		if len(x.Value) == 0 {
			return emptyDocument("binary set")
		}
	}
	for _, n := range numbers {
		if n, stored, found := inexact(n); found {
			return errs.New(errs.Invalid, "the embedded backend holds numbers as 64-bit floats: %s would be stored as %s", n, stored).
				WithHint("write at most 15 significant digits, or run on DynamoDB Local or AWS, which keep 38")
		}
	}
	return nil
}

func emptyDocument(kind string) *errs.Error {
	return errs.New(errs.Invalid, "the embedded backend cannot hold an empty %s: it would read it back as another attribute's value", kind).
		WithHint("leave the attribute out (NULL), or run on DynamoDB Local or AWS")
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
