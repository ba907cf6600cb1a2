//! Integration tests: the real binary, hermetic environment, one module per command.

mod common;
mod gitfixture;

mod add;
mod architecture;
mod compat;
mod corpus;
mod doctor;
mod dropin;
mod flow_fuzz;
mod frontmatter;
mod fuzz;
mod gate;
mod generated;
mod help;
mod httpserver;
mod init;
mod json;
mod lifecycle;
mod lint;
mod list;
mod manifest;
mod naming;
mod network;
mod pinned;
mod prompt;
mod relpath_fuzz;
mod security;
mod serve;
mod serve_entries;
mod sources;
mod sync;
mod use_skill;
mod web;

pub use add::add_source_display;
