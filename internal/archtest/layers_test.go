// Package archtest holds the layering test: it reads the module's real
// import graph with go list and holds it against the layers that
// ARCHITECTURE.md draws, so the picture and the code cannot drift apart.
package archtest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const (
	module = "github.com/dynosql/dynosql"
	// sqlparser is read by the parser alone: no sqlparser type leaves it.
	sqlparser = "github.com/xwb1989/sqlparser"
)

// TestImportsFollowTheLayers fails when a package imports one beside or
// above it in ARCHITECTURE.md's picture, when non-test code imports test
// support, when a package is missing from the picture or the picture
// names one that does not exist, and when anything but the parser
// imports sqlparser.
func TestImportsFollowTheLayers(t *testing.T) {
	root := moduleRoot(t)
	layer, support := readLayers(t, filepath.Join(root, "ARCHITECTURE.md"))
	seen := map[string]bool{}
	for _, p := range listPackages(t, root) {
		name := shortName(p.ImportPath)
		seen[name] = true
		own, layered := layer[name]
		if !layered && !support[name] {
			t.Errorf("%s is in no layer of ARCHITECTURE.md: add it to the picture", name)
			continue
		}
		for _, imp := range p.Imports {
			if imp == sqlparser && name != "parser" {
				t.Errorf("%s imports %s: only the parser reads SQL through it", name, sqlparser)
			}
			if (imp != module && !strings.HasPrefix(imp, module+"/")) || !layered {
				continue // outside the module, or test support, which may use anything
			}
			dep := shortName(imp)
			switch dl, ok := layer[dep]; {
			case support[dep]:
				t.Errorf("%s imports %s, which is test support: only tests may", name, dep)
			case !ok:
				// reported as missing from the picture
			case dl == own:
				t.Errorf("%s imports %s, which is beside it in ARCHITECTURE.md's layers", name, dep)
			case dl > own:
				t.Errorf("%s imports %s, which is above it in ARCHITECTURE.md's layers", name, dep)
			}
		}
	}
	for name := range layer {
		if !seen[name] {
			t.Errorf("ARCHITECTURE.md's layers name %s, which is no package of the module", name)
		}
	}
	for name := range support {
		if !seen[name] {
			t.Errorf("ARCHITECTURE.md's test support names %s, which is no package of the module", name)
		}
	}
}

// shortName is how ARCHITECTURE.md names a package: its path inside the
// module, "dynosql" for the root.
func shortName(importPath string) string {
	if importPath == module {
		return "dynosql"
	}
	return strings.TrimPrefix(importPath, module+"/")
}

// readLayers reads the ```layers block of the document at path: one line
// a layer, the top layer first, packages apart by white space, '#' to the
// end of a line a comment; a line "test support: ..." lists the packages
// only tests import. layer maps each package to its height from 0, the
// bottom.
func readLayers(t *testing.T, path string) (layer map[string]int, support map[string]bool) {
	t.Helper()
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	_, block, opened := bytes.Cut(doc, []byte("\n```layers\n"))
	block, _, closed := bytes.Cut(block, []byte("\n```"))
	if !opened || !closed {
		t.Fatalf("%s has no ```layers block", path)
	}
	var rows [][]string
	support = map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(block))
	for sc.Scan() {
		line, _, _ := strings.Cut(sc.Text(), "#")
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "test support:"); ok {
			for _, name := range strings.Fields(rest) {
				support[name] = true
			}
		} else if names := strings.Fields(line); len(names) > 0 {
			rows = append(rows, names)
		}
	}
	layer = map[string]int{}
	for i, names := range rows {
		for _, name := range names {
			if _, twice := layer[name]; twice || support[name] {
				t.Errorf("ARCHITECTURE.md's layers name %s twice", name)
			}
			layer[name] = len(rows) - 1 - i
		}
	}
	if len(layer) == 0 {
		t.Fatalf("the layers block of %s names no package", path)
	}
	return layer, support
}

// pkg is what go list says of one package.
type pkg struct {
	ImportPath string
	Imports    []string // of its non-test files
}

// listPackages returns the module's packages as go list reads them.
func listPackages(t *testing.T, root string) []pkg {
	t.Helper()
	cmd := exec.Command("go", "list", "-json=ImportPath,Imports", "./...")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderrOf(err))
	}
	var pkgs []pkg
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p pkg
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("reading go list: %v", err)
		}
		pkgs = append(pkgs, p)
	}
	if len(pkgs) == 0 {
		t.Fatal("go list found no package")
	}
	return pkgs
}

// moduleRoot returns the directory of the module's go.mod.
func moduleRoot(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		t.Fatalf("go env GOMOD: %v\n%s", err, stderrOf(err))
	}
	return filepath.Dir(strings.TrimSpace(string(out)))
}

func stderrOf(err error) []byte {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.Stderr
	}
	return nil
}
