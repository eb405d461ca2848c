module github.com/vramkit/vramkit

go 1.26.8

require (
	github.com/tree-sitter/go-tree-sitter v0.25.0
	github.com/tree-sitter/tree-sitter-python v0.25.0
)

require github.com/mattn/go-pointer v0.0.1 // indirect
