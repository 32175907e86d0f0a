//! Headless Chromium, started once per run and stopped by its own process group.
//!
//! Chromium runs in a process group of its own (so every helper process it starts can be
//! stopped together) with a throw-away profile folder; it is stopped when the [`Browser`] is
//! dropped (SIGTERM to the group, SIGKILL after 3 s), and also if our process dies first
//! (`PR_SET_PDEATHSIG` on the browser process). Its flags keep it off the network (this
//! machine's network is closed) and keep timers running in a page nobody looks at.

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;

use crate::error::GodotError;

/// Environment variable naming the Chromium binary.
pub const CHROMIUM_VAR: &str = "CHROMIUM";

/// Names tried on `PATH` when `CHROMIUM` is not set.
const NAMES: [&str; 4] = [
    "chromium",
    "chromium-browser",
    "google-chrome",
    "google-chrome-stable",
];

/// Flags for a quiet headless browser that never goes online.
const FLAGS: [&str; 18] = [
    "--headless=new",
    "--disable-gpu",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-dev-shm-usage",
    "--disable-extensions",
    "--disable-default-apps",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
    "--mute-audio",
    "--disable-background-timer-throttling",
    "--disable-renderer-backgrounding",
    "--disable-backgrounding-occluded-windows",
    "--autoplay-policy=no-user-gesture-required",
    "--window-size=320,240",
    "--disable-features=Translate,MediaRouter,OptimizationHints",
];

/// A running headless Chromium.
pub struct Browser {
    child: Child,
    profile: PathBuf,
    stopped: bool,
}

/// The Chromium binary: `CHROMIUM` if set (it must exist), else the first of `chromium`,
/// `chromium-browser`, `google-chrome`, `google-chrome-stable` on `PATH`.
pub fn find() -> Result<PathBuf, GodotError> {
    if let Some(named) = std::env::var_os(CHROMIUM_VAR).filter(|v| !v.is_empty()) {
        let path = PathBuf::from(&named);
        return if path.is_file() {
            Ok(path)
        } else {
            Err(GodotError::NoChromium {
                tried: format!("{CHROMIUM_VAR}={} is not a file", path.display()),
            })
        };
    }
    let dirs: Vec<PathBuf> = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect())
        .unwrap_or_default();
    NAMES
        .iter()
        .flat_map(|name| dirs.iter().map(move |dir| dir.join(name)))
        .find(|path| path.is_file())
        .ok_or_else(|| GodotError::NoChromium {
            tried: format!("{} on PATH", NAMES.join(", ")),
        })
}

impl Browser {
    /// Starts `binary` headless on `url`.
    pub fn launch(binary: &Path, url: &str) -> Result<Self, GodotError> {
        static COUNT: AtomicU32 = AtomicU32::new(0);
        let profile = std::env::temp_dir().join(format!(
            "kcc-godot-chromium-{}-{}",
            std::process::id(),
            COUNT.fetch_add(1, Ordering::SeqCst)
        ));
        std::fs::create_dir_all(&profile).map_err(GodotError::io(format!(
            "creating the browser profile {}",
            profile.display()
        )))?;
        let errors = std::fs::File::create(profile.join("chromium.log"))
            .map_err(GodotError::io("creating the browser log"))?;
        let mut command = Command::new(binary);
        command
            .args(FLAGS)
            .arg(format!("--user-data-dir={}", profile.display()));
        if nix::unistd::geteuid().is_root() {
            // Chromium refuses to run as root with its sandbox on.
            command.arg("--no-sandbox");
        }
        command
            .arg(url)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(errors)
            .process_group(0);
        // SAFETY: the closure only calls prctl(2), which is async-signal-safe, between fork and
        // exec; it allocates nothing and touches no lock.
        unsafe {
            command.pre_exec(|| {
                nix::sys::prctl::set_pdeathsig(Signal::SIGKILL).map_err(std::io::Error::from)
            });
        }
        let child = command.spawn().map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound | std::io::ErrorKind::PermissionDenied => {
                GodotError::NoChromium {
                    tried: format!("{}: {e}", binary.display()),
                }
            }
            _ => GodotError::Io {
                what: format!("starting {}", binary.display()),
                source: e,
            },
        })?;
        Ok(Self {
            child,
            profile,
            stopped: false,
        })
    }

    /// The browser's process id (also its process group's).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// How the browser exited, if it has.
    pub fn exit_status(&mut self) -> Option<String> {
        match self.child.try_wait() {
            Ok(Some(status)) => Some(status.to_string()),
            Ok(None) => None,
            Err(e) => Some(format!("unknown: {e}")),
        }
    }

    /// The last lines Chromium wrote to its standard error.
    pub fn errors(&self) -> Vec<String> {
        let text = std::fs::read_to_string(self.profile.join("chromium.log")).unwrap_or_default();
        let lines: Vec<String> = text.lines().map(str::to_string).collect();
        lines[lines.len().saturating_sub(8)..].to_vec()
    }

    /// Stops the browser and every process it started: SIGTERM to its process group, then
    /// SIGKILL if it is still there after 3 s. Removes the profile folder.
    pub fn stop(&mut self) {
        if self.stopped {
            return;
        }
        self.stopped = true;
        let group = Pid::from_raw(self.child.id() as i32);
        let _ = killpg(group, Signal::SIGTERM);
        let deadline = Instant::now() + Duration::from_secs(3);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        // Helpers of the group may outlive the browser process: kill what is left, and wait
        // (up to 2 s) until the last of them is gone.
        let _ = killpg(group, Signal::SIGKILL);
        let _ = self.child.kill();
        let _ = self.child.wait();
        let deadline = Instant::now() + Duration::from_secs(2);
        while killpg(group, None).is_ok() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        self.stop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chromium_variable_naming_nothing_is_a_clear_error() {
        // The only test here that touches CHROMIUM; others read it but never set it.
        let message = {
            // SAFETY (edition 2024 marks set_var unsafe): no other test of this crate's unit
            // tests reads or writes CHROMIUM concurrently.
            unsafe { std::env::set_var(CHROMIUM_VAR, "/nonexistent/chromium") };
            let result = find();
            unsafe { std::env::remove_var(CHROMIUM_VAR) };
            result.unwrap_err().to_string()
        };
        assert!(message.contains("/nonexistent/chromium"), "{message}");
        assert!(message.contains("scripts/godot-web/setup.sh"), "{message}");
    }

    #[test]
    fn stopping_the_browser_stops_its_whole_process_group() {
        use std::os::unix::fs::PermissionsExt;
        // A stand-in browser: ignores its flags, starts a helper and waits, as Chromium does.
        let dir = std::env::temp_dir().join(format!("kcc-godot-fake-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let fake = dir.join("fake-chromium");
        std::fs::write(&fake, "#!/bin/sh\nsleep 60 &\nsleep 60\n").unwrap();
        std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();

        let mut browser = Browser::launch(&fake, "http://127.0.0.1:9/").unwrap();
        let group = Pid::from_raw(browser.pid() as i32);
        std::thread::sleep(Duration::from_millis(200));
        assert!(browser.exit_status().is_none(), "the stand-in is running");
        assert!(killpg(group, None).is_ok(), "its group exists");

        browser.stop();
        assert!(browser.exit_status().is_some());
        // No process of the group is left (the helper `sleep` included), once the orphaned
        // helper has been reaped by init.
        let deadline = Instant::now() + Duration::from_secs(5);
        while killpg(group, None).is_ok() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
        assert_eq!(killpg(group, None), Err(nix::errno::Errno::ESRCH));
        assert!(!browser.profile.exists(), "the profile folder is removed");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
