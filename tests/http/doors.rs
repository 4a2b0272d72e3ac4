//! The doors' parity corpus (`tests/fixtures/doors.json`) through the HTTP door: each case
//! sent to the service as a request (lists joined by their parameter's separator, a game's
//! text POSTed), its answer held to the crate's (`tests/fixtures/doors-answers.txt`, which
//! the Python and npm packages' tests hold their doors to): the same bytes for a success,
//! the same parameter and sentence for a bad value, the same suggestion for a misspelt name.
//!
//! The service's own words where a URL differs from a call: `/describe`'s text ends with a
//! line break; a name that is no parameter is
//! refused only with `strict=1`, in a sentence that names the route ("strict=1: sise is not
//! a parameter of /diagram.png: did you mean size?"), so only its suggestion is compared.

use crate::support::{send, state};
use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::Value;

/// FNV-1a, 64 bits: the hash of `doors-answers.txt`.
fn fnv1a(bytes: &[u8]) -> u64 {
    (bytes.iter()).fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// A corpus value as a query value: a list joined by its parameter's separator (from the
/// crate's table), a `{repeat, times}` text written out.
fn query_value(name: &str, value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        Value::Bool(b) => if *b { "1" } else { "0" }.to_string(),
        Value::Array(items) => {
            let separator = staunton::embed::parameters()
                .find(|(p, _)| p.accepts(name))
                .and_then(|(p, _)| p.separator)
                .expect("a list parameter");
            let items: Vec<String> = items.iter().map(|v| query_value(name, v)).collect();
            items.join(separator)
        }
        Value::Object(o) => {
            let times = o["times"].as_u64().expect("times") as usize;
            o["repeat"].as_str().expect("repeat").repeat(times)
        }
        Value::Null => panic!("{name}: null"),
    }
}

/// Case `case` as the HTTP request a user of the service sends; `None` when its URL is
/// longer than any HTTP library takes (64 KiB), which the service's query limit (48 KiB)
/// would refuse first.
fn request(case: &Value) -> Option<Request<Body>> {
    let mut query = form_urlencoded::Serializer::new(String::new());
    if let Some(fen) = case.get("position").and_then(Value::as_str) {
        query.append_pair("fen", fen);
    }
    for (key, value) in case["options"].as_object().expect("options") {
        query.append_pair(key, &query_value(key, value));
    }
    query.append_pair("strict", "1");
    let query = query.finish();
    let path = match case["call"].as_str().expect("call") {
        "describe" => "/describe",
        "game_gif" => "/game.gif",
        "text" => "/diagram.txt",
        "svg" => "/diagram.svg",
        _ => "/diagram.png",
    };
    let uri = format!("{path}?{query}");
    match case.get("pgn") {
        Some(pgn) => Request::post(uri).body(Body::from(query_value("pgn", pgn))),
        None => Request::get(uri).body(Body::empty()),
    }
    .ok()
}

#[tokio::test]
async fn every_case_of_the_doors_corpus_is_answered_as_the_crate_answers() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/");
    let corpus: Value = serde_json::from_str(
        &std::fs::read_to_string(format!("{root}doors.json")).expect("corpus"),
    )
    .expect("JSON");
    let answers = std::fs::read_to_string(format!("{root}doors-answers.txt")).expect("answers");
    let state = state();
    let cases = corpus["cases"].as_array().expect("cases");
    assert_eq!(cases.len(), answers.lines().count(), "one answer a case");
    for (case, line) in cases.iter().zip(answers.lines()) {
        let fields: Vec<&str> = line.splitn(5, '\t').collect();
        let name = case["name"].as_str().expect("name");
        assert_eq!(fields[0], name, "the answers are in the corpus's order");
        let Some(request) = request(case) else {
            assert!(
                line.ends_with("bytes are read"),
                "{name}: a URL too long, yet {line}"
            );
            continue;
        };
        let answer = send(&state, request).await;
        let said = String::from_utf8_lossy(&answer.body).into_owned();
        match fields[1] {
            "ok" => {
                assert_eq!(answer.status, StatusCode::OK, "{name}: {said}");
                // The service's text ends its line; a call's text is the line.
                let body = match case["call"].as_str() {
                    Some("describe") => answer.body.strip_suffix(b"\n").unwrap_or(&answer.body),
                    _ => &answer.body[..],
                };
                let hash = format!("{:016x}", fnv1a(body));
                assert_eq!(hash, fields[2], "{name}: other bytes than the crate's");
            }
            _ => {
                let (param, suggestion, sentence) = (fields[2], fields[3], fields[4]);
                let limit = "at most 65536 bytes";
                if sentence.ends_with(&format!("{limit} are read")) {
                    // Too long to read: POSTed, the body is cut at the same limit (413);
                    // in a URL, the query's own limit comes first (414).
                    let status = answer.status.as_u16();
                    assert!(matches!(status, 413 | 414), "{name}: {status} {said}");
                    assert!(said.starts_with(param), "{name}: {said}");
                    assert!(said.contains(limit), "{name}: {said}");
                    continue;
                }
                assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{name}: {said}");
                if suggestion.is_empty() && !param.is_empty() {
                    assert_eq!(said.trim_end(), sentence, "{name}");
                } else if suggestion.is_empty() {
                    assert!(!said.contains("did you mean"), "{name}: {said}");
                } else {
                    let near = format!("did you mean {suggestion}?");
                    assert!(said.trim_end().ends_with(&near), "{name}: {said}");
                }
            }
        }
    }
}
