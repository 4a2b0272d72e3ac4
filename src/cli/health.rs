//! `staunton health`: asks a running service for `/health` over plain HTTP/1.1 with std's
//! `TcpStream`, for container health checks in an image that has no curl and no shell.
//! Exit status 0 on a 200; [`Unhealthy`] (exit status 1, one sentence) on anything else.

use clap::Args;
use std::io::{Read, Write};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, TcpStream, ToSocketAddrs};
use std::time::Duration;

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
    /// Seconds to wait for the connection, and again for the answer.
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

/// `staunton health`: `Ok` when the service answers 200 on `/health`.
pub(super) fn health(args: &HealthArgs) -> anyhow::Result<()> {
    let target = args
        .url
        .clone()
        .unwrap_or_else(|| Target::from_listen_addr(args.addr));
    let status = ask(&target, Duration::from_secs(args.timeout))?;
    if status.code != 200 {
        return Err(Unhealthy(format!("{} answered {}", target.url(), status.line)).into());
    }
    println!("{} answered {}", target.url(), status.line);
    Ok(())
}

/// An answer's status line and its code.
struct Status {
    line: String,
    code: u16,
}

/// Connect (each address the host has, in turn), send the GET and read the status line.
fn ask(target: &Target, timeout: Duration) -> Result<Status, Unhealthy> {
    let url = target.url();
    let host = target.host.trim_start_matches('[').trim_end_matches(']');
    let addrs: Vec<SocketAddr> = (host, target.port)
        .to_socket_addrs()
        .map_err(|e| Unhealthy(format!("{url}: cannot find the host {host} ({e})")))?
        .collect();
    let mut last = None;
    let mut stream = None;
    for addr in &addrs {
        match TcpStream::connect_timeout(addr, timeout) {
            Ok(s) => {
                stream = Some(s);
                break;
            }
            Err(e) => last = Some(format!("{addr}: {e}")),
        }
    }
    let Some(mut stream) = stream else {
        let why = last.unwrap_or_else(|| "no address".to_string());
        return Err(Unhealthy(format!("{url}: no connection ({why})")));
    };
    let failed = |e: std::io::Error| match e.kind() {
        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut => {
            Unhealthy(format!("{url}: no answer within {} s", timeout.as_secs()))
        }
        _ => Unhealthy(format!("{url}: {e}")),
    };
    stream.set_read_timeout(Some(timeout)).map_err(failed)?;
    stream.set_write_timeout(Some(timeout)).map_err(failed)?;
    let request = format!(
        "GET {}/health HTTP/1.1\r\nHost: {}:{}\r\nUser-Agent: staunton-health\r\nConnection: close\r\n\r\n",
        target.prefix, target.host, target.port
    );
    stream.write_all(request.as_bytes()).map_err(failed)?;
    let line = read_status_line(&mut stream).map_err(failed)?;
    parse_status(&line).ok_or_else(|| Unhealthy(format!("{url}: not an HTTP answer: {line:?}")))
}

/// The bytes up to the first line break (at most 256 of them), as text.
fn read_status_line(stream: &mut impl Read) -> std::io::Result<String> {
    let mut line = Vec::new();
    let mut byte = [0u8; 1];
    while line.len() < 256 {
        if stream.read(&mut byte)? == 0 || byte[0] == b'\n' {
            break;
        }
        line.push(byte[0]);
    }
    Ok(String::from_utf8_lossy(&line).trim_end().to_string())
}

/// `HTTP/1.1 200 OK` → code 200 and the line after the version (`200 OK`).
fn parse_status(line: &str) -> Option<Status> {
    let (version, rest) = line.split_once(' ')?;
    if !version.starts_with("HTTP/") {
        return None;
    }
    let code = rest.get(..3)?.parse().ok()?;
    Some(Status {
        line: rest.to_string(),
        code,
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
    fn status_lines() {
        let ok = parse_status("HTTP/1.1 200 OK").expect("parses");
        assert_eq!((ok.code, ok.line.as_str()), (200, "200 OK"));
        assert_eq!(parse_status("HTTP/1.0 503").map(|s| s.code), Some(503));
        assert!(parse_status("SSH-2.0-OpenSSH").is_none());
        assert!(parse_status("HTTP/1.1 abc").is_none());
        let mut bytes: &[u8] = b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok";
        assert_eq!(
            read_status_line(&mut bytes).expect("reads"),
            "HTTP/1.1 200 OK"
        );
    }
}
