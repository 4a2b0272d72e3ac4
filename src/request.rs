//! Requests: query parameters (or command-line options) in, a validated [`Request`] out.
//!
//! Owns the boundary: parameter names and their aliases, the accepted values, the limits,
//! and the one-sentence error for every bad value. Everything after this module works on
//! domain types and cannot fail on user input.

use crate::fen;
use crate::options::{
    Coordinates, DEFAULT_PIECE_SET, Format, MAX_SIZE, MIN_SIZE, Orientation, RenderOptions,
};
use crate::position::Position;
use std::fmt;
use thiserror::Error;

/// Longest accepted `fen` value, in bytes.
pub const MAX_FEN_BYTES: usize = 256;
/// Longest accepted piece-set name, in bytes.
const MAX_NAME_BYTES: usize = 64;
/// How much of a bad value an error message repeats.
const ECHO_CHARS: usize = 40;

/// A validated diagram request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// The position.
    pub position: Position,
    /// How to draw it.
    pub options: RenderOptions,
    /// The encoding.
    pub format: Format,
}

/// A bad parameter: its name, the value as sent (shortened), and what is allowed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{message}")]
pub struct RequestError {
    /// The parameter at fault (canonical name).
    pub param: &'static str,
    message: String,
}

impl RequestError {
    fn new(param: &'static str, message: impl Into<String>) -> RequestError {
        RequestError {
            param,
            message: message.into(),
        }
    }

    fn bad_value(param: &'static str, value: &str, allowed: &str) -> RequestError {
        RequestError::new(
            param,
            format!("{param} {} is not allowed: {allowed}", Echo(value)),
        )
    }
}

/// A user value made safe to repeat: quoted, control and non-ASCII characters replaced,
/// and shortened to [`ECHO_CHARS`] characters.
pub struct Echo<'a>(pub &'a str);

impl fmt::Display for Echo<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("\"")?;
        for (i, c) in self.0.chars().enumerate() {
            if i == ECHO_CHARS {
                f.write_str("…")?;
                break;
            }
            let c = if c.is_ascii_graphic() || c == ' ' {
                c
            } else {
                '?'
            };
            write!(f, "{c}")?;
        }
        f.write_str("\"")
    }
}

/// The parameters, by canonical name, with the spellings accepted for each.
const PARAMS: &[(&str, &[&str])] = &[
    ("fen", &["fen"]),
    ("size", &["size"]),
    ("orientation", &["orientation"]),
    ("coordinates", &["coordinates", "coords"]),
    ("format", &["format"]),
    ("pieces", &["pieces", "piece", "pieceset", "piece_set"]),
];

/// The canonical name of a query key (case-insensitive), if it is one we read.
fn canonical(key: &str) -> Option<&'static str> {
    PARAMS
        .iter()
        .find(|(_, spellings)| spellings.iter().any(|s| s.eq_ignore_ascii_case(key)))
        .map(|(name, _)| *name)
}

impl Request {
    /// Validate a URL query string (without the `?`). `path_format` is the format the path
    /// asked for (`/diagram.svg`), if any; `format=` may only agree with it.
    pub fn from_query(query: &str, path_format: Option<Format>) -> Result<Request, RequestError> {
        let pairs = form_urlencoded::parse(query.as_bytes());
        Request::from_pairs(
            pairs.map(|(k, v)| (k.into_owned(), v.into_owned())),
            path_format,
        )
    }

    /// Validate `(name, value)` pairs; later pairs override earlier ones, unknown names are
    /// ignored (URLs written for other diagram services keep working).
    pub fn from_pairs<K: AsRef<str>, V: AsRef<str>>(
        pairs: impl IntoIterator<Item = (K, V)>,
        path_format: Option<Format>,
    ) -> Result<Request, RequestError> {
        let mut values: [Option<V>; 6] = Default::default();
        for (key, value) in pairs {
            if let Some(name) = canonical(key.as_ref()) {
                let slot = PARAMS.iter().position(|(n, _)| *n == name);
                if let Some(slot) = slot {
                    values[slot] = Some(value);
                }
            }
        }
        let [fen, size, orientation, coordinates, format, pieces] = values;
        let position = parse_fen(fen.as_ref().map(|v| v.as_ref()))?;
        let options = RenderOptions {
            size: match &size {
                Some(v) => parse_size(v.as_ref())?,
                None => crate::options::DEFAULT_SIZE,
            },
            orientation: match &orientation {
                Some(v) => parse_orientation(v.as_ref())?,
                None => Orientation::default(),
            },
            coordinates: match &coordinates {
                Some(v) => parse_coordinates(v.as_ref())?,
                None => Coordinates::default(),
            },
            piece_set: match &pieces {
                Some(v) => parse_piece_set(v.as_ref())?,
                None => DEFAULT_PIECE_SET.to_string(),
            },
        };
        let format = match (
            format.as_ref().map(|v| parse_format(v.as_ref())),
            path_format,
        ) {
            (None, path) => path.unwrap_or_default(),
            (Some(Err(e)), _) => return Err(e),
            (Some(Ok(asked)), None) => asked,
            (Some(Ok(asked)), Some(path)) if asked == path => asked,
            (Some(Ok(asked)), Some(path)) => {
                return Err(RequestError::new(
                    "format",
                    format!(
                        "format \"{}\" contradicts the path, which asks for {}: drop format= or use /diagram.{}",
                        asked.extension(),
                        path.extension(),
                        asked.extension()
                    ),
                ));
            }
        };
        Ok(Request {
            position,
            options,
            format,
        })
    }

    /// The cache key: everything that decides the output bytes, normalised, so that two
    /// spellings of one diagram share an entry. Includes the renderer version.
    pub fn cache_key(&self) -> String {
        let o = &self.options;
        format!(
            "{}|{}|{}|{}|{}|{}|{}",
            env!("CARGO_PKG_VERSION"),
            self.format.extension(),
            self.position,
            o.size,
            o.orientation.bottom(self.position.turn).letter(),
            o.coordinates,
            o.piece_set.to_ascii_lowercase(),
        )
    }
}

fn parse_fen(value: Option<&str>) -> Result<Position, RequestError> {
    let Some(value) = value else {
        return Err(RequestError::new(
            "fen",
            "fen is missing: give a position, e.g. fen=rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR_b_KQkq_e3_0_1 or fen=start",
        ));
    };
    if value.len() > MAX_FEN_BYTES {
        return Err(RequestError::new(
            "fen",
            format!(
                "fen {} is {} bytes long: at most {MAX_FEN_BYTES} bytes are allowed",
                Echo(value),
                value.len()
            ),
        ));
    }
    fen::parse(value).map_err(|e| {
        let detail = e.to_string();
        let detail = detail.strip_prefix("invalid FEN: ").unwrap_or(&detail);
        RequestError::new(
            "fen",
            format!("fen {} is not a valid FEN: {detail}", Echo(value)),
        )
    })
}

fn parse_size(value: &str) -> Result<u32, RequestError> {
    let allowed = format!("expected a whole number of pixels from {MIN_SIZE} to {MAX_SIZE}");
    let digits = !value.is_empty() && value.len() <= 6 && value.bytes().all(|b| b.is_ascii_digit());
    match value.parse::<u32>() {
        Ok(n) if digits && (MIN_SIZE..=MAX_SIZE).contains(&n) => Ok(n),
        _ => Err(RequestError::bad_value("size", value, &allowed)),
    }
}

fn parse_orientation(value: &str) -> Result<Orientation, RequestError> {
    match value.to_ascii_lowercase().as_str() {
        "white" | "w" => Ok(Orientation::White),
        "black" | "b" => Ok(Orientation::Black),
        "turn" => Ok(Orientation::Turn),
        _ => Err(RequestError::bad_value(
            "orientation",
            value,
            "expected white, black or turn",
        )),
    }
}

fn parse_coordinates(value: &str) -> Result<Coordinates, RequestError> {
    match value.to_ascii_lowercase().as_str() {
        "outside" | "1" | "true" | "yes" | "on" => Ok(Coordinates::Outside),
        "inside" => Ok(Coordinates::Inside),
        "none" | "0" | "false" | "no" | "off" => Ok(Coordinates::None),
        _ => Err(RequestError::bad_value(
            "coordinates",
            value,
            "expected outside, inside or none (1/true/yes = outside, 0/false/no = none)",
        )),
    }
}

fn parse_format(value: &str) -> Result<Format, RequestError> {
    match value.to_ascii_lowercase().as_str() {
        "png" => Ok(Format::Png),
        "svg" => Ok(Format::Svg),
        _ => Err(RequestError::bad_value(
            "format",
            value,
            "expected png or svg",
        )),
    }
}

fn parse_piece_set(value: &str) -> Result<String, RequestError> {
    let ok = !value.is_empty()
        && value.len() <= MAX_NAME_BYTES
        && value
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if ok {
        Ok(value.to_ascii_lowercase())
    } else {
        Err(RequestError::bad_value(
            "pieces",
            value,
            "expected the name of a piece set (letters, digits, - and _)",
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(query: &str) -> String {
        Request::from_query(query, None).unwrap_err().to_string()
    }

    #[test]
    fn defaults_and_aliases() {
        let r = Request::from_query("fen=start", None).unwrap();
        assert_eq!(r.options, RenderOptions::default());
        assert_eq!(r.format, Format::Png);
        let r = Request::from_query(
            "FEN=start&Size=200&orientation=BLACK&coordinates=0&pieceSet=Staunton&format=svg",
            None,
        )
        .unwrap();
        assert_eq!(r.options.size, 200);
        assert_eq!(r.options.orientation, Orientation::Black);
        assert_eq!(r.options.coordinates, Coordinates::None);
        assert_eq!(r.options.piece_set, "staunton");
        assert_eq!(r.format, Format::Svg);
        let r = Request::from_query(
            "fen=start&piece=staunton&coordinates=true",
            Some(Format::Svg),
        )
        .unwrap();
        assert_eq!(r.options.coordinates, Coordinates::Outside);
        assert_eq!(r.format, Format::Svg);
    }

    #[test]
    fn two_spellings_of_one_position_share_a_key() {
        let a = Request::from_query("fen=start", None).unwrap();
        let b = Request::from_query(
            "fen=rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR+w+KQkq+-+0+1&size=400&orientation=white",
            None,
        )
        .unwrap();
        let c = Request::from_query(
            "fen=%5BFEN+%22rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR_w_KQkq_-_0_1%22%5D&orientation=turn",
            None,
        )
        .unwrap();
        assert_eq!(a.cache_key(), b.cache_key());
        assert_eq!(a.cache_key(), c.cache_key());
        let d = Request::from_query("fen=start&size=401", None).unwrap();
        assert_ne!(a.cache_key(), d.cache_key());
    }

    #[test]
    fn bad_sizes_name_the_parameter_and_the_range() {
        for bad in [
            "0",
            "-1",
            "15",
            "2049",
            "99999",
            "abc",
            "4e2",
            "",
            " 400",
            "400.0",
            "99999999999",
        ] {
            let msg = err(&format!("fen=start&size={}", bad.replace(' ', "+")));
            assert!(
                msg.starts_with(&format!("size \"{bad}\" is not allowed")),
                "{msg}"
            );
            assert!(msg.contains("from 16 to 2048"), "{msg}");
        }
    }

    #[test]
    fn bad_values_get_one_sentence_each() {
        assert_eq!(
            err("fen=start&orientation=up"),
            "orientation \"up\" is not allowed: expected white, black or turn"
        );
        assert_eq!(
            err("fen=start&coordinates=left"),
            "coordinates \"left\" is not allowed: expected outside, inside or none (1/true/yes = outside, 0/false/no = none)"
        );
        assert_eq!(
            err("fen=start&format=gif"),
            "format \"gif\" is not allowed: expected png or svg"
        );
        assert!(err("size=400").starts_with("fen is missing"));
        let long = "8/".repeat(200);
        let msg = err(&format!("fen={long}"));
        assert!(
            msg.starts_with("fen \"8/8/8/8/8/8/8/8/8/8/8/8/8/8/8/8/8/8/8/8/…\" is 400 bytes long"),
            "{msg}"
        );
        let msg = Request::from_query("fen=start&format=png", Some(Format::Svg))
            .unwrap_err()
            .to_string();
        assert!(msg.contains("contradicts the path"), "{msg}");
    }

    #[test]
    fn echoed_values_are_tamed() {
        let msg = err("fen=start&orientation=%3Cscript%3E%0A%00%C3%A9");
        assert_eq!(
            msg,
            "orientation \"<script>???\" is not allowed: expected white, black or turn"
        );
        assert!(!msg.contains('\n'));
    }
}
