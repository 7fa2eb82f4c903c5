mod decl;

pub mod net {
    pub struct Conn;

    impl Conn {
        pub fn open() -> Self {
            Conn
        }
    }

    pub(crate) mod tls {
        pub fn handshake() {}

        const VERSION: u8 = 3;
    }

    pub fn dial() {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dials() {
        net::dial();
    }
}

pub mod empty {}
