//! Square markers: `marks`, `dots`, `legalMoves` and the `[%mark …]` comment command.
//!
//! Owns their syntax and error sentences. A marker is `kind:square`, the square with an
//! optional colour letter as in `arrows` (`circle:Re4`), and a label takes its text after
//! another colon (`label:e4:12`). `dots` are plain squares (`e3,Re4`), and `legalMoves`
//! one square whose piece's legal destinations become dots, captures rings.

use super::error::RequestError;
use super::values::{command_size, items, parse_arrow};
use crate::chess::destinations::{DestinationError, destinations};
use crate::chess::position::{BoardSize, Position, Square};
use crate::echo::Echo;
use crate::render::options::{Marker, MarkerKind};
use crate::render::theme::MarkColor;

/// The characters a label may use: those the label font draws.
pub const LABEL_CHARS: &str = "a–z, 0–9, +, -, ! and ?";

/// Whether `c` may stand in a label.
fn label_char(c: char) -> bool {
    c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '+' | '-' | '!' | '?')
}

/// A square with an optional colour letter (`Re4`), as `arrows` writes a circle.
fn coloured_square(text: &str, board: BoardSize) -> Option<(Square, MarkColor)> {
    parse_arrow(text, board)
        .filter(|a| a.from == a.to)
        .map(|a| (a.from, a.color))
}

/// One `kind:square[:text]` item of `param`.
fn parse_marker(param: &'static str, item: &str, board: BoardSize) -> Result<Marker, RequestError> {
    let mut parts = item.splitn(3, ':');
    let name = parts.next().unwrap_or_default();
    let (at, text) = (parts.next(), parts.next());
    let kind = match name.to_ascii_lowercase().as_str() {
        "circle" => MarkerKind::Circle,
        "dotted" => MarkerKind::Dotted,
        "square" => MarkerKind::Square,
        "triangle" => MarkerKind::Triangle,
        "dot" => MarkerKind::Dot,
        "ring" => MarkerKind::Ring,
        "label" => MarkerKind::Label(parse_label(param, item, text)?),
        _ => {
            return Err(RequestError::new(
                param,
                format!(
                    "{param} item {} is not allowed: the marker {} is unknown, expected one of {} before a colon, e.g. circle:Re4 or label:e4:12",
                    Echo(item),
                    Echo(name),
                    MarkerKind::NAMES.join(", ")
                ),
            ));
        }
    };
    let square = at.and_then(|at| coloured_square(at, board));
    let is_label = matches!(kind, MarkerKind::Label(_));
    match square {
        Some((square, color)) if text.is_some() == is_label => Ok(Marker {
            square,
            kind,
            color,
        }),
        _ => Err(RequestError::new(
            param,
            format!(
                "{param} item {} is not allowed: expected {}: then an optional colour G, R, Y or B and a square on the {board} board{}",
                Echo(item),
                kind.name(),
                match kind {
                    MarkerKind::Label(_) => ", then a colon and the label, e.g. label:Re4:12",
                    _ => ", e.g. circle:Re4",
                }
            ),
        )),
    }
}

/// The text of a `label:` item: one or two characters the label font draws.
fn parse_label(
    param: &'static str,
    item: &str,
    text: Option<&str>,
) -> Result<String, RequestError> {
    let text = text.unwrap_or_default();
    let count = text.chars().count();
    if (1..=2).contains(&count) && text.chars().all(label_char) {
        return Ok(text.to_string());
    }
    Err(RequestError::new(
        param,
        format!(
            "{param} item {} is not allowed: a label is one or two characters of {LABEL_CHARS}, e.g. label:e4:12",
            Echo(item)
        ),
    ))
}

/// The comma list of `marks` (or a `[%mark …]` command's, as `param`).
pub(crate) fn parse_marks(
    param: &'static str,
    value: &str,
    board: BoardSize,
    max: usize,
) -> Result<Vec<Marker>, RequestError> {
    items(param, value, max)?
        .into_iter()
        .map(|item| parse_marker(param, item, board))
        .collect()
}

/// The markers of every `[%mark …]` command in `value` (PGN comment commands; the others
/// are ignored, as `annotations` reads them). An error is `param`'s and names the command
/// as written (`[%mark] marks 81 squares`); the caller says where it stood.
pub(crate) fn parse_mark_commands(
    param: &'static str,
    value: &str,
    board: BoardSize,
    max: usize,
) -> Result<Vec<Marker>, RequestError> {
    let mut out = Vec::new();
    let mut rest = value;
    while let Some(open) = rest.find("[%") {
        let after = &rest[open + 2..];
        // An unclosed command is `parse_annotations`' error to report.
        let Some(close) = after.find(']') else {
            break;
        };
        let command = &after[..close];
        if let Some(("mark", args)) = command.split_once(char::is_whitespace) {
            let as_param = |e: RequestError| RequestError::new(param, e.to_string());
            command_size("[%mark]", args, max, "marks", "squares").map_err(as_param)?;
            out.extend(parse_marks("[%mark]", args, board, max).map_err(as_param)?);
        }
        rest = &after[close + 1..];
    }
    Ok(out)
}

/// `markers`, unless there are more than `max` of them: then `param`'s error, `what` naming
/// where they come from.
pub(crate) fn within(
    param: &'static str,
    what: &str,
    markers: Vec<Marker>,
    max: usize,
) -> Result<Vec<Marker>, RequestError> {
    if markers.len() > max {
        return Err(RequestError::new(
            param,
            format!(
                "{what} make {} markers: at most {max} are allowed",
                markers.len()
            ),
        ));
    }
    Ok(markers)
}

/// `dots`: squares with an optional colour (`e3,Re4`), each a dot.
pub(crate) fn parse_dots(
    value: &str,
    board: BoardSize,
    max: usize,
) -> Result<Vec<Marker>, RequestError> {
    items("dots", value, max)?
        .into_iter()
        .map(|item| match coloured_square(item, board) {
            Some((square, color)) => Ok(Marker {
                square,
                kind: MarkerKind::Dot,
                color,
            }),
            None => Err(RequestError::new(
                "dots",
                format!(
                    "dots item {} is not allowed: expected an optional colour G, R, Y or B and a square on the {board} board, e.g. e3 or Re4",
                    Echo(item)
                ),
            )),
        })
        .collect()
}

/// `legalMoves`: one square (with an optional colour); its piece's legal destinations as
/// dots, captures as rings. A piece of the side not to move gets the moves of its turn.
pub(crate) fn parse_legal_moves(
    value: &str,
    position: &Position,
) -> Result<Vec<Marker>, RequestError> {
    let value = value.trim();
    let Some((from, color)) = coloured_square(value, position.size()) else {
        return Err(RequestError::new(
            "legalMoves",
            format!(
                "legalMoves {} is not allowed: expected one square on the {} board with a piece on it, e.g. e2 or Be2",
                Echo(value),
                position.size()
            ),
        ));
    };
    let found = destinations(position, from).map_err(|e| {
        RequestError::new(
            "legalMoves",
            match e {
                DestinationError::Empty => format!("legalMoves square {from} {e}"),
                DestinationError::Unplayable(why) => format!(
                    "legalMoves needs an 8×8 board of standard chess or Chess960: the position {why}"
                ),
            },
        )
    })?;
    Ok(found
        .into_iter()
        .map(|d| Marker {
            square: d.to,
            kind: if d.capture {
                MarkerKind::Ring
            } else {
                MarkerKind::Dot
            },
            color,
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::super::diagram::Request;
    use super::*;

    /// `query` with the start position unless it gives a position or a game.
    fn with_fen(query: &str) -> String {
        if query.contains("fen=") || query.contains("pgn=") {
            query.to_string()
        } else {
            format!("fen=start&{query}")
        }
    }

    fn err(query: &str) -> String {
        Request::from_query(&with_fen(query), None)
            .unwrap_err()
            .to_string()
    }

    fn markers(query: &str) -> Vec<Marker> {
        Request::from_query(&with_fen(query), None)
            .unwrap()
            .options
            .markers
    }

    use crate::chess::position::sq;

    #[test]
    fn marks_parse_with_colours() {
        let got = markers(
            "fen=start&marks=circle:e4,dotted:Rd5,square:Bf3,triangle:Yg7,dot:e3,ring:b1,label:Ra3:12",
        );
        let kinds: Vec<_> = got
            .iter()
            .map(|m| (m.kind.name(), m.square, m.color))
            .collect();
        assert_eq!(
            kinds,
            [
                ("circle", sq("e4"), MarkColor::Green),
                ("dotted", sq("d5"), MarkColor::Red),
                ("square", sq("f3"), MarkColor::Blue),
                ("triangle", sq("g7"), MarkColor::Yellow),
                ("dot", sq("e3"), MarkColor::Green),
                ("ring", sq("b1"), MarkColor::Green),
                ("label", sq("a3"), MarkColor::Red),
            ]
        );
        assert_eq!(got[6].kind, MarkerKind::Label("12".into()));
        // `b1` is a square, `Bb1` a blue one, as in arrows.
        assert_eq!(markers("marks=dot:Bb1")[0].color, MarkColor::Blue);
        assert_eq!(markers("marks=dot:b1")[0].square, sq("b1"));
    }

    #[test]
    fn bad_marks_get_one_sentence_each() {
        assert_eq!(
            err("marks=star:e4"),
            "marks item \"star:e4\" is not allowed: the marker \"star\" is unknown, expected one of circle, dotted, square, triangle, dot, ring, label before a colon, e.g. circle:Re4 or label:e4:12"
        );
        assert_eq!(
            err("marks=label:e4:123"),
            "marks item \"label:e4:123\" is not allowed: a label is one or two characters of a–z, 0–9, +, -, ! and ?, e.g. label:e4:12"
        );
        assert!(
            err("marks=label:e4:A")
                .starts_with("marks item \"label:e4:A\" is not allowed: a label")
        );
        assert!(err("marks=label:e4").contains("a label is one or two characters"));
        assert_eq!(
            err("marks=circle:i9"),
            "marks item \"circle:i9\" is not allowed: expected circle: then an optional colour G, R, Y or B and a square on the 8×8 board, e.g. circle:Re4"
        );
        assert!(err("marks=circle:e4:x").contains("expected circle: then"));
        assert!(err("marks=label:z9:1").ends_with("e.g. label:Re4:12"));
        assert!(err("marks=e4").contains("the marker \"e4\" is unknown"));
        // A 10×10 board has a10.
        let big = "fen=10/10/10/10/10/10/10/10/10/10_w_-_-_0_1&marks=circle:j10";
        assert_eq!(markers(big)[0].square.rank, 9);
    }

    #[test]
    fn marks_respect_the_squares_limit() {
        let many = vec!["dot:e4"; 81].join(",");
        assert_eq!(
            err(&format!("marks={many}")),
            "marks has 81 items: at most 80 are allowed"
        );
        let half = vec!["dot:e4"; 41].join(",");
        let e = err(&format!("marks={half}&dots={}", vec!["e5"; 40].join(",")));
        assert_eq!(
            e,
            "marks, dots, legalMoves and [%mark] make 81 markers: at most 80 are allowed"
        );
    }

    #[test]
    fn mark_commands_in_annotations_and_comments() {
        let got = markers("annotations=[%25csl Gd5][%25mark circle:Re4,label:d5:1]");
        assert_eq!(got.len(), 2);
        assert_eq!(got[1].kind, MarkerKind::Label("1".into()));
        assert!(
            err("annotations=[%25mark star:e4]")
                .starts_with("annotations: [%mark] item \"star:e4\" is not allowed")
        );
        let got = markers("pgn=1.%20e4%20{[%25mark%20dotted:d5]}%20e5");
        assert!(got.is_empty(), "the comment after e4 is not the end's");
        let got = markers("pgn=1.%20e4%20{[%25mark%20dotted:d5]}&ply=1");
        assert_eq!(got[0].kind, MarkerKind::Dotted);
        assert!(
            err("pgn=1.%20e4%20{[%25mark%20dot:k9]}")
                .starts_with("pgn: the comment after 1. e4 has bad marks")
        );
    }

    #[test]
    fn a_crowded_mark_command_is_named_with_its_limit() {
        let many = vec!["dot:e4"; 81].join(",");
        let pgn = form_urlencoded::byte_serialize(format!("1. e4 {{[%mark {many}]}}").as_bytes())
            .collect::<String>();
        assert_eq!(
            err(&format!("pgn={pgn}")),
            "pgn: the comment after 1. e4 has bad marks: [%mark] marks 81 squares: at most 80 are allowed"
        );
        assert_eq!(
            err(&format!("annotations=[%25mark {many}]")),
            "annotations: [%mark] marks 81 squares: at most 80 are allowed"
        );
        let arrows = vec!["Ge2e4"; 65].join(",");
        assert_eq!(
            err(&format!("annotations=[%25cal {arrows}]")),
            "annotations: [%cal] draws 65 arrows: at most 64 are allowed"
        );
    }

    #[test]
    fn dots_and_legal_moves() {
        let got = markers("dots=e3,Re4");
        assert_eq!((got[1].kind.name(), got[1].color), ("dot", MarkColor::Red));
        assert!(
            err("dots=e9")
                .starts_with("dots item \"e9\" is not allowed: expected an optional colour")
        );
        let got = markers("fen=start&legalMoves=g1");
        let squares: Vec<_> = got.iter().map(|m| m.square.to_string()).collect();
        assert_eq!(squares, ["f3", "h3"]);
        let got = markers("fen=k7/8/8/3p4/4Q3/8/8/4K3_w_-_-_0_1&legalMoves=Be4");
        let d5 = got.iter().find(|m| m.square == sq("d5")).unwrap();
        assert_eq!((d5.kind.name(), d5.color), ("ring", MarkColor::Blue));
        assert_eq!(
            err("fen=start&legalMoves=e4"),
            "legalMoves square e4 is empty: expected a square with a piece on it"
        );
        assert_eq!(
            err("fen=start&legalMoves=e2,e4"),
            "legalMoves \"e2,e4\" is not allowed: expected one square on the 8×8 board with a piece on it, e.g. e2 or Be2"
        );
        assert!(
            err("fen=4k5/10/10/10/10/10/10/4K5_w_-_-_0_1&legalMoves=e1")
                .starts_with("legalMoves needs an 8×8 board of standard chess or Chess960: the position is not on an 8×8 board")
        );
    }
}
