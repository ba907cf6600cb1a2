//! A hostile skills folder under `serve`: a file swapped for a link after the scan, and links
//! out of the skill from the start. What is served is what was listed, or nothing.

use std::os::unix::fs::symlink;

use rmcp::ServiceExt as _;
use rmcp::model::ReadResourceRequestParams;

use super::{Canary, skill_md};
use crate::common::{TestContext, write};
use crate::serve::{Recorder, bytes, runtime, serve_process};

#[test]
fn a_file_swapped_for_a_link_after_the_scan_is_not_followed() {
    let context = TestContext::new();
    let canary = Canary::plant(&context);
    let root = context.project.join("served");
    write(&root.join("pdf/SKILL.md"), skill_md("pdf"));
    write(&root.join("pdf/references/forms.md"), "# Forms\n");
    write(&root.join("pdf/references/more.md"), "# More\n");
    let key = canary.root.join(".ssh/id_ed25519");
    symlink(&key, root.join("pdf/references/key.md")).unwrap();
    runtime().block_on(async {
        let (sender, _receiver) = tokio::sync::mpsc::unbounded_channel();
        // No watcher: the index stays the one of the scan, as it is between a change and the
        // rebuild it causes.
        let transport = serve_process(&context, &root, &["--no-watch"]);
        let client = Recorder(sender).serve(transport).await.unwrap();
        let read = |uri: &'static str| {
            let client = &client;
            async move {
                client
                    .read_resource(ReadResourceRequestParams::new(uri))
                    .await
            }
        };
        // The link that was there at the scan is not served.
        assert!(read("skill://pdf/references/key.md").await.is_err());
        assert!(read("skill://pdf/references/forms.md").await.is_ok());
        // Swapped after the scan: listed files become links to the key, one to the file,
        // one through a linked folder. (A hard link is the file itself, as if copied in: only
        // someone who can write the folder can make one, and git would serve it too.)
        let forms = root.join("pdf/references/forms.md");
        std::fs::remove_file(&forms).unwrap();
        symlink(&key, &forms).unwrap();
        let references = root.join("pdf/references");
        std::fs::rename(&references, root.join("pdf/old")).unwrap();
        std::fs::create_dir_all(canary.root.join("more")).unwrap();
        std::fs::copy(&key, canary.root.join("more/more.md")).unwrap();
        symlink(canary.root.join("more"), &references).unwrap();
        for uri in [
            "skill://pdf/references/forms.md",
            "skill://pdf/references/more.md",
        ] {
            if let Ok(result) = read(uri).await {
                for contents in &result.contents {
                    assert!(
                        !String::from_utf8_lossy(&bytes(contents)).contains("PRIVATE KEY"),
                        "{uri} served the key"
                    );
                }
            }
        }
        std::fs::remove_dir_all(canary.root.join("more")).unwrap();
        client.cancel().await.unwrap();
    });
    canary.assert_untouched();
}
