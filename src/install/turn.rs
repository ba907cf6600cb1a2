//! A run's turn on a scope: the advisory lock of its lockfile, then what a run that died left
//! finished, or what a failed run could not put back put back ([`super::recover`]), and
//! leftovers swept ([`super::sweep`]), before anything is read or written; and the transaction
//! of the scope, whose writes stay inside the project (or the user's home for `-g`).
//!
//! A journal that cannot be finished yet ends the turn with an error, before the sweep: its
//! staging dirs hold folders still to be put back, and a new transaction would overwrite it.

use std::path::PathBuf;

use super::{Confinement, Transaction, journal_path, recover, sweep};
use crate::lock::Guard;
use crate::output::Printer;
use crate::project::{ProjectError, Scope, shown};

/// Where the writes of `scope` may go.
pub fn confinement(scope: &Scope) -> Confinement {
    if scope.global {
        Confinement::home(dirs::home_dir().unwrap_or_else(|| scope.canonical.clone()))
    } else {
        Confinement::project(scope.project.clone())
    }
}

/// A transaction on `scope`'s agent dirs, journaled beside its lockfile's advisory lock.
pub fn transaction(scope: &Scope) -> Transaction {
    Transaction::new(
        confinement(scope),
        Some(journal_path(
            &scope.lock_path,
            &crate::env_vars::cache_dir(),
        )),
    )
}

/// Takes the advisory lock of `scope`'s lockfile for the rest of the run, then finishes what an
/// interrupted run left and removes its leftovers, saying so.
pub fn take_turn(scope: &Scope, printer: &Printer) -> Result<Guard, ProjectError> {
    let guard = scope.guard(printer)?;
    let confinement = confinement(scope);
    let journal = journal_path(&scope.lock_path, &crate::env_vars::cache_dir());
    if let Some(recovered) = recover(&journal, &confinement) {
        if let Some(journal) = recovered.kept {
            return Err(ProjectError::Unfinished {
                journal,
                undo: recovered.undone,
                problems: recovered.problems,
            });
        }
        if recovered.undone {
            printer.warn(format_args!(
                "put back what a failed `skills` run had left changed: {} folder(s)",
                recovered.finished.len()
            ));
        } else {
            printer.warn(format_args!(
                "finished an interrupted `skills` run: {} folder(s) put in place{}",
                recovered.finished.len(),
                if recovered.lock_written {
                    ", the lockfile written"
                } else {
                    ""
                }
            ));
        }
        for path in &recovered.finished {
            printer.debug(format_args!("  `{}`", shown(path, scope)));
        }
        for problem in &recovered.problems {
            printer.warn(format_args!("  {problem}"));
        }
    }
    let dirs: Vec<PathBuf> = scope.roots().into_iter().map(|root| root.path).collect();
    for leftover in sweep(&dirs, &confinement) {
        printer.debug(format_args!(
            "removed `{}`, left by an interrupted run",
            shown(&leftover, scope)
        ));
    }
    Ok(guard)
}
