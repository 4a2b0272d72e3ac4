//! What an article looks like ([`ArticleOptions`]: paper, columns, diagrams, notation,
//! language): what every stage of an article reads.

use crate::chess::describe::Lang;
use crate::render::layouts::sheet::Paper;
use crate::render::spec::options::RenderOptions;

/// How moves are printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Notation {
    /// Figurines (`♘f3`): the same in every language.
    #[default]
    Figurine,
    /// The piece letters of the article's language (`Sf3` in German).
    Letters,
}

/// Most diagrams in one article.
pub const MAX_DIAGRAMS: usize = 64;
/// Diagram widths allowed, in points.
pub const SIZE_RANGE: std::ops::RangeInclusive<u32> = 96..=480;

/// What an article looks like.
#[derive(Debug, Clone, PartialEq)]
pub struct ArticleOptions {
    /// The paper.
    pub paper: Paper,
    /// One or two columns.
    pub columns: u8,
    /// A main-line diagram's width in points (at most the column's); variations' are ¾.
    pub size: u32,
    /// A diagram after every N plies of the main line, besides the game's markers.
    pub every: Option<u32>,
    /// A diagram of the final position (unless the last move has one already).
    pub at_end: bool,
    /// Whether the game's diagram markers (`{[#]}`, `[D]`, `$201`, …) are followed.
    pub markers: bool,
    /// The FEN under each diagram.
    pub fen: bool,
    /// Figurines or letters.
    pub notation: Notation,
    /// The language of captions and (with [`Notation::Letters`]) piece letters.
    pub lang: Lang,
    /// How every diagram is drawn (theme, pieces, coordinates, orientation); its size,
    /// last move and marks are the article's.
    pub diagram: RenderOptions,
}

impl Default for ArticleOptions {
    fn default() -> Self {
        ArticleOptions {
            paper: Paper::A4,
            columns: 1,
            size: 216,
            every: None,
            at_end: false,
            markers: true,
            fen: false,
            notation: Notation::Figurine,
            lang: Lang::En,
            diagram: RenderOptions::default(),
        }
    }
}
