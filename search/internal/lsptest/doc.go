// Package lsptest drives language servers for the differential tests,
// which compare zumba's answers with theirs: a minimal Language Server
// Protocol client over a server's stdio (gopls, pyright), and the gopls
// workspace those on Go share (gopls and a pinned module, installed in
// the test's own GOPATH) with the module's exported functions. Only
// tests import it.
package lsptest
