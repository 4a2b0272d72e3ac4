//! Diagrams where people write: the fenced code blocks of a Markdown document rewritten
//! into images, every other byte left as it was.
//!
//! ```text
//!  document ──► pulldown-cmark (CommonMark blocks: fences in lists, quotes; not in HTML
//!               or indented code) ──► fence::read (grammar ─► Request, alt, caption)
//!            ──► emit (render each distinct request once, on every core; write files or
//!               inline SVG or a service URL) ──► the document with images in the fences' place
//! ```
//!
//! A fence is a diagram when its info string's first word is `fen`, `chess`, `chessboard`
//! or `pgn` ([`fence::INFO_WORDS`]).
//!
//! ```
//! use staunton::markdown::{rewrite, Mode, Settings};
//! use staunton::Renderer;
//!
//! let document = "# Opening\n\n```fen size=240\nstart\narrows: e2->e4\n```\n\nThe end.\n";
//! let settings = Settings { mode: Mode::Url { base: "https://example.org".into() }, ..Settings::default() };
//! let mut out = Vec::new();
//! rewrite(document, &settings, &Renderer::default(), &mut out)?;
//! let out = String::from_utf8(out).unwrap();
//! assert!(out.starts_with("# Opening\n\n<img src=\"https://example.org/diagram.svg?fen=start&amp;size=240&amp;arrows=e2e4\""));
//! assert!(out.ends_with("\n\nThe end.\n"));
//! # Ok::<(), staunton::markdown::MarkdownError>(())
//! ```

pub mod emit;
pub mod fence;
mod settings;

pub use settings::{MarkdownError, Mode, Report, Settings};

use crate::render::Renderer;
use emit::Emitter;
use fence::Diagram;
use pulldown_cmark::{CodeBlockKind, Event, Options, Parser, Tag, TagEnd};
use std::io::Write;
use std::ops::Range;

/// Fences read before their diagrams are rendered together: enough to keep both cores
/// busy, few enough that the rendered images held at once stay small.
const CHUNK: usize = 256;

/// A diagram fence found: where it is, its line, and what it reads as.
struct Found {
    range: Range<usize>,
    line: usize,
    /// Whether the fence's innermost container is a list item.
    in_item: bool,
    diagram: Result<Diagram, String>,
}

/// Write `document` to `out` with each diagram fence replaced as `settings` say.
///
/// A rewrite that fails removes the image files (and folders) it created: a document
/// that stops at a bad fence leaves no images of its own behind (files that were there
/// before stay).
pub fn rewrite(
    document: &str,
    settings: &Settings,
    renderer: &Renderer,
    out: &mut dyn Write,
) -> Result<Report, MarkdownError> {
    let mut emitter = Emitter::new(settings, renderer)?;
    match rewrite_with(document, settings, &mut emitter, out) {
        Ok(()) => Ok(emitter.report()),
        Err(e) => {
            settings::remove_created(&emitter.report().created);
            Err(e)
        }
    }
}

/// [`rewrite`]'s work, with the emitter that renders and writes the images.
fn rewrite_with(
    document: &str,
    settings: &Settings,
    emitter: &mut Emitter,
    out: &mut dyn Write,
) -> Result<(), MarkdownError> {
    let defaults = settings.fence_defaults();
    let mut lines = LineCounter::default();
    let mut chunk: Vec<Found> = Vec::new();
    let mut written = 0;
    let mut open: Option<(String, Range<usize>, String)> = None;
    // The open containers, innermost last: `true` for a list item.
    let mut containers: Vec<bool> = Vec::new();
    // Front matter is read as such only at the very top (pulldown-cmark would take a `---`
    // pair anywhere for it, and hide the fences between).
    let skip = front_matter_len(document);
    let body = Parser::new_ext(&document[skip..], options()).into_offset_iter();
    for (event, range) in body.map(|(e, r)| (e, r.start + skip..r.end + skip)) {
        match event {
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info)))
                if fence::is_diagram(&info) =>
            {
                open = Some((info.into_string(), range, String::new()));
            }
            Event::Start(Tag::Item) => containers.push(true),
            Event::Start(Tag::BlockQuote(_) | Tag::FootnoteDefinition(_)) => {
                containers.push(false);
            }
            Event::End(TagEnd::Item | TagEnd::BlockQuote(_) | TagEnd::FootnoteDefinition) => {
                containers.pop();
            }
            Event::Text(text) => {
                if let Some((_, _, body)) = open.as_mut() {
                    body.push_str(&text);
                }
            }
            Event::End(TagEnd::CodeBlock) => {
                let Some((info, range, body)) = open.take() else {
                    continue;
                };
                let mut line = lines.line_at(document, range.start);
                let diagram = settings
                    .read(&info, &body, &defaults)
                    .map_err(|e| match unclosed(document, &range) {
                        // CommonMark runs an unclosed fence to the end of the document (or
                        // of its container): a diagram when it reads as one, but when it
                        // does not, that is most likely why.
                        Some((opening, marker)) => format!(
                            "the {opening} fence opened at line {line} is never closed (end it with a line of {marker}), so all that follows it was read as its body: {e}"
                        ),
                        None => {
                            // The error is told at the line where it stands.
                            line += fence::error_line(&info, &body, &e);
                            e.to_string()
                        }
                    });
                chunk.push(Found {
                    range,
                    line,
                    in_item: containers.last() == Some(&true),
                    diagram,
                });
                if chunk.len() == CHUNK {
                    written = flush(document, &mut chunk, emitter, written, out)?;
                }
            }
            _ => {}
        }
    }
    written = flush(document, &mut chunk, emitter, written, out)?;
    out.write_all(&document.as_bytes()[written..])?;
    Ok(())
}

/// When the fenced block at `range` has no closing fence line: its opening as written
/// (```` ```fen ````, `~~~pgn`: the marker and the first word) and its marker; `None` when
/// it is closed.
fn unclosed(document: &str, range: &Range<usize>) -> Option<(String, String)> {
    let source = &document[range.clone()];
    let opening = source.trim_start_matches([' ', '\t']);
    let marker = opening.chars().next().filter(|c| matches!(c, '`' | '~'))?;
    let width = opening.len() - opening.trim_start_matches(marker).len();
    let first_word = opening[width..].split_whitespace().next().unwrap_or("");
    let first_word = first_word
        .trim_start_matches(['{', '.'])
        .trim_end_matches('}');
    let marker_text = opening[..width].to_string();
    let written = (format!("{marker_text}{first_word}"), marker_text);
    let mut lines = source.lines();
    lines.next();
    let Some(last) = lines.last() else {
        return Some(written);
    };
    // The closing line sits in the same quotes as the opening: that many `>` come first.
    let line_start = document[..range.start]
        .rfind(['\n', '\r'])
        .map_or(0, |i| i + 1);
    let depth = document[line_start..range.start].matches('>').count();
    let mut rest = last;
    for _ in 0..depth {
        rest = rest.trim_start_matches([' ', '\t']);
        rest = rest.strip_prefix('>').unwrap_or(rest);
    }
    let rest = rest.trim_start_matches([' ', '\t']);
    let closing = rest.len() - rest.trim_start_matches(marker).len();
    let closed = closing >= width && rest[closing..].trim().is_empty();
    (!closed).then_some(written)
}

/// The Markdown the fences are found in: CommonMark, with the extensions whose blocks
/// can hold a fence (footnotes) or change what a line is (tables, task lists).
fn options() -> Options {
    Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
}

/// The length of the static-site front matter at the top of `document` (`---` … `---` or
/// `...`, `+++` … `+++`), with its closing line; 0 when there is none.
fn front_matter_len(document: &str) -> usize {
    let mut lines = document.split_inclusive('\n');
    let Some(first) = lines.next() else {
        return 0;
    };
    let closing: &[&str] = match first.trim_end() {
        "---" => &["---", "..."],
        "+++" => &["+++"],
        _ => return 0,
    };
    let mut offset = first.len();
    for line in lines {
        offset += line.len();
        if closing.contains(&line.trim_end()) {
            return offset;
        }
    }
    0
}

/// Render the chunk's diagrams, then write the document up to the chunk's last fence with
/// each fence replaced; returns how far the document is written.
fn flush(
    document: &str,
    chunk: &mut Vec<Found>,
    emitter: &mut Emitter,
    mut written: usize,
    out: &mut dyn Write,
) -> Result<usize, MarkdownError> {
    let diagrams: Vec<&Diagram> = chunk
        .iter()
        .filter_map(|f| f.diagram.as_ref().ok())
        .collect();
    emitter.render(&diagrams, chunk.len())?;
    for found in chunk.drain(..) {
        let text = emitter.replacement(found.line, &found.diagram)?;
        written = place(document, &found, &text, written, out)?;
    }
    Ok(written)
}

/// Write the document from `written` up to the fence at `range`, then `text` in its place;
/// returns how far the document is written.
fn place(
    document: &str,
    found: &Found,
    text: &str,
    written: usize,
    out: &mut dyn Write,
) -> Result<usize, MarkdownError> {
    let (start, end) = (found.range.start, found.range.end);
    let line_start = document[..start]
        .rfind(['\n', '\r'])
        .map_or(0, |i| i + 1)
        .max(written);
    let prefix = &document[line_start..start];
    // The fence's line ending stays (the range holds it only when the fence runs to the
    // end of the document): the next block starts as it did.
    let endings = ["\r\n", "\n", "\r"];
    let (ending, end) = match endings
        .into_iter()
        .find(|e| document[start..end].ends_with(e))
    {
        Some(e) => (e, end),
        None => match endings.into_iter().find(|e| document[end..].starts_with(e)) {
            Some(e) => (e, end + e.len()),
            None => ("", end),
        },
    };
    // A fence is a block of its own; an image line is not (a paragraph, or an HTML block
    // that runs to the next blank line): blank lines keep the neighbours apart, except
    // where a list item starts on the fence's line or the next line starts an item that
    // closes the fence's own (so a tight list stays tight).
    let blank = blank_line(prefix);
    let depth = blank.matches('>').count();
    out.write_all(&document.as_bytes()[written..line_start])?;
    let before = previous_line(&document[..line_start]);
    if line_start > 0 && !is_blank(before, depth) && !opens_item(prefix) {
        write!(out, "{blank}{}", ending_or_newline(ending))?;
    }
    write!(out, "{prefix}{text}{ending}")?;
    let after = next_line(&document[end..]);
    let closes_item = found.in_item && is_item(after) && indent(after) < columns(prefix);
    if end < document.len() && !is_blank(after, depth) && !closes_item {
        write!(out, "{blank}{ending}")?;
    }
    Ok(end)
}

/// Whether a fence's line `prefix` holds a list marker (the fence starts an item).
fn opens_item(prefix: &str) -> bool {
    prefix.chars().any(|c| c != '>' && !c.is_whitespace())
}

/// Whether `line` (after any quote markers) starts a list item: `-`, `*`, `+`, `1.`, `1)`.
fn is_item(line: &str) -> bool {
    let rest = line.trim_start_matches(['>', ' ', '\t']);
    let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let marker = match rest.as_bytes().first() {
        Some(b'-' | b'*' | b'+') => 1,
        Some(b'0'..=b'9') if (1..=9).contains(&digits) => match rest.as_bytes().get(digits) {
            Some(b'.' | b')') => digits + 1,
            _ => return false,
        },
        _ => return false,
    };
    matches!(rest.as_bytes().get(marker), None | Some(b' ' | b'\t'))
}

/// The width of a line's leading quote markers and spaces.
fn indent(line: &str) -> usize {
    let end = line
        .find(|c: char| c != '>' && !c.is_whitespace())
        .unwrap_or(line.len());
    columns(&line[..end])
}

/// The columns `text` spans, tabs reaching the next multiple of 4.
fn columns(text: &str) -> usize {
    text.chars().fold(0, |width, c| match c {
        '\t' => width + 4 - width % 4,
        _ => width + 1,
    })
}

/// A blank line inside the containers a line's `prefix` opens: its quote markers only
/// (`> >`), for list items and indents nothing.
fn blank_line(prefix: &str) -> String {
    let marks: String = prefix
        .chars()
        .map(|c| if c == '>' { '>' } else { ' ' })
        .collect();
    marks.trim_end().to_string()
}

/// Whether `line` is blank inside `depth` block quotes: spaces and at most `depth` quote
/// markers (one more marker opens a quote of its own).
fn is_blank(line: &str, depth: usize) -> bool {
    line.chars().all(|c| c == '>' || c.is_whitespace()) && line.matches('>').count() <= depth
}

/// The last line of `text`, which ends with a line ending (`\n`, `\r\n` or `\r`).
fn previous_line(text: &str) -> &str {
    let body = text.strip_suffix('\n').unwrap_or(text);
    let body = body.strip_suffix('\r').unwrap_or(body);
    body.rfind(['\n', '\r']).map_or(body, |i| &body[i + 1..])
}

/// The first line of `text`.
fn next_line(text: &str) -> &str {
    text.split(['\n', '\r']).next().unwrap_or("")
}

fn ending_or_newline(ending: &str) -> &str {
    if ending.is_empty() { "\n" } else { ending }
}

/// Line numbers of byte offsets met in increasing order, counted once.
#[derive(Default)]
struct LineCounter {
    offset: usize,
    line: usize,
}

impl LineCounter {
    /// The line of `offset`; a line ends at `\n`, `\r\n` or a lone `\r`, as in CommonMark.
    fn line_at(&mut self, document: &str, offset: usize) -> usize {
        let bytes = document.as_bytes();
        let ends = (self.offset..offset)
            .filter(|&i| {
                bytes[i] == b'\n' || (bytes[i] == b'\r' && bytes.get(i + 1) != Some(&b'\n'))
            })
            .count();
        self.line += ends;
        self.offset = offset;
        self.line + 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What [`unclosed`] says of the one diagram fence in `document`.
    fn unclosed_in(document: &str) -> Option<(String, String)> {
        let parser = Parser::new_ext(document, options()).into_offset_iter();
        let range = parser
            .filter_map(|(event, range)| match event {
                Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(_))) => Some(range),
                _ => None,
            })
            .next()
            .expect("a fence");
        unclosed(document, &range)
    }

    #[test]
    fn closed_fences_are_told_from_unclosed_ones() {
        let closed = [
            "```fen\nstart\n```\n",
            "```fen\nstart\n```",
            "````pgn\n1. e4\n`````\ntext\n",
            "~~~ {.fen size=300}\nstart\n~~~   \r\n",
            "> ```fen\n> start\n> ```\n",
            "- item\n\n  ```fen\n  start\n  ```\n- next\n",
        ];
        for document in closed {
            assert_eq!(unclosed_in(document), None, "{document:?}");
        }
        let open = [
            ("```fen\nstart\n", "```fen", "```"),
            ("```fen", "```fen", "```"),
            ("````pgn\n1. e4\n```\nmore text\n", "````pgn", "````"),
            ("~~~ {.fen size=300}\nstart\n", "~~~fen", "~~~"),
            ("> ```fen\n> start\n\nafter the quote\n", "```fen", "```"),
            ("```fen\n> ```\n", "```fen", "```"),
        ];
        for (document, opening, marker) in open {
            let told = unclosed_in(document);
            assert_eq!(
                told,
                Some((opening.to_string(), marker.to_string())),
                "{document:?}"
            );
        }
    }
}
