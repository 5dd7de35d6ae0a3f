package access_test

import (
	"fmt"

	"github.com/telebridge/telebridge/pkg/console/access"
)

// ExampleIsLoopback shows which listen addresses need an access token.
func ExampleIsLoopback() {
	for _, l := range []string{"127.0.0.1:8080", "[::1]:8080", "0.0.0.0:8080", ":8080", "192.168.1.5:8080"} {
		fmt.Println(l, access.IsLoopback(l))
	}
	// Output:
	// 127.0.0.1:8080 true
	// [::1]:8080 true
	// 0.0.0.0:8080 false
	// :8080 false
	// 192.168.1.5:8080 false
}
