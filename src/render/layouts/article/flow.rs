//! An annotated game as a flow of blocks: the header, paragraphs of words (moves, glyphs,
//! comments) and diagrams, in reading order. No measuring here: pages are `pages.rs`, the
//! HTML page is `html.rs`.

use super::options::{ArticleOptions, Notation};
use crate::chess::annotated::{Annotated, Node};
use crate::chess::describe::{self, Lang};
use crate::chess::piece::Color;
use crate::chess::position::{Position, Square};

/// Part of a word in one weight.
#[derive(Debug, Clone, PartialEq)]
pub struct Span {
    /// Bold (the main line's moves) or book weight.
    pub bold: bool,
    /// The text.
    pub text: String,
}

/// Words are set apart by a space; a line breaks only between them.
pub type Word = Vec<Span>;

/// A diagram of the article: the position, the move that led there and its caption.
#[derive(Debug, Clone, PartialEq)]
pub struct Diagram {
    /// The position shown.
    pub position: Position,
    /// The move that led there (tinted), if any.
    pub last_move: Option<(Square, Square)>,
    /// The `[%cal]`/`[%csl]` commands of the move's comments.
    pub commands: Vec<String>,
    /// "After 23...Qxf2+" in the article's language, or the side to move at the start.
    pub caption: String,
    /// Whether it stands in a variation (drawn smaller).
    pub in_variation: bool,
}

/// One block of the flow.
#[derive(Debug, Clone, PartialEq)]
pub enum Block {
    /// A paragraph at a depth: 0 is the main line, 1 a variation set apart (indented);
    /// deeper variations stay inside their parent's paragraph, in brackets.
    Para {
        /// Nesting depth of the paragraph.
        depth: usize,
        /// The words.
        words: Vec<Word>,
    },
    /// Diagram `n` of [`Flow::diagrams`].
    Diagram(usize),
}

/// The article's header: a title line and the lines under it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Header {
    /// `Morphy – Duke Karl / Count Isouard` (with ratings when the tags give them).
    pub title: String,
    /// Event, site, date, round; the opening; the result.
    pub lines: Vec<String>,
}

/// The whole flow.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Flow {
    /// The header.
    pub header: Header,
    /// Blocks in reading order.
    pub blocks: Vec<Block>,
    /// The diagrams blocks refer to.
    pub diagrams: Vec<Diagram>,
}

/// A NAG as printed: the glyph DejaVu draws, else the ASCII form books use (`+=`).
pub fn nag_glyph(nag: u16) -> Option<&'static str> {
    if let Some(suffix) = u8::try_from(nag)
        .ok()
        .and_then(crate::chess::pgn::nag_suffix)
    {
        return Some(suffix);
    }
    Some(match nag {
        7 | 8 => "□",
        10..=12 => "=",
        13 => "∞",
        14 => "+=",
        15 => "=+",
        16 => "±",
        17 => "∓",
        18 => "+−",
        19 => "−+",
        22 | 23 => "⨀",
        32 | 33 => "⟳",
        36 | 37 => "↑",
        40 | 41 => "→",
        44 | 45 => "=∞",
        132 | 133 => "⇆",
        138 | 139 => "⨁",
        140 => "∆",
        146 => "N",
        _ => return None,
    })
}

/// `san` as the article prints it: figurines, or the piece letters of `lang`.
pub fn notation(san: &str, notation: Notation, lang: Lang) -> String {
    match notation {
        Notation::Figurine => san
            .chars()
            .map(|c| match "KQRBN".find(c) {
                Some(i) => ['♔', '♕', '♖', '♗', '♘'][i],
                None => c,
            })
            .collect(),
        Notation::Letters => describe::move_letters_in(san, lang),
    }
}

/// The header of `game` from its tags.
fn header(game: &Annotated) -> Header {
    let tag = |name: &str| {
        game.header(name)
            .map(str::trim)
            .filter(|v| !v.is_empty() && !v.starts_with('?') && *v != "-")
    };
    let player = |name: &str, elo: &str| {
        let who = tag(name).unwrap_or("?").to_string();
        match tag(elo) {
            Some(rating) => format!("{who} ({rating})"),
            None => who,
        }
    };
    let title = format!(
        "{} – {}",
        player("White", "WhiteElo"),
        player("Black", "BlackElo")
    );
    let date = tag("Date").map(|d| {
        d.trim_end_matches(".??")
            .trim_end_matches(".??")
            .to_string()
    });
    let place: Vec<String> = [
        tag("Event").map(String::from),
        tag("Site").map(String::from),
        date,
    ]
    .into_iter()
    .flatten()
    .chain(tag("Round").map(|r| format!("({r})")))
    .collect();
    let mut lines = Vec::new();
    let result = game.result.as_deref().and_then(result_text);
    let place: Vec<String> = place.into_iter().chain(result.map(String::from)).collect();
    if !place.is_empty() {
        lines.push(place.join(", "));
    }
    match (tag("Opening"), tag("ECO")) {
        (Some(o), Some(eco)) => lines.push(format!("{o} ({eco})")),
        (Some(o), None) => lines.push(o.to_string()),
        (None, Some(eco)) => lines.push(eco.to_string()),
        (None, None) => {}
    }
    Header { title, lines }
}

/// A result as printed (`1–0`, `½–½`).
pub fn result_text(result: &str) -> Option<&'static str> {
    Some(match result {
        "1-0" => "1–0",
        "0-1" => "0–1",
        "1/2-1/2" | "½-½" => "½–½",
        _ => return None,
    })
}

/// Builds the flow, keeping track of where a move number must be written.
struct Builder<'a> {
    options: &'a ArticleOptions,
    flow: Flow,
    /// The paragraph being written and its depth.
    words: Vec<Word>,
    depth: usize,
    /// Whether the next black move needs its number (`9...b5`): at a paragraph's start,
    /// after a comment, a variation or a diagram.
    number: bool,
    /// Main-line plies so far (for a diagram every N plies).
    plies: u32,
}

impl Builder<'_> {
    fn text(&mut self, text: &str) {
        for word in text.split_whitespace() {
            self.words.push(vec![Span {
                bold: false,
                text: word.to_string(),
            }]);
        }
    }

    fn end_para(&mut self) {
        if !self.words.is_empty() {
            let words = std::mem::take(&mut self.words);
            self.flow.blocks.push(Block::Para {
                depth: self.depth,
                words,
            });
        }
        self.number = true;
    }

    /// A diagram of the position after `n`, at variation depth `depth`.
    fn diagram_after(&mut self, n: &Node, depth: usize) {
        let lang = self.options.lang;
        let label = notation(&label(n), self.options.notation, lang);
        self.diagram(Diagram {
            position: n.position.clone(),
            last_move: Some((n.from, n.to)),
            commands: n.commands.clone(),
            caption: describe::after_move(&label, lang),
            in_variation: depth > 0,
        });
    }

    /// A diagram of the position before the first move, captioned with the side to move.
    fn diagram_of_start(&mut self, start: &Position) {
        self.diagram(Diagram {
            position: start.clone(),
            last_move: None,
            commands: Vec::new(),
            caption: describe::to_move(start.turn, self.options.lang).to_string(),
            in_variation: false,
        });
    }

    fn diagram(&mut self, diagram: Diagram) {
        self.end_para();
        self.flow
            .blocks
            .push(Block::Diagram(self.flow.diagrams.len()));
        self.flow.diagrams.push(diagram);
    }

    fn move_word(&mut self, node: &Node, bold: bool) {
        let mut text = match (node.color, self.number) {
            (Color::White, _) => format!("{}.", node.number),
            (Color::Black, true) => format!("{}...", node.number),
            (Color::Black, false) => String::new(),
        };
        text.push_str(&notation(
            &node.san,
            self.options.notation,
            self.options.lang,
        ));
        let (suffixes, others): (Vec<u16>, Vec<u16>) = node.nags.iter().partition(|&&n| n <= 6);
        if let Some(&n) = suffixes.first() {
            text.push_str(nag_glyph(n).unwrap_or(""));
        }
        self.words.push(vec![Span { bold, text }]);
        for glyph in others.into_iter().filter_map(nag_glyph) {
            self.words.push(vec![Span {
                bold: false,
                text: glyph.to_string(),
            }]);
        }
        self.number = false;
    }

    fn line(&mut self, line: &[Node], before: &Position, depth: usize) {
        let mut position = before;
        for node in line {
            for comment in &node.before {
                self.text(comment);
                self.number = true;
            }
            self.move_word(node, depth == 0);
            if depth == 0 {
                self.plies += 1;
            }
            let every = self
                .options
                .every
                .is_some_and(|n| depth == 0 && n > 0 && self.plies.is_multiple_of(n));
            // The diagram right after its move, before the comment, which speaks of it.
            if (node.diagram.is_some() && self.options.markers) || every {
                self.diagram_after(node, depth);
            }
            for comment in &node.comments {
                self.text(comment);
                self.number = true;
            }
            self.variations(node, position, depth);
            position = &node.position;
        }
    }

    fn variations(&mut self, node: &Node, before: &Position, depth: usize) {
        if node.variations.is_empty() {
            return;
        }
        if depth == 0 {
            self.end_para();
            for variation in &node.variations {
                self.depth = 1;
                self.line(variation, before, 1);
                self.end_para();
            }
            self.depth = 0;
        } else {
            for variation in &node.variations {
                self.number = true;
                let (first, blocks) = (self.words.len(), self.flow.blocks.len());
                self.line(variation, before, depth + 1);
                // The brackets hug the variation's first and last words (a diagram inside
                // it broke the paragraph: it then stands without them).
                let opened = self.flow.blocks.len() == blocks;
                if let Some(piece) = self.words.get_mut(first).and_then(|w| w.first_mut())
                    && opened
                {
                    piece.text.insert(0, '(');
                    glue(&mut self.words, ")");
                }
            }
        }
        self.number = true;
    }
}

/// Glue `text` to the last word (a closing bracket), or start a word with it.
fn glue(words: &mut Vec<Word>, text: &str) {
    match words.last_mut().and_then(|w| w.last_mut()) {
        Some(piece) => piece.text.push_str(text),
        None => words.push(vec![Span {
            bold: false,
            text: text.into(),
        }]),
    }
}

/// `23. Qxf2+` or `23...Qxf2+`: a move with its number, as captions write it.
pub fn label(node: &Node) -> String {
    match node.color {
        Color::White => format!("{}.{}", node.number, node.san),
        Color::Black => format!("{}...{}", node.number, node.san),
    }
}

/// The flow of `game`: header, the intro, the moves with their comments and variations,
/// the diagrams, the result.
pub fn flow(game: &Annotated, options: &ArticleOptions) -> Flow {
    let mut b = Builder {
        options,
        flow: Flow {
            header: header(game),
            ..Flow::default()
        },
        words: Vec::new(),
        depth: 0,
        number: true,
        plies: 0,
    };
    for comment in &game.intro {
        b.text(comment);
    }
    // The introduction is a paragraph of its own, above the moves.
    b.end_para();
    if game.intro_diagram.is_some() && options.markers {
        b.diagram_of_start(&game.start);
    }
    b.line(&game.line, &game.start, 0);
    let last = game.line.last();
    let has_last = b
        .flow
        .diagrams
        .last()
        .is_some_and(|d| !d.in_variation && last.is_some_and(|n| n.position == d.position));
    if options.at_end && !has_last {
        match last {
            Some(node) => b.diagram_after(node, 0),
            None => b.diagram_of_start(&game.start),
        }
    }
    if let Some(result) = game.result.as_deref().and_then(result_text) {
        b.words.push(vec![Span {
            bold: true,
            text: result.to_string(),
        }]);
    }
    b.end_para();
    b.flow
}
