//! What a source offers, shared by `add`, `install SOURCE` and `use`: the source opened and
//! searched for its skills (a source with none is an error
//! that says where it looked), and the offered skill a name means.

use crate::hint::Hint;
use crate::output::Printer;
use crate::project::Scope;
use crate::source::discover::{self, Offered, Options};
use crate::source::git::GitSettings;
use crate::source::open::{Opened, Sources};
use crate::source::{self as sources, SourceEnv};

/// A source opened and searched: what it offers.
pub struct Found {
    pub opened: Opened,
    pub offered: Vec<Offered>,
    pub settings: GitSettings,
}

/// Why a source offers nothing to install.
#[derive(Debug, thiserror::Error)]
pub enum OfferError {
    #[error(transparent)]
    Source(#[from] crate::source::grammar::SourceError),
    #[error(transparent)]
    Open(#[from] crate::source::open::OpenError),
    #[error("`{input}` offers no skills")]
    NoSkills {
        input: String,
        searched: Vec<String>,
    },
}

impl Hint for OfferError {
    fn hint(&self) -> Option<String> {
        match self {
            OfferError::Source(err) => err.hint(),
            OfferError::Open(err) => err.hint(),
            OfferError::NoSkills { searched, .. } => Some(format!(
                "searched {}; a skill is a folder with a SKILL.md that has a `name` and a `description`",
                searched.join(", ")
            )),
        }
    }
}

/// Opens the source `input` (`offline`: from this machine only) and finds its skills; a source
/// with none is an error.
pub fn open_offered(
    input: &str,
    scope: &Scope,
    full_depth: bool,
    offline: bool,
    limits: crate::source::web::WebLimits,
    printer: &Printer,
) -> Result<Found, OfferError> {
    let env = SourceEnv::from_env(scope.cwd.clone());
    let source = sources::parse(input, &env)?;
    let mut settings = Scope::git_settings(printer.progress());
    settings.web = limits;
    let mut opening = Sources::new(settings.clone());
    if offline {
        opening.go_offline();
    }
    let request = opening.request(&source, &scope.lock_dir(), scope.global)?;
    let opened = opening.open(&request)?;
    // A web index lists its skills: nothing to search, nothing downloaded before choosing.
    let discovery = match &opened.offered {
        Some(offered) => discover::Discovery {
            skills: offered.clone(),
            searched: vec![opened.origin.source_url.clone().unwrap_or_default()],
            ..discover::Discovery::default()
        },
        None => discover::discover(opened.tree.as_ref(), &opened.base, Options { full_depth }),
    };
    for warning in &discovery.warnings {
        printer.warn(warning);
    }
    if discovery.skills.is_empty() {
        return Err(OfferError::NoSkills {
            input: input.to_owned(),
            searched: discovery.searched,
        });
    }
    Ok(Found {
        opened,
        offered: discovery.skills,
        settings,
    })
}

/// The offered skill called `name` (any case), or kept in a folder of that name.
pub fn find_offered<'a>(offered: &'a [Offered], name: &str) -> Option<&'a Offered> {
    offered.iter().find(|s| {
        s.name.eq_ignore_ascii_case(name)
            || s.path
                .rsplit('/')
                .next()
                .is_some_and(|f| f.eq_ignore_ascii_case(name))
    })
}
