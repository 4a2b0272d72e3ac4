//! The game a request names: the PGN (or moves) a query gives and the ply it asks for, the
//! comment marks at a ply, and what `/describe` says. The diagram request and the
//! whole-game request both read their game here.

use super::error::RequestError;
use super::limits::Limits;
use super::marks;
use super::values::{Annotations, Reading, parse_annotations, parse_fen};
use crate::chess::describe::Lang;
use crate::chess::game::Game;
use crate::chess::position::{BoardSize, Position};
use crate::echo::Echo;
use crate::render::options::{CommentMarks, Glyph, LastMove};

/// What a game route says when no game is given (`pgn` is missing: …).
pub(crate) const GAME_MISSING: &str =
    "give the game as pgn (or POST its PGN as the body) or as moves";

/// What `/describe` says of a query: the position, and for a game the move that led there
/// and the game's length.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Described {
    /// The position.
    pub position: Position,
    /// The move that led to it, numbered (`23...Qxf2+`), for a game after its start.
    pub last_move: Option<String>,
    /// The game's length in plies, for a game.
    pub plies: Option<usize>,
    /// The language to describe it in (`lang`).
    pub lang: Lang,
}

impl Described {
    /// The description: the move that led to the position, if any, then the position,
    /// in [`Described::lang`].
    pub fn text(&self) -> String {
        crate::chess::describe::describe_after(&self.position, self.last_move.as_deref(), self.lang)
    }
}

/// A game a request named, and the ply it asked for.
#[derive(Debug, Clone)]
pub struct Chosen {
    /// The game.
    pub game: Game,
    /// The ply shown (0 = the start).
    pub ply: usize,
}

impl Chosen {
    /// The squares of the move that led to the chosen ply.
    pub(super) fn last_move(&self) -> Option<LastMove> {
        self.game.last_move(self.ply).map(|(from, to)| LastMove {
            from: Some(from),
            to,
            piece: None,
        })
    }

    /// The annotation of the move that led to the chosen ply.
    pub(super) fn glyph(&self) -> Option<Glyph> {
        self.game.nag(self.ply).and_then(Glyph::from_nag)
    }

    /// The `[%cal]` arrows and `[%csl]` squares of the comment after the chosen ply's move.
    pub fn annotations(
        &self,
        board: BoardSize,
        limits: &Limits,
    ) -> Result<Annotations, RequestError> {
        annotations_at(&self.game, self.ply, board, limits)
    }
}

/// The `[%cal]` and `[%csl]` marks of the comment after the move that led to `ply`.
pub fn annotations_at(
    game: &Game,
    ply: usize,
    board: BoardSize,
    limits: &Limits,
) -> Result<Annotations, RequestError> {
    parse_annotations(game.comment(ply), board, limits).map_err(|e| comment_error(game, ply, &e))
}

/// The `[%cal]`, `[%csl]` and `[%mark]` marks of the comment after the move that led to
/// `ply`: an animation frame's.
pub fn comment_marks_at(
    game: &Game,
    ply: usize,
    board: BoardSize,
    limits: &Limits,
) -> Result<CommentMarks, RequestError> {
    let (arrows, highlights) = annotations_at(game, ply, board, limits)?;
    let markers = marks::parse_mark_commands("pgn", game.comment(ply), board, limits.squares)
        .and_then(|markers| marks::within("pgn", "[%mark] commands", markers, limits.squares))
        .map_err(|e| comment_error(game, ply, &e))?;
    Ok(CommentMarks {
        arrows,
        highlights,
        markers,
    })
}

/// `e`, an error in what `param` holds (comment commands), as `param`'s: `annotations:
/// [%cal] item "Gz9e4" is not allowed: …`.
pub(super) fn param_error(param: &'static str, e: &RequestError) -> RequestError {
    RequestError::new(param, format!("{param}: {e}"))
}

/// `e`, an error in the comment after the move that led to `ply`, as `pgn`'s.
pub(super) fn comment_error(game: &Game, ply: usize, e: &RequestError) -> RequestError {
    let place = game
        .label(ply)
        .map_or("before the first move".to_string(), |l| {
            format!("after {l}")
        });
    RequestError::new(
        "pgn",
        format!("pgn: the comment {place} has bad marks: {e}"),
    )
}

/// Play `pgn` read in the piece letters of `lang` (`Sf3` with `lang=de`), else in English
/// ones, so a game in English SAN reads whatever the language of the words; the error is
/// the one of `lang`'s letters.
fn read_pgn(pgn: &str, lang: Option<Lang>, plies: usize) -> Result<Game, RequestError> {
    use crate::chess::annotated::Letters;
    let letters = lang.unwrap_or_default().letters();
    let game = match Game::from_pgn_with(pgn, plies, letters) {
        Err(e) if letters != Letters::English => Game::from_pgn(pgn, plies).map_err(|_| e),
        other => other,
    };
    game.map_err(|e| RequestError::new("pgn", format!("pgn: {e}")))
}

/// A PGN is text: tabs and line breaks are its only control characters. Any other that is
/// not printable (NUL, ESC, U+FFFF) is refused where it stands, before it can reach a tag,
/// a comment, a player's bar or a sentence; so are the line and paragraph separators
/// (U+2028, U+2029: a PGN's lines end in line feeds) and the bidirectional embeddings,
/// overrides and isolates (U+202A–U+202E, U+2066–U+2069), which would show a tag (an
/// article's title) in another order than it is drawn. The marks (U+200E, U+200F,
/// U+061C), common in names written right to left, are kept.
pub(crate) fn check_pgn_text(param: &'static str, pgn: &str) -> Result<(), RequestError> {
    use crate::echo::{forbidden, reorders, separator, unfit_in_line};
    let bad =
        |c: char| (forbidden(c) && !matches!(c, '\t' | '\n' | '\r')) || separator(c) || reorders(c);
    for (line, text) in pgn.split('\n').enumerate() {
        if let Some((column, c)) = text.chars().enumerate().find(|(_, c)| bad(*c)) {
            return Err(RequestError::new(
                param,
                format!(
                    "{param} has the character {} at line {}, column {}, {}: a PGN is text, and tabs and line breaks are its only control characters",
                    crate::echo::CodePoint(c),
                    line + 1,
                    column + 1,
                    unfit_in_line(c).unwrap_or("which is not printable")
                ),
            ));
        }
    }
    Ok(())
}

/// The game of `pgn` or `moves` (from `fen`, default the start), and the ply `ply` or
/// `move` asks for (default: the end). `None` when neither names a game.
pub(super) fn choose_game<'a>(
    get: &impl Fn(&str) -> Option<&'a str>,
    limits: &Limits,
) -> Result<Option<Chosen>, RequestError> {
    let too_long = |param: &'static str, value: &str| {
        RequestError::new(
            param,
            format!(
                "{param} is {} bytes long: at most {} bytes are allowed in a URL (POST a longer game to /game.gif or /game.png)",
                value.len(),
                limits.pgn_bytes
            ),
        )
    };
    let game = match either(get, ["pgn", "moves"], "put the moves in the PGN")? {
        Given::First(pgn) => {
            if pgn.len() > limits.pgn_bytes {
                return Err(too_long("pgn", pgn));
            }
            if get("fen").is_some() {
                return Err(RequestError::not_both(
                    "fen",
                    "fen and pgn",
                    "a PGN starts from its [FEN] tag, or the standard position",
                ));
            }
            check_pgn_text("pgn", pgn)?;
            read_pgn(pgn, get("lang").and_then(Lang::from_code), limits.plies)?
        }
        Given::Second(moves) => {
            if moves.len() > limits.pgn_bytes {
                return Err(too_long("moves", moves));
            }
            let start = match get("fen") {
                Some(_) => parse_fen(get("fen"), limits.fen_bytes, Reading::default())?,
                None => Position::start(),
            };
            Game::from_uci(&start, moves, limits.plies)
                .map_err(|e| RequestError::new("moves", format!("moves: {e}")))?
        }
        Given::Neither => {
            for param in ["ply", "move"] {
                if get(param).is_some() {
                    return Err(RequestError::new(
                        param,
                        format!(
                            "{param} picks a position of a game: give the game as pgn or moves"
                        ),
                    ));
                }
            }
            return Ok(None);
        }
    };
    let ply = match either(get, ["ply", "move"], "they both pick the position")? {
        Given::First(v) => {
            let ply: usize = v.trim().parse().map_err(|_| {
                RequestError::bad_value(
                    "ply",
                    v,
                    "expected a number of half-moves, 0 for the start",
                )
            })?;
            if ply > game.len() {
                return Err(RequestError::new(
                    "ply",
                    format!(
                        "ply {ply} is past the end of the game, which has {} plies",
                        game.len()
                    ),
                ));
            }
            ply
        }
        Given::Second(v) => parse_move_choice(v, &game)?,
        Given::Neither => game.len(),
    };
    Ok(Some(Chosen { game, ply }))
}

/// Which of two parameters that exclude each other was given.
enum Given<'a> {
    First(&'a str),
    Second(&'a str),
    Neither,
}

/// The one of `names` given, or the error that both are (`why` says why), named after
/// the second.
fn either<'a>(
    get: &impl Fn(&str) -> Option<&'a str>,
    [first, second]: [&'static str; 2],
    why: &str,
) -> Result<Given<'a>, RequestError> {
    match (get(first), get(second)) {
        (Some(_), Some(_)) => Err(RequestError::not_both(
            second,
            &format!("{first} and {second}"),
            why,
        )),
        (Some(v), None) => Ok(Given::First(v)),
        (None, Some(v)) => Ok(Given::Second(v)),
        (None, None) => Ok(Given::Neither),
    }
}

/// `23b`, `23w`, `23...`, `23.`: the ply after that move of `game`.
fn parse_move_choice(value: &str, game: &Game) -> Result<usize, RequestError> {
    const ALLOWED: &str = "expected a move number and side, such as 23w (White's 23rd) or 23b";
    let v = value.trim();
    let digits = v.find(|c: char| !c.is_ascii_digit()).unwrap_or(v.len());
    let number: u32 = v[..digits]
        .parse()
        .map_err(|_| RequestError::bad_value("move", value, ALLOWED))?;
    let color = match v[digits..].to_ascii_lowercase().as_str() {
        "w" | "." | "" => crate::chess::piece::Color::White,
        "b" | "..." | "…" => crate::chess::piece::Color::Black,
        _ => return Err(RequestError::bad_value("move", value, ALLOWED)),
    };
    game.ply_after(number, color).ok_or_else(|| {
        RequestError::new(
            "move",
            format!(
                "move {} is not in the game, which has {} plies",
                Echo(value),
                game.len()
            ),
        )
    })
}
