; markdown: tree-sitter-markdown (block) as bundled by github.com/smacker/go-tree-sitter v0.0.0-20240827094217
;
; Headings only: a Markdown file has no types, functions or constants.
; Each heading is captured alone and outline/ nests them by level, because
; this grammar's section nodes do not open a section at a setext heading.
; Code blocks (fenced or indented), HTML blocks and front matter are other
; nodes, so nothing in them is a heading.

; Headings

; A heading inside a block quote or a list item belongs to the quoted or
; listed text, not to the document's structure; these patterns come first
; and @skip drops them. An ATX heading always opens a section node, nested
; one level per heading level inside the quote or item:
;   > # Quoted title
;   - ## Heading in a list item
(block_quote
  (setext_heading
    heading_content: (paragraph) @name) @definition.heading) @skip

(block_quote
  (section
    [
      (atx_heading
        heading_content: (inline) @name)
      (atx_heading
        [
          (atx_h1_marker)
          (atx_h2_marker)
          (atx_h3_marker)
          (atx_h4_marker)
          (atx_h5_marker)
          (atx_h6_marker)
        ] @name
        !heading_content)
      (setext_heading
        heading_content: (paragraph) @name)
    ] @definition.heading)) @skip

(block_quote
  (section
    (section
      [
        (atx_heading
          heading_content: (inline) @name)
        (atx_heading
          [
            (atx_h1_marker)
            (atx_h2_marker)
            (atx_h3_marker)
            (atx_h4_marker)
            (atx_h5_marker)
            (atx_h6_marker)
          ] @name
          !heading_content)
        (setext_heading
          heading_content: (paragraph) @name)
      ] @definition.heading))) @skip

(block_quote
  (section
    (section
      (section
        [
          (atx_heading
            heading_content: (inline) @name)
          (atx_heading
            [
              (atx_h1_marker)
              (atx_h2_marker)
              (atx_h3_marker)
              (atx_h4_marker)
              (atx_h5_marker)
              (atx_h6_marker)
            ] @name
            !heading_content)
          (setext_heading
            heading_content: (paragraph) @name)
        ] @definition.heading)))) @skip

(list_item
  (setext_heading
    heading_content: (paragraph) @name) @definition.heading) @skip

(list_item
  (section
    [
      (atx_heading
        heading_content: (inline) @name)
      (atx_heading
        [
          (atx_h1_marker)
          (atx_h2_marker)
          (atx_h3_marker)
          (atx_h4_marker)
          (atx_h5_marker)
          (atx_h6_marker)
        ] @name
        !heading_content)
      (setext_heading
        heading_content: (paragraph) @name)
    ] @definition.heading)) @skip

(list_item
  (section
    (section
      [
        (atx_heading
          heading_content: (inline) @name)
        (atx_heading
          [
            (atx_h1_marker)
            (atx_h2_marker)
            (atx_h3_marker)
            (atx_h4_marker)
            (atx_h5_marker)
            (atx_h6_marker)
          ] @name
          !heading_content)
        (setext_heading
          heading_content: (paragraph) @name)
      ] @definition.heading))) @skip

(list_item
  (section
    (section
      (section
        [
          (atx_heading
            heading_content: (inline) @name)
          (atx_heading
            [
              (atx_h1_marker)
              (atx_h2_marker)
              (atx_h3_marker)
              (atx_h4_marker)
              (atx_h5_marker)
              (atx_h6_marker)
            ] @name
            !heading_content)
          (setext_heading
            heading_content: (paragraph) @name)
        ] @definition.heading)))) @skip

; ## Title ##   (outline/ drops the closing #s from the name)
(atx_heading
  heading_content: (inline) @name) @definition.heading

; A lone "#" or "## " is an empty heading: outline/ does not list it, but
; it ends the sections of the headings above it.
(atx_heading
  [
    (atx_h1_marker)
    (atx_h2_marker)
    (atx_h3_marker)
    (atx_h4_marker)
    (atx_h5_marker)
    (atx_h6_marker)
  ] @name
  !heading_content) @definition.heading

; Title
; =====
(setext_heading
  heading_content: (paragraph) @name) @definition.heading
