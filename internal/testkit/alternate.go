package testkit

import (
	"testing"
	"time"
)

// Alternate runs a and b in turn, bm.N times each, and reports the time
// of each per unit (a statement, a request) and the ratio of b's time to
// a's: a ratio measured side by side in one run, so that the machine's
// drift between two separate benchmarks does not enter it.
func Alternate(bm *testing.B, units int, aName string, a func(), bName string, b func()) {
	var ta, tb time.Duration
	for range bm.N {
		start := time.Now()
		a()
		mid := time.Now()
		b()
		ta += mid.Sub(start)
		tb += time.Since(mid)
	}
	per := float64(bm.N * units)
	bm.ReportMetric(float64(ta.Nanoseconds())/per, "ns-"+aName+"/op")
	bm.ReportMetric(float64(tb.Nanoseconds())/per, "ns-"+bName+"/op")
	bm.ReportMetric(float64(tb)/float64(ta), bName+"/"+aName)
}
