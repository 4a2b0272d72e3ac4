//! The tree as written, before any move is played: moves as typed, nested variations,
//! comments split into text, `[%…]` commands and diagram markers, NAGs. Tokens are
//! `pgn`'s lexer's, the same the main-line reader uses. Owns the diagram [`DiagramMarker`]s it
//! recognises and the [`Limits`] it reads within (`annotated` re-exports both).

use crate::chess::game::{GameError, GameErrorKind};
use crate::chess::pgn::{Lexer, PgnErrorKind, Token, Word, classify_word};
use crate::echo::clip;

/// Where a game asks for a diagram after a move, as real exports write it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DiagramMarker {
    /// `[#]` inside a comment (ChessBase, RPB Chessboard), with or without options.
    Bracket,
    /// `[D]` inside a comment (JekyllRookpawn).
    D,
    /// A comment that is a lone `#` (ChessTempo, pychess).
    Hash,
    /// A diagram NAG: `$201` or a lone `D` token (Scid), `$220`/`$221` (Chesspad,
    /// PgnViewerJS), `$1304` (chess-dojo), `$D` (xskak). The number (`$D` is 201).
    Nag(u16),
}

/// Bounds on what one game may hold (the service prices and refuses beyond them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Most moves in the whole tree (main line and every variation).
    pub nodes: usize,
    /// Deepest nesting of variations (the main line is depth 0).
    pub depth: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            nodes: 2000,
            depth: 8,
        }
    }
}

/// NAGs that ask for a diagram (Scid 201, Chesspad and PgnViewerJS 220/221, chess-dojo
/// 1304); they become markers, not NAGs.
const DIAGRAM_NAGS: [u16; 4] = [201, 220, 221, 1304];

/// What the comments after a move (or before the first) hold.
#[derive(Debug, Default)]
pub(super) struct Notes {
    pub(super) comments: Vec<String>,
    pub(super) commands: Vec<String>,
    pub(super) diagram: Option<DiagramMarker>,
}

/// One move as written.
#[derive(Debug)]
pub(super) struct Raw {
    /// Without number and suffix.
    pub(super) written: String,
    pub(super) nags: Vec<u16>,
    pub(super) before: Vec<String>,
    pub(super) notes: Notes,
    pub(super) variations: Vec<Vec<Raw>>,
}

/// The game as written.
#[derive(Debug)]
pub(super) struct Tree {
    pub(super) headers: Vec<(String, String)>,
    /// The notes before the first move.
    pub(super) intro: Notes,
    pub(super) line: Vec<Raw>,
    pub(super) result: Option<String>,
}

/// A line being read: the main line (at the bottom of the stack) or an open variation.
struct Frame {
    /// Byte offset of its `(`.
    at: usize,
    line: Vec<Raw>,
    /// The notes before its first move.
    before: Notes,
}

impl Frame {
    fn new(at: usize) -> Frame {
        Frame {
            at,
            line: Vec::new(),
            before: Notes::default(),
        }
    }

    /// The notes a comment or NAG here goes to: the last move's, or those before the first.
    fn notes(&mut self) -> &mut Notes {
        match self.line.last_mut() {
            Some(raw) => &mut raw.notes,
            None => &mut self.before,
        }
    }
}

/// Read the first game of `text` as written.
pub(super) fn read(text: &str, limits: Limits) -> Result<Tree, GameError> {
    let mut lexer = Lexer::new(text);
    let mut headers = Vec::new();
    let mut frames = vec![Frame::new(0)];
    let mut number = None;
    let mut nodes = 0usize;
    let mut result = None;
    while let Some((at, token)) = lexer.next_token()? {
        let frame = frames.last_mut().expect("the main line is there");
        match token {
            Token::Tag(name, value) => headers.push((name, value)),
            Token::Comment(comment) => add_notes(frame.notes(), comment),
            Token::Nag(text) => read_nag(frame, text)?,
            Token::Word(word) => {
                if read_word(frame, word, &mut number)? {
                    nodes += 1;
                    if nodes > limits.nodes {
                        let max = limits.nodes;
                        return Err(GameErrorKind::TooManyMoves { max }.into());
                    }
                }
            }
            // A result inside a variation is skipped, as the main-line reader skips it.
            Token::Result(token) if frames.len() == 1 => {
                result = Some(token.replace('½', "1/2"));
                break;
            }
            Token::Result(_) => {}
            Token::Open => open(&mut frames, at, limits)?,
            Token::Close => close(&mut frames, at)?,
        }
    }
    if let Some(frame) = frames.get(1) {
        return Err(PgnErrorKind::UnclosedVariation { at: frame.at + 1 }.into());
    }
    let main = frames.pop().expect("the main line is there");
    Ok(Tree {
        headers,
        intro: main.before,
        line: main.line,
        result,
    })
}

/// Read a NAG token onto the last move (a diagram NAG as its marker); `$D` is 201.
fn read_nag(frame: &mut Frame, text: &str) -> Result<(), GameError> {
    let nag = match &text[1..] {
        "D" => 201,
        digits => digits
            .parse::<u16>()
            .map_err(|_| PgnErrorKind::WideNag { text: clip(text) })?,
    };
    if DIAGRAM_NAGS.contains(&nag) {
        frame.notes().diagram.get_or_insert(DiagramMarker::Nag(nag));
    } else if let Some(last) = frame.line.last_mut() {
        // A NAG before any move annotates nothing: skipped, as the main-line reader does.
        last.nags.push(nag);
    }
    Ok(())
}

/// Read one word: a move (true), or a move number, a suffix standing apart, a lone `D`
/// (Scid's diagram mark).
fn read_word(frame: &mut Frame, word: &str, number: &mut Option<u32>) -> Result<bool, GameError> {
    let not_a_move = || GameError::from(PgnErrorKind::NotAMove { text: clip(word) });
    match classify_word(word, number) {
        Word::Skip => Ok(false),
        Word::Suffix(nag) => {
            let (Some(last), Some(nag)) = (frame.line.last_mut(), nag) else {
                return Err(not_a_move());
            };
            last.nags.push(u16::from(nag));
            Ok(false)
        }
        Word::Move("D", None) if !frame.line.is_empty() => {
            frame.notes().diagram.get_or_insert(DiagramMarker::Nag(201));
            Ok(false)
        }
        Word::Move(san, nag) => {
            *number = None;
            frame.line.push(Raw {
                written: san.to_string(),
                nags: nag.map(u16::from).into_iter().collect(),
                before: Vec::new(),
                notes: Notes::default(),
                variations: Vec::new(),
            });
            Ok(true)
        }
    }
}

/// Open a variation at byte `at`: it replaces the last move of the line it is in.
fn open(frames: &mut Vec<Frame>, at: usize, limits: Limits) -> Result<(), GameError> {
    let frame = frames.last().expect("the main line is there");
    if frame.line.is_empty() {
        return Err(PgnErrorKind::VariationWithoutMove { at: at + 1 }.into());
    }
    // The main line is depth 0: the new variation's depth is the number of open lines.
    if frames.len() > limits.depth {
        let max = limits.depth;
        return Err(GameErrorKind::TooDeep { max }.into());
    }
    frames.push(Frame::new(at));
    Ok(())
}

/// Close the innermost variation at byte `at`, hanging it on the move it replaces.
fn close(frames: &mut Vec<Frame>, at: usize) -> Result<(), GameError> {
    if frames.len() == 1 {
        return Err(PgnErrorKind::StrayClose { at: at + 1 }.into());
    }
    let mut frame = frames.pop().expect("a variation is open");
    let Some(first) = frame.line.first_mut() else {
        return Err(PgnErrorKind::EmptyVariation { at: frame.at + 1 }.into());
    };
    // Commands and markers before a variation's first move have no node to go to.
    first.before = frame.before.comments;
    let parent = frames.last_mut().expect("the line it branches from");
    let replaced = parent.line.last_mut().expect("checked when it opened");
    replaced.variations.push(frame.line);
    Ok(())
}

/// Take a comment's `[%…]` commands and diagram markers out of it, onto `notes`; keep
/// the text left, trimmed, unless empty.
fn add_notes(notes: &mut Notes, comment: &str) {
    let mut text = Joined::default();
    let mut rest = comment;
    while let Some(open) = rest.find('[') {
        let Some(len) = rest[open..].find(']') else {
            break;
        };
        let bracketed = &rest[open..=open + len];
        let inner = &bracketed[1..len];
        let marker = match inner.strip_prefix('#') {
            Some(options) if options.is_empty() || options.starts_with(char::is_whitespace) => {
                Some(DiagramMarker::Bracket)
            }
            _ if inner == "D" => Some(DiagramMarker::D),
            _ => None,
        };
        if marker.is_none() && !inner.starts_with('%') {
            text.push(&rest[..=open]);
            rest = &rest[open + 1..];
            continue;
        }
        match marker {
            Some(marker) => _ = notes.diagram.get_or_insert(marker),
            None => notes.commands.push(bracketed.to_string()),
        }
        text.push(&rest[..open]);
        text.gap = true;
        rest = &rest[open + len + 1..];
    }
    text.push(rest);
    // ChessBase's German export writes the marker in words.
    for words in ["Diagramm #", "Diagram #"] {
        if let Some(i) = text.text.find(words) {
            notes.diagram.get_or_insert(DiagramMarker::Bracket);
            let after = text.text.split_off(i + words.len());
            text.text.truncate(i);
            text.gap = true;
            text.push(&after);
        }
    }
    let text = text.text.trim();
    if text == "#" {
        notes.diagram.get_or_insert(DiagramMarker::Hash);
    } else if !text.is_empty() {
        notes.comments.push(text.to_string());
    }
}

/// A comment's text with pieces taken out: where one was (`gap`), the two sides meet with
/// one space.
#[derive(Default)]
struct Joined {
    text: String,
    gap: bool,
}

impl Joined {
    fn push(&mut self, piece: &str) {
        if std::mem::take(&mut self.gap) {
            let kept = self.text.trim_end().len();
            self.text.truncate(kept);
            let piece = piece.trim_start();
            if !self.text.is_empty() && !piece.is_empty() {
                self.text.push(' ');
            }
            self.text.push_str(piece);
        } else {
            self.text.push_str(piece);
        }
    }
}
