//! One parser under the shared harness (`src/lib.rs`).
fn main() {
    peval::main_with("yash-syntax", &|text| {
        let list: yash_syntax::syntax::List = text.parse().map_err(|e| format!("{e:?}"))?;
        Ok(format!("{list}"))
    });
}
