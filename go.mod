module github.com/zumba-dev/zumba

go 1.26.8

require (
	github.com/google/go-cmp v0.7.0
	github.com/smacker/go-tree-sitter v0.0.0-20240827094217-dd81d9e9be82
	golang.org/x/tools v0.52.0
)
