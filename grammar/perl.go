package grammar

// perlName reads a package's whole name from its source from the name on
// (head): the grammar ends the name before a segment that starts with a
// digit, "Debconf::Format::822", and reads the rest as a version. Other
// kinds keep their captured name ("").
func perlName(k Kind, head []byte) string {
	if k != Module && k != Class {
		return ""
	}
	i := 0
	for i < len(head) && (isIdentByte(head[i]) || head[i] == ':' || head[i] >= 0x80) {
		i++
	}
	return string(head[:i])
}
