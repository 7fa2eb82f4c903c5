use std::fmt;

pub struct Rpc;
pub struct Wrapper<T>(T);

impl Rpc {
    pub fn spawn() -> Self {
        Rpc
    }

    const LIMIT: usize = 8;

    fn call(&self) {}
}

impl<T: Clone> Wrapper<T> {
    pub fn new(t: T) -> Self {
        Wrapper(t)
    }
}

impl fmt::Display for Rpc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "rpc")
    }
}

impl<T> From<T> for Wrapper<T> {
    fn from(t: T) -> Self {
        Wrapper(t)
    }
}

impl From<std::io::Error> for crate::Rpc {
    fn from(_: std::io::Error) -> Self {
        Rpc
    }
}

impl Iterator for Rpc {
    type Item = u8;

    fn next(&mut self) -> Option<u8> {
        None
    }
}

impl<'a> std::io::Read for &'a Rpc {
    fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
        Ok(0)
    }
}

impl<T> Sealed for [T] {}

unsafe impl Send for Wrapper<*const u8> {}

impl !Sync for Rpc {}

impl dyn fmt::Debug {}

impl<T>
    Default
    for Wrapper<T>
where
    T: Default,
{
    fn default() -> Self {
        Wrapper(T::default())
    }
}

trait Sealed {}
