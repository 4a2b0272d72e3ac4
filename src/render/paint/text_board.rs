//! The text board: a position as lines of text, for terminals, diffs and text snapshots
//! (`format=txt`, `render -o x.txt`, [`Renderer::text`](crate::render::Renderer::text)).
//!
//! Owns the exact format below, which is stable: a change to it is a change of the
//! project's output, made on purpose and shown by the golden files in
//! `tests/golden_text/`. Drawing in pixels is `scene/`.
//!
//! Only the position, `orientation`, `coordinates` and the [`TextStyle`] decide the text.
//! Marks are not drawn (last move, check, arrows, circles, crosses, highlights, the glyph
//! badge, the turn marker: the side to move is always written), and size, theme, colours
//! and piece set do not apply.
//!
//! # The format
//!
//! - One line per rank, the far side's rank first, as the diagram shows them: rank 8 at
//!   the top with White at the bottom, rank 1 with Black (`orientation=black`, or `turn`
//!   with Black to move); files from the bottom player's left (`a`…`h` for White,
//!   `h`…`a` for Black).
//! - Each square is two characters: the piece, then a space, or `~` for a promoted piece
//!   (crazyhouse), so the columns stay aligned: `Q~`. An empty square is `.`.
//! - [`TextStyle::Letters`] writes FEN's letters, `K Q R B N P A C` for White and
//!   `k q r b n p a c` for Black. [`TextStyle::Figurines`] writes the Unicode chess symbols
//!   `♔ ♕ ♖ ♗ ♘ ♙` (White) and `♚ ♛ ♜ ♝ ♞ ♟` (Black), U+2654–U+265F. The archbishop and
//!   the chancellor keep their letters (`A C`, `a c`) there: Unicode 11's knight-bishop
//!   and knight-rook (U+1FA50, U+1FA4F, …) are missing from terminal fonts.
//! - `coordinates=outside` (the default): a frame of `+`, `-` and `|` around the board,
//!   the rank digit left of it, the file letters under it. `inside`: the rank digit and
//!   the file letters beside the board, no frame. `none`: the squares alone.
//! - Crazyhouse pockets, when the FEN has one (`[Qn]`, `[]`, or a ninth rank), as in the
//!   image: the top side's hand on a line above the board, the bottom side's below it,
//!   `White in hand: Q N P P` (each piece once per copy, in the order `K Q R B N P A C`,
//!   written in the style; `-` for an empty hand).
//! - Last, always, the side to move: `White to move` or `Black to move`.
//! - Lines end with `\n` (the last one too), never with a space.
//! - Figures (Fairy FEN and the letters dialect) take two characters too. A **turned**
//!   piece is its symbol and the quarter turns as Fairy FEN writes them (`Q2`, an
//!   upside-down queen; `n1`); a **neutral** piece is its white symbol and `=` upright, or
//!   `¹ ² ³` turned (`Q=`, `Q²`). A **letter piece** is its letter and a space (`E `,
//!   `e `): the letters dialect never reads an orthodox letter as one. **Markers** are
//!   geometric shapes, white hollow and black solid: `○ ●` (circle), `□ ■` (square),
//!   `× ✖` (cross), `△ ▲` (triangle, turned `▷ ▽ ◁`, `▶ ▼ ◀`); neutral ones half filled,
//!   `◐ ◧ ⊠ ◭` (a turned neutral square `⬒ ◨ ⬓`). **Text** of one character is a quote
//!   and the character (`'A`); two characters are written as they are (`12`), so text
//!   such as `Q2` reads like a turned queen. A character a terminal draws two columns wide
//!   (Chinese, Japanese) moves the rest of its line.
//!
//! ```text
//!   +-----------------+
//! 8 | r n b q k b n r |
//! 7 | p p p p . p p p |
//! 6 | . . . . . . . . |
//! 5 | . . . . p . . . |
//! 4 | . . . . P . . . |
//! 3 | . . . . . N . . |
//! 2 | P P P P . P P P |
//! 1 | R N B Q K B . R |
//!   +-----------------+
//!     a b c d e f g h
//! Black to move
//! ```

use crate::chess::fairy::{Figure, FairyMarker, FigureKind, Side};
use crate::chess::piece::{Color, Piece, Role};
use crate::chess::position::{Pocket, Position, Square};
use crate::render::spec::options::{Coordinates, RenderOptions, TextStyle};

/// `position` as text, drawn as `options` ask (see the module documentation).
pub fn write(position: &Position, options: &RenderOptions) -> String {
    let style = options.text_style;
    let bottom = options.orientation.bottom(position.turn);
    let region = crate::render::scene::region::on_board(options.region, position.size());
    let cut = crate::render::scene::region::Cut::of(region, position.size(), bottom);
    let (low, high) = (region.low, region.high);
    let files = region.files();
    let (labels, frame) = match options.coordinates {
        Coordinates::Outside => (true, true),
        Coordinates::Inside => (true, false),
        Coordinates::None => (false, false),
    };
    let columns: Vec<u8> = match bottom {
        Color::White => (low.file..=high.file).collect(),
        Color::Black => (low.file..=high.file).rev().collect(),
    };
    let rows: Vec<u8> = match bottom {
        Color::White => (low.rank..=high.rank).rev().collect(),
        Color::Black => (low.rank..=high.rank).collect(),
    };
    let mut out = String::with_capacity(64 * (rows.len() + 6));
    let pocket = position
        .pocket
        .as_ref()
        .filter(|_| options.region.is_none());
    if let Some(pocket) = pocket {
        push_line(&mut out, &hand(pocket, bottom.other(), style));
    }
    // Rank numbers 10 to 16 take two columns; smaller boards keep one.
    let width = if high.rank > 8 { 2 } else { 1 };
    // A region's cut edges (where the board goes on) are drawn with `~` and `:`.
    let rule = |cut: bool| {
        let line = if cut { "~" } else { "-" };
        format!(
            "{}+{}+",
            " ".repeat(width + 1),
            line.repeat(2 * usize::from(files) + 1)
        )
    };
    let side = |cut: bool| if cut { ':' } else { '|' };
    if frame {
        push_line(&mut out, &rule(cut.top));
    }
    let mut line = String::new();
    for &rank in &rows {
        line.clear();
        if labels {
            let number = Square::new(0, rank).rank_number();
            line.push_str(&format!("{number:>width$} "));
        }
        if frame {
            line.push(side(cut.left));
            line.push(' ');
        }
        for &file in &columns {
            let square = Square::new(file, rank);
            if let Some(figure) = position.figure(square) {
                line.push_str(&figure_cell(figure, style));
                continue;
            }
            line.push(position.get(square).map_or('.', |p| symbol(p, style)));
            line.push(if position.is_promoted(square) {
                '~'
            } else {
                ' '
            });
        }
        if frame {
            line.push(side(cut.right));
        }
        push_line(&mut out, &line);
    }
    if frame {
        push_line(&mut out, &rule(cut.bottom));
    }
    if labels {
        line.clear();
        line.push_str(&" ".repeat(width + if frame { 3 } else { 1 }));
        for &file in &columns {
            line.push(Square::new(file, 0).file_char());
            line.push(' ');
        }
        push_line(&mut out, &line);
    }
    if let Some(pocket) = pocket {
        push_line(&mut out, &hand(pocket, bottom, style));
    }
    push_line(&mut out, &format!("{} to move", position.turn.name()));
    out
}

/// `line` without trailing spaces, and a newline.
fn push_line(out: &mut String, line: &str) {
    out.push_str(line.trim_end_matches(' '));
    out.push('\n');
}

/// The character of `piece` in `style`.
pub fn symbol(piece: Piece, style: TextStyle) -> char {
    let letter = match piece.color {
        Color::White => piece.role.letter(),
        Color::Black => piece.role.letter().to_ascii_lowercase(),
    };
    if style == TextStyle::Letters {
        return letter;
    }
    let white = match piece.role {
        Role::King => '♔',
        Role::Queen => '♕',
        Role::Rook => '♖',
        Role::Bishop => '♗',
        Role::Knight => '♘',
        Role::Pawn => '♙',
        Role::Archbishop | Role::Chancellor => return letter,
    };
    match piece.color {
        Color::White => white,
        // Unicode has the black pieces right after the white ones, in the same order
        // (♔ U+2654 … ♙ U+2659, ♚ U+265A … ♟ U+265F).
        Color::Black => char::from_u32(u32::from(white) + 6).unwrap_or(letter),
    }
}

/// The two characters of a figure's square (see the module documentation).
fn figure_cell(figure: &Figure, style: TextStyle) -> String {
    let quarters = usize::from(figure.turn.quarters());
    let cased = |c: char| match figure.side {
        Side::Black => c.to_ascii_lowercase(),
        _ => c.to_ascii_uppercase(),
    };
    let (first, mark) = match figure.shape {
        FigureKind::Text(text) => {
            let chars = text.chars();
            return match chars {
                [c] => format!("'{c}"),
                _ => chars.iter().collect(),
            };
        }
        FigureKind::Letter(c) => (cased(c), ' '),
        FigureKind::Marker(m) => {
            let (sided, neutral): ([[char; 4]; 2], [char; 4]) = match m {
                FairyMarker::Circle => ([['○'; 4], ['●'; 4]], ['◐'; 4]),
                FairyMarker::Square => ([['□'; 4], ['■'; 4]], ['◧', '⬒', '◨', '⬓']),
                FairyMarker::Triangle => (
                    [['△', '▷', '▽', '◁'], ['▲', '▶', '▼', '◀']],
                    ['◭', '◭', '◭', '◭'],
                ),
                FairyMarker::Cross => ([['×'; 4], ['✖'; 4]], ['⊠'; 4]),
            };
            let c = match figure.side {
                Side::White => sided[0][quarters],
                Side::Black => sided[1][quarters],
                Side::Neutral => neutral[quarters],
            };
            (c, ' ')
        }
        FigureKind::Piece(role) => {
            let piece = Piece {
                color: match figure.side {
                    Side::Black => Color::Black,
                    _ => Color::White,
                },
                role,
            };
            let mark = match figure.side {
                Side::Neutral => ['=', '¹', '²', '³'][quarters],
                _ => [' ', '1', '2', '3'][quarters],
            };
            (symbol(piece, style), mark)
        }
    };
    [first, mark].iter().collect()
}

/// `White in hand: Q N P P`, or `White in hand: -`.
fn hand(pocket: &Pocket, color: Color, style: TextStyle) -> String {
    let mut line = format!("{} in hand:", color.name());
    let mut empty = true;
    for (piece, count) in pocket.iter().filter(|(p, _)| p.color == color) {
        for _ in 0..count {
            line.push(' ');
            line.push(symbol(piece, style));
            empty = false;
        }
    }
    if empty {
        line.push_str(" -");
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::fen;
    use crate::render::spec::options::Orientation;

    #[test]
    fn figures_take_two_characters_each() {
        use crate::chess::fen::{Dialect, parse_with};
        let o = RenderOptions {
            coordinates: Coordinates::None,
            ..RenderOptions::default()
        };
        let fairy = parse_with("-Q*2Q*1n-*3q'A''12C*2t/8/8/8/8/8/8/8", Dialect::Fairy).unwrap();
        let first = write(&fairy, &o).lines().next().unwrap().to_string();
        // Two characters a square, no space between squares: `Q=` then `Q2`.
        assert_eq!(first, "Q=Q2n1Q³'A12○ ▼");
        let letters = parse_with("Ee6/8/8/8/8/8/8/8", Dialect::Letters).unwrap();
        let first = write(&letters, &o).lines().next().unwrap().to_string();
        assert_eq!(first, "E e . . . . . .");
    }

    fn text(fen: &str, options: &str) -> String {
        let position = fen::parse(fen).expect("a valid FEN");
        let mut o = RenderOptions::default();
        for word in options.split_whitespace() {
            match word {
                "black" => o.orientation = Orientation::Black,
                "turn" => o.orientation = Orientation::Turn,
                "inside" => o.coordinates = Coordinates::Inside,
                "none" => o.coordinates = Coordinates::None,
                "figurines" => o.text_style = TextStyle::Figurines,
                other => panic!("no option {other}"),
            }
        }
        write(&position, &o)
    }

    const AFTER_NF3: &str = "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2";

    #[test]
    fn letters_with_white_at_the_bottom_framed() {
        assert_eq!(
            text(AFTER_NF3, ""),
            "  +-----------------+\n\
             8 | r n b q k b n r |\n\
             7 | p p p p . p p p |\n\
             6 | . . . . . . . . |\n\
             5 | . . . . p . . . |\n\
             4 | . . . . P . . . |\n\
             3 | . . . . . N . . |\n\
             2 | P P P P . P P P |\n\
             1 | R N B Q K B . R |\n\
             \x20 +-----------------+\n\
             \x20   a b c d e f g h\n\
             Black to move\n"
        );
    }

    #[test]
    fn figurines_with_black_at_the_bottom() {
        assert_eq!(
            text(AFTER_NF3, "figurines black"),
            "  +-----------------+\n\
             1 | ♖ . ♗ ♔ ♕ ♗ ♘ ♖ |\n\
             2 | ♙ ♙ ♙ . ♙ ♙ ♙ ♙ |\n\
             3 | . . ♘ . . . . . |\n\
             4 | . . . ♙ . . . . |\n\
             5 | . . . ♟ . . . . |\n\
             6 | . . . . . . . . |\n\
             7 | ♟ ♟ ♟ . ♟ ♟ ♟ ♟ |\n\
             8 | ♜ ♞ ♝ ♚ ♛ ♝ ♞ ♜ |\n\
             \x20 +-----------------+\n\
             \x20   h g f e d c b a\n\
             Black to move\n"
        );
        // `turn` with Black to move is the same board.
        assert_eq!(
            text(AFTER_NF3, "figurines turn"),
            text(AFTER_NF3, "figurines black")
        );
    }

    #[test]
    fn inside_labels_without_a_frame_and_none_without_labels() {
        let fen = "6r1/6pp/7r/1B5K/1P3k2/N7/3R4/8 w - - 30 79";
        assert_eq!(
            text(fen, "inside"),
            "8 . . . . . . r .\n\
             7 . . . . . . p p\n\
             6 . . . . . . . r\n\
             5 . B . . . . . K\n\
             4 . P . . . k . .\n\
             3 N . . . . . . .\n\
             2 . . . R . . . .\n\
             1 . . . . . . . .\n\
             \x20 a b c d e f g h\n\
             White to move\n"
        );
        assert_eq!(
            text(fen, "none black"),
            ". . . . . . . .\n\
             . . . . R . . .\n\
             . . . . . . . N\n\
             . . k . . . P .\n\
             K . . . . . B .\n\
             r . . . . . . .\n\
             p p . . . . . .\n\
             . r . . . . . .\n\
             White to move\n"
        );
    }

    #[test]
    fn capablanca_boards_are_ten_files_wide_with_their_own_letters() {
        let fen = "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1";
        assert_eq!(
            text(fen, ""),
            "  +---------------------+\n\
             8 | r n a b q k b c n r |\n\
             7 | p p p p p p p p p p |\n\
             6 | . . . . . . . . . . |\n\
             5 | . . . . . . . . . . |\n\
             4 | . . . . . . . . . . |\n\
             3 | . . . . . . . . . . |\n\
             2 | P P P P P P P P P P |\n\
             1 | R N A B Q K B C N R |\n\
             \x20 +---------------------+\n\
             \x20   a b c d e f g h i j\n\
             White to move\n"
        );
        assert_eq!(
            text(fen, "figurines black inside"),
            "1 ♖ ♘ C ♗ ♔ ♕ ♗ A ♘ ♖\n\
             2 ♙ ♙ ♙ ♙ ♙ ♙ ♙ ♙ ♙ ♙\n\
             3 . . . . . . . . . .\n\
             4 . . . . . . . . . .\n\
             5 . . . . . . . . . .\n\
             6 . . . . . . . . . .\n\
             7 ♟ ♟ ♟ ♟ ♟ ♟ ♟ ♟ ♟ ♟\n\
             8 ♜ ♞ c ♝ ♚ ♛ ♝ a ♞ ♜\n\
             \x20 j i h g f e d c b a\n\
             White to move\n"
        );
    }

    #[test]
    fn pockets_above_and_below_and_promoted_pieces_marked() {
        let fen = "r1b1k2r/ppp2ppp/2n5/3q4/8/8/PPP2PPP/R1BQ~KB1R[QNPPn] b KQkq - 0 9";
        assert_eq!(
            text(fen, ""),
            "Black in hand: n\n\
             \x20 +-----------------+\n\
             8 | r . b . k . . r |\n\
             7 | p p p . . p p p |\n\
             6 | . . n . . . . . |\n\
             5 | . . . q . . . . |\n\
             4 | . . . . . . . . |\n\
             3 | . . . . . . . . |\n\
             2 | P P P . . P P P |\n\
             1 | R . B Q~K B . R |\n\
             \x20 +-----------------+\n\
             \x20   a b c d e f g h\n\
             White in hand: Q N P P\n\
             Black to move\n"
        );
        assert_eq!(
            text(fen, "figurines turn none"),
            "White in hand: ♕ ♘ ♙ ♙\n\
             ♖ . ♗ ♔ ♕~♗ . ♖\n\
             ♙ ♙ ♙ . . ♙ ♙ ♙\n\
             . . . . . . . .\n\
             . . . . . . . .\n\
             . . . . ♛ . . .\n\
             . . . . . ♞ . .\n\
             ♟ ♟ ♟ . . ♟ ♟ ♟\n\
             ♜ . . ♚ . ♝ . ♜\n\
             Black in hand: ♞\n\
             Black to move\n"
        );
    }

    #[test]
    fn an_empty_hand_is_a_dash_and_a_promoted_piece_on_the_edge_keeps_the_frame() {
        assert_eq!(
            text("7Q~/8/8/8/8/8/8/k6K[] w - - 0 1", ""),
            "Black in hand: -\n\
             \x20 +-----------------+\n\
             8 | . . . . . . . Q~|\n\
             7 | . . . . . . . . |\n\
             6 | . . . . . . . . |\n\
             5 | . . . . . . . . |\n\
             4 | . . . . . . . . |\n\
             3 | . . . . . . . . |\n\
             2 | . . . . . . . . |\n\
             1 | k . . . . . . K |\n\
             \x20 +-----------------+\n\
             \x20   a b c d e f g h\n\
             White in hand: -\n\
             White to move\n"
        );
        let inside = text("7Q~/8/8/8/8/8/8/k6K[] w - - 0 1", "inside");
        assert!(inside.contains("\n8 . . . . . . . Q~\n"), "{inside}");
    }

    #[test]
    fn every_symbol_is_one_character() {
        for piece in Piece::all() {
            for style in TextStyle::ALL {
                let c = symbol(piece, style);
                assert!(!c.is_whitespace() && c != '.' && c != '~', "{piece:?} {c}");
            }
        }
    }
}
