package grammar

import (
	"fmt"
	"strings"
	"sync"

	sitter "github.com/smacker/go-tree-sitter"
)

// CodeRules say which parts of a language's parse tree are not code:
// comments and string literals, except the parts of a string that are
// code again (template interpolations such as `${x}`, f"{x}", "#{x}").
// The innermost node of these types that holds a byte decides for it. A
// type written "parent/child" counts only directly inside a parent node.
type CodeRules struct {
	// Comments are the node types of comments, doc comments included.
	Comments []string
	// Strings are the node types of string and character literals (and
	// of literals read as text: regular expressions, JSX text, inline
	// HTML around PHP).
	Strings []string
	// Code are the node types that are code wherever they sit, listed
	// for when they sit inside a string: interpolations.
	Code []string
	// Prose marks a language none of whose text is code (Markdown).
	Prose bool
}

// codeRules is one row per registered language; a test fails when a
// language has none or names a node type its grammar lacks.
var codeRules = map[string]CodeRules{
	"bash": {
		Comments: []string{"comment"},
		Strings:  []string{"string", "raw_string", "ansi_c_string", "translated_string", "heredoc_body"},
		Code:     []string{"simple_expansion", "expansion", "command_substitution", "arithmetic_expansion"},
	},
	"c": {
		Comments: []string{"comment"},
		// concatenated_string is not listed: its parts may be macros
		// ("%" PRId64 "\n").
		Strings: []string{"string_literal", "char_literal", "system_lib_string"},
	},
	"cpp": {
		Comments: []string{"comment"},
		Strings:  []string{"string_literal", "raw_string_literal", "char_literal", "system_lib_string"},
	},
	"csharp": {
		Comments: []string{"comment"},
		Strings:  []string{"string_literal", "verbatim_string_literal", "raw_string_literal", "character_literal", "interpolated_string_expression"},
		Code:     []string{"interpolation"},
	},
	"css": {
		Comments: []string{"comment"},
		Strings:  []string{"string_value"},
	},
	"dart": {
		Comments: []string{"comment", "documentation_comment"},
		Strings:  []string{"string_literal"},
		Code:     []string{"template_substitution"},
	},
	"dockerfile": {
		Comments: []string{"comment"},
		Strings:  []string{"double_quoted_string", "single_quoted_string", "json_string"},
		Code:     []string{"expansion"},
	},
	"elixir": {
		Comments: []string{"comment"},
		Strings:  []string{"string", "charlist", "sigil", "char"},
		Code:     []string{"interpolation"},
	},
	"elm": {
		Comments: []string{"line_comment", "block_comment"},
		Strings:  []string{"string_constant_expr", "char_constant_expr"},
	},
	"erlang": {
		Comments: []string{"comment"},
		Strings:  []string{"string", "char"},
	},
	"go": {
		Comments: []string{"comment"},
		Strings:  []string{"interpreted_string_literal", "raw_string_literal", "rune_literal"},
	},
	"haskell": {
		Comments: []string{"comment", "haddock", "pragma"},
		Strings:  []string{"string", "char", "quasiquote_body"},
	},
	"hcl": {
		Comments: []string{"comment"},
		// A block's labels are its names (variable "x"), not strings.
		Strings: []string{"literal_value/string_lit", "quoted_template", "heredoc_template"},
		Code:    []string{"template_interpolation", "template_directive"},
	},
	"java": {
		Comments: []string{"line_comment", "block_comment"},
		Strings:  []string{"string_literal", "character_literal"},
		Code:     []string{"string_interpolation"},
	},
	"javascript": {
		Comments: []string{"comment", "html_comment", "hash_bang_line"},
		Strings:  []string{"string", "template_string", "regex", "jsx_text"},
		Code:     []string{"template_substitution"},
	},
	"julia": {
		Comments: []string{"line_comment", "block_comment"},
		Strings:  []string{"string_literal", "prefixed_string_literal", "command_literal", "prefixed_command_literal", "character_literal"},
		Code:     []string{"string_interpolation"},
	},
	"kotlin": {
		Comments: []string{"line_comment", "multiline_comment"},
		Strings:  []string{"string_literal", "character_literal"},
		Code:     []string{"interpolated_identifier", "interpolated_expression"},
	},
	"lua": {
		Comments: []string{"comment", "emmy_documentation"},
		Strings:  []string{"string"},
	},
	"markdown": {Prose: true},
	"objc": {
		Comments: []string{"comment"},
		// @"text" is a string_literal with its @.
		Strings: []string{"string_literal", "char_literal", "system_lib_string"},
	},
	"ocaml": {
		Comments: []string{"comment"},
		Strings:  []string{"string", "character", "quoted_string"},
	},
	"perl": {
		Comments: []string{"comment", "pod"},
		Strings:  []string{"string_literal", "interpolated_string_literal", "heredoc_content", "command_string", "quoted_regexp", "match_regexp"},
		Code:     []string{"scalar", "array", "hash", "container_variable", "slice_container_variable", "keyval_container_variable"},
	},
	"php": {
		Comments: []string{"comment"},
		Strings:  []string{"string", "encapsed_string", "heredoc", "nowdoc", "text"},
		// The variables and member accesses a double-quoted string or a
		// heredoc interpolates ("$a", "{$a->b}", "${a}").
		Code: []string{"variable_name", "dynamic_variable_name", "member_access_expression", "member_call_expression", "subscript_expression"},
	},
	"protobuf": {
		Comments: []string{"comment"},
		Strings:  []string{"string"},
	},
	"python": {
		Comments: []string{"comment"},
		Strings:  []string{"string"},
		Code:     []string{"interpolation"},
	},
	"r": {
		Comments: []string{"comment"},
		Strings:  []string{"string"},
	},
	"ruby": {
		Comments: []string{"comment"},
		Strings:  []string{"string", "character", "heredoc_body", "delimited_symbol", "regex", "subshell", "bare_string"},
		Code:     []string{"interpolation"},
	},
	"rust": {
		Comments: []string{"line_comment", "block_comment"},
		Strings:  []string{"string_literal", "raw_string_literal", "char_literal"},
	},
	"scala": {
		Comments: []string{"comment", "block_comment"},
		Strings:  []string{"string", "interpolated_string", "character_literal"},
		Code:     []string{"interpolation"},
	},
	"solidity": {
		Comments: []string{"comment"},
		Strings:  []string{"string", "hex_string_literal", "unicode_string_literal", "yul_string_literal"},
	},
	"sql": {
		Comments: []string{"comment", "marginalia"},
		Strings:  []string{"literal"},
	},
	"swift": {
		Comments: []string{"comment", "multiline_comment"},
		Strings:  []string{"line_string_literal", "multi_line_string_literal", "raw_string_literal", "regex_literal"},
		Code:     []string{"interpolated_expression"},
	},
	"toml": {
		Comments: []string{"comment"},
		Strings:  []string{"string"},
	},
	"tsx": {
		Comments: []string{"comment", "html_comment", "hash_bang_line"},
		Strings:  []string{"string", "template_string", "regex", "jsx_text", "template_literal_type"},
		Code:     []string{"template_substitution", "template_type"},
	},
	"typescript": typescriptCode,
	// A component's markup is blanked before the parse: uses there (a
	// handler named in the template) are code.
	"svelte": typescriptCode,
	"vue":    typescriptCode,
	"yaml": {
		// Plain scalars (keys and bare values) are the file's names and
		// stay code; quoted and block scalars are strings.
		Comments: []string{"comment"},
		Strings:  []string{"double_quote_scalar", "single_quote_scalar", "block_scalar"},
	},
	"zig": {
		Comments: []string{"comment"},
		Strings:  []string{"string", "multiline_string", "character"},
	},
}

var typescriptCode = CodeRules{
	Comments: []string{"comment", "html_comment", "hash_bang_line"},
	Strings:  []string{"string", "template_string", "regex", "template_literal_type"},
	Code:     []string{"template_substitution", "template_type"},
}

// Capture names of the code query, in the order of codeQuerySource.
const (
	CodeCaptureComment = "comment"
	CodeCaptureString  = "string"
	CodeCaptureCode    = "code"
)

// CodeRules returns the language's rules for what is not code.
func (l *Language) CodeRules() CodeRules { return codeRules[l.Name] }

type codeQuery struct {
	once sync.Once
	q    *sitter.Query
	err  error
}

var codeQueries sync.Map // language name → *codeQuery

// CodeQuery returns a query, compiled once and shared, whose captures
// @comment, @string and @code mark the nodes of the language's CodeRules.
// It returns nil for a Prose language and for one without node types.
func (l *Language) CodeQuery() (*sitter.Query, error) {
	v, _ := codeQueries.LoadOrStore(l.Name, &codeQuery{})
	cq := v.(*codeQuery)
	cq.once.Do(func() {
		src := codeQuerySource(l.CodeRules())
		if src == "" {
			return
		}
		lang := l.Sitter()
		if lang == nil {
			_, cq.err = l.Query()
			return
		}
		cq.q, cq.err = sitter.NewQuery([]byte(src), lang)
		if cq.err != nil {
			cq.err = fmt.Errorf("compile code query %s: %w", l.Name, cq.err)
		}
	})
	return cq.q, cq.err
}

func codeQuerySource(r CodeRules) string {
	var sb strings.Builder
	for _, g := range []struct {
		types   []string
		capture string
	}{{r.Comments, CodeCaptureComment}, {r.Strings, CodeCaptureString}, {r.Code, CodeCaptureCode}} {
		var plain []string
		for _, t := range g.types {
			if parent, child, ok := strings.Cut(t, "/"); ok {
				sb.WriteString("(" + parent + " (" + child + ") @" + g.capture + ")\n")
			} else {
				plain = append(plain, t)
			}
		}
		if len(plain) == 0 {
			continue
		}
		sb.WriteString("[")
		for _, t := range plain {
			sb.WriteString(" (" + t + ")")
		}
		sb.WriteString(" ] @" + g.capture + "\n")
	}
	return sb.String()
}
