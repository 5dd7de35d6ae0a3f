module github.com/telebridge/telebridge

go 1.24
