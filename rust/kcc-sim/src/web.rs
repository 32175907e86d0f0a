//! `kcc-sim web-demo`: writes the web demo's static site (the sample course in Godot's web
//! template, moved by the wasm build of the core) and serves it on 127.0.0.1.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use kcc_godot::Engine;
use kcc_godot::server::{Route, Server};
use kcc_godot::web_demo::{self, SiteFile};

use crate::godot::repo_root;

/// Where `scripts/web-demo/build-wasm.sh` leaves the wasm core, under the repository's root.
pub const CORE: &str = "target/wasm/wasm32-unknown-unknown/release/kcc_wasm.wasm";

/// The site's files: the page, the engine (the pinned web template, checked), the demo's pack
/// and the wasm core read from `core`.
pub fn site(core: &Path) -> Result<Vec<SiteFile>, String> {
    let bytes = std::fs::read(core).map_err(|e| {
        format!(
            "web-demo: cannot read the wasm core {} ({e}): build it with scripts/web-demo/build-wasm.sh",
            core.display()
        )
    })?;
    if !bytes.starts_with(b"\0asm") {
        return Err(format!("web-demo: {} is not a wasm module", core.display()));
    }
    let engine = Engine::locate(&repo_root()).map_err(|e| e.to_string())?;
    Ok(web_demo::site(&engine, bytes))
}

/// Writes `files` into `out` (created if missing).
pub fn write(files: &[SiteFile], out: &Path) -> Result<(), String> {
    std::fs::create_dir_all(out).map_err(|e| format!("web-demo: {}: {e}", out.display()))?;
    for file in files {
        let path = out.join(&file.name);
        std::fs::write(&path, &file.data)
            .map_err(|e| format!("web-demo: {}: {e}", path.display()))?;
    }
    Ok(())
}

/// Serves `files` on `port` of 127.0.0.1 (0: a free one) until the process is stopped, after
/// printing the address on its own line.
pub fn serve(files: Vec<SiteFile>, port: u16) -> Result<(), String> {
    let mut routes = HashMap::new();
    for file in files {
        let route = Route {
            content_type: file.content_type,
            body: Arc::new(file.data),
        };
        if file.name == "index.html" {
            routes.insert("/".to_string(), route.clone());
        }
        routes.insert(format!("/{}", file.name), route);
    }
    let server = Server::start_on(port, routes).map_err(|e| e.to_string())?;
    println!("web-demo: serving {}/ (Ctrl-C stops it)", server.url());
    loop {
        std::thread::park();
    }
}

/// The default folder for the site: `out/web-demo` under the repository's root.
pub fn default_out() -> PathBuf {
    repo_root().join("out/web-demo")
}
