//! A running Godot world: the loopback server, headless Chromium running Godot's web template
//! on the oracle's pack, and the conversation with the oracle.
//!
//! The oracle drives the conversation (it can only call out, synchronously), so the session
//! keeps the oracle's last call open: [`GodotSession::call`] answers it with a command and waits
//! for the next call, which carries the results. Every wait has a deadline, watches the browser
//! process, and watches Godot's output for script errors, so a broken page fails fast with
//! Godot's own words, and a hung one fails after the timeout; the browser and every process
//! it started are stopped when the session is dropped.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use std::sync::mpsc::{RecvTimeoutError, SyncSender};
use std::time::{Duration, Instant};

use crate::browser::Browser;
use crate::engine::{self, Engine};
use crate::error::GodotError;
use crate::oracle::{self, PhysicsEngine};
use crate::protocol::{Command, Hello, HelloMessage, Op, Reply};
use crate::server::{Route, RpcCall, Server};

/// The page that starts Godot.
const PAGE: &str = include_str!("page.html");

/// The page's worker that carries the oracle's calls on a WebSocket.
const RPC_WORKER: &str = include_str!("rpc-worker.js");

/// Lines of Godot's output (or the page's) that mean the oracle cannot go on.
const FATAL: [&str; 6] = [
    "SCRIPT ERROR",
    "Parse Error",
    "[page] error",
    "[page] start failed",
    "[page] exit",
    "Pack version unsupported",
];

/// How long to wait for Godot.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Timeouts {
    /// From starting the browser to the oracle's first call (download and compile 37 MB of
    /// wasm, start the engine), s.
    pub startup: Duration,
    /// For any later answer (a scene build waits a few physics frames; a query takes ms).
    pub call: Duration,
}

impl Default for Timeouts {
    fn default() -> Self {
        Self {
            startup: Duration::from_secs(90),
            call: Duration::from_secs(30),
        }
    }
}

/// A Godot world that answers the oracle's protocol.
pub struct GodotSession {
    server: Server,
    browser: Browser,
    pending: Option<SyncSender<Vec<u8>>>,
    hello: Hello,
    timeouts: Timeouts,
    round_trips: u64,
    /// Time Godot spent in the port's calls so far, us (see [`Reply::physics_usec`]).
    physics_usec: u64,
    log_checked: usize,
    broken: bool,
}

impl GodotSession {
    /// Starts Chromium (`chromium`, see [`crate::browser::find`]) on Godot's web template
    /// (`engine`) running the oracle on the physics engine `physics`, and waits for the
    /// oracle's first call. Fails when the engine is not Godot 4.4 or later, or runs another
    /// physics engine than the one asked for.
    pub fn start(
        engine: &Engine,
        chromium: &Path,
        timeouts: Timeouts,
        physics: PhysicsEngine,
    ) -> Result<Self, GodotError> {
        let mut routes = HashMap::new();
        let page = Route {
            content_type: "text/html; charset=utf-8",
            body: Arc::new(PAGE.as_bytes().to_vec()),
        };
        routes.insert("/".to_string(), page.clone());
        routes.insert("/index.html".to_string(), page);
        routes.insert(
            "/rpc-worker.js".to_string(),
            Route {
                content_type: "text/javascript",
                body: Arc::new(RPC_WORKER.as_bytes().to_vec()),
            },
        );
        for file in &engine.files {
            let content_type = if file.name.ends_with(".wasm") {
                "application/wasm"
            } else {
                "text/javascript"
            };
            routes.insert(
                format!("/{}", file.name),
                Route {
                    content_type,
                    body: Arc::new(file.data.clone()),
                },
            );
        }
        routes.insert(
            "/oracle.pck".to_string(),
            Route {
                content_type: "application/octet-stream",
                body: Arc::new(oracle::pack(physics)),
            },
        );
        let server = Server::start(routes)?;
        let browser = Browser::launch(chromium, &format!("{}/", server.url()))?;
        let mut session = Self {
            server,
            browser,
            pending: None,
            hello: Hello {
                version: String::new(),
                major: 0,
                minor: 0,
                physics_engine: String::new(),
                jolt: false,
            },
            timeouts,
            round_trips: 0,
            physics_usec: 0,
            log_checked: 0,
            broken: false,
        };
        let call = session.next_call(
            "the page loads Godot's web template and the oracle starts",
            timeouts.startup,
        )?;
        session.pending = Some(call.reply);
        let hello: HelloMessage = serde_json::from_slice(&call.body).map_err(|e| {
            GodotError::Protocol(format!(
                "the first call is not a hello ({e}): {}",
                String::from_utf8_lossy(&call.body)
            ))
        })?;
        session.hello = hello.hello;
        let banner = session
            .server
            .log()
            .since(0)
            .into_iter()
            .find(|line| line.contains("Godot Engine v"));
        let version = banner
            .as_deref()
            .and_then(engine::version_of)
            .unwrap_or((session.hello.major, session.hello.minor));
        if version < (4, 4) {
            return Err(GodotError::EngineVersion {
                version: banner.unwrap_or_else(|| session.hello.version.clone()),
            });
        }
        // The setting as the running project reads it: Godot picks the server from it at start.
        let runs = match physics {
            PhysicsEngine::Jolt => session.hello.jolt,
            PhysicsEngine::GodotPhysics => session.hello.physics_engine == physics.setting(),
        };
        if !runs {
            return Err(GodotError::Oracle {
                message: format!(
                    "Godot {} runs physics engine \"{}\", not {}: the web template must have \
                     it compiled in (every official 4.4+ template has both)",
                    session.hello.version,
                    session.hello.physics_engine,
                    physics.setting()
                ),
                log: session.server.log().tail(12),
            });
        }
        Ok(session)
    }

    /// The engine that answered.
    pub fn hello(&self) -> &Hello {
        &self.hello
    }

    /// Round trips so far (one per [`call`](Self::call)).
    pub fn round_trips(&self) -> u64 {
        self.round_trips
    }

    /// Time Godot spent in the port's calls so far, by its own clock, us (see
    /// [`Reply::physics_usec`]).
    pub fn physics_usec(&self) -> u64 {
        self.physics_usec
    }

    /// The browser's process id (its process group's too).
    pub fn browser_pid(&self) -> u32 {
        self.browser.pid()
    }

    /// Everything Godot and the page printed so far.
    pub fn log(&self) -> Vec<String> {
        self.server.log().since(0)
    }

    /// Sends `ops` to the oracle and returns its reply: one result per op and the body's
    /// state after the last. After an error the session is unusable and every call fails.
    pub fn call(&mut self, ops: &[Op]) -> Result<Reply, GodotError> {
        let waiting_for = describe(ops);
        let Some(reply_to) = self.pending.take().filter(|_| !self.broken) else {
            return Err(GodotError::Oracle {
                message: format!("the session is broken by an earlier error ({waiting_for})"),
                log: Vec::new(),
            });
        };
        self.broken = true;
        let command = serde_json::to_vec(&Command { ops })
            .map_err(|e| GodotError::Protocol(format!("cannot write the command: {e}")))?;
        if reply_to.send(command).is_err() {
            return Err(self.gone(&waiting_for));
        }
        let call = self.next_call(&waiting_for, self.timeouts.call)?;
        self.pending = Some(call.reply);
        self.round_trips += 1;
        let reply: Reply = serde_json::from_slice(&call.body).map_err(|e| {
            GodotError::Protocol(format!(
                "{e} in the answer to {waiting_for}: {}",
                String::from_utf8_lossy(&call.body[..call.body.len().min(400)])
            ))
        })?;
        if let Some(message) = reply.error {
            return Err(GodotError::Oracle {
                message,
                log: self.server.log().tail(12),
            });
        }
        if reply.results.len() != ops.len() {
            return Err(GodotError::Protocol(format!(
                "{} results for {} ops ({waiting_for})",
                reply.results.len(),
                ops.len()
            )));
        }
        self.physics_usec += reply.physics_usec;
        self.broken = false;
        Ok(reply)
    }

    /// Waits for the oracle's next call, watching the browser and Godot's output.
    fn next_call(&mut self, waiting_for: &str, timeout: Duration) -> Result<RpcCall, GodotError> {
        let deadline = Instant::now() + timeout;
        loop {
            match self.server.calls().recv_timeout(Duration::from_millis(100)) {
                Ok(call) => return Ok(call),
                Err(RecvTimeoutError::Disconnected) => return Err(self.gone(waiting_for)),
                Err(RecvTimeoutError::Timeout) => {}
            }
            if let Some(status) = self.browser.exit_status() {
                let mut log = self.server.log().tail(12);
                log.extend(self.browser.errors());
                return Err(GodotError::BrowserExited {
                    status,
                    waiting_for: waiting_for.to_string(),
                    log,
                });
            }
            let new_lines = self.server.log().since(self.log_checked);
            self.log_checked += new_lines.len();
            if let Some(line) = new_lines
                .iter()
                .find(|line| FATAL.iter().any(|f| line.contains(f)))
            {
                return Err(GodotError::Oracle {
                    message: format!("{line} (while {waiting_for})"),
                    log: self.server.log().tail(16),
                });
            }
            if Instant::now() >= deadline {
                return Err(GodotError::Timeout {
                    waiting_for: waiting_for.to_string(),
                    timeout,
                    log: self.server.log().tail(12),
                });
            }
        }
    }

    /// The error for a conversation that ended: the browser's exit if it exited.
    fn gone(&mut self, waiting_for: &str) -> GodotError {
        let log = self.server.log().tail(12);
        match self.browser.exit_status() {
            Some(status) => GodotError::BrowserExited {
                status,
                waiting_for: waiting_for.to_string(),
                log,
            },
            None => GodotError::Oracle {
                message: format!("the page stopped calling while {waiting_for}"),
                log,
            },
        }
    }
}

impl Drop for GodotSession {
    fn drop(&mut self) {
        self.pending = None;
        self.browser.stop();
    }
}

/// What a command asks, for messages: `test_move` or `scene + 2 more`.
fn describe(ops: &[Op]) -> String {
    let name = |op: &Op| match op {
        Op::Scene { .. } => "building a scene",
        Op::Select { .. } => "selecting a character",
        Op::SetPosition { .. } => "set_position",
        Op::SetShapeHeight { .. } => "set_shape_height",
        Op::TestMove { .. } => "test_move",
        Op::MoveAndSlide { .. } => "move_and_slide",
        Op::ApplyFloorSnap => "apply_floor_snap",
        Op::PushBody { .. } => "push_body",
        Op::FloorBody => "floor_body",
        Op::PressFloorBody { .. } => "press_floor_body",
        Op::Overlap => "measuring overlap",
        Op::Replay { .. } => "replaying test moves",
        Op::Advance { .. } => "a physics step (platforms, rigid bodies)",
    };
    match ops {
        [] => "an empty command".to_string(),
        [one] => format!("Godot answers {}", name(one)),
        [.., last] => format!("Godot answers {} (and {} more)", name(last), ops.len() - 1),
    }
}
