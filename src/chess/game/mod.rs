//! Games: a start position and moves played by the rules, from PGN, from SAN moves (as
//! people write them) or from UCI moves; the position after any ply, the move that led
//! there (squares and SAN), its annotation and comment.
//!
//! Legal move generation is cozy-chess's (MIT); reading SAN and writing it back is ours.
//! Standard chess and Chess960 on 8×8 boards. Castling is kept as cozy-chess does, king
//! takes own rook, which serves both.
//!
//! The parts: `error` holds [`GameError`] and its sentences, `board` is the bridge to
//! cozy-chess (our positions to its boards and back, a game's start board from its tags),
//! and `san` reads and writes moves (SAN in any language's letters, UCI). This file holds
//! the [`Game`] they play.

use crate::chess::letters::Letters;
use crate::chess::pgn::{self, Pgn};
use crate::chess::piece::Color;
use crate::chess::position::{Position, Square};
use crate::echo::clip;
use board::{castle_side, letter};
use cozy_chess as cc;
use error::too_long;
use san::read_uci;

mod board;
mod error;
mod san;

pub(crate) use board::{
    after, board_of, color_of, move_squares, numbered, position_of, start_board,
};
pub use error::{GameError, GameErrorKind, IllegalMove, Unplayable};
pub(crate) use san::{read_san, write_san};

/// A position reached by `plies` random legal moves from the start (fewer when the game
/// ends first), and the last move's squares as drawn: `pick(n)` chooses one of the `n`
/// legal moves (an index below `n`), so the caller's random numbers decide, and the same
/// choices always make the same position (moves are taken in cozy-chess's order).
pub fn random_play(
    plies: usize,
    mut pick: impl FnMut(usize) -> usize,
) -> (Position, Option<(Square, Square)>) {
    let mut board = cc::Board::default();
    let mut last = None;
    let mut moves = Vec::with_capacity(64);
    for _ in 0..plies {
        moves.clear();
        board.generate_moves(|piece_moves| {
            moves.extend(piece_moves);
            false
        });
        if moves.is_empty() {
            break;
        }
        let mv = moves[pick(moves.len()).min(moves.len() - 1)];
        last = Some(move_squares(&board, mv));
        board = after(&board, mv);
    }
    (position_of(&board), last)
}

/// One half-move as played.
#[derive(Debug, Clone)]
struct Ply {
    mv: cc::Move,
    /// As written (SAN without its suffix, or UCI).
    written: String,
    nag: Option<u8>,
    comment: String,
}

/// A game: the positions after every ply of its main line.
///
/// Read from PGN ([`Game::from_pgn`]), or from moves in SAN or UCI after a position; each
/// move is checked by the rules. Any ply's position is then a diagram like any other.
///
/// ```
/// use staunton::chess::game::Game;
/// use staunton::render::options::LastMove;
/// use staunton::{render_png, RenderOptions};
///
/// let game = Game::from_pgn("[White \"Morphy\"]\n\n1. e4 e5 2. Nf3 d6 3. d4 Bg4 *", 1000)?;
/// assert_eq!((game.len(), game.header("white")), (6, Some("Morphy")));
/// assert_eq!(game.label(6).as_deref(), Some("3...Bg4"));
///
/// let (from, to) = game.last_move(6).expect("a move led there");
/// let options = RenderOptions {
///     last_move: Some(LastMove { from: Some(from), to, piece: None }),
///     ..RenderOptions::default()
/// };
/// let png = render_png(&game.position(6).to_string(), &options)?;
/// assert!(png.starts_with(b"\x89PNG"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct Game {
    headers: Vec<(String, String)>,
    intro: String,
    /// `boards[i]` is the position after `i` plies.
    boards: Vec<cc::Board>,
    plies: Vec<Ply>,
    /// The result token that ended the movetext (`1-0`, `0-1`, `1/2-1/2`, `*`), if any.
    result: Option<String>,
}

impl Game {
    /// Read `text` as PGN and play its main line; at most `max_plies` plies.
    pub fn from_pgn(text: &str, max_plies: usize) -> Result<Game, GameError> {
        Game::from_pgn_with(text, max_plies, Letters::English)
    }

    /// [`Game::from_pgn`] with moves written in `letters` (figurines are read too).
    pub fn from_pgn_with(
        text: &str,
        max_plies: usize,
        letters: Letters,
    ) -> Result<Game, GameError> {
        let pgn = pgn::read(text)?;
        let start = start_board(&pgn.headers, letters)?;
        Game::play(start, pgn, max_plies, letters)
    }

    /// Play SAN `moves` from `start`; at most `max_plies` plies. The moves are read as PGN
    /// movetext: move numbers, check and annotation suffixes, NAGs, comments and a result
    /// are allowed, tag pairs and moves after the result are not.
    pub fn from_san(start: &Position, moves: &str, max_plies: usize) -> Result<Game, GameError> {
        Game::from_san_with(start, moves, max_plies, Letters::English)
    }

    /// [`Game::from_san`] with moves written in `letters` (figurines are read too).
    pub fn from_san_with(
        start: &Position,
        moves: &str,
        max_plies: usize,
        letters: Letters,
    ) -> Result<Game, GameError> {
        if start.files() == 10 && letters.clash_on_10x8() {
            return Err(GameErrorKind::LettersOn10x8 { letters }.into());
        }
        let board = board_of(start).map_err(GameErrorKind::UnplayablePosition)?;
        let (pgn, rest) = pgn::read_first(moves)?;
        if let Some((name, value)) = pgn.headers.first() {
            return Err(GameErrorKind::TagPair {
                text: clip(&format!("[{name} \"{value}\"]")),
            }
            .into());
        }
        let rest = rest.trim();
        if !rest.is_empty() {
            let text = clip(rest);
            return Err(match pgn.result {
                Some(result) => GameErrorKind::AfterResult { text, result },
                None => GameErrorKind::NotAMove { text },
            }
            .into());
        }
        Game::play(board, pgn, max_plies, letters)
    }

    /// Play `pgn`'s main line from `start`; at most `max_plies` plies.
    fn play(
        start: cc::Board,
        pgn: Pgn,
        max_plies: usize,
        letters: Letters,
    ) -> Result<Game, GameError> {
        if pgn.moves.len() > max_plies {
            return Err(too_long(pgn.moves.len(), max_plies));
        }
        let mut game = Game {
            headers: pgn.headers,
            intro: pgn.intro,
            boards: Vec::with_capacity(pgn.moves.len() + 1),
            plies: Vec::with_capacity(pgn.moves.len()),
            result: pgn.result,
        };
        game.boards.push(start);
        for m in pgn.moves {
            let board = game.boards.last().expect("the start is there");
            let mv =
                read_san(board, &m.san, letters).map_err(|why| game.move_error(&m.san, why))?;
            game.push(Ply {
                mv,
                written: m.san,
                nag: m.nag,
                comment: m.comment,
            });
        }
        Ok(game)
    }

    /// Play UCI `moves` (separated by spaces, commas or `_`; castling as `e1g1` or king
    /// takes rook)
    /// from `start`; at most `max_plies` plies.
    pub fn from_uci(start: &Position, moves: &str, max_plies: usize) -> Result<Game, GameError> {
        let board = board_of(start).map_err(GameErrorKind::UnplayablePosition)?;
        let tokens: Vec<&str> = moves
            .split(|c: char| c == ',' || c == '_' || c.is_whitespace())
            .filter(|t| !t.is_empty())
            .collect();
        if tokens.len() > max_plies {
            return Err(too_long(tokens.len(), max_plies));
        }
        let mut game = Game {
            headers: Vec::new(),
            intro: String::new(),
            boards: vec![board],
            plies: Vec::with_capacity(tokens.len()),
            result: None,
        };
        for token in tokens {
            let board = game.boards.last().expect("the start is there");
            let mv = read_uci(board, token).map_err(|why| game.move_error(token, why))?;
            game.push(Ply {
                mv,
                written: token.to_string(),
                nag: None,
                comment: String::new(),
            });
        }
        Ok(game)
    }

    fn push(&mut self, ply: Ply) {
        let mut board = self.boards.last().expect("the start is there").clone();
        board.play_unchecked(ply.mv);
        self.boards.push(board);
        self.plies.push(ply);
    }

    /// The sentence for a move that cannot be played next.
    fn move_error(&self, written: &str, why: IllegalMove) -> GameError {
        let board = self.boards.last().expect("the start is there");
        let after = match self.plies.len() {
            0 => None,
            n => Some(self.label_written(n)),
        };
        GameErrorKind::Move {
            number: board.fullmove_number(),
            side: color_of(board.side_to_move()),
            written: clip(written),
            after,
            why,
        }
        .into()
    }

    /// Plies in the main line.
    pub fn len(&self) -> usize {
        self.plies.len()
    }

    /// True when the game has no moves.
    pub fn is_empty(&self) -> bool {
        self.plies.is_empty()
    }

    /// A tag pair's value (case-insensitive name).
    pub fn header(&self, name: &str) -> Option<&str> {
        pgn::tag_value(&self.headers, name)
    }

    /// The tag pairs, in the order written (`("White", "Morphy, Paul")`).
    pub fn headers(&self) -> &[(String, String)] {
        &self.headers
    }

    /// The result token that ended the movetext (`1-0`, `0-1`, `1/2-1/2`, `*`), if it had
    /// one (the `[Result]` tag is [`Game::header`]'s).
    pub fn result(&self) -> Option<&str> {
        self.result.as_deref()
    }

    /// The position after `ply` plies (0 = the start), `ply` at most [`Game::len`].
    pub fn position(&self, ply: usize) -> Position {
        position_of(&self.boards[ply.min(self.len())])
    }

    /// The squares of the move that led to `ply` (from, to; castling: the king's squares),
    /// or `None` at the start.
    pub fn last_move(&self, ply: usize) -> Option<(Square, Square)> {
        let i = ply.checked_sub(1)?;
        let (mv, board) = (self.plies.get(i)?.mv, &self.boards[i]);
        Some(move_squares(board, mv))
    }

    /// The side that played the move that led to `ply`.
    pub fn mover(&self, ply: usize) -> Option<Color> {
        let board = self.boards.get(ply.checked_sub(1)?)?;
        Some(color_of(board.side_to_move()))
    }

    /// The annotation (NAG 1–6) of the move that led to `ply`.
    pub fn nag(&self, ply: usize) -> Option<u8> {
        self.plies.get(ply.checked_sub(1)?)?.nag
    }

    /// The comment after the move that led to `ply` (at 0: the comment before the first
    /// move).
    pub fn comment(&self, ply: usize) -> &str {
        match ply.checked_sub(1) {
            None => &self.intro,
            Some(i) => self.plies.get(i).map_or("", |p| p.comment.as_str()),
        }
    }

    /// The move that led to `ply` in standard SAN, with `+` or `#`.
    pub fn san(&self, ply: usize) -> Option<String> {
        let i = ply.checked_sub(1)?;
        let (mv, board) = (self.plies.get(i)?.mv, &self.boards[i]);
        Some(write_san(board, mv, &self.boards[i + 1]))
    }

    /// The move that led to `ply` in UCI: `e2e4`, `e7e8q`. Castling is the king's
    /// two-square move (`e1g1`) when the king stands on the e-file and the rook in the
    /// corner, as in standard chess; otherwise (Chess960) king takes rook (`d1g1`).
    pub fn uci(&self, ply: usize) -> Option<String> {
        let i = ply.checked_sub(1)?;
        let (mv, board) = (self.plies.get(i)?.mv, &self.boards[i]);
        let to = match castle_side(board, mv) {
            Some(short)
                if mv.from.file() == cc::File::E
                    && mv.to.file() == if short { cc::File::H } else { cc::File::A } =>
            {
                let file = if short { cc::File::G } else { cc::File::C };
                cc::Square::new(file, mv.from.rank())
            }
            _ => mv.to,
        };
        let mut uci = format!("{}{}", mv.from, to);
        if let Some(p) = mv.promotion {
            uci.push(letter(p).to_ascii_lowercase());
        }
        Some(uci)
    }

    /// The number of the move that led to `ply` (`23` for both `23. Qxf2+` and `23...Kh8`).
    pub fn move_number(&self, ply: usize) -> Option<u32> {
        let board = self.boards.get(ply.checked_sub(1)?)?;
        (ply <= self.len()).then(|| u32::from(board.fullmove_number()))
    }

    /// The move that led to `ply` with its number: `23. Qxf2+` or `23...Qxf2+`.
    pub fn label(&self, ply: usize) -> Option<String> {
        let san = self.san(ply)?;
        Some(self.numbered(ply, &san))
    }

    fn label_written(&self, ply: usize) -> String {
        self.numbered(ply, &self.plies[ply - 1].written)
    }

    fn numbered(&self, ply: usize, san: &str) -> String {
        numbered(&self.boards[ply - 1], san)
    }

    /// The ply after `number`'s move by `color` (`move=23b`), if the game has it.
    pub fn ply_after(&self, number: u32, color: Color) -> Option<usize> {
        (1..=self.len()).find(|&ply| {
            let board = &self.boards[ply - 1];
            u32::from(board.fullmove_number()) == number && color_of(board.side_to_move()) == color
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::fen;

    /// The game of `pgn`, which must play.
    fn plays(pgn: &str) -> Game {
        Game::from_pgn(pgn, 1000).expect("plays")
    }

    fn fen_after(game: &Game, ply: usize) -> String {
        game.position(ply).to_string()
    }

    #[test]
    fn plays_the_opera_game_opening_with_checks_and_captures() {
        let game =
            plays("1. e4 e5 2. Nf3 d6 3. d4 Bg4 4. dxe5 Bxf3 5. Qxf3 dxe5 6. Bc4 Nf6 7. Qb3 Qe7");
        assert_eq!(game.len(), 14);
        assert_eq!(
            fen_after(&game, 14),
            "rn2kb1r/ppp1qppp/5n2/4p3/2B1P3/1Q6/PPP2PPP/RNB1K2R w KQkq - 4 8"
        );
        assert_eq!(game.label(8).as_deref(), Some("4...Bxf3"));
        assert_eq!(game.label(13).as_deref(), Some("7. Qb3"));
        assert_eq!(
            game.last_move(1),
            Some((Square::new(4, 1), Square::new(4, 3)))
        );
        assert_eq!(game.ply_after(4, Color::Black), Some(8));
        assert_eq!(game.last_move(0), None);
    }

    #[test]
    fn illegal_and_ambiguous_moves_name_the_move_and_what_came_before() {
        let e = Game::from_pgn("1. e4 e5 2. Ke3", 1000)
            .unwrap_err()
            .to_string();
        assert_eq!(e, "2. Ke3 is not a legal move for White after 1...e5");
        let e = Game::from_pgn("1. Nf3 a6 2. Nc3 a5 3. Ne4 a4 4. Ng5", 1000)
            .map(|_| ())
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("4. Ng5 is ambiguous"), "{e}");
        assert!(e.contains("Nfg5") && e.contains("Neg5"), "{e}");
        let e = Game::from_pgn("1. e9", 1000).unwrap_err().to_string();
        assert!(e.contains("1. e9 is not a move in SAN"), "{e}");
        assert!(e.ends_with("in the starting position"), "{e}");
        let e = Game::from_pgn("1. e4 e5 2. Nf3", 2)
            .unwrap_err()
            .to_string();
        assert_eq!(e, "the game has 3 plies: at most 2 are allowed");
        let e = Game::from_pgn("[Variant \"Crazyhouse\"] 1. e4", 10)
            .unwrap_err()
            .to_string();
        assert!(e.contains("Crazyhouse\" is not supported"), "{e}");
    }

    #[test]
    fn castling_en_passant_and_promotion_in_san_and_uci() {
        let pgn = "1. e4 d5 2. e5 f5 3. exf6 e.p. Nc6 4. fxg7 Qd6 5. gxh8=N Bd7 6. Nf3 O-O-O 7. Bc4 a6 8. O-O";
        let game = plays(pgn);
        assert_eq!(game.san(5).as_deref(), Some("exf6"));
        assert_eq!(game.san(9).as_deref(), Some("gxh8=N"));
        assert_eq!(game.san(12).as_deref(), Some("O-O-O"));
        assert_eq!(
            game.last_move(12),
            Some((Square::new(4, 7), Square::new(2, 7)))
        );
        assert_eq!(game.label(15).as_deref(), Some("8. O-O"));
        let uci = "e2e4 d7d5 e4e5 f7f5 e5f6 b8c6 f6g7 d8d6 g7h8n c8d7 g1f3 e8c8 f1c4 a7a6 e1g1";
        let by_uci = Game::from_uci(&Position::start(), uci, 1000).expect("plays");
        assert_eq!(by_uci.position(15), game.position(15));
        assert_eq!(
            fen_after(&game, 4),
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "the en-passant square is written when the capture is legal"
        );
        assert_eq!(
            fen_after(&game, 2),
            "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
            "and not when it is not"
        );
    }

    #[test]
    fn typeset_movetext_reads_like_pgn_and_errors_quote_it() {
        // The same game as pasted from a book: zeros and en dashes for castling, figurines
        // of either colour, a glyph glued after a check, an en-dashed result.
        let typeset =
            "1. e4 e5 2. ♘f3 ♞c6 3. ♗c4 ♗c5 4. 0–0 ♘f6 5. d3 d6 6. ♕e2+! o-o 7. ♗g5 ♛e7 1–0";
        let plain = "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O Nf6 5. d3 d6 6. Qe2 O-O 7. Bg5 Qe7 1-0";
        let (a, b) = (Game::from_pgn(typeset, 1000), Game::from_pgn(plain, 1000));
        let (a, b) = (a.expect("typeset plays"), b.expect("plain plays"));
        assert_eq!(a.len(), b.len());
        assert_eq!(a.position(a.len() - 1), b.position(b.len() - 1));
        assert_eq!(
            a.san(7).as_deref(),
            Some("O-O"),
            "written back in PGN's spelling"
        );
        assert_eq!(a.result(), Some("1-0"));
        let long = Game::from_pgn(
            "1. d4 d5 2. ♘c3 ♘c6 3. ♗f4 ♗f5 4. ♕d2 ♕d7 5. O–O–O 0-0-0",
            99,
        );
        assert_eq!(long.expect("plays").san(9).as_deref(), Some("O-O-O"));
        let drawn = crate::chess::pgn::read("1. e4 e5 ½–½").expect("reads");
        assert_eq!(drawn.result.as_deref(), Some("½-½"));
        // Still strict: castling through a piece, and a figurine on a wrong square.
        let err = Game::from_pgn("1. e4 e5 2. 0–0", 99).expect_err("cannot castle");
        assert!(err.to_string().contains("0–0"), "{err}");
        let err = Game::from_pgn("1. ♘e4", 99).expect_err("no knight reaches e4");
        assert!(err.to_string().contains("♘e4"), "{err}");
    }

    #[test]
    fn uci_castles_with_the_king_s_two_squares_and_in_chess960_king_takes_rook() {
        let game =
            plays("1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O d6 5. d3 Bg4 6. Nc3 Qd7 7. Be3 O-O-O");
        assert_eq!(game.uci(1).as_deref(), Some("e2e4"));
        assert_eq!(game.uci(7).as_deref(), Some("e1g1"));
        assert_eq!(game.uci(14).as_deref(), Some("e8c8"));
        assert_eq!(game.uci(15), None);
        assert_eq!(
            (game.move_number(13), game.move_number(14)),
            (Some(7), Some(7))
        );
        assert_eq!((game.move_number(0), game.move_number(15)), (None, None));
        let by_uci = Game::from_uci(
            &Position::start(),
            &(1..=14)
                .filter_map(|p| game.uci(p))
                .collect::<Vec<_>>()
                .join(" "),
            100,
        )
        .expect("its own UCI plays back");
        assert_eq!(by_uci.position(14), game.position(14));
        let fischer = plays(
            "[Variant \"Chess960\"]\n[FEN \"nrbkqbrn/pppppppp/8/8/8/8/PPPPPPPP/NRBKQBRN w KQkq - 0 1\"]\n1. e4 e5 2. Bc4 Bc5 3. Qe2 d6 4. O-O *",
        );
        assert_eq!(fischer.san(7).as_deref(), Some("O-O"));
        assert_eq!(fischer.uci(7).as_deref(), Some("d1g1"));
        assert_eq!(fischer.result(), Some("*"));
        assert_eq!(fischer.headers()[0].0, "Variant");
        let start = fen::parse("8/P6k/8/8/8/8/8/K7 w - - 0 1").expect("a valid FEN");
        let promotion = Game::from_uci(&start, "a7a8n", 10).expect("plays");
        assert_eq!(promotion.uci(1).as_deref(), Some("a7a8n"));
        assert_eq!(promotion.result(), None);
    }

    #[test]
    fn check_and_mate_suffixes() {
        let game = plays("1. f3 e5 2. g4 Qh4#");
        assert_eq!(game.label(4).as_deref(), Some("2...Qh4#"));
        let game = plays("1. e4 f5 2. Qh5+");
        assert_eq!(game.san(3).as_deref(), Some("Qh5+"));
    }

    /// After 1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6.
    const TWO_KNIGHTS: &str = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";

    fn from_san(fen: &str, moves: &str) -> Result<Game, GameError> {
        let start = fen::parse(fen).expect("a valid FEN");
        Game::from_san(&start, moves, 100)
    }

    #[test]
    fn from_san_plays_from_the_given_position() {
        let game = from_san(TWO_KNIGHTS, "Ng5").expect("plays");
        assert_eq!(game.len(), 1);
        assert_eq!(game.san(1).as_deref(), Some("Ng5"));
        assert_eq!(game.label(1).as_deref(), Some("4. Ng5"));
        assert_eq!(
            fen_after(&game, 1),
            "r1bqkb1r/pppp1ppp/2n2n2/4p1N1/2B1P3/8/PPPP1PPP/RNBQK2R b KQkq - 5 4"
        );
        let whole = plays("1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. Ng5");
        assert_eq!(game.position(1), whole.position(8));
        let mate = from_san("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "Ra8").expect("plays");
        assert_eq!(mate.san(1).as_deref(), Some("Ra8#"));
    }

    #[test]
    fn from_san_ignores_numbers_and_suffixes() {
        let plain = from_san("start", "e4 e5 Nf3 Nc6 Bb5").expect("plays");
        for moves in [
            "1. e4 e5 2. Nf3 Nc6 3. Bb5",
            "1.e4 1...e5 2.Nf3 2... Nc6 3.Bb5",
            "12. e4 e5 7 Nf3 Nc6! 3. Bb5+? $2 *",
            "  e4\te5\nNf3 {develops} Nc6\r\nBb5  ",
        ] {
            let game = from_san("start", moves).expect(moves);
            assert_eq!(game.len(), 5, "{moves:?}");
            assert_eq!(game.position(5), plain.position(5), "{moves:?}");
        }
        assert_eq!(plain.san(5).as_deref(), Some("Bb5"));
        assert!(from_san("start", "").expect("no moves").is_empty());
    }

    #[test]
    fn from_san_errors_name_the_move() {
        let error = |fen: &str, moves: &str| from_san(fen, moves).unwrap_err().to_string();
        // X-FEN symmetric or modern castling is drawn, not played.
        let symmetric = "rnbnkqrb/pppppppp/8/8/8/8/PPPPPPPP/RNBNKQRB w sKQkq - 0 1";
        let cases = [
            (
                "start",
                "1. Qh7",
                "1. Qh7 is not a legal move for White in the starting position",
            ),
            (
                TWO_KNIGHTS,
                "4. Ng5 d5 5. Ke3",
                "5. Ke3 is not a legal move for White after 4...d5",
            ),
            (
                "8/8/8/8/8/8/8/8 w - - 0 1",
                "e4",
                "the position needs one king of each colour to be played",
            ),
            (
                symmetric,
                "e4",
                "the position has castling type \"s\" (symmetric or modern castling): only standard chess and Chess960 can be played",
            ),
            (
                "start",
                "[FEN \"8/8\"] e4",
                "\"[FEN \"8/8\"]\" is a tag pair, not a move",
            ),
            (
                "start",
                "e4 e5 1-0 Nf3",
                "\"Nf3\" comes after the result 1-0: the moves end there",
            ),
            ("start", "e4 e5 [x", "\"[x\" is not a move"),
        ];
        for (fen, moves, expected) in cases {
            assert_eq!(error(fen, moves), expected, "{moves}");
        }
        let e = Game::from_san(&Position::start(), "e4 e5 Nf3", 2)
            .unwrap_err()
            .to_string();
        assert_eq!(e, "the game has 3 plies: at most 2 are allowed");
        let ten = "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1";
        let e = error(ten, "e4");
        assert!(e.starts_with("the position is not on an 8×8 board"), "{e}");
        // Without castling rights the castling type is moot.
        assert!(from_san("4k3/8/8/8/8/8/8/4K3 w m- - 0 1", "Kd2").is_ok());
    }
}
