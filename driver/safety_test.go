package driver_test

import (
	"context"
	"database/sql"
	"errors"
	"net/url"
	"strings"
	"testing"

	"github.com/dynosql/dynosql"
	"github.com/dynosql/dynosql/internal/testkit"
)

func TestReadonlyDSNRefusesWritesAndReads(t *testing.T) {
	db, err := sql.Open("dynosql", "demo=1&readonly=1&retry_ceiling=90s")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = db.Close() }()
	ctx := context.Background()
	for _, stmt := range []string{
		"INSERT INTO courses (id, title, credits) VALUES ('zz1', 'Zzz', 1)",
		"UPDATE students SET name = 'Zed' WHERE id = 'a91'",
		"DELETE FROM enrollments WHERE student_id = 'a91'",
	} {
		_, err := db.ExecContext(ctx, stmt)
		if !errors.Is(err, dynosql.ErrReadOnly) {
			t.Errorf("%s: got %v, want a read-only error", stmt, err)
		}
	}
	var name string
	if err := db.QueryRowContext(ctx, "SELECT name FROM students WHERE id = 'a91'").Scan(&name); err != nil || name != "Ann Lee" {
		t.Errorf("read back %q, %v: want Ann Lee, unchanged", name, err)
	}
}

func TestSafetyDSNKeysAreChecked(t *testing.T) {
	for dsn, want := range map[string]string{
		"demo=1&readonly=maybe":     "not true or false",
		"demo=1&retry_ceiling=soon": "not a positive duration",
		"demo=1&retry_ceiling=0s":   "not a positive duration",
		"demo=1&readnly=1":          "did you mean readonly?",
	} {
		if _, err := sql.Open("dynosql", dsn); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want an error containing %q", dsn, err, want)
		}
	}
}

// TestDSNErrorsDoNotPrintCredentials opens DSNs that go wrong in every
// way with credentials in the environment and in the DSN itself.
func TestDSNErrorsDoNotPrintCredentials(t *testing.T) {
	const (
		keyID  = "AKIAZZFAKEKEYID12345"
		secret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYFAKESECRET"
		token  = "IQoJb3JpZ2luX2VjEFAKESESSIONTOKENxyz0123456789"
	)
	t.Setenv("AWS_ACCESS_KEY_ID", keyID)
	t.Setenv("AWS_SECRET_ACCESS_KEY", secret)
	t.Setenv("AWS_SESSION_TOKEN", token)
	t.Setenv("AWS_CONFIG_FILE", t.TempDir()+"/none")
	mappingPath := url.QueryEscape(testkit.Testdata("school", "mapping.yaml"))
	dsns := []string{
		"mapping=" + mappingPath + "&aws_secret_access_key=" + url.QueryEscape(secret),
		"mapping=" + mappingPath + "&consistent=" + url.QueryEscape(secret),
		"mapping=" + mappingPath + "&retry_ceiling=" + url.QueryEscape(token),
		"mapping=" + mappingPath + "&region=" + keyID + "&profile=" + url.QueryEscape(token),
		"mapping=" + mappingPath + "&endpoint=http://127.0.0.1:1&region=us-east-1",
		"mapping=%zz" + url.QueryEscape(secret),
	}
	for _, dsn := range dsns {
		db, err := sql.Open("dynosql", dsn)
		if err == nil {
			err = db.Ping()
			_ = db.Close()
		}
		if err == nil {
			t.Errorf("%s: no error", dsn)
			continue
		}
		msg := err.Error()
		var de interface{ Detail() string }
		if errors.As(err, &de) {
			msg += "\n" + de.Detail()
		}
		for _, s := range []string{secret, token, keyID[4:]} {
			if strings.Contains(msg, s) || strings.Contains(msg, url.QueryEscape(s)) {
				t.Errorf("the error of a bad DSN shows a credential:\n%s", msg)
			}
		}
	}
}
