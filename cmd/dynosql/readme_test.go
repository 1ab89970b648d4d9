package main

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestTheReadmeSessionIsWhatDynosqlPrints runs each statement of
// README's "A session" on the demo dataset and compares what dynosql
// prints with what README shows under it: users copy the session, and
// its plan and hint drifted from the program's once already.
func TestTheReadmeSessionIsWhatDynosqlPrints(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	steps := sessionSteps(t, string(readme))
	if len(steps) < 3 {
		t.Fatalf("found %d statements in README's session; want the join, the EXPLAIN and the refusal", len(steps))
	}
	bin := linkDynosql(t, t.TempDir())
	for _, s := range steps {
		cmd := exec.Command(bin, "--demo", "-e", s.sql)
		cmd.Env = cleanEnv()
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		_ = cmd.Run() // the refusal exits 1; its text is what is compared
		if got := strings.TrimSuffix(out.String(), "\n"); got != s.shown {
			t.Errorf("README shows for %s:\n%s\ndynosql prints:\n%s", s.sql, s.shown, got)
		}
	}
}

// sessionStep is a statement of README's session and the lines shown
// after it, up to the next prompt.
type sessionStep struct{ sql, shown string }

// sessionSteps cuts the code block under "## A session" into statements
// (a School=> line and its School-> continuations) and their output.
func sessionSteps(t *testing.T, readme string) []sessionStep {
	_, after, ok := strings.Cut(readme, "## A session\n\n```\n")
	block, _, closed := strings.Cut(after, "\n```")
	if !ok || !closed {
		t.Fatal("README has no code block under ## A session")
	}
	var steps []sessionStep
	var sql, shown []string
	flush := func() {
		if sql != nil {
			steps = append(steps, sessionStep{strings.TrimSuffix(strings.Join(sql, "\n"), ";"), strings.Join(shown, "\n")})
		}
		sql, shown = nil, nil
	}
	for _, line := range strings.Split(block, "\n") {
		switch {
		case strings.HasPrefix(line, `School=> \`): // a meta-command: \q
			flush()
		case strings.HasPrefix(line, "School=> "):
			flush()
			sql = []string{strings.TrimPrefix(line, "School=> ")}
		case strings.HasPrefix(line, "School-> ") && len(shown) == 0:
			sql = append(sql, strings.TrimPrefix(line, "School-> "))
		case sql != nil:
			shown = append(shown, line)
		}
	}
	flush()
	return steps
}
