; yaml: tree-sitter-yaml as bundled by github.com/smacker/go-tree-sitter v0.0.0-20240827094217
;
; The keys of a document's top mapping and of the mappings directly under
; them, as headings: jobs and each job of a CI workflow, services and each
; service of a compose file, paths and each path of an OpenAPI document.
; Deeper keys are values, not structure; SPEC.md has no key kind.

(stream
  (document
    (block_node
      (block_mapping
        (block_mapping_pair
          key: (flow_node) @name) @definition.heading))))

(stream
  (document
    (block_node
      (block_mapping
        (block_mapping_pair
          value: (block_node
            (block_mapping
              (block_mapping_pair
                key: (flow_node) @name) @definition.heading)))))))
