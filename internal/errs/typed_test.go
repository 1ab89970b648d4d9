package errs_test

import (
	"errors"
	"testing"

	"github.com/dynosql/dynosql/internal/errs"
)

func TestARefusalSaysItsHintOnASecondLine(t *testing.T) {
	base := errs.New(errs.Refused, "reading students by name would need a Scan of School").WithHint("add WHERE students.id = ...")
	var err error = &errs.ScanRefusedError{Base: base, Entity: "students", Alias: "students", Table: "School"}
	want := "refused: reading students by name would need a Scan of School\nhint: add WHERE students.id = ..."
	if err.Error() != want {
		t.Errorf("Error() = %q, want %q", err.Error(), want)
	}
	var sr *errs.ScanRefusedError
	if !errors.As(err, &sr) || sr.Entity != "students" || !errors.Is(err, errs.Refused) {
		t.Errorf("errors.As and errors.Is lost the typed error: %#v", err)
	}
	if e := errs.As(err); e.Error() != "refused: reading students by name would need a Scan of School" {
		t.Errorf("the general error's one line is %q", e.Error())
	}
	base.Hint = ""
	if err.Error() != "refused: reading students by name would need a Scan of School" {
		t.Errorf("without a hint, Error() = %q", err.Error())
	}
}
