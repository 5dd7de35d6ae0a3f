package access_test

import (
	"errors"
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

// ExampleCheckToken shows which tokens the console accepts: only those
// NewToken (`telebridge token new`) makes.
func ExampleCheckToken() {
	tok, err := access.NewToken()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(access.CheckToken(tok) == nil)
	typo := tok[:len(tok)-1] + "a" // one character mistyped
	if typo == tok {
		typo = tok[:len(tok)-1] + "b"
	}
	for _, t := range []string{"00000000000000000000000000000000", "passwordpasswordpasswordpassword", typo} {
		fmt.Println(errors.Is(access.CheckToken(t), access.ErrWeakToken))
	}
	// Output:
	// true
	// true
	// true
	// true
}
