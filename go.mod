module github.com/zumba-dev/zumba

go 1.26.8

require (
	github.com/fsnotify/fsnotify v1.10.1
	github.com/google/go-cmp v0.7.0
	github.com/smacker/go-tree-sitter v0.0.0-20240827094217-dd81d9e9be82
)

require golang.org/x/tools v0.52.0

require github.com/bmatcuk/doublestar/v4 v4.10.4

require golang.org/x/sys v0.49.0 // indirect
