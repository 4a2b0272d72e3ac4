//! Puzzle files in, worksheet entries out: EPD (captions from `c0` or `id`, answers from
//! `pv` or `bm`), PGN (one diagram per game) and plain FEN lines.
//!
//! Owns reading these texts and the one-sentence errors that name the line at fault. No
//! file I/O: the caller reads the file and names it in messages.

use super::limits::MAX_PLIES;
use crate::chess::epd;
use crate::chess::game::Game;
use crate::chess::pgn;
use crate::chess::position::Position;
use crate::render::sheet::Entry;
use std::fmt;

/// Why a puzzle file could not be read: the line it happened on and one sentence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PuzzleError {
    /// The 1-based line where the bad position (or game) starts.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for PuzzleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for PuzzleError {}

/// What kind of text a puzzle file holds, from its extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PuzzleFormat {
    /// One EPD record a line.
    Epd,
    /// PGN games.
    Pgn,
    /// One FEN a line.
    Fen,
}

impl PuzzleFormat {
    /// The format of a file extension (`epd`, `pgn`, `fen`, `txt`), case-insensitive.
    pub fn from_extension(extension: &str) -> Option<PuzzleFormat> {
        match extension.to_ascii_lowercase().as_str() {
            "epd" => Some(PuzzleFormat::Epd),
            "pgn" => Some(PuzzleFormat::Pgn),
            "fen" | "txt" => Some(PuzzleFormat::Fen),
            _ => None,
        }
    }
}

/// The entries of `text`, at most `max` of them (more is an error naming the count).
pub fn read(text: &str, format: PuzzleFormat, max: usize) -> Result<Vec<Entry>, PuzzleError> {
    let entries = match format {
        PuzzleFormat::Epd => read_epd(text)?,
        PuzzleFormat::Pgn => read_pgn(text)?,
        PuzzleFormat::Fen => read_fen(text)?,
    };
    if entries.is_empty() {
        return Err(PuzzleError {
            line: text.lines().count().max(1),
            message: "the file holds no position".into(),
        });
    }
    if entries.len() > max {
        return Err(PuzzleError {
            line: 1,
            message: format!(
                "the file holds {} positions: a sheet takes at most {max}",
                entries.len()
            ),
        });
    }
    Ok(entries)
}

/// Moves as a line of text: `1. e4 e5 2. Nf3`, or `1...Qxf2+ 2. Kh1` when Black begins.
pub fn line_of(game: &Game) -> String {
    let mut out = String::new();
    for ply in 1..=game.len() {
        let Some(label) = game.label(ply) else { break };
        let numbered = ply == 1 || game.mover(ply) == Some(crate::chess::piece::Color::White);
        let shown = match numbered {
            true => label,
            false => game.san(ply).unwrap_or_default(),
        };
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(&shown);
    }
    out
}

/// The moves of `sans` (each a whole answer from `position`) checked and written in
/// standard SAN, joined by "or"; as written when the rules cannot be played here (boards
/// other than 8×8 chess).
fn best_moves(position: &Position, sans: &[String]) -> Result<String, String> {
    if Game::from_san(position, "", 0).is_err() {
        return Ok(sans.join(" or "));
    }
    let mut shown = Vec::with_capacity(sans.len());
    for san in sans {
        let game = Game::from_san(position, san, 1).map_err(|e| {
            // The game starts at this line's position: "in the starting position" is it.
            format!(
                "bm: {}",
                e.to_string().trim_end_matches(" in the starting position")
            )
        })?;
        shown.push(line_of(&game));
    }
    Ok(shown.join(" or "))
}

fn read_epd(text: &str) -> Result<Vec<Entry>, PuzzleError> {
    let mut entries = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let fail = |message: String| PuzzleError { line, message };
        let Some(record) = epd::parse_line(raw).map_err(|e| fail(e.to_string()))? else {
            continue;
        };
        let solution = match (record.operands("pv"), record.operands("bm")) {
            (Some(pv), _) if !pv.is_empty() => {
                match Game::from_san(&record.position, &pv.join(" "), MAX_PLIES) {
                    Ok(game) => Some(line_of(&game)),
                    Err(_) if Game::from_san(&record.position, "", 0).is_err() => {
                        Some(pv.join(" "))
                    }
                    Err(e) => {
                        let why = e.to_string().replace(" in the starting position", "");
                        return Err(fail(format!("pv: {why}")));
                    }
                }
            }
            (_, Some(bm)) if !bm.is_empty() => {
                Some(best_moves(&record.position, bm).map_err(fail)?)
            }
            _ => None,
        };
        let caption = record
            .text("c0")
            .or_else(|| record.text("id"))
            .map(str::to_string);
        entries.push(Entry {
            position: record.position,
            caption,
            solution,
        });
    }
    Ok(entries)
}

/// A game's caption from its tags: `White – Black, Event Year` with what is known.
fn citation(game: &Game) -> Option<String> {
    let known = |tag: &str| {
        game.header(tag)
            .map(str::trim)
            .filter(|v| !v.is_empty() && !v.starts_with('?') && *v != "-")
    };
    let players = match (known("White"), known("Black")) {
        (Some(w), Some(b)) => Some(format!("{w} – {b}")),
        (w, b) => w.or(b).map(str::to_string),
    };
    let place = known("Event").or_else(|| known("Site"));
    let year = known("Date")
        .and_then(|d| d.get(..4))
        .filter(|y| y.bytes().all(|b| b.is_ascii_digit()));
    let source = match (place, year) {
        (Some(p), Some(y)) => Some(format!("{p} {y}")),
        (p, y) => p.or(y).map(str::to_string),
    };
    match (players, source) {
        (Some(p), Some(s)) => Some(format!("{p}, {s}")),
        (p, s) => p.or(s),
    }
}

fn read_pgn(text: &str) -> Result<Vec<Entry>, PuzzleError> {
    let mut entries = Vec::new();
    for (line, game_text) in pgn::split_games(text) {
        let game = Game::from_pgn(game_text, MAX_PLIES).map_err(|e| PuzzleError {
            line,
            message: e.to_string(),
        })?;
        let caption = citation(&game).or_else(|| {
            let intro = game.comment(0).trim();
            (!intro.is_empty()).then(|| intro.to_string())
        });
        // A game set up from a position is a puzzle: that position, its moves the answer.
        // Any other game is shown as it ended.
        let entry = match game.header("FEN") {
            Some(_) => Entry {
                position: game.position(0),
                caption,
                solution: (!game.is_empty()).then(|| line_of(&game)),
            },
            None => Entry {
                position: game.position(game.len()),
                caption,
                solution: None,
            },
        };
        entries.push(entry);
    }
    Ok(entries)
}

fn read_fen(text: &str) -> Result<Vec<Entry>, PuzzleError> {
    let mut entries = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let position = crate::chess::fen::parse(line).map_err(|e| PuzzleError {
            line: i + 1,
            message: format!("{} is not a valid FEN: {e}", crate::echo::Echo(line)),
        })?;
        entries.push(Entry {
            position,
            caption: None,
            solution: None,
        });
    }
    Ok(entries)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn epd_captions_and_answers() {
        let text = "# two puzzles\n\
            r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - bm Qxf7#; id \"mate.1\"; c0 \"White to play and win\";\n\
            \n\
            6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - bm Rd8+; id \"back rank\";\n";
        let entries = read(text, PuzzleFormat::Epd, 10).expect("reads");
        assert_eq!(entries.len(), 2);
        assert_eq!(entries[0].caption.as_deref(), Some("White to play and win"));
        assert_eq!(entries[0].solution.as_deref(), Some("1. Qxf7#"));
        assert_eq!(entries[1].caption.as_deref(), Some("back rank"));
        assert_eq!(entries[1].solution.as_deref(), Some("1. Rd8#"));
    }

    #[test]
    fn epd_errors_name_the_line() {
        let text = "8/8/8/8/8/8/8/K6k w - -\n\nnot a position at all\n";
        let e = read(text, PuzzleFormat::Epd, 10).expect_err("bad line");
        assert_eq!(e.line, 3, "{e}");
        let text = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - bm Qh7;\n";
        let e = read(text, PuzzleFormat::Epd, 10).expect_err("illegal bm");
        assert!(e.to_string().starts_with("line 1: bm"), "{e}");
        let many = "8/8/8/8/8/8/8/K6k w - -\n".repeat(5);
        let e = read(&many, PuzzleFormat::Epd, 4).expect_err("too many");
        assert!(e.message.contains("5 positions"), "{e}");
    }

    #[test]
    fn pgn_games_are_puzzles_or_endings() {
        let text = "[White \"Morphy, Paul\"]\n[Black \"?\"]\n[Event \"Paris\"]\n[Date \"1858.11.02\"]\n[FEN \"6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1\"]\n\n1. Rd8# 1-0\n\n\
            [Event \"?\"]\n\n1. e4 e5 2. Qh5 Nc6 *\n";
        let entries = read(text, PuzzleFormat::Pgn, 10).expect("reads");
        assert_eq!(entries.len(), 2);
        assert_eq!(
            entries[0].caption.as_deref(),
            Some("Morphy, Paul, Paris 1858")
        );
        assert_eq!(entries[0].solution.as_deref(), Some("1. Rd8#"));
        assert_eq!(entries[1].caption, None);
        assert_eq!(entries[1].solution, None);
        assert_eq!(
            entries[1].position.turn,
            crate::chess::piece::Color::White,
            "shown after its last move"
        );
        let bad = "[Event \"x\"]\n\n1. e4 e5\n\n[Event \"y\"]\n\n1. e5 *\n";
        let e = read(bad, PuzzleFormat::Pgn, 10).expect_err("illegal");
        assert_eq!(e.line, 5, "{e}");
    }

    #[test]
    fn black_to_move_lines_number_like_books() {
        let position = crate::chess::fen::parse(
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2",
        )
        .expect("valid");
        let game = Game::from_san(&position, "Nf6 Nxe5 Nxe5", 10).expect("legal");
        assert_eq!(line_of(&game), "2...Nf6 3. Nxe5 Nxe5");
    }
}
