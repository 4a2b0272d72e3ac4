//! The doors' parity corpus (`tests/fixtures/doors.json`) through the command line: each
//! case run as `staunton render` (a list given as one flag an item, a game's text as a
//! `--pgn` file, a yes/no as a switch), its answer held to the crate's
//! (`tests/fixtures/doors-answers.txt`): the same bytes on standard output for a success,
//! the service's sentence for a bad value or an over-limit game, the same suggestion, as a
//! flag, for a misspelt name.
//!
//! The command line has no `describe` (its text is the alt text `fence` prints): those
//! cases are the other doors'.

use crate::doors_corpus::{Answer, cases, fnv1a, query_value};
use serde_json::Value;
use std::path::Path;
use std::process::Command;

/// The flag of the parameter (or misspelt name) `name`: `lastMove` and `last_move` are
/// `--last-move`.
fn flag(name: &str) -> String {
    let mut flag = String::from("--");
    for c in name.chars() {
        match c {
            '_' => flag.push('-'),
            c if c.is_ascii_uppercase() => {
                flag.push('-');
                flag.push(c.to_ascii_lowercase());
            }
            c => flag.push(c),
        }
    }
    flag
}

/// The arguments of `staunton render` for `case`, its game's text written into `dir`;
/// `None` for a call the command line does not make.
fn arguments(case: &Value, dir: &Path) -> Option<Vec<String>> {
    let format = match case["call"].as_str().expect("call") {
        "describe" => return None,
        "game_gif" | "gif" => "gif",
        "text" => "txt",
        other => other,
    };
    let mut args = vec!["render".to_string(), "--format".into(), format.into()];
    args.extend(
        case.get("position")
            .and_then(Value::as_str)
            .map(String::from),
    );
    let options = case["options"].as_object().expect("options");
    let pgn = case.get("pgn").or_else(|| options.get("pgn"));
    if let Some(pgn) = pgn {
        let file = dir.join(format!("{}.pgn", case["name"].as_str().expect("name")));
        std::fs::write(&file, query_value("pgn", pgn)).expect("a PGN file");
        args.extend(["--pgn".to_string(), file.display().to_string()]);
    }
    for (key, value) in options.iter().filter(|(k, _)| *k != "pgn") {
        match value {
            Value::Array(items) => {
                for item in items {
                    args.extend([flag(key), query_value(key, item)]);
                }
            }
            Value::Bool(on) => args.push(format!("{}={}", flag(key), u8::from(*on))),
            _ => args.extend([flag(key), query_value(key, value)]),
        }
    }
    Some(args)
}

#[test]
fn every_case_the_command_line_can_make_is_answered_as_the_crate_answers() {
    let dir = std::env::temp_dir().join(format!("staunton-doors-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let mut run = 0;
    for (case, answer) in cases() {
        let name = case["name"].as_str().expect("name");
        let Some(args) = arguments(&case, &dir) else {
            continue;
        };
        run += 1;
        let out = Command::new(env!("CARGO_BIN_EXE_staunton"))
            .args(&args)
            .output()
            .expect("runs");
        let said = String::from_utf8_lossy(&out.stderr).into_owned();
        match answer {
            Answer::Bytes(hash) => {
                assert!(out.status.success(), "{name}: {args:?}: {said}");
                let got = format!("{:016x}", fnv1a(&out.stdout));
                assert_eq!(got, hash, "{name}: other bytes than the crate's");
            }
            Answer::Fails {
                suggestion,
                sentence,
                param,
            } => {
                assert_eq!(out.status.code(), Some(2), "{name}: {said}");
                assert!(out.stdout.is_empty(), "{name}: output on a failure");
                if !suggestion.is_empty() {
                    let near = format!("did you mean {}?", flag(&suggestion));
                    assert!(said.trim_end().ends_with(&near), "{name}: {said}");
                } else if param.is_empty() {
                    assert!(!said.contains("did you mean"), "{name}: {said}");
                    assert!(!said.contains("similar argument"), "{name}: {said}");
                } else {
                    assert!(said.contains(&sentence), "{name}: {said}\nnot: {sentence}");
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(run >= 20, "the command line made only {run} of the cases");
}
