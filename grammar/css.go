package grammar

// cssName names a CSS at-rule that holds rules by its keyword and prelude,
// as written before its block: "@media (max-width: 600px)", "@keyframes
// spin", "@layer base". The query captures the whole statement as the
// name, so head starts at its "@"; runs of white space (a prelude spread
// over lines) become one space. Other definitions keep their name.
func cssName(_ Kind, head []byte) string {
	if len(head) == 0 || head[0] != '@' {
		return ""
	}
	out := make([]byte, 0, 64)
	space := false
	for _, c := range head {
		if c == '{' || c == ';' {
			break
		}
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' {
			space = true
			continue
		}
		if space && len(out) > 0 {
			out = append(out, ' ')
		}
		space = false
		out = append(out, c)
	}
	return string(out)
}
