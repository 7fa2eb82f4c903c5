pub fn outer() -> u32 {
    fn helper(x: u32) -> u32 {
        fn deepest() {}
        deepest();
        x + 1
    }

    // Closures are not items.
    let add = |a: u32| a + 1;

    struct Local;

    impl Local {
        fn value(&self) -> u32 {
            1
        }
    }

    const BASE: u32 = 40;

    helper(BASE) + add(Local.value())
}

pub struct Server;

impl Server {
    pub fn serve(&self) {
        fn log(msg: &str) {
            let _ = msg;
        }
        log("serving");
    }
}

pub async fn fetch() {}

pub const fn answer() -> u32 {
    42
}

pub unsafe extern "C" fn exported() {}
