//! The doors' parity corpus (`tests/fixtures/doors.json`) and the crate's answers to it
//! (`tests/fixtures/doors-answers.txt`), read for the tests that send it through a door:
//! the HTTP service (`tests/http/doors.rs`) and the command line (`tests/cli/doors.rs`).
#![allow(dead_code)]

use serde_json::Value;

/// FNV-1a, 64 bits: the hash of a success's bytes in `doors-answers.txt`.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    (bytes.iter()).fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// A corpus value as one query value: a list joined by its parameter's separator (from the
/// crate's table), a `{repeat, times}` text written out, a boolean as `1` or `0`.
pub fn query_value(name: &str, value: &Value) -> String {
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

/// The crate's answer to one case.
pub enum Answer {
    /// A success: the FNV-1a hash of its bytes, 16 hex digits.
    Bytes(String),
    /// A failure: the parameter at fault (`""` when none), the suggestion for a misspelt
    /// name (`""` when none) and the sentence.
    Fails {
        /// The parameter at fault.
        param: String,
        /// The nearest parameter to a misspelt name.
        suggestion: String,
        /// The sentence.
        sentence: String,
    },
}

/// Every case of the corpus with the crate's answer, in order.
pub fn cases() -> Vec<(Value, Answer)> {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/");
    let read = |name: &str| std::fs::read_to_string(format!("{root}{name}")).expect(name);
    let corpus: Value = serde_json::from_str(&read("doors.json")).expect("JSON");
    let answers = read("doors-answers.txt");
    let cases = corpus["cases"].as_array().expect("cases").clone();
    assert_eq!(cases.len(), answers.lines().count(), "one answer a case");
    let mut out = Vec::new();
    for (case, line) in cases.into_iter().zip(answers.lines()) {
        let fields: Vec<&str> = line.splitn(5, '\t').collect();
        assert_eq!(
            fields[0], case["name"],
            "the answers are in the corpus's order"
        );
        let answer = match fields[1] {
            "ok" => Answer::Bytes(fields[2].to_string()),
            _ => Answer::Fails {
                param: fields[2].to_string(),
                suggestion: fields[3].to_string(),
                sentence: fields[4].to_string(),
            },
        };
        out.push((case, answer));
    }
    out
}
