//! One parser under the shared harness (`src/lib.rs`).
fn main() {
    let lang: tree_sitter::Language = tree_sitter_bash::LANGUAGE.into();
    peval::main_with("tree-sitter-bash", &|text| {
        let mut p = tree_sitter::Parser::new();
        p.set_language(&lang).map_err(|e| e.to_string())?;
        let tree = p.parse(text, None).ok_or("no tree")?;
        let root = tree.root_node();
        if root.has_error() { return Err(format!("error nodes: {}", root.to_sexp())); }
        Ok(root.to_sexp())
    });
}
