// Package langs links tree-sitter's grammars into the registry of package
// grammar: importing it binds every language (grammar.Bind). It is apart
// from grammar so that what needs only the registry's names, extensions
// and text rules (grammar's own tests among them) does not link the
// grammars' parse tables.
package langs

import (
	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/bash"
	"github.com/smacker/go-tree-sitter/c"
	"github.com/smacker/go-tree-sitter/cpp"
	"github.com/smacker/go-tree-sitter/csharp"
	"github.com/smacker/go-tree-sitter/css"
	"github.com/smacker/go-tree-sitter/dockerfile"
	"github.com/smacker/go-tree-sitter/elixir"
	"github.com/smacker/go-tree-sitter/elm"
	"github.com/smacker/go-tree-sitter/golang"
	"github.com/smacker/go-tree-sitter/hcl"
	"github.com/smacker/go-tree-sitter/java"
	"github.com/smacker/go-tree-sitter/javascript"
	"github.com/smacker/go-tree-sitter/kotlin"
	"github.com/smacker/go-tree-sitter/lua"
	markdown "github.com/smacker/go-tree-sitter/markdown/tree-sitter-markdown"
	"github.com/smacker/go-tree-sitter/ocaml"
	"github.com/smacker/go-tree-sitter/php"
	"github.com/smacker/go-tree-sitter/protobuf"
	"github.com/smacker/go-tree-sitter/python"
	"github.com/smacker/go-tree-sitter/ruby"
	"github.com/smacker/go-tree-sitter/rust"
	"github.com/smacker/go-tree-sitter/scala"
	"github.com/smacker/go-tree-sitter/sql"
	"github.com/smacker/go-tree-sitter/swift"
	"github.com/smacker/go-tree-sitter/toml"
	"github.com/smacker/go-tree-sitter/typescript/tsx"
	"github.com/smacker/go-tree-sitter/typescript/typescript"
	"github.com/smacker/go-tree-sitter/yaml"

	"github.com/zumba-dev/zumba/grammar"
	"github.com/zumba-dev/zumba/grammar/langs/dart"
	"github.com/zumba-dev/zumba/grammar/langs/erlang"
	"github.com/zumba-dev/zumba/grammar/langs/haskell"
	"github.com/zumba-dev/zumba/grammar/langs/julia"
	"github.com/zumba-dev/zumba/grammar/langs/objc"
	"github.com/zumba-dev/zumba/grammar/langs/perl"
	"github.com/zumba-dev/zumba/grammar/langs/r"
	"github.com/zumba-dev/zumba/grammar/langs/solidity"
	"github.com/zumba-dev/zumba/grammar/langs/zig"
)

// grammars are the tree-sitter languages, by the registry's names.
var grammars = map[string]func() *sitter.Language{
	"bash":       bash.GetLanguage,
	"c":          c.GetLanguage,
	"cpp":        cpp.GetLanguage,
	"csharp":     csharp.GetLanguage,
	"css":        css.GetLanguage,
	"dart":       dart.Language,
	"dockerfile": dockerfile.GetLanguage,
	"elixir":     elixir.GetLanguage,
	"elm":        elm.GetLanguage,
	"erlang":     erlang.Language,
	"go":         golang.GetLanguage,
	"haskell":    haskell.Language,
	"hcl":        hcl.GetLanguage,
	"java":       java.GetLanguage,
	"javascript": javascript.GetLanguage,
	"julia":      julia.Language,
	"kotlin":     kotlin.GetLanguage,
	"lua":        lua.GetLanguage,
	"markdown":   markdown.GetLanguage,
	"objc":       objc.Language,
	"ocaml":      ocaml.GetLanguage,
	"perl":       perl.Language,
	"php":        php.GetLanguage,
	"protobuf":   protobuf.GetLanguage,
	"python":     python.GetLanguage,
	"r":          r.Language,
	"ruby":       ruby.GetLanguage,
	"rust":       rust.GetLanguage,
	"scala":      scala.GetLanguage,
	"solidity":   solidity.Language,
	"sql":        sql.GetLanguage,
	"svelte":     typescript.GetLanguage,
	"swift":      swift.GetLanguage,
	"toml":       toml.GetLanguage,
	"tsx":        tsx.GetLanguage,
	"typescript": typescript.GetLanguage,
	"vue":        typescript.GetLanguage,
	"yaml":       yaml.GetLanguage,
	"zig":        zig.Language,
}

func init() {
	for name, f := range grammars {
		grammar.Bind(name, f)
	}
}
