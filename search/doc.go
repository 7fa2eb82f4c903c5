// Package search owns the project: resolving the paths tools are given
// (never outside the project folder), walking its files under the ignore
// rules, and answering find_symbol and find_references.
package search
