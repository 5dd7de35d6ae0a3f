module github.com/telebridge/telebridge

go 1.24.0

require golang.org/x/term v0.36.0

require golang.org/x/sys v0.37.0 // indirect
