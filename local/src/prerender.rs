//! Prerendering the running shop's pages: frontend/scripts/prerender-pages.mjs renders every drink, category
//! and content page from the gateway's data into the shop's own pages folder (never the build: another shop
//! may be serving it), which the gateway then serves for those paths while they fit its build (site.rs,
//! known_paths.rs). Started in the background once the gateway answers, and again whenever `make frontend`
//! links a new build; its output goes to the log, and a failure is a warning: the pages then get the app.

use crate::site::{build_id, Storefront};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, BufReader};

/// The script the front end keeps (frontend/scripts/prerender-pages.mjs).
pub fn script() -> PathBuf {
    testkit::emulator::repo_root().join("frontend/scripts/prerender-pages.mjs")
}

/// Why the pages are not prerendered this time, for the log.
#[derive(Debug, PartialEq, Eq)]
pub enum Skipped {
    /// `LOCAL_PRERENDER=0` (scripts/with-gateway.sh runs the script itself).
    TurnedOff,
    /// The storefront is not built (no index.html).
    NotBuilt,
    /// The front end has no prerender script yet.
    NoScript,
}

/// Whether to prerender: when turned on (`LOCAL_PRERENDER` is not `0`), with a built storefront and the
/// script.
pub fn should_run(enabled: bool, dist: &Path, script: &Path) -> Result<(), Skipped> {
    if !enabled {
        Err(Skipped::TurnedOff)
    } else if !dist.join("index.html").is_file() {
        Err(Skipped::NotBuilt)
    } else if !script.is_file() {
        Err(Skipped::NoScript)
    } else {
        Ok(())
    }
}

/// Runs `node <script> --api <api> --dist <dist> --out <pages>` from the repository's root, each line it
/// prints logged as it comes. Answers the script's last line (`Prerendered N pages ...`), or why it failed:
/// node missing, or its exit status.
pub async fn run(script: &Path, api: &str, storefront: &Storefront) -> Result<String, String> {
    let mut child = tokio::process::Command::new("node")
        .arg(script)
        .arg("--api")
        .arg(api)
        .arg("--dist")
        .arg(&storefront.dist)
        .arg("--out")
        .arg(&storefront.pages)
        .current_dir(testkit::emulator::repo_root())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .map_err(|error| format!("node could not be started ({error}): is it on PATH?"))?;
    let stdout = child.stdout.take().expect("stdout is piped");
    let stderr = child.stderr.take().expect("stderr is piped");
    let errors = tokio::spawn(async move {
        let mut lines = BufReader::new(stderr).lines();
        while let Ok(Some(line)) = lines.next_line().await {
            tracing::warn!("prerender: {line}");
        }
    });
    let mut last = String::new();
    let mut lines = BufReader::new(stdout).lines();
    while let Ok(Some(line)) = lines.next_line().await {
        tracing::info!("prerender: {line}");
        if !line.trim().is_empty() {
            last = line;
        }
    }
    let status = child.wait().await.map_err(|error| error.to_string())?;
    let _ = errors.await;
    if status.success() {
        Ok(last)
    } else {
        Err(format!("{} exited with {status}", script.display()))
    }
}

/// How often a running shop looks whether `make frontend` has linked a new build.
const WATCH_EVERY: Duration = Duration::from_secs(3);

/// Whether to prerender now: at the gateway's start (the data may have changed while it was stopped), then
/// once for each build linked since the last run (`last`, whether that run succeeded or not: a failing one
/// is tried again with the next build, not every few seconds).
pub fn due(last: Option<&Option<String>>, build: &Option<String>) -> bool {
    last != Some(build)
}

/// Prerenders in the background when `should_run` says so, then for each new build; never fails the
/// gateway. A storefront not built yet is waited for.
pub fn spawn(enabled: bool, api: String, storefront: Storefront) {
    let script = script();
    match should_run(enabled, &storefront.dist, &script) {
        Ok(()) => {}
        Err(Skipped::NotBuilt) => {
            tracing::info!("the storefront is not built yet: its pages are prerendered once it is")
        }
        Err(skipped) => {
            tracing::info!(?skipped, "pages not prerendered: deep links get the app");
            return;
        }
    }
    tokio::spawn(async move {
        let mut last = None;
        loop {
            let build = build_id(&storefront.dist).await;
            let built = should_run(enabled, &storefront.dist, &script).is_ok();
            if built && due(last.as_ref(), &build) {
                if let Err(error) = run(&script, &api, &storefront).await {
                    tracing::warn!(%error, "pages not prerendered: deep links get the app");
                }
                // Its summary is the script's last line, already in the log.
                last = Some(build);
            }
            tokio::time::sleep(WATCH_EVERY).await;
        }
    });
}

/// A shop's pages folder: the one asked for (`LOCAL_PAGES`), else `pages/` in its state folder, else a
/// temporary folder of its own, deleted when the gateway stops.
pub struct Pages {
    path: PathBuf,
    temporary: bool,
}

impl Pages {
    pub fn for_shop(asked: Option<PathBuf>, state: Option<&Path>) -> std::io::Result<Self> {
        let (path, temporary) = match (asked, state) {
            (Some(path), _) => (path, false),
            (None, Some(state)) => (state.join("pages"), false),
            (None, None) => (
                std::env::temp_dir().join(format!("shop-pages-{}", uuid::Uuid::new_v4())),
                true,
            ),
        };
        std::fs::create_dir_all(&path)?;
        Ok(Pages { path, temporary })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for Pages {
    fn drop(&mut self) {
        if self.temporary {
            let _ = std::fs::remove_dir_all(&self.path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Folder(PathBuf);

    impl Folder {
        fn new() -> Self {
            let path = std::env::temp_dir().join(format!("prerender-{}", uuid::Uuid::new_v4()));
            std::fs::create_dir_all(&path).unwrap();
            Folder(path)
        }
    }

    impl Drop for Folder {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    /// A stand-in for the front end's script: writes one page for the address it is given.
    const STAND_IN: &str = r#"
const args = process.argv.slice(2);
const api = args[args.indexOf('--api') + 1];
const dist = args[args.indexOf('--dist') + 1];
const out = args[args.indexOf('--out') + 1];
const fs = require('fs');
if (api.includes('fail')) { console.error('no shop at ' + api); process.exit(3); }
fs.mkdirSync(out + '/drinks/p-1', { recursive: true });
fs.writeFileSync(out + '/drinks/p-1/index.html', 'from ' + api + ' and ' + dist);
console.log('rendering');
console.log('Prerendered 1 pages into ' + out);
"#;

    #[test]
    fn it_runs_only_when_on_built_and_scripted() {
        let folder = Folder::new();
        let script = folder.0.join("script.cjs");
        assert_eq!(should_run(true, &folder.0, &script), Err(Skipped::NotBuilt));
        std::fs::write(folder.0.join("index.html"), "app").unwrap();
        assert_eq!(should_run(true, &folder.0, &script), Err(Skipped::NoScript));
        std::fs::write(&script, STAND_IN).unwrap();
        assert_eq!(should_run(true, &folder.0, &script), Ok(()));
        assert_eq!(should_run(true, &folder.0, &script), Ok(()));
        assert_eq!(
            should_run(false, &folder.0, &script),
            Err(Skipped::TurnedOff)
        );
    }

    #[tokio::test]
    async fn the_script_writes_into_the_pages_folder_and_its_failure_is_reported() {
        let folder = Folder::new();
        let script = folder.0.join("script.cjs");
        std::fs::write(&script, STAND_IN).unwrap();
        let storefront = Storefront {
            dist: folder.0.join("dist"),
            pages: folder.0.join("pages"),
        };
        let summary = run(&script, "http://127.0.0.1:3999", &storefront)
            .await
            .unwrap();
        assert!(summary.starts_with("Prerendered 1 pages"), "{summary}");
        assert_eq!(
            std::fs::read_to_string(storefront.pages.join("drinks/p-1/index.html")).unwrap(),
            format!(
                "from http://127.0.0.1:3999 and {}",
                storefront.dist.display()
            )
        );
        assert!(
            !storefront.dist.exists(),
            "nothing is written into the build"
        );
        let failed = run(&script, "http://fail", &storefront).await.unwrap_err();
        assert!(failed.contains("exited with"), "{failed}");
    }

    #[test]
    fn it_runs_at_start_and_once_for_each_new_build() {
        let first = Some("a1".to_owned());
        assert!(due(None, &first), "at start");
        assert!(due(None, &None), "at start, a build without an id");
        assert!(!due(Some(&first), &first), "the same build again");
        assert!(due(Some(&first), &Some("b2".to_owned())), "a new build");
        assert!(due(Some(&None), &first));
    }

    #[test]
    fn a_shop_in_memory_gets_a_pages_folder_of_its_own_that_goes_with_it() {
        let folder = Folder::new();
        let kept = Pages::for_shop(None, Some(&folder.0)).unwrap();
        assert_eq!(kept.path(), folder.0.join("pages"));
        let asked = Pages::for_shop(Some(folder.0.join("mine")), None).unwrap();
        assert_eq!(asked.path(), folder.0.join("mine"));
        let (one, two) = (
            Pages::for_shop(None, None).unwrap(),
            Pages::for_shop(None, None).unwrap(),
        );
        assert_ne!(one.path(), two.path());
        let gone = one.path().to_path_buf();
        assert!(gone.is_dir());
        drop(one);
        assert!(!gone.exists());
        drop((kept, asked));
        assert!(folder.0.join("pages").is_dir() && folder.0.join("mine").is_dir());
    }
}
