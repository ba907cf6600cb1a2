//! Integration tests: the real binary, hermetic environment, one module per command.

mod common;
mod gitfixture;
mod hostile;

mod add;
mod architecture;
mod cache;
mod compat;
mod copies;
mod corpus;
mod crash;
mod doctor;
mod dropin;
mod flow_fuzz;
mod fresh_machine;
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
mod npx_lock;
mod pinned;
mod project_root;
mod prompt;
mod prompt_paths;
mod relpath_fuzz;
mod rollback;
mod security;
mod serve;
mod serve_entries;
mod source_address;
mod sources;
mod sync;
mod terminal;
mod use_skill;
mod web;

pub use add::add_source_display;
