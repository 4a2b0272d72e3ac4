//! An annotated game: the PGN's whole tree (main line, variations nested to any depth,
//! comments, NAGs, `[%…]` commands, diagram markers), every move played by the rules. What
//! an article prints. The main-line readers (`pgn::read`, `Game`) are unchanged by it.

use crate::chess::game::{self, GameError, GameErrorKind};
use crate::chess::pgn::tag_value;
use crate::chess::piece::Color;
use crate::chess::position::{Position, Square};
use crate::echo::clip;
use cozy_chess as cc;

mod syntax;

pub use crate::chess::letters::Letters;
pub use syntax::{DiagramMarker, Limits};

/// One move of the tree, played.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// The move number (`23` for both `23. Qxf2+` and `23...Kh8`).
    pub number: u32,
    /// The side that made the move.
    pub color: Color,
    /// The move in standard English SAN with `+`/`#`, as the board writes it (not as typed).
    pub san: String,
    /// Where the moving piece came from and went (castling: the king's squares as drawn).
    pub from: Square,
    /// See `from`.
    pub to: Square,
    /// The position after the move.
    pub position: Position,
    /// NAGs in file order; suffixes (`!`, `?!`) are read as 1–6. Diagram NAGs are not here.
    pub nags: Vec<u16>,
    /// Comments between `(` and a variation's first move (only on a variation's first node;
    /// commands and markers there have no node to go to and are dropped).
    pub before: Vec<String>,
    /// Comments after the move, in order, with `[%…]` commands and markers taken out,
    /// trimmed; comments left empty are dropped.
    pub comments: Vec<String>,
    /// The `[%…]` commands of those comments, each as written with its brackets
    /// (`[%cal Ge2e4,Rd1d8]`), in order.
    pub commands: Vec<String>,
    /// The diagram asked for after this move, if any.
    pub diagram: Option<DiagramMarker>,
    /// Variations: each replaces this move (starts from the position before it), in file
    /// order. A variation is never empty.
    pub variations: Vec<Vec<Node>>,
}

/// A game read with its whole tree.
#[derive(Debug, Clone, PartialEq)]
pub struct Annotated {
    /// Tag pairs in order.
    pub headers: Vec<(String, String)>,
    /// The position before the first move (the `FEN` tag's, or the standard one).
    pub start: Position,
    /// Comments before the first move (commands and markers taken out).
    pub intro: Vec<String>,
    /// A diagram asked for before the first move (a marker in the intro), if any.
    pub intro_diagram: Option<DiagramMarker>,
    /// The main line.
    pub line: Vec<Node>,
    /// The result token (`1-0`, `0-1`, `1/2-1/2`, `*`; `½-½` and en dashes normalised).
    pub result: Option<String>,
}

impl Annotated {
    /// The value of the tag `name` (case-insensitive), if present.
    pub fn header(&self, name: &str) -> Option<&str> {
        tag_value(&self.headers, name)
    }
}

/// Read the first game of `text` with its whole tree, its moves written in `letters`
/// (figurines are read too), every move played by the rules. `[FEN]` and `[Variant]` are
/// read as [`Game::from_pgn`](crate::chess::game::Game::from_pgn) reads them.
///
/// Errors: the PGN's syntax (as `pgn::read`'s), NAGs above `$65535`, a `(` with no move to
/// replace, an empty variation, more moves than `limits.nodes`, nesting deeper than
/// `limits.depth`, and any move that cannot be played (named with its number, as written,
/// and its side).
pub fn read(text: &str, letters: Letters, limits: Limits) -> Result<Annotated, GameError> {
    let tree = syntax::read(text, limits)?;
    let board = game::start_board(&tree.headers, letters)?;
    let line = play_line(&board, tree.line, None, letters)?;
    Ok(Annotated {
        headers: tree.headers,
        start: game::position_of(&board),
        intro: tree.intro.comments,
        intro_diagram: tree.intro.diagram,
        line,
        result: tree.result,
    })
}

/// Play the written moves `raws` from `board`; `before` is the ply before them, numbered
/// as written, for errors.
fn play_line(
    board: &cc::Board,
    raws: Vec<syntax::Raw>,
    before: Option<String>,
    letters: Letters,
) -> Result<Vec<Node>, GameError> {
    let mut board = board.clone();
    let mut before = before;
    let mut nodes = Vec::with_capacity(raws.len());
    for raw in raws {
        let mv =
            game::read_san(&board, &raw.written, letters).map_err(|why| GameErrorKind::Move {
                number: board.fullmove_number(),
                side: game::color_of(board.side_to_move()),
                written: clip(&raw.written),
                after: before.clone(),
                why,
            })?;
        let next = game::after(&board, mv);
        let (from, to) = game::move_squares(&board, mv);
        let variations = raw
            .variations
            .into_iter()
            .map(|line| play_line(&board, line, before.clone(), letters))
            .collect::<Result<Vec<_>, _>>()?;
        nodes.push(Node {
            number: u32::from(board.fullmove_number()),
            color: game::color_of(board.side_to_move()),
            san: game::write_san(&board, mv, &next),
            from,
            to,
            position: game::position_of(&next),
            nags: raw.nags,
            before: raw.before,
            comments: raw.notes.comments,
            commands: raw.notes.commands,
            diagram: raw.notes.diagram,
            variations,
        });
        before = Some(game::numbered(&board, &raw.written));
        board = next;
    }
    Ok(nodes)
}
