//! The loopback HTTP server between Chromium and our process: it serves the page, the engine
//! and the oracle's pack, collects what Godot prints (`POST /log`), and carries the oracle's
//! synchronous calls (messages on the WebSocket `/rpc-ws`) to the session, which answers each
//! with the next command.
//!
//! One thread accepts connections on 127.0.0.1 (a free port), one thread serves each
//! connection (HTTP/1.1 with keep-alive, `TCP_NODELAY`, each reply written in one piece). A
//! message on `/rpc-ws` is handed to the session through a channel with a reply channel of its
//! own; the connection thread waits for the reply and sends it back as a message. The page's
//! worker holds that socket (`rpc-worker.js`): a synchronous `XMLHttpRequest` per call, as
//! before, cost Chromium about 3.5 ms of work a call, several times a message's.

use std::collections::HashMap;
use std::io::{Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, SyncSender, channel, sync_channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use tungstenite::protocol::Role;
use tungstenite::{Message, WebSocket};

use crate::error::GodotError;

/// Largest request the server reads, bytes (a posted log; the oracle's replies travel as
/// WebSocket messages, which `tungstenite` and the page's buffer hold to 64 MiB as well).
const MAX_REQUEST: usize = 64 << 20;

/// A file served at a path.
#[derive(Debug, Clone)]
pub struct Route {
    /// `Content-Type` header.
    pub content_type: &'static str,
    /// Body.
    pub body: Arc<Vec<u8>>,
}

/// One synchronous call of the oracle: what it sent, and where the answer goes.
pub struct RpcCall {
    /// The message (the oracle's results, JSON).
    pub body: Vec<u8>,
    /// Send the answer (the next command, JSON) here; the oracle waits for it.
    pub reply: SyncSender<Vec<u8>>,
}

/// Everything the page posted to `/log`, one entry per line, in order.
#[derive(Debug, Default)]
pub struct LogBook {
    lines: Mutex<Vec<String>>,
}

impl LogBook {
    fn push(&self, text: &str) {
        let mut lines = self.lines.lock().unwrap_or_else(|e| e.into_inner());
        lines.extend(text.lines().map(str::to_string));
    }

    /// The lines from index `from` on.
    pub fn since(&self, from: usize) -> Vec<String> {
        let lines = self.lines.lock().unwrap_or_else(|e| e.into_inner());
        lines
            .get(from..)
            .map(<[String]>::to_vec)
            .unwrap_or_default()
    }

    /// The last `count` lines.
    pub fn tail(&self, count: usize) -> Vec<String> {
        let lines = self.lines.lock().unwrap_or_else(|e| e.into_inner());
        lines[lines.len().saturating_sub(count)..].to_vec()
    }
}

/// The running server. Dropping it stops accepting connections.
pub struct Server {
    address: SocketAddr,
    stop: Arc<AtomicBool>,
    calls: Receiver<RpcCall>,
    log: Arc<LogBook>,
    acceptor: Option<JoinHandle<()>>,
}

impl Server {
    /// Starts serving `routes` (path to file) on a free port of 127.0.0.1.
    pub fn start(routes: HashMap<String, Route>) -> Result<Self, GodotError> {
        Self::start_on(0, routes)
    }

    /// Starts serving `routes` on `port` of 127.0.0.1 (0: a free one).
    pub fn start_on(port: u16, routes: HashMap<String, Route>) -> Result<Self, GodotError> {
        let listener = TcpListener::bind(("127.0.0.1", port))
            .map_err(GodotError::io(format!("binding port {port} of 127.0.0.1")))?;
        let address = listener
            .local_addr()
            .map_err(GodotError::io("reading the loopback port"))?;
        let stop = Arc::new(AtomicBool::new(false));
        let log = Arc::new(LogBook::default());
        let (calls_in, calls) = channel();
        let routes = Arc::new(routes);
        let acceptor = {
            let stop = Arc::clone(&stop);
            let log = Arc::clone(&log);
            std::thread::Builder::new()
                .name("kcc-godot-accept".into())
                .spawn(move || accept(listener, &stop, &routes, &calls_in, &log))
                .map_err(GodotError::io("starting the server thread"))?
        };
        Ok(Self {
            address,
            stop,
            calls,
            log,
            acceptor: Some(acceptor),
        })
    }

    /// The page's address, `http://127.0.0.1:<port>`.
    pub fn url(&self) -> String {
        format!("http://{}", self.address)
    }

    /// The oracle's calls, in the order they arrive.
    pub fn calls(&self) -> &Receiver<RpcCall> {
        &self.calls
    }

    /// What Godot printed.
    pub fn log(&self) -> &LogBook {
        &self.log
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wake the acceptor with a connection of our own.
        let _ = TcpStream::connect(self.address);
        if let Some(acceptor) = self.acceptor.take() {
            let _ = acceptor.join();
        }
    }
}

fn accept(
    listener: TcpListener,
    stop: &AtomicBool,
    routes: &Arc<HashMap<String, Route>>,
    calls: &Sender<RpcCall>,
    log: &Arc<LogBook>,
) {
    for stream in listener.incoming() {
        if stop.load(Ordering::SeqCst) {
            break;
        }
        let Ok(stream) = stream else { continue };
        let routes = Arc::clone(routes);
        let calls = calls.clone();
        let log = Arc::clone(log);
        let _ = std::thread::Builder::new()
            .name("kcc-godot-conn".into())
            .spawn(move || {
                let _ = serve(stream, &routes, &calls, &log);
            });
    }
}

/// A parsed request.
struct Request {
    method: String,
    path: String,
    body: Vec<u8>,
    close: bool,
    /// `Sec-WebSocket-Key` of a WebSocket opening, as sent.
    socket_key: Option<String>,
}

/// Serves one connection until the peer closes it or a request fails.
fn serve(
    mut stream: TcpStream,
    routes: &HashMap<String, Route>,
    calls: &Sender<RpcCall>,
    log: &LogBook,
) -> std::io::Result<()> {
    stream.set_nodelay(true)?;
    let mut buffer = Vec::new();
    while let Some(request) = read_request(&mut stream, &mut buffer)? {
        let close = request.close;
        match (request.method.as_str(), request.path.as_str()) {
            ("GET", "/rpc-ws") => {
                let Some(key) = request.socket_key else {
                    respond(&mut stream, "400 Bad Request", "text/plain", b"", true)?;
                    break;
                };
                return serve_calls(stream, &key, calls);
            }
            ("POST", "/log") => {
                log.push(&String::from_utf8_lossy(&request.body));
                respond(&mut stream, "204 No Content", "text/plain", b"", close)?;
            }
            ("GET", path) => match routes.get(path) {
                Some(route) => respond(
                    &mut stream,
                    "200 OK",
                    route.content_type,
                    &route.body,
                    close,
                )?,
                None => respond(
                    &mut stream,
                    "404 Not Found",
                    "text/plain",
                    b"not found",
                    close,
                )?,
            },
            _ => respond(
                &mut stream,
                "405 Method Not Allowed",
                "text/plain",
                b"",
                close,
            )?,
        }
        if close {
            break;
        }
    }
    let _ = stream.shutdown(Shutdown::Both);
    Ok(())
}

/// Opens the WebSocket asked for with `key` on `stream` and carries the oracle's calls on it:
/// each message to the session, each answer back, until either side goes.
fn serve_calls(mut stream: TcpStream, key: &str, calls: &Sender<RpcCall>) -> std::io::Result<()> {
    let accept = tungstenite::handshake::derive_accept_key(key.as_bytes());
    stream.write_all(
        format!(
            "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
             Sec-WebSocket-Accept: {accept}\r\n\r\n"
        )
        .as_bytes(),
    )?;
    let mut socket = WebSocket::from_raw_socket(stream, Role::Server, None);
    loop {
        let body = match socket.read() {
            Ok(Message::Text(text)) => text.as_bytes().to_vec(),
            Ok(Message::Binary(data)) => data.to_vec(),
            Ok(Message::Close(_)) | Err(_) => break,
            Ok(_) => continue,
        };
        let (reply, answer) = sync_channel(1);
        let answer = calls
            .send(RpcCall { body, reply })
            .ok()
            .and_then(|()| answer.recv().ok());
        // No answer: the session is gone, and closing tells the page.
        let Some(answer) = answer else { break };
        let text = String::from_utf8(answer)
            .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))?;
        if socket.send(Message::text(text)).is_err() {
            break;
        }
    }
    let _ = socket.close(None);
    let _ = socket.flush();
    Ok(())
}

/// Reads the next request from `stream`; `None` when the peer closed the connection.
/// `buffer` keeps bytes that arrived after the request.
fn read_request(stream: &mut TcpStream, buffer: &mut Vec<u8>) -> std::io::Result<Option<Request>> {
    let invalid =
        |what: &str| std::io::Error::new(std::io::ErrorKind::InvalidData, what.to_string());
    let mut chunk = [0u8; 64 * 1024];
    loop {
        let mut headers = [httparse::EMPTY_HEADER; 64];
        let mut parsed = httparse::Request::new(&mut headers);
        match parsed.parse(buffer) {
            Ok(httparse::Status::Complete(head)) => {
                let raw_header = |name: &str| {
                    parsed
                        .headers
                        .iter()
                        .find(|h| h.name.eq_ignore_ascii_case(name))
                        .map(|h| String::from_utf8_lossy(h.value).trim().to_string())
                };
                let header = |name: &str| raw_header(name).map(|v| v.to_ascii_lowercase());
                let length: usize = header("content-length")
                    .map(|v| v.parse().map_err(|_| invalid("bad Content-Length")))
                    .transpose()?
                    .unwrap_or(0);
                if length > MAX_REQUEST {
                    return Err(invalid("request too large"));
                }
                let close = header("connection").is_some_and(|v| v == "close");
                // The key is base64: its case matters.
                let socket_key = raw_header("sec-websocket-key");
                let method = parsed.method.unwrap_or("").to_string();
                let target = parsed.path.unwrap_or("/");
                let path = target.split('?').next().unwrap_or("/").to_string();
                while buffer.len() < head + length {
                    let read = stream.read(&mut chunk)?;
                    if read == 0 {
                        return Ok(None);
                    }
                    buffer.extend_from_slice(&chunk[..read]);
                }
                let body = buffer[head..head + length].to_vec();
                buffer.drain(..head + length);
                return Ok(Some(Request {
                    method,
                    path,
                    body,
                    close,
                    socket_key,
                }));
            }
            Ok(httparse::Status::Partial) => {
                if buffer.len() > MAX_REQUEST {
                    return Err(invalid("request head too large"));
                }
                let read = stream.read(&mut chunk)?;
                if read == 0 {
                    return Ok(None);
                }
                buffer.extend_from_slice(&chunk[..read]);
            }
            Err(_) => return Err(invalid("malformed request")),
        }
    }
}

/// Writes a response. Small bodies go out with the head in one write (one packet, no delay).
fn respond(
    stream: &mut TcpStream,
    status: &str,
    content_type: &str,
    body: &[u8],
    close: bool,
) -> std::io::Result<()> {
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\
         Cache-Control: no-store\r\nCross-Origin-Opener-Policy: same-origin\r\n\
         Cross-Origin-Embedder-Policy: require-corp\r\nConnection: {}\r\n\r\n",
        body.len(),
        if close { "close" } else { "keep-alive" }
    );
    if body.len() <= 64 * 1024 {
        let mut message = Vec::with_capacity(head.len() + body.len());
        message.extend_from_slice(head.as_bytes());
        message.extend_from_slice(body);
        stream.write_all(&message)
    } else {
        stream.write_all(head.as_bytes())?;
        stream.write_all(body)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::BufRead;

    fn routes() -> HashMap<String, Route> {
        let mut routes = HashMap::new();
        routes.insert(
            "/hello.txt".to_string(),
            Route {
                content_type: "text/plain",
                body: Arc::new(b"hello".to_vec()),
            },
        );
        routes
    }

    /// Sends one request on `stream` and reads the status line and body of the answer.
    fn exchange(stream: &mut TcpStream, request: &str) -> (String, Vec<u8>) {
        stream.write_all(request.as_bytes()).unwrap();
        let mut reader = std::io::BufReader::new(stream.try_clone().unwrap());
        let mut status = String::new();
        reader.read_line(&mut status).unwrap();
        let mut length = 0;
        loop {
            let mut line = String::new();
            reader.read_line(&mut line).unwrap();
            if line == "\r\n" {
                break;
            }
            if let Some(value) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                length = value.trim().parse().unwrap();
            }
        }
        let mut body = vec![0; length];
        reader.read_exact(&mut body).unwrap();
        (status.trim().to_string(), body)
    }

    #[test]
    fn files_and_logs_travel_on_one_kept_alive_connection() {
        let server = Server::start(routes()).unwrap();
        let mut stream = TcpStream::connect(server.address).unwrap();

        let (status, body) = exchange(
            &mut stream,
            "GET /hello.txt?x=1 HTTP/1.1\r\nHost: a\r\n\r\n",
        );
        assert_eq!(status, "HTTP/1.1 200 OK");
        assert_eq!(body, b"hello");

        let (status, _) = exchange(&mut stream, "GET /nothing HTTP/1.1\r\n\r\n");
        assert_eq!(status, "HTTP/1.1 404 Not Found");

        let (status, _) = exchange(
            &mut stream,
            "POST /log HTTP/1.1\r\nContent-Length: 12\r\n\r\nline 1\nline2",
        );
        assert_eq!(status, "HTTP/1.1 204 No Content");
        assert_eq!(server.log().since(0), vec!["line 1", "line2"]);
    }

    /// Opens the oracle's WebSocket on `server` as the page's worker does.
    fn open_calls(server: &Server) -> WebSocket<TcpStream> {
        let stream = TcpStream::connect(server.address).unwrap();
        let url = format!("ws://{}/rpc-ws", server.address);
        tungstenite::client(url, stream).unwrap().0
    }

    #[test]
    fn each_message_on_the_socket_is_a_call_and_its_answer_comes_back_as_one() {
        let server = Server::start(routes()).unwrap();
        let mut socket = open_calls(&server);
        for asked in ["hello", "again"] {
            socket.send(Message::text(asked)).unwrap();
            let call = server.calls().recv().unwrap();
            assert_eq!(call.body, asked.as_bytes());
            call.reply
                .send(format!("answer to {asked}").into_bytes())
                .unwrap();
            let answer = socket.read().unwrap();
            assert_eq!(
                answer.into_text().unwrap().as_str(),
                format!("answer to {asked}")
            );
        }
    }

    #[test]
    fn a_call_whose_session_is_gone_closes_the_socket() {
        let server = Server::start(routes()).unwrap();
        let mut socket = open_calls(&server);
        socket.send(Message::text("{}")).unwrap();
        // Take the call and drop its reply channel: no answer will come.
        drop(server.calls().recv().unwrap());
        let answer = socket.read();
        assert!(
            matches!(answer, Ok(Message::Close(_)) | Err(_)),
            "{answer:?}"
        );
    }

    #[test]
    fn a_socket_opening_without_its_key_is_refused() {
        let server = Server::start(routes()).unwrap();
        let mut stream = TcpStream::connect(server.address).unwrap();
        let (status, _) = exchange(
            &mut stream,
            "GET /rpc-ws HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n",
        );
        assert_eq!(status, "HTTP/1.1 400 Bad Request");
    }
}
