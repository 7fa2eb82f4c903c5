package outline

// Outlines parse: every grammar is linked where outline is.
import _ "github.com/zumba-dev/zumba/grammar/langs"
