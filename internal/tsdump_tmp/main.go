package main

import (
	"context"
	"fmt"
	"os"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/zumba-dev/zumba/grammar"
	_ "github.com/zumba-dev/zumba/grammar/langs"
)

func main() {
	src, _ := os.ReadFile(os.Args[1])
	l := grammar.ForPath(os.Args[1], src).Sitter()
	p := sitter.NewParser()
	p.SetLanguage(l)
	t, _ := p.ParseCtx(context.Background(), nil, src)
	var walk func(n *sitter.Node, d int, field string)
	walk = func(n *sitter.Node, d int, field string) {
		txt := ""
		if n.ChildCount() == 0 || n.Type() == "identifier" || n.Type() == "property_identifier" || n.Type() == "type_identifier" {
			txt = strings.ReplaceAll(n.Content(src), "\n", " ")
		}
		if !n.IsNamed() && field == "" {
			return
		}
		fmt.Printf("%s%s%s %q\n", strings.Repeat("  ", d), field, n.Type(), txt)
		for i := 0; i < int(n.ChildCount()); i++ {
			f := n.FieldNameForChild(i)
			if f != "" {
				f += ": "
			}
			walk(n.Child(i), d+1, f)
		}
	}
	walk(t.RootNode(), 0, "")
}
