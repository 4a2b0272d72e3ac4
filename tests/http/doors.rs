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

use crate::doors_corpus::{Answer, cases, fnv1a, query_value};
use crate::support::{send, state};
use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::Value;

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
    let state = state();
    for (case, answer) in cases() {
        let name = case["name"].as_str().expect("name");
        let Some(request) = request(&case) else {
            let long = matches!(&answer, Answer::Fails { sentence, .. } if sentence.ends_with("bytes are read"));
            assert!(long, "{name}: a URL too long, yet the crate reads it");
            continue;
        };
        let answer_of_service = send(&state, request).await;
        let said = String::from_utf8_lossy(&answer_of_service.body).into_owned();
        let (param, suggestion, sentence) = match answer {
            Answer::Bytes(hash) => {
                assert_eq!(answer_of_service.status, StatusCode::OK, "{name}: {said}");
                // The service's text ends its line; a call's text is the line.
                let body = &answer_of_service.body[..];
                let body = match case["call"].as_str() {
                    Some("describe") => body.strip_suffix(b"\n").unwrap_or(body),
                    _ => body,
                };
                let got = format!("{:016x}", fnv1a(body));
                assert_eq!(got, hash, "{name}: other bytes than the crate's");
                continue;
            }
            Answer::Fails {
                param,
                suggestion,
                sentence,
            } => (param, suggestion, sentence),
        };
        let limit = "at most 65536 bytes";
        if sentence.ends_with(&format!("{limit} are read")) {
            // Too long to read: POSTed, the body is cut at the same limit (413); in a
            // URL, the query's own limit comes first (414).
            let status = answer_of_service.status.as_u16();
            assert!(matches!(status, 413 | 414), "{name}: {status} {said}");
            assert!(said.starts_with(&param), "{name}: {said}");
            assert!(said.contains(limit), "{name}: {said}");
            continue;
        }
        assert_eq!(
            answer_of_service.status,
            StatusCode::BAD_REQUEST,
            "{name}: {said}"
        );
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

/// The crate's answer to one case (through `staunton::embed`, the door the packages call),
/// as a line of `doors-answers.txt`.
fn crate_answer(case: &Value) -> String {
    use staunton::embed::{describe, render, render_game};
    let name = case["name"].as_str().expect("name");
    let mut pairs: Vec<(String, String)> = Vec::new();
    if let Some(fen) = case.get("position").and_then(Value::as_str) {
        pairs.push(("fen".into(), fen.into()));
    }
    for (key, value) in case["options"].as_object().expect("options") {
        pairs.push((key.clone(), query_value(key, value)));
    }
    let pgn = case.get("pgn").map(|v| query_value("pgn", v));
    let result = match case["call"].as_str().expect("call") {
        "describe" => describe(pairs).map(|(text, _)| text.into_bytes()),
        "game_gif" => render_game(pairs, pgn.as_deref(), "gif"),
        "text" => render(pairs, "txt"),
        format => render(pairs, format),
    };
    match result {
        Ok(bytes) => format!("{name}\tok\t{:016x}", fnv1a(&bytes)),
        Err(f) => format!(
            "{name}\tfails\t{}\t{}\t{}",
            f.param,
            f.suggestion.unwrap_or(""),
            f.sentence
        ),
    }
}

/// `doors-answers.txt` is the crate's answers to the corpus, which every door's test holds
/// its door to (`STAUNTON_UPDATE_DOORS=1` writes it).
#[test]
fn the_recorded_answers_are_the_crates() {
    let fixtures = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/");
    let corpus = std::fs::read_to_string(format!("{fixtures}doors.json")).expect("corpus");
    let corpus: Value = serde_json::from_str(&corpus).expect("JSON");
    let cases = corpus["cases"].as_array().expect("cases");
    let answers: String = cases.iter().map(|c| crate_answer(c) + "\n").collect();
    let path = format!("{fixtures}doors-answers.txt");
    if std::env::var_os("STAUNTON_UPDATE_DOORS").is_some() {
        std::fs::write(&path, &answers).expect("write");
        panic!("{path} written: look at it, then run again without STAUNTON_UPDATE_DOORS");
    }
    let recorded = std::fs::read_to_string(&path).expect("doors-answers.txt");
    assert_eq!(
        recorded, answers,
        "STAUNTON_UPDATE_DOORS=1 writes the crate's answers"
    );
    // Lists as arrays and as strings are one request.
    for (list, string) in [
        ("arrows-list", "arrows-string"),
        ("moves-list", "moves-string"),
    ] {
        let hash = |n: &str| {
            let line = answers.lines().find(|l| l.starts_with(&format!("{n}\t")));
            line.expect("case").split('\t').nth(2).map(str::to_string)
        };
        assert_eq!(hash(list), hash(string), "{list}");
    }
}
