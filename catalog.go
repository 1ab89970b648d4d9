package dynosql

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/dynosql/dynosql/executor"
	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/mapping"
	"github.com/dynosql/dynosql/parser"
)

// catalog is the logical tables a DB's statements can name: the
// mapping's entities first, then every other DynamoDB table the client
// reaches, read raw (mapping.Raw). A raw table is described the first
// time a statement names it, and remembered for the DB's life.
type catalog struct {
	m    *mapping.Mapping // nil when the DB has no mapping
	exec *executor.Executor

	mu  sync.Mutex
	raw map[string]*mapping.Entity
}

func newCatalog(m *mapping.Mapping, exec *executor.Executor) *catalog {
	return &catalog{m: m, exec: exec, raw: map[string]*mapping.Entity{}}
}

// Entity implements planner.Catalog for the names learn has seen.
func (c *catalog) Entity(name string) (*mapping.Entity, error) {
	if c.m != nil {
		if e, ok := c.m.Entities[name]; ok {
			return e, nil
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.raw[name]; ok {
		return e, nil
	}
	return nil, errs.New(errs.Invalid, "unknown table %s", name)
}

// EntityList implements planner.Catalog: the mapping's entities.
func (c *catalog) EntityList() []*mapping.Entity {
	if c.m == nil {
		return nil
	}
	return c.m.EntityList()
}

// learn describes each table stmt names that is neither an entity nor
// known yet, so that planning it needs no request.
func (c *catalog) learn(ctx context.Context, sql string, stmt parser.Statement) error {
	for _, t := range parser.Tables(stmt) {
		if _, err := c.Entity(t.Name); err == nil {
			continue
		}
		if err := c.describe(ctx, t.Name); err != nil {
			return errs.As(err).At(sql, t.Pos)
		}
	}
	return nil
}

func (c *catalog) describe(ctx context.Context, name string) error {
	if c.m != nil && name == c.m.Table {
		return errs.New(errs.Invalid, "%s is the table the mapping %s describes; its items are read through the mapping's entities", name, c.m.Source).
			WithHint("name one of its entities: %s", strings.Join(c.m.EntityNames(), ", "))
	}
	if !mapping.DynamoDBName(name) || c.exec.Offline() {
		return c.unknown(ctx, name)
	}
	desc, err := c.exec.DescribeTable(ctx, name)
	if err != nil {
		var be *errs.BackendError
		if errors.As(err, &be) && be.Code == "ResourceNotFoundException" {
			return c.unknown(ctx, name)
		}
		return err
	}
	m, err := mapping.Raw(desc)
	if err != nil {
		return err
	}
	c.mu.Lock()
	c.raw[name] = m.Entities[name]
	c.mu.Unlock()
	return nil
}

// shownNames bounds how many names an unknown table's hint offers.
const shownNames = 10

// unknown is the error for a name that is no entity and no table: the
// names there are, nearest first (the tables' only if ListTables is
// allowed).
func (c *catalog) unknown(ctx context.Context, name string) error {
	var names []string
	if c.m != nil {
		names = c.m.EntityNames()
	}
	if c.exec.Offline() {
		// No client: nothing can be described, and no table listed.
		err := errs.New(errs.Invalid, "unknown table %s", name)
		if near := errs.Nearest(name, names); near != "" {
			err.Message += "; did you mean " + near + "?"
		}
		return err.WithHint("without a connection only the mapping's entities are known (%s); a table it does not describe is read raw once connected (--endpoint-url, --region or --profile)",
			strings.Join(errs.ByNearness(name, names), ", "))
	}
	tables, lerr := c.exec.TableNames(ctx)
	for _, t := range tables {
		if c.m == nil || t != c.m.Table {
			names = append(names, t)
		}
	}
	err := errs.New(errs.Invalid, "unknown table %s", name)
	if near := errs.Nearest(name, names); near != "" {
		err.Message += "; did you mean " + near + "?"
	}
	switch {
	case len(names) > 0:
		near := errs.ByNearness(name, names)
		more := ""
		if len(near) > shownNames {
			more = fmt.Sprintf(" (and %d more: SHOW TABLES)", len(near)-shownNames)
			near = near[:shownNames]
		}
		err.WithHint("the tables here, nearest first: %s%s", strings.Join(near, ", "), more)
	case lerr == nil:
		err.WithHint("there are no tables here: check the region and endpoint")
	default:
		err.WithHint("no table %s here, and listing the tables failed: %v", name, lerr)
	}
	return err
}
