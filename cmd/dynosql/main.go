// Command dynosql runs SQL against a DynamoDB single-table design: an
// interactive shell, or one-shot statements from -e and -f.
//
//	dynosql --demo
//	dynosql --mapping mapping.yaml --endpoint-url http://localhost:8000 -e "SELECT ..."
//
// Run dynosql --help for the flags.
package main

import (
	"os"

	"github.com/dynosql/dynosql/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
