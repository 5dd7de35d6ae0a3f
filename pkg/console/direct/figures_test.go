package direct

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/console"
)

// cpu returns the process's user+system CPU time.
func cpu(t *testing.T) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestFigures measures, and reports without asserting, the console's CPU
// with four pattern cameras and nobody watching, then with one viewer of
// one camera. Set CONSOLE_FIGURES=1 to run it (it takes ~10 s).
func TestFigures(t *testing.T) {
	if os.Getenv("CONSOLE_FIGURES") == "" {
		t.Skip("figures: set CONSOLE_FIGURES=1 to measure")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	be, err := Start(ctx, Config{Servosila: "off", Furbot: "off", NoJog: true})
	if err != nil {
		t.Fatal(err)
	}
	defer be.Close()
	srv, err := console.New(console.Config{Backend: be, Listen: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	go func() { _ = srv.Serve(ctx, ln) }()
	window := 4 * time.Second
	measure := func() float64 {
		c0, w0 := cpu(t), time.Now()
		time.Sleep(window) // a measurement window, not a synchronisation
		return float64(cpu(t)-c0) / float64(time.Since(w0)) * 100
	}
	time.Sleep(500 * time.Millisecond) // let start-up settle before measuring
	idle := measure()
	t.Logf("four pattern cameras (640x480 YUYV, 15 Hz), nobody watching: %.2f %% of one core", idle)

	resp, err := http.Get("http://" + ln.Addr().String() + "/camera/front")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	counted := make(chan int64, 1)
	go func() {
		n, _ := io.Copy(io.Discard, bufio.NewReader(resp.Body))
		counted <- n
	}()
	time.Sleep(time.Second)
	one := measure()
	st := be.cams[0].state()
	t.Logf("one viewer of one camera (default 10 Hz, quality 75): %.2f %% of one core; %.1f fps out, %.0f kB/s",
		one, st.OutFPS, st.BytesSec/1024)
	if f := os.Getenv("CONSOLE_ARTIFACTS"); f != "" {
		_ = os.WriteFile(f+"/figures.txt", []byte(strings.Join([]string{
			"idle4 " + ftoa(idle), "view1 " + ftoa(one), "fps " + ftoa(st.OutFPS), "kBps " + ftoa(st.BytesSec/1024)}, "\n")+"\n"), 0o644)
	}
}

func ftoa(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) }
