//! Where a dataset's positions come from: a file of them (FEN or EPD lines, or PGN games,
//! every position of every game), or random legal play from the start.
//!
//! Owns reading a positions file (bounded: [`MAX_POSITIONS_BYTES`], [`MAX_POSITIONS`]) and
//! its one-sentence errors naming the line; no file I/O (the caller reads the file and
//! names it).

use crate::chess::epd;
use crate::chess::game::Game;
use crate::chess::pgn;
use crate::chess::position::{Position, Square};
use crate::request::MAX_PLIES;

/// Largest positions file, in bytes.
pub const MAX_POSITIONS_BYTES: u64 = 256 << 20;

/// Most positions a file may hold.
pub const MAX_POSITIONS: usize = 5_000_000;

/// A position to draw, and its last move when the source knows it (a game's).
#[derive(Debug, Clone)]
pub struct Given {
    /// The position.
    pub position: Position,
    /// The last move's squares, as drawn.
    pub last_move: Option<(Square, Square)>,
}

/// How a positions file is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// PGN games: every position of each, the start too.
    Pgn,
    /// One FEN or EPD record a line (`#` begins a comment line).
    Lines,
}

impl Kind {
    /// The kind of a file: PGN by its extension (`.pgn`) or when its first text is a tag
    /// pair (`[`); lines otherwise.
    pub fn of(extension: Option<&str>, text: &str) -> Kind {
        let pgn_name = extension.is_some_and(|e| e.eq_ignore_ascii_case("pgn"));
        if pgn_name || text.trim_start().starts_with('[') {
            Kind::Pgn
        } else {
            Kind::Lines
        }
    }
}

/// The positions of `text`, or one sentence naming the line at fault.
pub fn read(text: &str, kind: Kind) -> Result<Vec<Given>, String> {
    let positions = match kind {
        Kind::Pgn => read_games(text)?,
        Kind::Lines => read_lines(text)?,
    };
    if positions.is_empty() {
        return Err("it holds no position".into());
    }
    Ok(positions)
}

/// Refuse a position the dataset cannot label: boards other than 8 × 8, pockets, and
/// pieces other than the six of chess.
fn check(position: &Position, line: usize) -> Result<(), String> {
    let orthodox = position.files() == 8
        && position.ranks() == 8
        && position.pocket.is_none()
        && position.figures().next().is_none()
        && position
            .pieces()
            .all(|(_, p)| "PNBRQKpnbrqk".contains(p.fen_char()));
    if orthodox {
        Ok(())
    } else {
        Err(format!(
            "line {line}: the position is not one of chess on 8 × 8 squares with its six pieces, which is what a dataset labels"
        ))
    }
}

fn too_many(line: usize) -> String {
    format!("line {line}: the file holds more than {MAX_POSITIONS} positions")
}

fn read_games(text: &str) -> Result<Vec<Given>, String> {
    let mut out = Vec::new();
    for (line, game_text) in pgn::split_games(text) {
        let game = Game::from_pgn(game_text, MAX_PLIES).map_err(|e| format!("line {line}: {e}"))?;
        for ply in 0..=game.len() {
            let position = game.position(ply);
            check(&position, line)?;
            out.push(Given {
                position,
                last_move: game.last_move(ply),
            });
            if out.len() > MAX_POSITIONS {
                return Err(too_many(line));
            }
        }
    }
    Ok(out)
}

fn read_lines(text: &str) -> Result<Vec<Given>, String> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let position = match crate::chess::fen::parse(line) {
            Ok(p) => p,
            Err(fen_error) => match epd::parse_line(line) {
                Ok(Some(record)) => record.position,
                _ => {
                    return Err(format!(
                        "line {}: {} is neither a FEN nor an EPD record: {fen_error}",
                        i + 1,
                        crate::echo::Echo(line)
                    ));
                }
            },
        };
        check(&position, i + 1)?;
        out.push(Given {
            position,
            last_move: None,
        });
        if out.len() > MAX_POSITIONS {
            return Err(too_many(i + 1));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_give_every_position_and_lines_give_one_each() {
        let games = "[Event \"a\"]\n\n1. e4 e5 2. Nf3 *\n\n[Event \"b\"]\n\n1. d4 *\n";
        let given = read(games, Kind::of(None, games)).unwrap();
        assert_eq!(given.len(), 4 + 2);
        assert!(given[0].last_move.is_none());
        assert_eq!(
            given[1]
                .last_move
                .map(|(f, t)| (f.to_string(), t.to_string())),
            Some(("e2".into(), "e4".into()))
        );
        let lines = "# two\nstart\n8/8/8/8/8/8/8/K6k w - - bm Ka2;\n";
        let given = read(lines, Kind::of(Some("epd"), lines)).unwrap();
        assert_eq!(given.len(), 2);
    }

    #[test]
    fn bad_files_are_refused_naming_the_line() {
        assert_eq!(
            read("\n# nothing\n", Kind::Lines).unwrap_err(),
            "it holds no position"
        );
        let e = read("start\nnonsense\n", Kind::Lines).unwrap_err();
        assert!(e.starts_with("line 2: \"nonsense\" is neither"), "{e}");
        let e = read(
            "rnbqkbnr/pppppppp/10/10/8/8/PPPPPPPP/RNBQKBNR w - - 0 1\n",
            Kind::Lines,
        );
        assert!(e.is_err());
        let e = read("start\n8/8/8/8/8/8/8/KA5k w - - 0 1\n", Kind::Lines).unwrap_err();
        assert!(
            e.starts_with("line 2: the position is not one of chess"),
            "{e}"
        );
    }
}
