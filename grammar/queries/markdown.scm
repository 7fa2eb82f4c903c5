; markdown: tree-sitter-markdown (block) as bundled by github.com/smacker/go-tree-sitter v0.0.0-20240827094217

(atx_heading
  heading_content: (inline) @name) @definition.heading
