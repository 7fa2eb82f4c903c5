; toml: tree-sitter-toml as bundled by github.com/smacker/go-tree-sitter v0.0.0-20240827094217
;
; A TOML file's structure is its tables: [package], [tool.black], [[bin]].
; They are listed as headings, the sections of a document; the keys inside
; them are values, not definitions (SPEC.md has no key kind).

(table
  [(bare_key) (dotted_key) (quoted_key)] @name) @definition.heading

(table_array_element
  [(bare_key) (dotted_key) (quoted_key)] @name) @definition.heading
