//! One parser under the shared harness (`src/lib.rs`).
fn main() {
    peval::main_with("brush-parser", &|text| {
        let toks = brush_parser::tokenize_str(text).map_err(|e| format!("{e:?}"))?;
        let opts = brush_parser::ParserOptions::default();
        let prog = brush_parser::parse_tokens(&toks, &opts).map_err(|e| format!("{e:?}"))?;
        Ok(format!("{prog}"))
    });
}
