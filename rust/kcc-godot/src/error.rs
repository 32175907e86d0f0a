//! What can go wrong when starting or talking to the Godot world, each with what to do about it.

use std::path::PathBuf;
use std::time::Duration;

use thiserror::Error;

/// The set-up command that installs Chromium and the pinned Godot web template.
pub const SETUP_HINT: &str = "run scripts/godot-web/setup.sh (or `just godot-web`)";

/// An error of the Godot world. Every message says what is missing or broken and what to do.
#[derive(Debug, Error)]
pub enum GodotError {
    /// No Chromium to run the web template in.
    #[error("Chromium not found ({tried}): {SETUP_HINT}, or set CHROMIUM to a Chromium binary")]
    NoChromium {
        /// What was looked for.
        tried: String,
    },
    /// The engine files (the web export template) are missing.
    #[error(
        "the Godot web template is missing: {missing} not found in {dir}: {SETUP_HINT}, or set GODOT_WEB_DIR to a folder with a Godot 4.4+ web export template (index.js and index.wasm, or godot.js and godot.wasm)"
    )]
    NoEngine {
        /// The folder searched.
        dir: PathBuf,
        /// The file that is missing.
        missing: String,
    },
    /// An engine file of the pinned template does not have the pinned checksum.
    #[error(
        "{file} has sha256 {actual}, the checksum file pins {expected} (scripts/godot-web/engine.sha256, or GODOT_WEB_SHA256): the template is damaged or not the pinned version; delete scripts/godot-web/node_modules and {SETUP_HINT}"
    )]
    Checksum {
        /// The file checked.
        file: PathBuf,
        /// Its checksum.
        actual: String,
        /// The pinned checksum.
        expected: String,
    },
    /// The engine that started is not Godot 4.4 or later.
    #[error(
        "the web template says it is \"{version}\"; the Godot world needs Godot 4.4 or later (Jolt): point GODOT_WEB_DIR at a 4.4+ template or unset it"
    )]
    EngineVersion {
        /// The version line the engine printed.
        version: String,
    },
    /// A file or socket operation failed.
    #[error("{what}: {source}")]
    Io {
        /// What was being done.
        what: String,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// The page or the oracle did not answer in time.
    #[error(
        "Godot did not answer within {:.0} s while {waiting_for}{}",
        timeout.as_secs_f64(),
        log_tail(log)
    )]
    Timeout {
        /// What was awaited.
        waiting_for: String,
        /// How long.
        timeout: Duration,
        /// The last lines Godot printed.
        log: Vec<String>,
    },
    /// The browser exited while it was needed.
    #[error("Chromium exited ({status}) while {waiting_for}{}", log_tail(log))]
    BrowserExited {
        /// How it exited.
        status: String,
        /// What was awaited.
        waiting_for: String,
        /// The last lines Godot printed.
        log: Vec<String>,
    },
    /// The oracle script failed (a GDScript error, or a bad request it refused).
    #[error("the Godot oracle failed: {message}{}", log_tail(log))]
    Oracle {
        /// What the oracle or Godot said.
        message: String,
        /// The last lines Godot printed.
        log: Vec<String>,
    },
    /// The oracle's answer could not be understood.
    #[error("the Godot oracle's answer is not what was asked for: {0}")]
    Protocol(String),
}

/// The last lines of Godot's log, for an error message.
fn log_tail(log: &[String]) -> String {
    if log.is_empty() {
        return String::new();
    }
    let tail = &log[log.len().saturating_sub(12)..];
    format!("; Godot's last output:\n  {}", tail.join("\n  "))
}

impl GodotError {
    /// An I/O error while doing `what`.
    pub fn io(what: impl Into<String>) -> impl FnOnce(std::io::Error) -> Self {
        let what = what.into();
        move |source| Self::Io { what, source }
    }
}
