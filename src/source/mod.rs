//! Sources of skills: the source-string grammar, trees to read them, git fetching and the
//! discovery of the skills they offer.

pub mod discover;
pub mod git;
pub mod grammar;
pub mod http;
pub mod npm;
pub mod open;
pub mod ssh;

pub mod tree;
pub mod web;

pub use grammar::{GitSource, Provider, Selector, Source, SourceEnv, SourceError, WebKind, parse};
