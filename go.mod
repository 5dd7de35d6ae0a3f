module github.com/telebridge/telebridge

go 1.25

require (
	github.com/vladimirvivien/go4vl v0.1.0
	golang.org/x/sys v0.37.0
)
