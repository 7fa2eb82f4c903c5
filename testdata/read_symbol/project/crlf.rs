//! Windows line endings.

/// Sum adds.
/// It is documented.
pub fn sum(a: i32, b: i32) -> i32 {
	a + b  
}

const X: i32 = 1;
