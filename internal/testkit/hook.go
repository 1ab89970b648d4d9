package testkit

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go/middleware"

	"github.com/dynosql/dynosql"
)

// Around is what a test does with one request: look at or change its
// input, send it (next) zero, one or more times, and look at or replace
// the answer. op is the operation name (Query, PutItem, ...).
type Around func(ctx context.Context, op string, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error)

// Hook returns a DB option that runs around on every request dynosql
// sends, inside the SDK's middleware stack and outside its retry loop:
// the way tests inject faults (unprocessed keys, stalls, lost answers)
// into a real backend.
func Hook(name string, around Around) dynosql.Option {
	return dynosql.WithRequestHook(func(o *dynamodb.Options) {
		o.APIOptions = append(o.APIOptions, func(stack *middleware.Stack) error {
			return stack.Initialize.Add(middleware.InitializeMiddlewareFunc(name,
				func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
					return around(ctx, middleware.GetOperationName(ctx), in, next)
				}), middleware.After)
		})
	})
}
