package grammar

// rName drops the backticks of a name R quotes, "`%+%`" (a name the
// grammar reads as one identifier with its quotes); other names keep the
// captured text ("").
func rName(_ Kind, head []byte) string {
	if len(head) < 2 || head[0] != '`' {
		return ""
	}
	for i := 1; i < len(head); i++ {
		switch head[i] {
		case '`':
			if i == 1 {
				return ""
			}
			return string(head[1:i])
		case '\n':
			return ""
		}
	}
	return ""
}
