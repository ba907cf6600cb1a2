//! ssh the way git does it: `ssh://`, `git+ssh://`, `ssh+git://` and scp-like `user@host:path`
//! remotes run the user's ssh client, so its configuration, keys, agent and `known_hosts` apply
//! as they do for git (libgit2's own ssh, libssh2, would know none of them, and would bring a
//! second copy of OpenSSL). It runs the command exactly as git would — `ssh [-p PORT]
//! [USER@]HOST "git-upload-pack '<PATH>'"`, `sh -c '<GIT_SSH_COMMAND> "$@"' …` when
//! `GIT_SSH_COMMAND` is set, or `<GIT_SSH> …` without a shell — and speaks git's protocol over
//! its stdin and stdout. Its stderr is the user's (ssh asks and warns there).
//!
//! Invariants: only fetches are served (no push); a host starting with `-` never reaches the
//! command (it would be read as an option); the path is single-quoted for the remote shell.

use std::io::{Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use git2::transport::{Service, SmartSubtransport, SmartSubtransportStream, Transport};

/// The command to run for ssh, from the environment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SshCommand {
    /// `GIT_SSH_COMMAND`: a shell command line.
    Shell(String),
    /// `GIT_SSH`: a program.
    Program(String),
}

impl SshCommand {
    /// `GIT_SSH_COMMAND`, else `GIT_SSH`, else the `ssh` on `PATH`, as git chooses.
    pub fn from_env() -> SshCommand {
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
        var(crate::env_vars::GIT_SSH_COMMAND)
            .map(SshCommand::Shell)
            .or_else(|| var(crate::env_vars::GIT_SSH).map(SshCommand::Program))
            .unwrap_or_else(|| SshCommand::Program("ssh".to_owned()))
    }

    /// What the command is called, for messages.
    fn name(&self) -> &str {
        match self {
            SshCommand::Shell(line) | SshCommand::Program(line) => line,
        }
    }

    /// The process that reaches `host` (`[user@]host`) and runs `remote` there.
    fn command(&self, port: Option<&str>, host: &str, remote: &str) -> Command {
        let mut args: Vec<&str> = Vec::new();
        if let Some(port) = port {
            args.extend(["-p", port]);
        }
        args.extend([host, remote]);
        match self {
            SshCommand::Shell(line) => {
                let mut command = Command::new("sh");
                command
                    .arg("-c")
                    .arg(format!("{line} \"$@\""))
                    .arg(line)
                    .args(args);
                command
            }
            SshCommand::Program(program) => {
                let mut command = Command::new(program);
                command.args(args);
                command
            }
        }
    }
}

/// Where an ssh remote is: `[user@]host`, the port, and the repository path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Address {
    pub host: String,
    pub port: Option<String>,
    pub path: String,
}

/// Splits `ssh://[user@]host[:port]/path` (and the `git+ssh`/`ssh+git` spellings) or scp-like
/// `[user@]host:path`.
pub fn address(url: &str) -> Option<Address> {
    let schemes = ["ssh://", "git+ssh://", "ssh+git://"];
    let address = if let Some(rest) = schemes.iter().find_map(|s| {
        url.get(..s.len())
            .filter(|h| h.eq_ignore_ascii_case(s))
            .map(|_| &url[s.len()..])
    }) {
        let (authority, path) = rest.split_at(rest.find('/')?);
        let (user_host, port) = match authority.rsplit_once(':') {
            Some((user_host, port))
                if !port.is_empty() && port.bytes().all(|b| b.is_ascii_digit()) =>
            {
                (user_host, Some(port.to_owned()))
            }
            _ => (authority, None),
        };
        // `ssh://host/~user/repo` is `~user/repo` on the remote, as git reads it.
        let path = path
            .strip_prefix("/~")
            .map_or_else(|| path.to_owned(), |p| format!("~{p}"));
        Address {
            host: user_host.to_owned(),
            port,
            path,
        }
    } else {
        let (user_host, path) = url.split_once(':')?;
        Address {
            host: user_host.to_owned(),
            port: None,
            path: path.to_owned(),
        }
    };
    let host_name = address.host.rsplit('@').next().unwrap_or_default();
    let valid = !host_name.is_empty()
        && !address.host.starts_with('-')
        && !address.path.is_empty()
        && !address.host.contains(char::is_whitespace);
    valid.then_some(address)
}

/// `text` single-quoted for a POSIX shell.
fn shell_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// Registers this transport for ssh remotes, with the command of [`SshCommand::from_env`].
///
/// # Safety
/// libgit2's transport registry is global and unsynchronized: call this once, before any thread
/// creates a remote.
#[expect(
    unsafe_code,
    reason = "libgit2's global transport registry; called once, before any thread uses libgit2"
)]
pub unsafe fn register() {
    let command = SshCommand::from_env();
    for scheme in ["ssh", "ssh+git", "git+ssh"] {
        let command = command.clone();
        // SAFETY: the caller guarantees that no other thread uses libgit2 yet.
        let _ = unsafe {
            git2::transport::register(scheme, move |remote| {
                Transport::smart(remote, false, Subtransport(command.clone()))
            })
        };
    }
}

struct Subtransport(SshCommand);

impl SmartSubtransport for Subtransport {
    fn action(
        &self,
        url: &str,
        action: Service,
    ) -> Result<Box<dyn SmartSubtransportStream>, git2::Error> {
        if !matches!(action, Service::UploadPackLs | Service::UploadPack) {
            return Err(git2::Error::from_str("skills only fetches over ssh"));
        }
        let address = address(url)
            .ok_or_else(|| git2::Error::from_str(&format!("`{url}` is not an ssh address")))?;
        let remote = format!("git-upload-pack {}", shell_quote(&address.path));
        let mut child = self
            .0
            .command(address.port.as_deref(), &address.host, &remote)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|err| {
                git2::Error::from_str(&format!(
                    "cannot run the ssh command `{}`: {err}",
                    self.0.name()
                ))
            })?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            return Err(git2::Error::from_str("the ssh command has no pipes"));
        };
        Ok(Box::new(Stream {
            child,
            stdin,
            stdout,
        }))
    }

    fn close(&self) -> Result<(), git2::Error> {
        Ok(())
    }
}

/// The running ssh command: git's protocol is written to its stdin and read from its stdout.
struct Stream {
    child: Child,
    stdin: ChildStdin,
    stdout: ChildStdout,
}

impl Read for Stream {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.stdout.read(buf)
    }
}

impl Write for Stream {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.stdin.write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.stdin.flush()
    }
}

impl Drop for Stream {
    fn drop(&mut self) {
        // The fetch is over (or abandoned): the remote end has nothing more to say.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses() {
        let a = address("ssh://git@example.com:2222/o/r.git").unwrap();
        assert_eq!(
            (a.host.as_str(), a.port.as_deref(), a.path.as_str()),
            ("git@example.com", Some("2222"), "/o/r.git")
        );
        let a = address("git@example.com:o/r.git").unwrap();
        assert_eq!(
            (a.host.as_str(), a.path.as_str()),
            ("git@example.com", "o/r.git")
        );
        let a = address("ssh://host/~me/r").unwrap();
        assert_eq!(a.path, "~me/r");
        assert!(address("ssh://-oProxyCommand=x/r").is_none());
        assert!(address("-oProxyCommand=x:r").is_none());
        assert!(address("ssh://host").is_none());
    }

    #[test]
    fn quoting() {
        assert_eq!(shell_quote("/a b/it's"), r"'/a b/it'\''s'");
    }
}
