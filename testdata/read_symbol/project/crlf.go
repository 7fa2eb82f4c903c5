// Package crlf has Windows line endings.
package crlf

// Sum adds.
// It is documented.
func Sum(a, b int) int {
	return a + b  
}

var x = 1
