package grammar

// Kind is the normalised kind of a definition, shared by every language.
type Kind uint8

// The kinds of SPEC.md § outline, in its order.
const (
	Function Kind = iota + 1
	Method
	Class
	Struct
	Enum
	Union
	Interface
	Trait
	Protocol
	Impl
	Extension
	Type
	Const
	Static
	Module
	Namespace
	Macro
	Heading
)

var kindNames = [...]string{
	Function:  "function",
	Method:    "method",
	Class:     "class",
	Struct:    "struct",
	Enum:      "enum",
	Union:     "union",
	Interface: "interface",
	Trait:     "trait",
	Protocol:  "protocol",
	Impl:      "impl",
	Extension: "extension",
	Type:      "type",
	Const:     "const",
	Static:    "static",
	Module:    "module",
	Namespace: "namespace",
	Macro:     "macro",
	Heading:   "heading",
}

// String returns the kind as it appears in outputs, e.g. "function".
func (k Kind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return "unknown"
}

// ParseKind maps a kind name ("function") to its Kind; ok is false for a
// name outside the set.
func ParseKind(s string) (k Kind, ok bool) {
	for i, name := range kindNames {
		if name != "" && name == s {
			return Kind(i), true
		}
	}
	return 0, false
}

// Kinds returns every kind in order.
func Kinds() []Kind {
	ks := make([]Kind, 0, len(kindNames)-1)
	for i := 1; i < len(kindNames); i++ {
		ks = append(ks, Kind(i))
	}
	return ks
}

// MakesMethods reports whether a function directly inside a definition of
// this kind is a method there.
func (k Kind) MakesMethods() bool {
	switch k {
	case Class, Struct, Enum, Union, Interface, Trait, Protocol, Impl, Extension:
		return true
	}
	return false
}
