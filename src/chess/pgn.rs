//! PGN text in, a game's tag pairs and main line out: each move as written (SAN), its NAG
//! and the comment after it. Variations are skipped; [`read`] reads the first game of the
//! text, [`split_games`] finds where each game of a file starts. The tokenizer (`Lexer`)
//! is shared with the tree reader (`annotated`). No chess rules here: playing the moves is
//! `game/`.

use crate::echo::{Echo, clip};
use thiserror::Error;

/// One move of the main line, as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PgnMove {
    /// The move number written before it (`12.` or `12...`), if any.
    pub number: Option<u32>,
    /// The SAN text without suffix annotations (`Nf3`, `exd6`, `O-O`, `e8=Q+`).
    pub san: String,
    /// The move's annotation: a NAG (`$1`), or a suffix (`!`, `?!`, …) read as its NAG.
    pub nag: Option<u8>,
    /// The comments after it, joined by a space.
    pub comment: String,
}

/// A game as written: tag pairs, the comment before the first move, the main line.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Pgn {
    /// Tag pairs in order (`[White "Morphy, Paul"]` → `("White", "Morphy, Paul")`).
    pub headers: Vec<(String, String)>,
    /// Comments before the first move.
    pub intro: String,
    /// The main line.
    pub moves: Vec<PgnMove>,
    /// The result token, if the movetext ends with one.
    pub result: Option<String>,
}

impl Pgn {
    /// The value of the tag `name` (case-insensitive), if present.
    pub fn header(&self, name: &str) -> Option<&str> {
        tag_value(&self.headers, name)
    }
}

/// The value of the tag `name` (case-insensitive) among the tag pairs `headers`, if present.
pub(crate) fn tag_value<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
}

/// Why a PGN text could not be read: one sentence.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{kind}")]
pub struct PgnError {
    /// What was wrong, with the details the message shows.
    pub kind: PgnErrorKind,
}

impl From<PgnErrorKind> for PgnError {
    fn from(kind: PgnErrorKind) -> PgnError {
        PgnError { kind }
    }
}

/// The kinds of [`PgnError`]. Every `text` field holds the offending input as written, cut
/// to 41 characters (the message shows at most 40, quoted, non-printable characters as `?`).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum PgnErrorKind {
    /// A line starting with `[` that is not a tag pair.
    #[error("the tag pair {} is not [Name \"value\"]", Echo(.text))]
    TagPair {
        /// The line.
        text: String,
    },
    /// A `{` with no `}` after it.
    #[error("the comment opened at character {at} is never closed with }}")]
    UnclosedComment {
        /// 1-based character position of the `{`.
        at: usize,
    },
    /// A `(` with no matching `)`.
    #[error("the variation opened at character {at} is never closed with )")]
    UnclosedVariation {
        /// 1-based character position of the `(`.
        at: usize,
    },
    /// A `)` with no `(` before it.
    #[error("the ) at character {at} closes no variation")]
    StrayClose {
        /// 1-based character position of the `)`.
        at: usize,
    },
    /// A `$` not followed by a number from 0 to 255.
    #[error("{} is not a NAG ($0 to $255)", Echo(.text))]
    Nag {
        /// The `$` and the digits after it.
        text: String,
    },
    /// A `$` not followed by a number from 0 to 65535 (the tree reader's NAGs), nor `$D`.
    #[error("{} is not a NAG ($0 to $65535)", Echo(.text))]
    WideNag {
        /// The `$` and the digits after it.
        text: String,
    },
    /// A `(` with no move before it for the variation to replace (the tree reader).
    #[error("the variation opened at character {at} follows no move it could replace")]
    VariationWithoutMove {
        /// 1-based character position of the `(`.
        at: usize,
    },
    /// A `( )` with no move in it (the tree reader).
    #[error("the variation opened at character {at} has no moves")]
    EmptyVariation {
        /// 1-based character position of the `(`.
        at: usize,
    },
    /// A token that is no move, move number, annotation or result.
    #[error("{} is not a move", Echo(.text))]
    NotAMove {
        /// The token.
        text: String,
    },
}

/// The NAG of a suffix annotation (`!` = 1, `?` = 2, `!!` = 3, `??` = 4, `!?` = 5, `?!` = 6).
pub fn suffix_nag(suffix: &str) -> Option<u8> {
    Some(match suffix {
        "!" => 1,
        "?" => 2,
        "!!" => 3,
        "??" => 4,
        "!?" => 5,
        "?!" => 6,
        _ => return None,
    })
}

/// The suffix drawn for a move NAG (1–6), if it is one.
pub fn nag_suffix(nag: u8) -> Option<&'static str> {
    Some(match nag {
        1 => "!",
        2 => "?",
        3 => "!!",
        4 => "??",
        5 => "!?",
        6 => "?!",
        _ => return None,
    })
}

const RESULTS: [&str; 5] = ["1-0", "0-1", "1/2-1/2", "½-½", "*"];

/// Read the first game of `text`.
pub fn read(text: &str) -> Result<Pgn, PgnError> {
    read_first(text).map(|(pgn, _)| pgn)
}

/// Read the first game of `text`, and the text after it: empty, or what follows its result
/// token, or the next game from its first `[`.
pub(crate) fn read_first(text: &str) -> Result<(Pgn, &str), PgnError> {
    let mut pgn = Pgn::default();
    let mut lexer = Lexer::new(text);
    let mut number: Option<u32> = None;
    // Where each open variation began: its tokens are skipped.
    let mut open: Vec<usize> = Vec::new();
    while let Some((at, token)) = lexer.next_token()? {
        if !open.is_empty() {
            match token {
                Token::Open => open.push(at),
                Token::Close => _ = open.pop(),
                _ => {}
            }
            continue;
        }
        match token {
            Token::Tag(name, value) => pgn.headers.push((name, value)),
            Token::Comment(comment) => add_comment(&mut pgn, comment.trim()),
            Token::Open => open.push(at),
            Token::Close => return Err(PgnErrorKind::StrayClose { at: at + 1 }.into()),
            Token::Nag(nag) => read_nag(&mut pgn, nag)?,
            Token::Result(result) => {
                pgn.result = Some(result);
                return Ok((pgn, lexer.rest()));
            }
            Token::Word(word) => read_word(&mut pgn, word, &mut number)?,
        }
    }
    if let Some(&at) = open.first() {
        return Err(PgnErrorKind::UnclosedVariation { at: at + 1 }.into());
    }
    Ok((pgn, lexer.rest()))
}

/// One token of PGN text (escape lines are skipped, not tokens).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Token<'t> {
    /// `[Name "value"]` before the movetext: the name and the unescaped value.
    Tag(String, String),
    /// A `{…}` comment's text, or a `;` comment's to the end of its line (untrimmed).
    Comment(&'t str),
    /// `(`.
    Open,
    /// `)`.
    Close,
    /// `$` and the digits after it (or `$D`), unchecked.
    Nag(&'t str),
    /// A result token, folded (`1-0`, `0-1`, `1/2-1/2`, `½-½`, `*`).
    Result(String),
    /// Anything else: a move, a move number, a suffix, as written.
    Word(&'t str),
}

/// The one tokenizer of PGN text, shared by the main-line reader and the tree reader
/// (`annotated`). It stops at a `[` after the movetext (the next game starts there).
pub(crate) struct Lexer<'t> {
    text: &'t str,
    rest: &'t str,
    in_movetext: bool,
}

impl<'t> Lexer<'t> {
    /// A lexer at the start of `text` (a byte-order mark is skipped).
    pub(crate) fn new(text: &'t str) -> Lexer<'t> {
        Lexer {
            text,
            rest: text.strip_prefix('\u{feff}').unwrap_or(text),
            in_movetext: false,
        }
    }

    /// The text not read yet.
    pub(crate) fn rest(&self) -> &'t str {
        self.rest
    }

    /// The next token and its byte offset in the text, `None` at the end of the game.
    pub(crate) fn next_token(&mut self) -> Result<Option<(usize, Token<'t>)>, PgnError> {
        loop {
            let rest = self.rest.trim_start();
            self.rest = rest;
            let at = self.text.len() - rest.len();
            let Some(c) = rest.chars().next() else {
                return Ok(None);
            };
            let (token, after) = match c {
                '[' if !self.in_movetext => {
                    let (name, value, after) = header(rest).ok_or_else(|| {
                        let line = rest.lines().next().unwrap_or(rest);
                        PgnError::from(PgnErrorKind::TagPair { text: clip(line) })
                    })?;
                    (Token::Tag(name, value), after)
                }
                // A tag pair after the movetext starts the next game.
                '[' => return Ok(None),
                '%' if line_start(self.text, at) => {
                    self.rest = rest_of_line(rest);
                    continue;
                }
                ';' => {
                    let (comment, after) = rest[1..].split_once('\n').unwrap_or((&rest[1..], ""));
                    (Token::Comment(comment), after)
                }
                _ => {
                    self.in_movetext = true;
                    self.movetext_token(rest, at)?
                }
            };
            self.rest = after;
            return Ok(Some((at, token)));
        }
    }

    /// The token of movetext at the start of `rest` (byte `at`), and the text after it.
    fn movetext_token(&self, rest: &'t str, at: usize) -> Result<(Token<'t>, &'t str), PgnError> {
        Ok(match rest.as_bytes()[0] {
            b'{' => {
                let close = rest
                    .find('}')
                    .ok_or(PgnErrorKind::UnclosedComment { at: at + 1 })?;
                (Token::Comment(&rest[1..close]), &rest[close + 1..])
            }
            b'(' => (Token::Open, &rest[1..]),
            b')' => (Token::Close, &rest[1..]),
            b'$' => {
                let digits = rest[1..]
                    .find(|c: char| !c.is_ascii_digit())
                    .unwrap_or(rest.len() - 1);
                // xskak's diagram NAG.
                let end = if digits == 0 && rest[1..].starts_with('D') {
                    2
                } else {
                    1 + digits
                };
                (Token::Nag(&rest[..end]), &rest[end..])
            }
            _ => {
                let end = rest
                    .find(|c: char| c.is_whitespace() || "{}()[];$".contains(c))
                    .unwrap_or(rest.len());
                // A lone `}` or `]` is a word of its own, for the error to quote.
                let end = if end == 0 {
                    rest.chars().next().map_or(0, char::len_utf8)
                } else {
                    end
                };
                let word = &rest[..end];
                let folded = super::pasted::fold(word);
                if RESULTS.contains(&folded.as_ref()) {
                    (Token::Result(folded.into_owned()), &rest[end..])
                } else {
                    (Token::Word(word), &rest[end..])
                }
            }
        })
    }
}

/// Read a NAG token (`$1`) onto the last move.
fn read_nag(pgn: &mut Pgn, text: &str) -> Result<(), PgnError> {
    let nag = text[1..]
        .parse::<u8>()
        .map_err(|_| PgnError::from(PgnErrorKind::Nag { text: clip(text) }))?;
    if let Some(last) = pgn.moves.last_mut() {
        // A move NAG (1–6) is the move's annotation; others are kept out.
        if nag_suffix(nag).is_some() && last.nag.is_none() {
            last.nag = Some(nag);
        }
    }
    Ok(())
}

/// What one word of movetext that is not a result is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Word<'t> {
    /// A move number (kept for the next move) or an `e.p.` mark.
    Skip,
    /// A suffix standing apart (`e4 !?`): its NAG, if it is a known suffix.
    Suffix(Option<u8>),
    /// A move (without number and suffix) and its suffix's NAG.
    Move(&'t str, Option<u8>),
}

/// Classify one word of movetext: a move number (kept in `number` for the next move), an
/// `e.p.` mark, a suffix standing apart, or a move.
pub(crate) fn classify_word<'t>(token: &'t str, number: &mut Option<u32>) -> Word<'t> {
    let mut token = token;
    // A move number: `12.`, `12...`, `12…`, or glued to its move (`1.e4`).
    let digits = token
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(token.len());
    if digits > 0 && token[digits..].starts_with(['.', '…']) {
        *number = token[..digits].parse().ok();
        token = token[digits..].trim_start_matches(['.', '…']);
        if token.is_empty() {
            return Word::Skip;
        }
    }
    if !token.is_empty() && token.bytes().all(|b| b.is_ascii_digit()) {
        // A number without dots (`1 e4`): a move number all the same.
        *number = token.parse().ok();
        return Word::Skip;
    }
    if matches!(token, "e.p." | "ep" | "e.p") {
        return Word::Skip;
    }
    let token = token
        .strip_suffix("e.p.")
        .filter(|t| !t.is_empty())
        .unwrap_or(token);
    match split_suffix(token) {
        ("", nag) => Word::Suffix(nag),
        (san, nag) => Word::Move(san, nag),
    }
}

/// Read one word of movetext that is not a result onto `pgn`.
fn read_word(pgn: &mut Pgn, token: &str, number: &mut Option<u32>) -> Result<(), PgnError> {
    match classify_word(token, number) {
        Word::Skip => {}
        Word::Suffix(nag) => match (pgn.moves.last_mut(), nag) {
            (Some(last), Some(nag)) => _ = last.nag.get_or_insert(nag),
            _ => return Err(PgnErrorKind::NotAMove { text: clip(token) }.into()),
        },
        Word::Move(san, nag) => pgn.moves.push(PgnMove {
            number: number.take(),
            san: san.to_string(),
            nag,
            comment: String::new(),
        }),
    }
    Ok(())
}

/// The games of a PGN file, each with the 1-based line it starts on; blank text has none.
///
/// A game starts at its first tag pair, or at its first movetext when it has no tags (`%`
/// escape lines before it are left out). The next game starts at a `[` that follows the
/// movetext (moves, a result, a comment), where [`read`] stops, or at a tag pair whose name
/// the game already has: a game of tags only, with no result, is a game of its own. A `[`
/// inside a `{…}` comment starts nothing. Each game's text is trimmed at the end; nothing
/// is checked, [`read`] does that.
pub fn split_games(text: &str) -> Vec<(usize, &str)> {
    let body = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut games = Vec::new();
    // The game being read: its first byte in `body` and its line.
    let mut current: Option<(usize, usize)> = None;
    let mut movetext = false;
    let mut names: Vec<String> = Vec::new();
    // `line` is the line of byte `counted`.
    let (mut line, mut counted) = (1, 0);
    let mut rest = body;
    loop {
        rest = rest.trim_start();
        let Some(c) = rest.chars().next() else { break };
        let at = body.len() - rest.len();
        line += body[counted..at].bytes().filter(|&b| b == b'\n').count();
        counted = at;
        if c == '[' {
            let tag = header(rest);
            let repeated = tag.as_ref().is_some_and(|(name, _, _)| {
                names.iter().any(|seen| seen.eq_ignore_ascii_case(name))
            });
            if current.is_none() || movetext || repeated {
                if let Some((start, n)) = current {
                    games.push((n, body[start..at].trim_end()));
                }
                current = Some((at, line));
                movetext = false;
                names.clear();
            }
            match tag {
                Some((name, _, after)) => {
                    names.push(name);
                    rest = after;
                }
                None => rest = rest_of_line(rest),
            }
            continue;
        }
        if c == '%' && line_start(body, at) {
            rest = rest_of_line(rest);
            continue;
        }
        current.get_or_insert((at, line));
        movetext = true;
        rest = match c {
            ';' => rest_of_line(rest),
            '{' => rest.find('}').map_or("", |close| &rest[close + 1..]),
            _ => {
                let end = rest[c.len_utf8()..]
                    .find(|c: char| c.is_whitespace() || "{[;".contains(c))
                    .map_or(rest.len(), |i| i + c.len_utf8());
                &rest[end..]
            }
        };
    }
    if let Some((start, n)) = current {
        games.push((n, body[start..].trim_end()));
    }
    games
}

/// `text` after its first line.
fn rest_of_line(text: &str) -> &str {
    text.split_once('\n').map_or("", |(_, after)| after)
}

/// True when byte `at` of `text` begins a line.
fn line_start(text: &str, at: usize) -> bool {
    at == 0 || text.as_bytes().get(at - 1) == Some(&b'\n')
}

/// Append a comment to the last move's, or to the intro before any move.
fn add_comment(pgn: &mut Pgn, comment: &str) {
    if comment.is_empty() {
        return;
    }
    let target = match pgn.moves.last_mut() {
        Some(m) => &mut m.comment,
        None => &mut pgn.intro,
    };
    if !target.is_empty() {
        target.push(' ');
    }
    target.push_str(comment);
}

/// `[Name "value"]` at the start of `text`: the name, the unescaped value, the rest.
fn header(text: &str) -> Option<(String, String, &str)> {
    let inner = text.strip_prefix('[')?.trim_start();
    let name_end = inner.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))?;
    if name_end == 0 {
        return None;
    }
    let name = &inner[..name_end];
    let after_name = inner[name_end..].trim_start().strip_prefix('"')?;
    let mut value = String::new();
    let mut chars = after_name.char_indices();
    let close = loop {
        match chars.next()? {
            (_, '\\') => value.push(chars.next()?.1),
            (i, '"') => break i,
            (_, '\n') => return None,
            (_, c) => value.push(c),
        }
    };
    let rest = after_name[close + 1..].trim_start().strip_prefix(']')?;
    Some((name.to_string(), value, rest))
}

/// A move token without its suffix annotation, and the suffix's NAG.
fn split_suffix(token: &str) -> (&str, Option<u8>) {
    let san = token.trim_end_matches(['!', '?']);
    (san, suffix_nag(&token[san.len()..]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn sans(pgn: &Pgn) -> Vec<&str> {
        pgn.moves.iter().map(|m| m.san.as_str()).collect()
    }

    #[test]
    fn reads_tags_numbers_comments_nags_and_skips_variations() {
        let text = "[Event \"Paris \\\"Opera\\\"\"]\n[White \"Morphy, Paul\"]\n\n\
            {Intro} 1.e4 e5 2. Nf3 d6!? $14 3...Bg4?! {pin [%cal Gg4f3]} \
            (3... Nc6 (3... f5)) 4.dxe5 ; rest of line\n4... Bxf3 5. O-O 0-0-0 e8=Q+ 1-0 [Event \"next\"]";
        let pgn = read(text).expect("reads");
        assert_eq!(pgn.header("event"), Some("Paris \"Opera\""));
        assert_eq!(pgn.header("White"), Some("Morphy, Paul"));
        assert_eq!(pgn.intro, "Intro");
        assert_eq!(
            sans(&pgn),
            [
                "e4", "e5", "Nf3", "d6", "Bg4", "dxe5", "Bxf3", "O-O", "0-0-0", "e8=Q+"
            ]
        );
        assert_eq!(pgn.moves[0].number, Some(1));
        assert_eq!(pgn.moves[1].number, None);
        assert_eq!(pgn.moves[4].number, Some(3));
        assert_eq!(pgn.moves[3].nag, Some(5), "!? before $14 wins");
        assert_eq!(pgn.moves[4].nag, Some(6));
        assert_eq!(pgn.moves[4].comment, "pin [%cal Gg4f3]");
        assert_eq!(pgn.moves[5].comment, "rest of line");
        assert_eq!(pgn.result.as_deref(), Some("1-0"));
    }

    #[test]
    fn en_passant_marks_and_lone_suffixes() {
        let pgn = read("1. e4 d5 2. e5 f5 3. exf6 e.p. Nf6 !! 4. d4 $2 5.f4").expect("reads");
        assert_eq!(pgn.moves[7].san, "f4", "a glued move as long as its number");
        assert_eq!(
            sans(&pgn),
            ["e4", "d5", "e5", "f5", "exf6", "Nf6", "d4", "f4"]
        );
        assert_eq!(pgn.moves[5].nag, Some(3));
        assert_eq!(pgn.moves[6].nag, Some(2));
        let glued = read("1.e4 d5 2.e5 f5 3.exf6e.p.").expect("reads");
        assert_eq!(glued.moves[4].san, "exf6");
    }

    #[test]
    fn syntax_errors_say_where() {
        let open = read("1. e4 {never closed").unwrap_err().to_string();
        assert!(open.contains("comment opened at character 7"), "{open}");
        let var = read("1. e4 (1. d4 e5").unwrap_err().to_string();
        assert!(var.contains("variation opened at character 7"), "{var}");
        let close = read("1. e4 ) e5").unwrap_err().to_string();
        assert!(close.contains("closes no variation"), "{close}");
        let tag = read("[White Morphy]\n1. e4").unwrap_err().to_string();
        assert!(tag.contains("[Name \"value\"]"), "{tag}");
        let nag = read("1. e4 $999").unwrap_err().to_string();
        assert!(nag.contains("not a NAG"), "{nag}");
    }

    #[test]
    fn bare_movetext_and_escape_lines() {
        let pgn = read("% exported by a tool\n1 e4 c5 *").expect("reads");
        assert_eq!(sans(&pgn), ["e4", "c5"]);
        assert_eq!(pgn.result.as_deref(), Some("*"));
        assert!(
            read("")
                .expect("empty is a game without moves")
                .moves
                .is_empty()
        );
    }

    #[test]
    fn split_games_two_games_with_tags() {
        let text = "[Event \"A\"]\n[White \"x\"]\n\n1. e4 e5 1-0\n\n[Event \"B\"]\n\n1. d4 *\n";
        let games = split_games(text);
        assert_eq!(
            games,
            [
                (1, "[Event \"A\"]\n[White \"x\"]\n\n1. e4 e5 1-0"),
                (6, "[Event \"B\"]\n\n1. d4 *"),
            ]
        );
        let second = read(games[1].1).expect("reads");
        assert_eq!(second.header("Event"), Some("B"));
        assert_eq!(sans(&second), ["d4"]);
    }

    #[test]
    fn split_games_a_game_of_tags_only_stands_alone() {
        // The second game has tags and no movetext: the repeated Event tag starts the third.
        let text = "[Event \"A\"]\n1. e4 *\n[Event \"B\"]\n[Site \"s\"]\n[Event \"C\"]\n1. d4 *";
        let games = split_games(text);
        let lines: Vec<usize> = games.iter().map(|(n, _)| *n).collect();
        assert_eq!(lines, [1, 3, 5]);
        assert_eq!(games[1].1, "[Event \"B\"]\n[Site \"s\"]");
        let tags_only = read(games[1].1).expect("reads");
        assert_eq!(tags_only.header("Site"), Some("s"));
        assert!(tags_only.moves.is_empty());
        assert_eq!(read(games[2].1).expect("reads").header("Event"), Some("C"));
        // Different tags one after the other are one game's.
        assert_eq!(split_games("[White \"a\"]\n[Black \"b\"]\n").len(), 1);
    }

    #[test]
    fn split_games_skips_a_bom_and_counts_lines() {
        let text = "\u{feff}[Event \"A\"]\r\n1. e4 *\r\n\r\n[Event \"B\"]\r\n1. d4 *\r\n";
        assert_eq!(
            split_games(text),
            [
                (1, "[Event \"A\"]\r\n1. e4 *"),
                (4, "[Event \"B\"]\r\n1. d4 *")
            ]
        );
    }

    #[test]
    fn split_games_movetext_without_tags_is_one_game() {
        assert_eq!(
            split_games("% exported\n\n1. e4 e5\n2. Nf3 *\n\n"),
            [(3, "1. e4 e5\n2. Nf3 *")]
        );
        for blank in ["", " \n\t\r\n", "\u{feff}", "\u{feff}\n\n"] {
            assert_eq!(split_games(blank), [], "{blank:?}");
        }
    }

    #[test]
    fn split_games_comments_and_results_are_movetext() {
        // A `[` inside a comment spanning lines starts nothing; after a comment, it does.
        let text = "[Event \"A\"]\n1. e4 {clock\n[%clk 0:03:00]} e5 *\n[Event \"B\"]\n{only a comment}\n[Event \"C\"]\n0-1";
        let lines: Vec<usize> = split_games(text).iter().map(|(n, _)| *n).collect();
        assert_eq!(lines, [1, 4, 6]);
        // A tag right after the result on the same line starts the next game, as `read`
        // stops there.
        let games = split_games("1. e4 1-0 [Event \"B\"] 1. d4 *");
        assert_eq!(games, [(1, "1. e4 1-0"), (1, "[Event \"B\"] 1. d4 *")]);
    }

    proptest! {
        #[test]
        fn split_games_never_panics(text in "[\\[\\]{};%\"\n a1.\u{feff}é]{0,60}") {
            let games = split_games(&text);
            for pair in games.windows(2) {
                prop_assert!(pair[0].0 <= pair[1].0);
            }
            for (line, game) in games {
                prop_assert!(line >= 1 && !game.trim().is_empty());
                prop_assert!(text.contains(game));
            }
        }
    }
}
