//! The same request gives the same bytes: in this (debug) build as in the release build that
//! recorded `tests/fixtures/render-hashes.txt`, from a fresh renderer or a warm one, and from
//! several threads at once. Every format of every render case is checked.
//!
//! When a drawing changes on purpose, record the hashes again from a release build:
//! `scripts/ci/record-hashes.sh` (CI runs `scripts/ci/record-hashes.sh --check`, which fails when
//! the committed file is not what the release build makes).

use crate::common;

use staunton::Renderer;
use staunton::hash::fnv1a;
use staunton::render::options::Format;
use staunton::request::Request;
use std::collections::BTreeMap;
use std::sync::Arc;

fn cases() -> Vec<(String, Request)> {
    let text = std::fs::read_to_string(common::fixture("render-cases.txt")).expect("cases");
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|line| {
            let (name, query) = line.split_once(' ').expect("NAME QUERY");
            let request = Request::from_query(query, None).expect("a valid case");
            (name.to_string(), request)
        })
        .collect()
}

/// `NAME FORMAT` → hash, as recorded from the release build.
fn recorded() -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(common::fixture("render-hashes.txt"))
        .expect("tests/fixtures/render-hashes.txt: run scripts/ci/record-hashes.sh");
    text.lines()
        .filter_map(|line| {
            let mut parts = line.split_whitespace();
            let (name, format, hash) = (parts.next()?, parts.next()?, parts.next()?);
            Some((format!("{name} {format}"), hash.to_string()))
        })
        .collect()
}

fn hash_all(renderer: &Renderer, cases: &[(String, Request)]) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for (name, request) in cases {
        for format in Format::ALL {
            let bytes = renderer
                .render(&request.position, &request.options, format)
                .expect("renders");
            out.insert(
                format!("{name} {}", format.extension()),
                format!("{:016x}", fnv1a(bytes.iter().copied())),
            );
        }
    }
    out
}

#[test]
fn the_debug_build_makes_the_bytes_the_release_build_recorded() {
    let cases = cases();
    let recorded = recorded();
    let made = hash_all(&Renderer::default(), &cases);
    let mismatches: Vec<String> = made
        .iter()
        .filter(|(key, hash)| recorded.get(*key) != Some(hash))
        .map(|(key, hash)| {
            format!(
                "{key}: {hash} here, {} recorded",
                recorded.get(key).map_or("none", String::as_str)
            )
        })
        .collect();
    assert!(
        mismatches.is_empty(),
        "{} of {} outputs differ from tests/fixtures/render-hashes.txt (if the drawing changed \
         on purpose, run scripts/ci/record-hashes.sh):\n{}",
        mismatches.len(),
        made.len(),
        mismatches.join("\n")
    );
    let stale: Vec<&String> = recorded.keys().filter(|k| !made.contains_key(*k)).collect();
    assert!(stale.is_empty(), "recorded but not made: {stale:?}");
}

#[test]
fn a_warm_renderer_and_four_threads_make_the_same_bytes_as_a_fresh_one() {
    let cases = Arc::new(cases());
    let fresh = hash_all(&Renderer::default(), &cases);
    // Warm: every case once already, in reverse order, then again.
    let warm = Renderer::default();
    let reversed: Vec<(String, Request)> = cases.iter().rev().cloned().collect();
    hash_all(&warm, &reversed);
    assert_eq!(hash_all(&warm, &cases), fresh, "a warm renderer");
    // Four threads on one renderer, each starting at a different case.
    let shared = Arc::new(Renderer::default());
    let threads: Vec<_> = (0..4)
        .map(|t| {
            let (shared, cases) = (shared.clone(), cases.clone());
            std::thread::spawn(move || {
                let n = cases.len();
                let order: Vec<(String, Request)> =
                    (0..n).map(|i| cases[(i + t * n / 4) % n].clone()).collect();
                hash_all(&shared, &order)
            })
        })
        .collect();
    for thread in threads {
        assert_eq!(thread.join().expect("no panic"), fresh, "a thread");
    }
}
