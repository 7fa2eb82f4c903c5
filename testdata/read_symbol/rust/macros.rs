/// Makes a getter.
#[macro_export]
macro_rules! getter {
    ($name:ident, $ty:ty) => {
        // Items in a macro's body are a template, not definitions.
        pub fn $name(&self) -> $ty {
            self.$name
        }
    };
}

macro_rules! impl_show {
    ($($t:ty),*) => {
        $(impl Show for $t {
            fn show(&self) -> String { String::new() }
        })*
    };
}

// Items passed to a macro invocation are token trees to the grammar: not
// listed.
cfg_if::cfg_if! {
    if #[cfg(unix)] {
        fn platform() {}
    }
}

pub fn after_macros() {}

thread_local! {
    static DEPTH: u32 = 0;
}

fn uses() {
    let v = vec![1, 2, 3];
    println!("{v:?}");
}
