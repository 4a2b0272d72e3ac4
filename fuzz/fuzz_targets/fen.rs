//! The FEN parser on arbitrary input: never panics; an accepted FEN writes back to text
//! that parses to the same position; a rejected one gets a one-line message.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match staunton::fen::parse(text) {
        Ok(position) => {
            let written = position.to_string();
            let again = staunton::fen::parse(&written).expect("written FEN parses");
            assert_eq!(again, position, "round trip of {written}");
        }
        Err(e) => {
            let message = e.to_string();
            assert!(message.starts_with("invalid FEN: "));
            assert_eq!(message.lines().count(), 1);
        }
    }
});
