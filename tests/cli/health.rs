//! `staunton health` against a real service (started with `staunton serve`), against nothing,
//! and against listeners that answer 503, not HTTP, a 200 that is not Staunton's, or that
//! trickle their answer past the deadline: exit status 0 only on a 200 from Staunton.

use std::io::{Read, Write};
use std::net::TcpListener;
use std::process::{Child, Command, Output};

fn staunton() -> Command {
    Command::new(env!("CARGO_BIN_EXE_staunton"))
}

/// A loopback address no one listens on now.
fn free_addr() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").expect("port");
    listener.local_addr().expect("addr").to_string()
}

/// `staunton health` with these arguments, STAUNTON_ADDR set to `env_addr` (or unset).
fn health(args: &[&str], env_addr: Option<&str>) -> Output {
    let mut command = staunton();
    command.arg("health").args(args);
    match env_addr {
        Some(addr) => command.env("STAUNTON_ADDR", addr),
        None => command.env_remove("STAUNTON_ADDR"),
    };
    command.output().expect("runs")
}

/// A service on `addr`, waited for with `staunton health` itself (up to 10 s).
fn serve(addr: &str) -> Child {
    let child = staunton()
        .args(["serve", "--addr", addr])
        .env("RUST_LOG", "warn")
        .spawn()
        .expect("starts");
    let url = format!("http://{addr}");
    for _ in 0..200 {
        if health(&["--url", &url], None).status.success() {
            return child;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    stop(child);
    panic!("the service on {addr} never answered 200 on /health");
}

fn stop(mut child: Child) {
    let _ = child.kill();
    let _ = child.wait();
}

/// One listener that reads a request and writes `answer`, on a thread; its address.
fn answer_once(answer: &'static [u8]) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").expect("port");
    let addr = listener.local_addr().expect("addr").to_string();
    std::thread::spawn(move || {
        if let Ok((mut stream, _)) = listener.accept() {
            let mut request = [0u8; 1024];
            let _ = stream.read(&mut request);
            let _ = stream.write_all(answer);
        }
    });
    addr
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The run ended with this exit status and said `needle` on stderr.
fn assert_failed(out: &Output, code: i32, needle: &str) {
    assert_eq!(out.status.code(), Some(code), "{out:?}");
    assert!(text(&out.stderr).contains(needle), "{needle:?}: {out:?}");
}

#[test]
fn a_running_service_is_healthy_by_url_by_addr_and_by_staunton_addr() {
    let addr = free_addr();
    let service = serve(&addr);
    let by_url = health(&["--url", &format!("http://{addr}/")], None);
    let by_flag = health(&["--addr", &addr], None);
    let by_env = health(&[], Some(&addr));
    stop(service);
    for out in [&by_url, &by_flag, &by_env] {
        assert!(out.status.success(), "{out:?}");
        assert_eq!(
            text(&out.stdout).trim(),
            format!("http://{addr}/health answered 200 OK")
        );
    }
}

#[test]
fn nothing_listening_is_exit_1_with_one_sentence_naming_the_url() {
    let addr = free_addr();
    let out = health(&[], Some(&addr));
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let err = text(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with(&format!(
            "staunton: unhealthy: http://{addr}/health: no connection"
        )),
        "{err}"
    );
}

#[test]
fn a_503_or_an_answer_that_is_not_http_is_exit_1() {
    let addr = answer_once(b"HTTP/1.1 503 Service Unavailable\r\ncontent-length: 0\r\n\r\n");
    let out = health(&["--url", &addr], None);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert_eq!(
        text(&out.stderr).trim(),
        format!("staunton: unhealthy: http://{addr}/health answered 503 Service Unavailable")
    );
    let addr = answer_once(b"SSH-2.0-OpenSSH_9.2\r\n");
    let out = health(&["--url", &addr], None);
    assert_failed(&out, 1, "not an HTTP answer: \"SSH-2.0-OpenSSH_9.2\"");
}

#[test]
fn a_listener_that_never_answers_is_exit_1_after_the_timeout() {
    let listener = TcpListener::bind("127.0.0.1:0").expect("port");
    let addr = listener.local_addr().expect("addr").to_string();
    // The connection is accepted by the kernel (the backlog) and never answered.
    let out = health(&["--url", &addr, "--timeout", "1"], None);
    drop(listener);
    assert_failed(&out, 1, "no answer within 1 s");
}

#[test]
fn a_url_with_another_scheme_is_a_usage_error() {
    let out = health(&["--url", "https://127.0.0.1:1"], None);
    assert_failed(&out, 2, "only http://");
}

#[test]
fn a_200_from_another_server_is_exit_1_not_staunton() {
    let addr = answer_once(b"HTTP/1.1 200 OK\r\ncontent-length: 3\r\n\r\nok\n");
    let out = health(&["--url", &addr], None);
    assert_eq!(
        text(&out.stderr).trim(),
        format!(
            "staunton: unhealthy: http://{addr}/health answered 200 OK, but not as Staunton \
             does (no staunton-version header): another server listens there"
        ),
        "{out:?}"
    );
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let addr = answer_once(
        b"HTTP/1.1 200 OK\r\nstaunton-version: 0.1.0\r\ncontent-length: 8\r\n\r\nhealthy\n",
    );
    let out = health(&["--url", &addr], None);
    assert_failed(&out, 1, "the body is \"healthy\\n\", not \"ok\"");
}

#[test]
fn a_server_that_trickles_its_answer_is_cut_off_at_the_deadline() {
    // Staunton's whole answer, one byte at a time, a byte every 100 ms (7 s or more in
    // all): each read gets a byte long before a one-second timeout, the whole answer never
    // comes within one second.
    const ANSWER: &[u8] =
        b"HTTP/1.1 200 OK\r\nstaunton-version: 0.1.0\r\ncontent-length: 3\r\n\r\nok\n";
    let listener = TcpListener::bind("127.0.0.1:0").expect("port");
    let addr = listener.local_addr().expect("addr").to_string();
    let server = std::thread::spawn(move || {
        let (mut stream, _) = listener.accept().expect("a connection");
        let mut request = [0u8; 1024];
        let _ = stream.read(&mut request);
        for (sent, byte) in ANSWER.iter().enumerate() {
            if stream.write_all(&[*byte]).is_err() {
                return sent;
            }
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
        ANSWER.len()
    });
    let out = health(&["--url", &addr, "--timeout", "1"], None);
    assert_eq!(
        text(&out.stderr).trim(),
        format!(
            "staunton: unhealthy: http://{addr}/health: the answer was not complete within 1 s"
        ),
        "{out:?}"
    );
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let sent = server.join().expect("the server");
    assert!(
        sent < ANSWER.len(),
        "the client stayed for the whole answer"
    );
}
