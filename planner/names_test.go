package planner_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// The expression builder reads brackets in a name as a list index, so
// every expression the planner builds names attributes by stand-ins and
// gets the real names back in one place (names.go: attrName,
// keyCondition, build). A builder called anywhere else would send x[0]
// as element 0 of list x again: no other file may call Build, name an
// attribute with expression.Name, NameNoDotSplit or Key, or call
// mapping.KeyCondition.
func TestExpressionsAreBuiltThroughBuild(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	forbidden := map[string]bool{"expression.Name": true, "expression.NameNoDotSplit": true, "expression.Key": true,
		"mapping.KeyCondition": true}
	fset := token.NewFileSet()
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") || name == "names.go" {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if sel.Sel.Name == "Build" && len(call.Args) == 0 {
				t.Errorf("%s: an expression built with Build(); use build(...), which puts the real names back", fset.Position(call.Pos()))
			}
			if id, ok := sel.X.(*ast.Ident); ok && forbidden[id.Name+"."+sel.Sel.Name] {
				t.Errorf("%s: %s.%s names an attribute as the builder reads it; use attrName or keyCondition", fset.Position(call.Pos()), id.Name, sel.Sel.Name)
			}
			return true
		})
	}
	if checked < 10 {
		t.Fatalf("checked only %d files: is the test in the planner's folder?", checked)
	}
}
