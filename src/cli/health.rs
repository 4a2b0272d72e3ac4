//! `staunton health`: asks a running service for `/health` over plain HTTP/1.1 with std's
//! `TcpStream`, for container health checks in an image that has no curl and no shell.
//! Exit status 0 on a 200 that is Staunton's (its `staunton-version` header and `ok`), all
//! within `--timeout`; [`Unhealthy`] (exit status 1, one sentence) on anything else.

use clap::Args;
use std::io::{Read, Write};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, TcpStream, ToSocketAddrs};
use std::time::{Duration, Instant};

#[derive(Debug, Args)]
pub(super) struct HealthArgs {
    /// The service to ask, as http://HOST:PORT (a path after it is a prefix put before
    /// /health). Without it, the address `serve` listens on (--addr).
    #[arg(long, value_parser = parse_url)]
    url: Option<Target>,
    /// The address `serve` listens on, read as `serve` reads it; 0.0.0.0 and [::] are
    /// asked on 127.0.0.1 and [::1].
    #[arg(long, env = "STAUNTON_ADDR", default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
    /// Seconds to wait for everything: the connection, the request and the whole answer.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=60))]
    timeout: u64,
}

/// `staunton health` found the service missing or unwell: exit status 1, with this
/// sentence on stderr.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Unhealthy(String);

/// Where to send the request: the host as written (for `Host:`), its port, the path
/// prefix (empty or starting with `/`, no trailing `/`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Target {
    host: String,
    port: u16,
    prefix: String,
}

impl Target {
    /// The address `serve` listens on, as a place to connect to: a wildcard address
    /// becomes loopback of the same family.
    fn from_listen_addr(addr: SocketAddr) -> Self {
        let ip = match addr.ip() {
            IpAddr::V4(ip) if ip.is_unspecified() => IpAddr::V4(Ipv4Addr::LOCALHOST),
            IpAddr::V6(ip) if ip.is_unspecified() => IpAddr::V6(Ipv6Addr::LOCALHOST),
            ip => ip,
        };
        let host = match ip {
            IpAddr::V4(ip) => ip.to_string(),
            IpAddr::V6(ip) => format!("[{ip}]"),
        };
        Self {
            host,
            port: addr.port(),
            prefix: String::new(),
        }
    }

    fn url(&self) -> String {
        format!("http://{}:{}{}/health", self.host, self.port, self.prefix)
    }
}

/// Parse `--url`: `http://HOST[:PORT][/PREFIX]`, or the same without `http://`.
fn parse_url(text: &str) -> Result<Target, String> {
    let rest = match text.split_once("://") {
        Some(("http", rest)) => rest,
        Some((scheme, _)) => {
            return Err(format!(
                "{scheme}:// is not asked: only http:// (ask the service itself, not a proxy with TLS)"
            ));
        }
        None => text,
    };
    let (authority, path) = match rest.find('/') {
        Some(at) => rest.split_at(at),
        None => (rest, ""),
    };
    let (host, port) = match authority.rsplit_once(':') {
        // `[::1]` alone has colons inside the brackets but no port.
        Some((host, port)) if !port.ends_with(']') => {
            let port = port
                .parse::<u16>()
                .map_err(|_| format!("{port:?} is not a port number"))?;
            (host, port)
        }
        _ => (authority, 80),
    };
    if host.is_empty() {
        return Err("the URL names no host".to_string());
    }
    Ok(Target {
        host: host.to_string(),
        port,
        prefix: path.trim_end_matches('/').to_string(),
    })
}

/// `staunton health`: `Ok` when Staunton answers 200 on `/health`.
pub(super) fn health(args: &HealthArgs) -> anyhow::Result<()> {
    let target = args
        .url
        .clone()
        .unwrap_or_else(|| Target::from_listen_addr(args.addr));
    let url = target.url();
    let answer = ask(&target, Duration::from_secs(args.timeout))?;
    if answer.code != 200 {
        return Err(Unhealthy(format!("{url} answered {}", answer.line)).into());
    }
    if let Some(why) = answer.not_staunton() {
        let line = &answer.line;
        let sentence = format!(
            "{url} answered {line}, but not as Staunton does ({why}): another server listens there"
        );
        return Err(Unhealthy(sentence).into());
    }
    println!("{url} answered {}", answer.line);
    Ok(())
}

/// The most of an answer read: `/health` answers a few headers and `ok`.
const MOST_BYTES: usize = 4096;

/// An answer: its status line (after the version) and code, its headers (names in lower
/// case) and its body.
struct Answer {
    line: String,
    code: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Answer {
    /// Why the answer is not Staunton's `/health` (its header and `ok`), if it is not.
    fn not_staunton(&self) -> Option<String> {
        let header = crate::http::HEALTH_HEADER;
        if !self.headers.iter().any(|(name, _)| name == header) {
            return Some(format!("no {header} header"));
        }
        if self.body.trim_ascii() != b"ok" {
            let body = String::from_utf8_lossy(&self.body[..self.body.len().min(40)]);
            return Some(format!("the body is {body:?}, not \"ok\""));
        }
        None
    }
}

/// The time `--timeout` gives, over everything: finding the host aside, connecting,
/// sending and each read get what is left of it.
struct Clock<'a> {
    url: &'a str,
    end: Instant,
    seconds: u64,
}

impl Clock<'_> {
    /// The time left, or the sentence for none (`received`: whether part of an answer came).
    fn left(&self, received: bool) -> Result<Duration, Unhealthy> {
        match self.end.saturating_duration_since(Instant::now()) {
            left if left.is_zero() => Err(self.late(received)),
            left => Ok(left),
        }
    }

    fn late(&self, received: bool) -> Unhealthy {
        let (url, seconds) = (self.url, self.seconds);
        match received {
            false => Unhealthy(format!("{url}: no answer within {seconds} s")),
            true => Unhealthy(format!(
                "{url}: the answer was not complete within {seconds} s"
            )),
        }
    }

    /// An I/O error as a sentence: a timeout is the deadline's.
    fn failed(&self, e: std::io::Error, received: bool) -> Unhealthy {
        match e.kind() {
            std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut => self.late(received),
            _ => Unhealthy(format!("{}: {e}", self.url)),
        }
    }
}

/// Connect (each address the host has, in turn), send the GET and read the answer, all
/// within `timeout`.
fn ask(target: &Target, timeout: Duration) -> Result<Answer, Unhealthy> {
    let url = target.url();
    let clock = Clock {
        url: &url,
        end: Instant::now() + timeout,
        seconds: timeout.as_secs(),
    };
    let mut stream = connect(target, &clock)?;
    let request = format!(
        "GET {}/health HTTP/1.1\r\nHost: {}:{}\r\nUser-Agent: staunton-health\r\nConnection: close\r\n\r\n",
        target.prefix, target.host, target.port
    );
    let sent = stream
        .set_write_timeout(Some(clock.left(false)?))
        .and_then(|()| stream.write_all(request.as_bytes()));
    sent.map_err(|e| clock.failed(e, false))?;
    let bytes = read_answer(&mut stream, &clock)?;
    parse_answer(&bytes).ok_or_else(|| {
        let line = first_line(&bytes);
        Unhealthy(format!("{url}: not an HTTP answer: {line:?}"))
    })
}

/// A connection to the first of the host's addresses that takes one.
fn connect(target: &Target, clock: &Clock) -> Result<TcpStream, Unhealthy> {
    let url = clock.url;
    let host = target.host.trim_start_matches('[').trim_end_matches(']');
    let addrs: Vec<SocketAddr> = (host, target.port)
        .to_socket_addrs()
        .map_err(|e| Unhealthy(format!("{url}: cannot find the host {host} ({e})")))?
        .collect();
    let mut last = None;
    for addr in &addrs {
        let Ok(left) = clock.left(false) else { break };
        match TcpStream::connect_timeout(addr, left) {
            Ok(stream) => return Ok(stream),
            Err(e) => last = Some(format!("{addr}: {e}")),
        }
    }
    let why = match last {
        Some(why) => why,
        None if addrs.is_empty() => "no address".to_string(),
        None => format!("none within {} s", clock.seconds),
    };
    Err(Unhealthy(format!("{url}: no connection ({why})")))
}

/// The answer's bytes, until the server closes, the answer is complete (its body as long
/// as `content-length` says, or a first line that is not HTTP) or [`MOST_BYTES`] came.
fn read_answer(stream: &mut TcpStream, clock: &Clock) -> Result<Vec<u8>, Unhealthy> {
    let mut bytes = Vec::new();
    let mut chunk = [0u8; 1024];
    while bytes.len() < MOST_BYTES && !complete(&bytes) {
        let received = !bytes.is_empty();
        let left = clock.left(received)?;
        stream
            .set_read_timeout(Some(left))
            .map_err(|e| clock.failed(e, received))?;
        match stream.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => bytes.extend_from_slice(&chunk[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(clock.failed(e, received)),
        }
    }
    Ok(bytes)
}

/// Whether `bytes` hold a whole answer: the headers and as much body as they announce,
/// or a first line that is not HTTP.
fn complete(bytes: &[u8]) -> bool {
    if bytes.contains(&b'\n') && !bytes.starts_with(b"HTTP/") {
        return true;
    }
    match parse_answer(bytes) {
        Some(answer) => {
            let length = answer.headers.iter().find(|(n, _)| n == "content-length");
            length
                .and_then(|(_, v)| v.parse::<usize>().ok())
                .is_some_and(|length| answer.body.len() >= length)
        }
        None => false,
    }
}

/// The first line of `bytes` (at most 256 of them), as text.
fn first_line(bytes: &[u8]) -> String {
    let line = bytes.split(|b| *b == b'\n').next().unwrap_or_default();
    let line = &line[..line.len().min(256)];
    String::from_utf8_lossy(line).trim_end().to_string()
}

/// An answer's status, headers and body; `None` when it is not HTTP or its headers have
/// not ended.
fn parse_answer(bytes: &[u8]) -> Option<Answer> {
    let end = bytes.windows(4).position(|w| w == b"\r\n\r\n")?;
    let head = String::from_utf8_lossy(&bytes[..end]);
    let mut lines = head.split("\r\n");
    let (version, rest) = lines.next()?.split_once(' ')?;
    if !version.starts_with("HTTP/") {
        return None;
    }
    let code = rest.get(..3)?.parse().ok()?;
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(name, value)| (name.trim().to_ascii_lowercase(), value.trim().to_string()))
        .collect();
    Some(Answer {
        line: rest.to_string(),
        code,
        headers,
        body: bytes[end + 4..].to_vec(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn target(host: &str, port: u16, prefix: &str) -> Target {
        Target {
            host: host.to_string(),
            port,
            prefix: prefix.to_string(),
        }
    }

    #[test]
    fn urls_with_and_without_scheme_port_and_prefix() {
        let cases = [
            ("http://127.0.0.1:8080", target("127.0.0.1", 8080, "")),
            ("127.0.0.1:9", target("127.0.0.1", 9, "")),
            ("http://example.org/", target("example.org", 80, "")),
            ("http://h:81/staunton/", target("h", 81, "/staunton")),
            ("http://[::1]:8080", target("[::1]", 8080, "")),
            ("http://[::1]", target("[::1]", 80, "")),
        ];
        for (text, want) in cases {
            assert_eq!(parse_url(text), Ok(want), "{text}");
        }
        assert_eq!(
            target("h", 81, "/staunton").url(),
            "http://h:81/staunton/health"
        );
    }

    #[test]
    fn bad_urls_are_refused_with_the_reason() {
        assert!(parse_url("https://h").unwrap_err().contains("only http://"));
        assert!(parse_url("http://h:x").unwrap_err().contains("port"));
        assert!(parse_url("http://:80").unwrap_err().contains("no host"));
    }

    #[test]
    fn a_wildcard_listen_address_is_asked_on_loopback() {
        let ask = |addr: &str| Target::from_listen_addr(addr.parse().expect("addr")).url();
        assert_eq!(ask("0.0.0.0:8080"), "http://127.0.0.1:8080/health");
        assert_eq!(ask("[::]:8080"), "http://[::1]:8080/health");
        assert_eq!(ask("10.1.2.3:80"), "http://10.1.2.3:80/health");
    }

    #[test]
    fn answers_are_parsed_and_known_complete() {
        let ok = b"HTTP/1.1 200 OK\r\nContent-Length: 3\r\nStaunton-Version: 1\r\n\r\nok\n";
        let answer = parse_answer(ok).expect("parses");
        assert_eq!((answer.code, answer.line.as_str()), (200, "200 OK"));
        assert!(answer.not_staunton().is_none());
        assert!(complete(ok));
        assert!(!complete(&ok[..ok.len() - 1]));
        assert!(!complete(b"HTTP/1.1 200 OK\r\n"));
        let other = parse_answer(b"HTTP/1.1 200 OK\r\n\r\nok\n").expect("parses");
        let why = other.not_staunton().expect("not Staunton");
        assert!(why.contains("no staunton-version header"), "{why}");
        assert_eq!(
            parse_answer(b"HTTP/1.0 503\r\n\r\n").map(|a| a.code),
            Some(503)
        );
        assert!(parse_answer(b"SSH-2.0-OpenSSH\r\n\r\n").is_none());
        assert!(complete(b"SSH-2.0-OpenSSH\r\n"));
        assert!(parse_answer(b"HTTP/1.1 abc\r\n\r\n").is_none());
        assert_eq!(first_line(b"SSH-2.0-OpenSSH\r\nmore"), "SSH-2.0-OpenSSH");
    }
}
