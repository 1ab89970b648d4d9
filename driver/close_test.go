package driver

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"net"
	"net/url"
	"testing"
)

// The embedded backend a DSN starts belongs to the connector, and so to
// the sql.DB: closing the sql.DB must stop it.
func TestClosingTheSQLDBStopsTheEmbeddedBackend(t *testing.T) {
	c, err := Driver{}.OpenConnector("demo=1")
	if err != nil {
		t.Fatal(err)
	}
	db := sql.OpenDB(c)
	if err := db.Ping(); err != nil {
		t.Fatal(err)
	}
	endpoint := c.(*connector).db.Endpoint()
	if refused(t, endpoint) {
		t.Fatalf("nothing listens at %s before Close", endpoint)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if !refused(t, endpoint) {
		t.Errorf("the embedded backend at %s still answers after sql.DB.Close", endpoint)
	}
}

// Driver.Open, which database/sql does not call, gives the connection a
// backend of its own that its Close stops.
func TestDriverOpenOwnsItsBackend(t *testing.T) {
	cn, err := Driver{}.Open("demo=1")
	if err != nil {
		t.Fatal(err)
	}
	rows, err := cn.(driver.QueryerContext).QueryContext(context.Background(), "SELECT name FROM students WHERE id = 'a91'", nil)
	if err != nil {
		t.Fatal(err)
	}
	dest := make([]driver.Value, 1)
	if err := rows.Next(dest); err != nil || dest[0] != "Ann Lee" {
		t.Errorf("got %v, %v; want Ann Lee", dest[0], err)
	}
	_ = rows.Close()
	endpoint := cn.(*conn).db.Endpoint()
	if err := cn.Close(); err != nil {
		t.Fatal(err)
	}
	if !refused(t, endpoint) {
		t.Errorf("the embedded backend at %s still answers after Conn.Close", endpoint)
	}
}

// NewConnector's DB belongs to the caller: closing the sql.DB leaves it
// open.
func TestNewConnectorLeavesTheDBOpen(t *testing.T) {
	c, err := Driver{}.OpenConnector("demo=1")
	if err != nil {
		t.Fatal(err)
	}
	owner := sql.OpenDB(c)
	defer func() { _ = owner.Close() }()
	if err := owner.Ping(); err != nil {
		t.Fatal(err)
	}
	shared := c.(*connector).db
	db := sql.OpenDB(NewConnector(shared))
	if err := db.Ping(); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	var name string
	if err := owner.QueryRow("SELECT name FROM students WHERE id = 'a91'").Scan(&name); err != nil {
		t.Errorf("the shared DB stopped with the sql.DB over it: %v", err)
	}
}

// refused reports whether nothing listens at endpoint any more.
func refused(t *testing.T, endpoint string) bool {
	t.Helper()
	u, err := url.Parse(endpoint)
	if err != nil {
		t.Fatal(err)
	}
	c, err := net.Dial("tcp", u.Host)
	if err == nil {
		_ = c.Close()
	}
	return err != nil
}
