//! One parser under the shared harness (`src/lib.rs`).
fn main() { peval::main_with("none", &|t| Ok(t.len().to_string())); }
