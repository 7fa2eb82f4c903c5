extern crate alloc;

extern "C" {
    fn abs(x: i32) -> i32;

    static errno: i32;

    type Opaque;
}

#[link(name = "m")]
extern "C" {
    /// Square root.
    pub fn sqrt(x: f64) -> f64;
}

// The 2024 edition's `unsafe extern` and `safe fn` are newer than this
// grammar: it recovers, and the items are still listed.
unsafe extern "C" {
    pub safe fn cos(x: f64) -> f64;
    pub unsafe fn free(p: *mut u8);
}

fn after() {}
