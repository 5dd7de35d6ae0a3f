package wire

import (
	"flag"
	"fmt"
	"os"
	"testing"
)

// TestMain caps the fuzzer's minimisation at 1 s unless the command line
// sets -fuzzminimizetime: minimising inputs of a fixed-size packet decoder
// otherwise takes the default 60 s per new input and stalls a short fuzz
// run (seen with -fuzztime=10s: a few thousand execs instead of ~500k).
func TestMain(m *testing.M) {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.fuzzminimizetime" })
	if !set {
		if err := flag.Set("test.fuzzminimizetime", "1s"); err != nil {
			fmt.Fprintln(os.Stderr, "servosila tests:", err)
			os.Exit(2)
		}
	}
	os.Exit(m.Run())
}
