module github.com/telebridge/telebridge

go 1.24

require (
	golang.org/x/term v0.34.0
	gopkg.in/yaml.v3 v3.0.1
)

require golang.org/x/sys v0.35.0 // indirect
