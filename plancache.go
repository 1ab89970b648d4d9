package dynosql

import (
	"container/list"
	"sync"

	"github.com/dynosql/dynosql/parser"
	"github.com/dynosql/dynosql/planner"
	"github.com/dynosql/dynosql/value"
)

// Scripts, the shell and database/sql repeat statements, and parsing and
// planning one costs more than a small request to a local server (issue
// 11), so a DB remembers the statements it planned. The cache belongs to
// one DB, so its mapping and options are part of every key; it holds only
// statements that planned without error, so a hit implies that every
// table they name was known (catalog.learn never forgets a table).

// planCacheSize bounds the statements a DB remembers: a script's working
// set, not its length.
const planCacheSize = 512

// maxCachedSQL is the longest statement text cached: a bulk INSERT or an
// IN list of thousands of keys is rarely repeated and holds a large plan.
const maxCachedSQL = 16 << 10

// cached is what a statement's text planned to.
type cached struct {
	key  string
	stmt parser.Statement
	// plan is the latest plan made from stmt, nil when none could be
	// kept, and argsKey the key of the arguments it was made with.
	plan    *planner.Plan
	argsKey string
}

// planCache is a least-recently-used map from statement text to its
// parsed statement and last plan, safe for concurrent use. Neither the
// planner nor the executor changes a parsed statement or a plan, so both
// are shared; a hit returns a copy of the Plan struct so that a caller
// setting its fields changes nobody else's.
type planCache struct {
	mu    sync.Mutex
	max   int
	order *list.List // of *cached, most recently used first
	byKey map[string]*list.Element
}

func newPlanCache(size int) *planCache {
	return &planCache{max: size, order: list.New(), byKey: map[string]*list.Element{}}
}

// cacheKey is the key of sql planned as written (explain false) or with
// a leading EXPLAIN dropped (DB.Explain), the two plans differing.
func cacheKey(sql string, explain bool) string {
	if explain {
		return "E" + sql
	}
	return "P" + sql
}

// get returns what is cached under key: the statement, and its last
// plan with the argsKey of the arguments it was planned with (nil when
// it has none). The plan is a copy of the cached Plan struct.
func (c *planCache) get(key string) (parser.Statement, *planner.Plan, string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.byKey[key]
	if !ok {
		return nil, nil, ""
	}
	c.order.MoveToFront(el)
	e := el.Value.(*cached)
	if e.plan == nil {
		return e.stmt, nil, ""
	}
	p := *e.plan
	return e.stmt, &p, e.argsKey
}

// put remembers stmt under key, and a copy of plan (nil for none) made
// from it with arguments whose argsKey is ak.
func (c *planCache) put(key string, stmt parser.Statement, plan *planner.Plan, ak string) {
	if len(key) > maxCachedSQL {
		return
	}
	if plan != nil {
		p := *plan
		plan = &p
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.byKey[key]; ok {
		e := el.Value.(*cached)
		if plan != nil {
			e.argsKey, e.plan = ak, plan
		}
		c.order.MoveToFront(el)
		return
	}
	c.byKey[key] = c.order.PushFront(&cached{key: key, stmt: stmt, plan: plan, argsKey: ak})
	if c.order.Len() > c.max {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.byKey, last.Value.(*cached).key)
	}
}

// argsKey returns a text that is equal only for equal argument lists,
// and false when an argument is not a scalar (lists, maps and sets have
// no cheap injective text; their statements are planned each time).
func argsKey(vals []value.Value) (string, bool) {
	if len(vals) == 0 {
		return "", true
	}
	var b []byte
	for _, v := range vals {
		switch v.(type) {
		case nil, string, value.Number, value.Binary, bool:
		default:
			return "", false
		}
		b = value.AppendKey(b, v)
	}
	return string(b), true
}
