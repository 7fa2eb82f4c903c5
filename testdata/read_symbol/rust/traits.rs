use std::fmt;

/// Things that can be shown.
pub trait Show: fmt::Debug {
    /// Required.
    fn show(&self) -> String;

    /// Provided.
    fn show_twice(&self) -> String {
        let s = self.show();
        s.clone() + &s
    }

    const PREFIX: &'static str = "";

    type Output;
}

pub trait Convert<T>
where
    T: Clone,
{
    fn convert(&self) -> T;
}

pub unsafe trait Zeroable {}

trait Empty {}

pub trait Iter {
    type Item;
    fn next(&mut self) -> Option<Self::Item>;
    fn count(self) -> usize
    where
        Self: Sized,
    {
        0
    }
}
