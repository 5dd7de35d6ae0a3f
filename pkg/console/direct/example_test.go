package direct_test

import (
	"context"
	"fmt"
	"net/http"

	"github.com/telebridge/telebridge/pkg/console"
	"github.com/telebridge/telebridge/pkg/console/direct"
)

// ExampleStart runs the console against every embedded simulator, as
// `telebridge console` does, and fetches the page.
func ExampleStart() {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	be, err := direct.Start(ctx, direct.Config{})
	if err != nil {
		fmt.Println(err)
		return
	}
	srv, err := console.New(console.Config{Backend: be, Listen: "127.0.0.1:0"})
	if err != nil {
		fmt.Println(err)
		return
	}
	// ready gets the URL to open once the console listens.
	urls, done := make(chan string, 1), make(chan error, 1)
	go func() { done <- srv.ListenAndServe(ctx, func(url string) { urls <- url }) }()
	select {
	case url := <-urls:
		if resp, err := http.Get(url); err == nil {
			fmt.Println(resp.Status, be.Info().Cameras)
			resp.Body.Close()
		}
	case err := <-done: // it could not listen
		fmt.Println(err, be.Close())
		return
	}
	cancel()
	fmt.Println(<-done, be.Close())
	// Output:
	// 200 OK [front rear arm gripper]
	// <nil> <nil>
}
