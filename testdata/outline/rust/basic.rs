struct Rpc {}

fn main() {}
