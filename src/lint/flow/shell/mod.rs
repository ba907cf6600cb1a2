//! Shell read as the shell reads it, for the gate: a parser of its own ([`syntax`]), the
//! normalisation of each command to what runs ([`run`]), and the data followed from where it is
//! fetched or decoded to where an interpreter runs it ([`flows`]).
//!
//! Why a parser of our own (measured with `tools/parser-eval`, figures in the README's gate
//! section): skill text is mostly fragments — Markdown blocks with prompts, placeholders such as
//! `<your-token>`, half a `case`, an `if` without its `fi` — and a shell parser that rejects the
//! whole block on the first error (`brush-parser`, `yash-syntax`) leaves exactly the hostile
//! spellings unread; `tree-sitter-bash` recovers from errors, but adds a C runtime and grammar
//! tables to a binary that has to shrink, and reading its tree still needs the quote removal,
//! escapes and word splitting done here. `yash-syntax` is GPL-3.0, which this MIT/Apache crate
//! cannot link. This parser never fails, reads each byte a bounded number of times, and bounds
//! its nesting ([`syntax::MAX_DEPTH`]) and the strings it parses again ([`flows::MAX_REPARSE`]).
//!
//! Invariant: nothing here judges. The rules (`lint::security`) read the [`flows::Flow`]s and
//! decide what is refused.

pub mod acts;
pub mod flows;
pub mod run;
pub mod syntax;

pub use flows::{Flow, State, Taint};

/// The flows of fetched or decoded data into interpreters in `units` of one file: `(code,
/// offset of the code in the file)`, walked in order with one state.
pub fn flows<'a>(units: impl IntoIterator<Item = (&'a str, usize)>) -> Vec<Flow> {
    let mut state = State::new();
    for (index, (code, base)) in units.into_iter().enumerate() {
        state.unit(code, base, index);
    }
    state.flows
}

#[cfg(test)]
mod tests;
