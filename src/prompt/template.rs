//! Templates: any prompt shape, written in Jinja2 syntax (rendered with `minijinja`).
//!
//! Variables: `skills` (name, description, location, uri, metadata), `universal_tools` and
//! `global_resources` (from `--tools` / `--resources`, empty lists otherwise); with a skill:
//! `skill` (name, description, location, uri, metadata, directory, files, body),
//! `skill_persona_text` (its body), `scoped_tools` and `scoped_resources` (its package).
//! Undefined variables are errors, not empty strings, and errors name the template line.
//! Nothing is escaped unless the template asks: the `xml` filter escapes for XML, as Jinja2
//! templates expect no autoescape outside `.html`/`.xml` files.

use std::fmt::Write as _;

use minijinja::{Environment, UndefinedBehavior, Value as Jinja};
use serde_json::{Value, json};

use super::Entry;
use super::activation::Activation;
use crate::skill::package::{Resource, Tool};

/// The router template of the router/specialist design (level 1).
pub const ROUTER: &str = include_str!("templates/router.jinja2");
/// The specialist template of the router/specialist design (level 2).
pub const SPECIALIST: &str = include_str!("templates/specialist.jinja2");

/// A template that cannot be compiled or rendered: `message` says where and what (from the
/// engine's error, which is kept for its own causes, such as a failing filter's).
#[derive(Debug)]
pub struct TemplateError {
    pub message: String,
    pub source: minijinja::Error,
}

impl std::fmt::Display for TemplateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for TemplateError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        // The message already says what the engine's error says: go on with its cause.
        std::error::Error::source(&self.source)
    }
}

impl crate::hint::Hint for TemplateError {
    fn hint(&self) -> Option<String> {
        match self.source.kind() {
            minijinja::ErrorKind::UndefinedError => Some(
                "templates see `skills`, `universal_tools`, `global_resources`, and with `--skill` `skill`, `skill_persona_text`, `scoped_tools`, `scoped_resources`".into(),
            ),
            minijinja::ErrorKind::SyntaxError => {
                Some("templates use Jinja2 syntax (`{{ x }}`, `{% for %}`)".into())
            }
            _ => None,
        }
    }
}

/// Tools and resources shared by every skill (`--tools`, `--resources`).
#[derive(Debug, Clone, Default)]
pub struct Shared {
    pub tools: Vec<Tool>,
    pub resources: Vec<Resource>,
}

/// Renders `source` (named `name` in errors) for the catalog `entries`, once, or once per
/// activation when `activations` is not empty.
pub fn render(
    name: &str,
    source: &str,
    entries: &[Entry],
    activations: &[(Entry, Activation)],
    shared: &Shared,
) -> Result<String, TemplateError> {
    let mut env = Environment::new();
    env.set_undefined_behavior(UndefinedBehavior::Strict);
    // Jinja2's default: a single trailing newline of the template is dropped.
    env.add_filter("xml", |text: String| super::xml::escape(&text));
    env.add_template(name, source)
        .map_err(|err| describe(name, err))?;
    let template = env.get_template(name).map_err(|err| describe(name, err))?;
    let base = json!({
        "skills": entries,
        "universal_tools": shared.tools,
        "global_resources": shared.resources,
    });
    if activations.is_empty() {
        return template
            .render(Jinja::from(minijinja::value::Serde(&base)))
            .map_err(|err| describe(name, err));
    }
    let mut out = String::new();
    for (entry, activation) in activations {
        let mut context = base.clone();
        let mut skill = serde_json::to_value(entry).unwrap_or(Value::Null);
        skill["directory"] = json!(activation.directory);
        skill["files"] = json!(activation.files);
        skill["body"] = json!(activation.body);
        context["skill"] = skill;
        context["skill_persona_text"] = json!(activation.body);
        context["scoped_tools"] = json!(activation.package.tools);
        context["scoped_resources"] = json!(activation.package.resources);
        if !out.is_empty() && !out.ends_with("\n\n") {
            out.push('\n');
        }
        out.push_str(
            &template
                .render(Jinja::from(minijinja::value::Serde(&context)))
                .map_err(|err| describe(name, err))?,
        );
    }
    Ok(out)
}

/// `template `x.jinja2` line 3: undefined value (in `{{ skil.name }}`)`.
fn describe(name: &str, err: minijinja::Error) -> TemplateError {
    let mut message = format!("template `{name}`");
    if let Some(line) = err.line() {
        let _ = write!(message, " line {line}");
    }
    message.push_str(": ");
    message.push_str(&err.detail().map_or_else(
        || err.kind().to_string(),
        |d| format!("{}: {d}", err.kind()),
    ));
    TemplateError {
        message,
        source: err,
    }
}
