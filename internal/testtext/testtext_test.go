package testtext

import "testing"

func TestExpand(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"text without groups stays", "SELECT 1", "SELECT 1"},
		{"a group repeats its text", "a[[3:(]]b[[3:)]]", "a(((b)))"},
		{"{i} counts from 0", "IN ('x'[[3:, 'k{i}']])", "IN ('x', 'k0', 'k1', 'k2')"},
		{"zero times is nothing", "a[[0:x]]b", "ab"},
		{"a group that is not well formed is kept", "a[[x:y]]b", "a[[x:y]]b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Expand(tt.in); got != tt.want {
				t.Errorf("Expand(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}
