//! Crate docs: not an entry.

use std::fmt;

/// A request in flight.
#[derive(Debug, Clone)]
pub struct Rpc {
    id: u64,
}

pub struct Unit;

pub(crate) struct Pair<T>(T, T);

/// Messages the server reads.
#[non_exhaustive]
enum Incoming {
    Request { id: u64 },
    Notification(String),
}

#[repr(C)]
union Bits {
    int: u32,
    float: f32,
}

pub type Result<T> = std::result::Result<T, Error>;

type Callback = Box<dyn Fn(&Rpc) + Send>;

pub struct Error;

pub const MAX_FRAME: usize = 64 << 20;

const _: () = assert!(MAX_FRAME > 0);

static GREETING: &str = "hello";

pub static mut COUNTER: u64 = 0;

fn main() {}
