//! The parsers of single values: each parameter's value in, a domain value (or one
//! sentence naming the parameter and what is allowed) out; with them the check that a
//! position's text figures can be drawn, and the `[%cal]`/`[%csl]` comment commands.

use super::error::RequestError;
use super::fen_url;
use super::limits::{Limits, MAX_NAME_BYTES};
use crate::chess::describe::{LANG_CODES, Lang};
use crate::chess::fen;
use crate::chess::piece::Piece;
use crate::chess::position::{BoardSize, Position, Square};
use crate::echo::Echo;
use crate::render::options::{
    Arrow, Check, Coordinates, Format, Glyph, LastMove, MAX_SIZE, MIN_SIZE, Orientation, SvgForm,
    TextStyle,
};
use crate::render::theme::{MarkColor, Rgba, Theme, theme_list};

pub(super) fn parse_dpi(value: &str) -> Result<u16, RequestError> {
    whole_number("dpi", value, 18..=2400, " of pixels per inch")
}

/// A whole number in `range` (spaces around it allowed), or the sentence "expected a whole
/// number`unit` from LO to HI" naming the parameter and the value.
pub(super) fn whole_number<T>(
    name: &'static str,
    value: &str,
    range: std::ops::RangeInclusive<T>,
    unit: &str,
) -> Result<T, RequestError>
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display,
{
    value
        .trim()
        .parse::<T>()
        .ok()
        .filter(|n| range.contains(n))
        .ok_or_else(|| {
            let (lo, hi) = (range.start(), range.end());
            RequestError::bad_value(
                name,
                value,
                &format!("expected a whole number{unit} from {lo} to {hi}"),
            )
        })
}

pub(super) fn parse_glyph(value: &str) -> Result<Glyph, RequestError> {
    Glyph::from_symbol(value.trim()).ok_or_else(|| {
        RequestError::bad_value("glyph", value, "expected one of !, ?, !!, ??, !?, ?!")
    })
}

/// Every character of the position's text figures (Fairy FEN `'A`, `''12`) has a glyph in
/// DejaVu Sans or an added font, or one sentence naming the first that has none.
pub(super) fn check_figure_text(position: &Position) -> Result<(), RequestError> {
    use crate::chess::fairy::FigureKind;
    for (square, figure) in position.figures() {
        let FigureKind::Text(text) = figure.shape else {
            continue;
        };
        let text = text.to_string();
        let label = format!("fen text on {}{}", square.file_char(), square.rank_number());
        RequestError::check_drawable("fen", &label, &text, &text)?;
    }
    Ok(())
}

/// How `fen` is read: its dialect and, for a board neither square nor 8 ranks tall, its
/// size.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Reading {
    dialect: fen::Dialect,
    board: Option<BoardSize>,
}

/// The `dialect` and `board` parameters (the standard dialect, the size the FEN gives, when
/// absent).
pub(crate) fn parse_reading<'a>(
    get: &impl Fn(&str) -> Option<&'a str>,
) -> Result<Reading, RequestError> {
    let dialect = match get("dialect") {
        None => fen::Dialect::default(),
        Some(value) => fen::Dialect::from_name(value).ok_or_else(|| {
            RequestError::bad_value(
                "dialect",
                value,
                "expected standard (FEN, X-FEN, crazyhouse), fairy (Fairy FEN) or letters (any letter a piece)",
            )
        })?,
    };
    let board = get("board").map(parse_board_size).transpose()?;
    Ok(Reading { dialect, board })
}

/// `10x8` (or `10×8`): files by ranks, each 1 to 16.
fn parse_board_size(value: &str) -> Result<BoardSize, RequestError> {
    let bad = || {
        RequestError::bad_value(
            "board",
            value,
            "expected files x ranks, each 1 to 16, e.g. 8x7 or 9x10",
        )
    };
    let (files, ranks) = value.split_once(['x', 'X', '×']).ok_or_else(bad)?;
    let number = |t: &str| t.trim().parse::<u8>().ok();
    number(files)
        .zip(number(ranks))
        .and_then(|(f, r)| BoardSize::new(f, r))
        .ok_or_else(bad)
}

pub(crate) fn parse_fen(
    value: Option<&str>,
    max_bytes: usize,
    reading: Reading,
) -> Result<Position, RequestError> {
    let Some(value) = value else {
        return Err(RequestError::missing(
            "fen",
            "give a position, e.g. fen=rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR_b_KQkq_e3_0_1 or fen=start",
        ));
    };
    if value.len() > max_bytes {
        return Err(RequestError::new(
            "fen",
            format!(
                "fen {} is {} bytes long: at most {max_bytes} bytes are allowed",
                Echo(value),
                value.len()
            ),
        ));
    }
    // A lichess or chess.com URL pasted whole: its FEN.
    let from_url = fen_url::fen_in_url(value).transpose()?;
    let value = from_url.as_deref().unwrap_or(value);
    fen::parse_board(value, reading.dialect, reading.board).map_err(|e| {
        let detail = e.to_string();
        let detail = detail.strip_prefix("invalid FEN: ").unwrap_or(&detail);
        RequestError::new(
            "fen",
            format!("fen {} is not a valid FEN: {detail}", Echo(value)),
        )
    })
}

pub(super) fn parse_size(value: &str, max: u32) -> Result<u32, RequestError> {
    let max = max.clamp(MIN_SIZE, MAX_SIZE);
    let allowed = format!("expected a whole number of pixels from {MIN_SIZE} to {max}");
    let digits = !value.is_empty() && value.len() <= 6 && value.bytes().all(|b| b.is_ascii_digit());
    match value.parse::<u32>() {
        Ok(n) if digits && (MIN_SIZE..=max).contains(&n) => Ok(n),
        _ => Err(RequestError::bad_value("size", value, &allowed)),
    }
}

pub(super) fn parse_orientation(value: &str) -> Result<Orientation, RequestError> {
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

pub(super) fn parse_coordinates(value: &str) -> Result<Coordinates, RequestError> {
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

/// A format (`format`): one of [`Format::NAMES`].
pub fn parse_format(value: &str) -> Result<Format, RequestError> {
    Format::from_extension(value.trim()).ok_or_else(|| {
        let expected = format!("expected {}", Format::words(&Format::ALL));
        RequestError::bad_value("format", value, &expected)
    })
}

/// A language of descriptions (`lang`): one of [`LANG_CODES`], a region ignored.
pub fn parse_lang(value: &str) -> Result<Lang, RequestError> {
    Lang::from_code(value).ok_or_else(|| {
        RequestError::bad_value(
            "lang",
            value,
            &format!("expected one of {}", LANG_CODES.join(", ")),
        )
    })
}

pub(super) fn parse_style(value: &str) -> Result<TextStyle, RequestError> {
    TextStyle::from_name(value.trim()).ok_or_else(|| {
        RequestError::bad_value(
            "style",
            value,
            "expected letters or figurines (how format=txt writes pieces)",
        )
    })
}

pub(super) fn parse_svg_form(value: &str) -> Result<SvgForm, RequestError> {
    SvgForm::from_name(value.trim()).ok_or_else(|| {
        RequestError::bad_value(
            "svg",
            value,
            "expected compact, portable or inline (how format=svg is written)",
        )
    })
}

pub(super) fn parse_piece_set(value: &str) -> Result<String, RequestError> {
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

pub(super) fn parse_theme(value: &str) -> Result<Theme, RequestError> {
    Theme::named(value).ok_or_else(|| {
        RequestError::bad_value("theme", value, &format!("expected {}", theme_list()))
    })
}

/// `#rgb` or `#rrggbb`, the `#` optional (in a URL it starts the fragment, so `eeeeee`
/// is the easy way to write one).
pub(super) fn parse_color(param: &'static str, value: &str) -> Result<Rgba, RequestError> {
    if value.is_empty() {
        return Err(RequestError::new(
            param,
            format!(
                "{param} is empty: a colour is #rgb or #rrggbb; a # written in a URL starts its fragment and cuts the rest off, so write it as %23 ({param}=%23eeeeee) or leave it out ({param}=eeeeee)"
            ),
        ));
    }
    let parsed = match value.starts_with('#') {
        true => Rgba::parse_hex(value, false),
        false => Rgba::parse_hex(&format!("#{value}"), false),
    };
    parsed.ok_or_else(|| {
        RequestError::bad_value(
            param,
            value,
            "expected a colour written #rgb or #rrggbb, the # optional (eee, e0c8a0)",
        )
    })
}

pub(crate) fn parse_flag(param: &'static str, value: &str) -> Result<bool, RequestError> {
    match value.to_ascii_lowercase().as_str() {
        "1" | "true" | "yes" | "on" => Ok(true),
        "0" | "false" | "no" | "off" | "" => Ok(false),
        _ => Err(RequestError::bad_value(
            param,
            value,
            "expected 1/true/yes or 0/false/no",
        )),
    }
}

pub(super) fn parse_last_move(
    value: &str,
    board: BoardSize,
) -> Result<Option<LastMove>, RequestError> {
    let bad = || {
        RequestError::bad_value(
            "lastMove",
            value,
            "expected a move in UCI notation such as e2e4, e7e8q or N@f3, on the board",
        )
    };
    if value.is_empty() || value == "-" {
        return Ok(None);
    }
    if let Some((piece, to)) = value.split_once('@') {
        let mut letters = piece.chars();
        let piece = match (letters.next(), letters.next()) {
            (Some(c), None) => Some(Piece::from_fen_char(c).ok_or_else(bad)?),
            _ => return Err(bad()),
        };
        let to = Square::parse(to, board).ok_or_else(bad)?;
        return Ok(Some(LastMove {
            from: None,
            to,
            piece,
        }));
    }
    let Some((from, rest)) = Square::parse_prefix(value, board) else {
        return Err(bad());
    };
    let Some((to, promotion)) = Square::parse_prefix(rest, board) else {
        return Err(bad());
    };
    let piece = match promotion {
        "" => None,
        p if p.len() == 1 && p.is_ascii() => {
            let c = p.chars().next().ok_or_else(bad)?;
            let piece = Piece::from_fen_char(c).ok_or_else(bad)?;
            matches!(piece.role.letter(), 'Q' | 'R' | 'B' | 'N' | 'A' | 'C' | 'K')
                .then_some(piece)
                .ok_or_else(bad)?;
            Some(piece)
        }
        _ => return Err(bad()),
    };
    Ok(Some(LastMove {
        from: Some(from),
        to,
        piece,
    }))
}

pub(super) fn parse_check(value: &str, board: BoardSize) -> Result<Check, RequestError> {
    match value.to_ascii_lowercase().as_str() {
        "" | "0" | "false" | "no" | "off" | "none" | "-" => Ok(Check::Off),
        "auto" | "1" | "true" | "yes" | "on" => Ok(Check::Auto),
        other => Square::parse(other, board)
            .map(Check::Square)
            .ok_or_else(|| {
                RequestError::bad_value(
                    "check",
                    value,
                    "expected a square on the board such as e8, auto, or none",
                )
            }),
    }
}

/// Split a comma list, rejecting lists longer than `max` before looking at the items.
pub(super) fn items<'a>(
    param: &'static str,
    value: &'a str,
    max: usize,
) -> Result<Vec<&'a str>, RequestError> {
    let list: Vec<&str> = value
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .take(max + 1)
        .collect();
    if list.len() > max {
        let count = value.split(',').filter(|s| !s.trim().is_empty()).count();
        return Err(RequestError::new(
            param,
            format!("{param} has {count} items: at most {max} are allowed"),
        ));
    }
    Ok(list)
}

/// `[G|R|Y|B]square[square]`: an optional colour letter, then one or two squares.
pub(super) fn parse_arrow(item: &str, board: BoardSize) -> Option<Arrow> {
    let mut letters = item.chars();
    let (color, squares) = match (
        letters.next().and_then(MarkColor::from_letter),
        letters.next(),
    ) {
        // `b1` is a square, `Bb1` a blue mark: a colour letter is followed by a file letter.
        (Some(c), Some(next)) if next.is_ascii_lowercase() => (c, &item[1..]),
        _ => (MarkColor::Green, item),
    };
    let (from, rest) = Square::parse_prefix(squares, board)?;
    let to = match rest {
        "" => from,
        rest => Square::parse(rest, board)?,
    };
    Some(Arrow { from, to, color })
}

pub(super) fn parse_arrows(
    param: &'static str,
    value: &str,
    board: BoardSize,
    max: usize,
) -> Result<Vec<Arrow>, RequestError> {
    items(param, value, max)?
        .into_iter()
        .map(|item| {
            parse_arrow(item, board).ok_or_else(|| {
                RequestError::new(
                    param,
                    format!(
                        "{param} item {} is not allowed: expected an optional colour G, R, Y or B and one or two squares on the board, e.g. Ge2e4 or Rd4",
                        Echo(item)
                    ),
                )
            })
        })
        .collect()
}

pub(super) fn parse_highlights(
    param: &'static str,
    value: &str,
    board: BoardSize,
    max: usize,
) -> Result<Vec<(Square, Rgba)>, RequestError> {
    items(param, value, max)?
        .into_iter()
        .map(|item| match parse_arrow(item, board) {
            Some(a) if a.from == a.to => Ok((a.from, a.color.highlight())),
            _ => Err(RequestError::new(
                param,
                format!(
                    "{param} item {} is not allowed: expected an optional colour G, R, Y or B and a square on the board, e.g. Ge4",
                    Echo(item)
                ),
            )),
        })
        .collect()
}

pub(super) fn parse_crosses(
    value: &str,
    board: BoardSize,
    max: usize,
) -> Result<Vec<Square>, RequestError> {
    items("squares", value, max)?
        .into_iter()
        .map(|item| {
            Square::parse(item, board).ok_or_else(|| {
                RequestError::bad_value(
                    "squares",
                    item,
                    "expected a comma list of squares on the board, e.g. e4,d5",
                )
            })
        })
        .collect()
}

/// Arrows and coloured squares of PGN comment commands.
pub type Annotations = (Vec<Arrow>, Vec<(Square, Rgba)>);

/// `[%cal Ge2e4,Rd1d8][%csl Gd4,Re5]`, as lichess and ChessBase write into PGN comments.
/// Other bracketed commands (`[%clk …]`, `[%eval …]`) and text outside brackets are ignored.
/// An error names the command as written (`[%cal] item "Gz9e4" is not allowed`); the
/// caller says where it stood (`annotations: …`, `pgn: the comment after 1. e4 …`).
pub(crate) fn parse_annotations(
    value: &str,
    board: BoardSize,
    limits: &Limits,
) -> Result<Annotations, RequestError> {
    let (mut arrows, mut highlights) = (Vec::new(), Vec::new());
    let mut rest = value;
    while let Some(open) = rest.find("[%") {
        let after = &rest[open + 2..];
        let Some(close) = after.find(']') else {
            return Err(RequestError::new(
                "annotations",
                format!(
                    "the command {} has no closing ]: expected commands in brackets such as [%cal Ge2e4,Rd1d8][%csl Gd4]",
                    Echo(&rest[open..])
                ),
            ));
        };
        let command = &after[..close];
        let (name, args) = command
            .split_once(char::is_whitespace)
            .unwrap_or((command, ""));
        let in_command = |e: RequestError| RequestError::new("annotations", e.to_string());
        match name {
            "cal" => {
                command_size("[%cal]", args, limits.arrows, "draws", "arrows")?;
                arrows.extend(
                    parse_arrows("[%cal]", args, board, limits.arrows).map_err(in_command)?,
                );
            }
            "csl" => {
                command_size("[%csl]", args, limits.squares, "marks", "squares")?;
                let found = parse_highlights("[%csl]", args, board, limits.squares);
                highlights.extend(found.map_err(in_command)?);
            }
            _ => {}
        }
        if arrows.len() > limits.arrows || highlights.len() > limits.squares {
            return Err(RequestError::new(
                "annotations",
                format!(
                    "the [%cal] and [%csl] commands together draw {} arrows and mark {} squares: at most {} arrows and {} squares are allowed",
                    arrows.len(),
                    highlights.len(),
                    limits.arrows,
                    limits.squares
                ),
            ));
        }
        rest = &after[close + 1..];
    }
    Ok((arrows, highlights))
}

/// `Ok` unless the comma list `args` of the comment command `name` has more than `max`
/// items: then one sentence naming the command, what it does with them and the limit
/// (`[%mark] marks 81 squares: at most 80 are allowed`).
pub(crate) fn command_size(
    name: &str,
    args: &str,
    max: usize,
    verb: &str,
    noun: &str,
) -> Result<(), RequestError> {
    let count = args.split(',').filter(|s| !s.trim().is_empty()).count();
    if count <= max {
        return Ok(());
    }
    Err(RequestError::new(
        "annotations",
        format!("{name} {verb} {count} {noun}: at most {max} are allowed"),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pgn_comment_commands_become_arrows_and_highlights() {
        let (arrows, highlights) = parse_annotations(
            "Good move! [%clk 0:01:00] [%cal Ge2e4,Rd1d8][%csl Gd4,Re5] {x}",
            BoardSize::CHESS,
            &Limits::default(),
        )
        .unwrap();
        assert_eq!(arrows.len(), 2);
        assert_eq!(arrows[1].color, MarkColor::Red);
        assert_eq!(highlights.len(), 2);
        assert!(parse_annotations("[%cal Ge2e4", BoardSize::CHESS, &Limits::default()).is_err());
        assert!(parse_annotations("[%cal Gz2e4]", BoardSize::CHESS, &Limits::default()).is_err());
        assert_eq!(
            parse_annotations("no commands", BoardSize::CHESS, &Limits::default())
                .unwrap()
                .0
                .len(),
            0
        );
    }

    #[test]
    fn moves_in_uci() {
        let m = |t: &str| parse_last_move(t, BoardSize::CHESS);
        assert!(m("e2e4").unwrap().is_some());
        assert!(m("e7e8q").unwrap().unwrap().piece.is_some());
        assert!(m("e1g1").unwrap().is_some());
        assert!(m("-").unwrap().is_none());
        for bad in [
            "e2", "e2e9", "e7e8x", "e7e8qq", "@f3", "NN@f3", "é2e4", "e2e4 ",
        ] {
            assert!(m(bad).is_err(), "{bad}");
        }
        assert!(
            parse_last_move("i2i4", BoardSize::new(10, 8).unwrap())
                .unwrap()
                .is_some()
        );
    }
}
