//! Worksheet requests: `/sheet` query parameters (or `staunton sheet` options) in, a
//! validated [`SheetRequest`] out.
//!
//! Owns the sheet's parameters, their limits and their one-sentence errors. The diagrams'
//! own parameters (theme, pieces, coordinates, …) are read by the diagram request parser,
//! so a sheet accepts exactly the values a diagram does.

use super::diagram::Request;
use super::error::{ONE_LINE, RequestError};
use super::key::KeyWriter;
use super::limits::Limits;
use super::params::{Param, ParamKind, named, param, text, with_look};
use super::query::Query;
use super::values::{parse_fen, parse_flag, parse_reading, whole_number};
use crate::echo::Echo;
use crate::render::options::Format;
use crate::render::options::RenderOptions;
use crate::render::sheet::{
    DEFAULT_DPI, DPI_RANGE, Entry, MAX_COLUMNS, MAX_ROWS, Paper, SheetOptions,
};

/// Most diagrams on a sheet made over HTTP.
pub const MAX_SHEET_DIAGRAMS: usize = 12;
/// Longest caption or title, in bytes.
pub const MAX_CAPTION_BYTES: usize = 200;
/// Longest solution, in bytes.
pub const MAX_SOLUTION_BYTES: usize = 1000;

/// The parameters of a worksheet (`/sheet`), each with its spellings, what it takes and one
/// sentence. Of the diagram parameters, those in [`DIAGRAM_PARAMS`] apply to every diagram.
pub const SHEET_PARAMS: &[Param] = &[
    param(
        "fen",
        &["fen"],
        ParamKind::Fen,
        "A position; repeat `fen` for each diagram, 1 to 12 of them, numbered in order.",
    ),
    text(
        "caption",
        &["caption"],
        "White to play and win",
        "The caption after a diagram's number; repeat it in the order of the `fen`s (an empty one skips a diagram).",
    ),
    text(
        "solution",
        &["solution"],
        "1. Qxf7+ Kxf7 2. Bc4+",
        "A diagram's answer for the answer key; repeat it in the order of the `fen`s.",
    ),
    param(
        "solutions",
        &["solutions"],
        ParamKind::Flag,
        "Add the answer key after the diagrams (default off).",
    ),
    text(
        "title",
        &["title"],
        "Homework 3: forks",
        "A heading on the first page.",
    ),
    text(
        "columns",
        &["columns", "cols"],
        "2",
        "Diagrams per row, 1 to 6 (default 2).",
    ),
    text(
        "rows",
        &["rows"],
        "3",
        "Rows per page, 1 to 10 (default: as many as fit with boards at least 3/4 of a column wide).",
    ),
    param(
        "page",
        &["page", "paper"],
        ParamKind::Choice(&["a4", "letter"]),
        "The paper size.",
    ),
    param(
        "format",
        &["format"],
        ParamKind::Choice(&["pdf", "svg", "png"]),
        "PDF (every page, vector), or one page as SVG or PNG (the path `/sheet.svg`, `.png`, `.pdf` also chooses it).",
    ),
    text(
        "pageNumber",
        &["pagenumber", "page_number"],
        "2",
        "SVG and PNG: which page, from 1 (default 1); the `X-Sheet-Pages` header says how many there are.",
    ),
    text(
        "dpi",
        &["dpi"],
        "150",
        "Page pixels per inch, 72 to 300 (default 150): the PNG's resolution.",
    ),
];

/// The diagram parameters a sheet applies to all its diagrams. Per-position marks (arrows,
/// last move, …) do not apply to a whole sheet and are ignored.
pub const DIAGRAM_PARAMS: &[&str] = &with_look::<2, 8>(["turn", "region"]);

/// The diagram parameters that say how every `fen` of a sheet is read: its dialect and,
/// for a board neither square nor 8 ranks tall, its size.
pub const READING_PARAMS: [&str; 2] = ["dialect", "board"];

/// A validated worksheet request.
#[derive(Debug, Clone)]
pub struct SheetRequest {
    /// The diagrams, in order (empty when the caller supplies them, as the CLI does).
    pub entries: Vec<Entry>,
    /// The layout and how each diagram is drawn.
    pub options: SheetOptions,
    /// PDF, SVG or PNG.
    pub format: Format,
    /// SVG and PNG: the page (0-based).
    pub page: usize,
}

/// The sheet parameter named `name` (of [`SHEET_PARAMS`]).
fn sheet(name: &str) -> &'static Param {
    Param::of(SHEET_PARAMS, name)
}

/// `value` of the `n`th `name`, trimmed: at most `max` bytes of one line of printable
/// text that can be drawn.
fn bounded(name: &'static str, n: usize, value: &str, max: usize) -> Result<String, RequestError> {
    let label = format!("{name} #{n}");
    RequestError::check_line(name, &label, value, ONE_LINE)?;
    if value.len() > max {
        return Err(RequestError::new(
            name,
            format!(
                "{name} #{n} {} is {} bytes long: at most {max} bytes are allowed",
                Echo(value),
                value.len()
            ),
        ));
    }
    Ok(value.trim().to_string())
}

impl SheetRequest {
    /// Validate the sheet's `pairs`: its layout, the diagram parameters of
    /// [`DIAGRAM_PARAMS`], and the diagrams (`fen`, `caption`, `solution` repeated; at most
    /// `max_diagrams`). `path_format` is the format the path asked for (`/sheet.png`).
    /// `need_fens`: at least one `fen` is required (HTTP); the CLI gives its own entries.
    pub fn from_pairs(
        pairs: &[(String, String)],
        path_format: Option<Format>,
        max_diagrams: usize,
        need_fens: bool,
        limits: &Limits,
    ) -> Result<SheetRequest, RequestError> {
        let query = Query::from_pairs(pairs.iter().map(|(k, v)| (k, v)));
        SheetRequest::read(&query, path_format, max_diagrams, need_fens, limits)
    }

    /// [`SheetRequest::from_pairs`] over a [`Query`].
    pub fn read(
        query: &Query,
        path_format: Option<Format>,
        max_diagrams: usize,
        need_fens: bool,
        limits: &Limits,
    ) -> Result<SheetRequest, RequestError> {
        let format = sheet_format(query.last(sheet("format")), path_format)?;
        let (mut options, page) = layout(query)?;
        // How each diagram is drawn: the diagram parser reads the parameters a sheet takes.
        let mut diagram = query.only(|k| DIAGRAM_PARAMS.iter().any(|p| named(p).accepts(k)));
        diagram.push("fen", "start");
        options.diagram = Request::read(&diagram, Some(Format::Svg), limits)?.options;
        let entries = entries(query, max_diagrams, need_fens, limits)?;
        Ok(SheetRequest {
            entries,
            options,
            format,
            page,
        })
    }

    /// The cache key: everything that decides the output bytes, normalised.
    pub fn cache_key(&self) -> String {
        let o = &self.options;
        let mut key = KeyWriter::new("sheet");
        key.field(self.format.extension())
            .field(match self.format {
                Format::Pdf => 0,
                _ => self.page,
            })
            .field(o.paper.name())
            .field(o.columns)
            .optional(o.rows)
            .field(o.dpi)
            .field(u8::from(o.solutions))
            .optional(o.title.as_deref())
            .field(self.entries.len());
        for e in &self.entries {
            Request::page_key_fields(&mut key, &e.position, &o.diagram)
                .optional(e.caption.as_deref())
                .optional(e.solution.as_deref());
        }
        key.finish()
    }
}

/// The sheet's format: `format=` (pdf, svg or png), which must agree with the path's.
fn sheet_format(asked: Option<&str>, path: Option<Format>) -> Result<Format, RequestError> {
    match (asked, path) {
        (Some(v), path) => {
            let f = Format::from_extension(v.trim())
                .filter(|f| matches!(f, Format::Pdf | Format::Svg | Format::Png))
                .ok_or_else(|| {
                    RequestError::bad_value(
                        "format",
                        v,
                        "a sheet is pdf, svg or png: expected one of those",
                    )
                })?;
            if path.is_some_and(|p| p != f) {
                return Err(RequestError::bad_value(
                    "format",
                    v,
                    "the path already names another format: drop format or change the path",
                ));
            }
            Ok(f)
        }
        (None, Some(path)) => Ok(path),
        (None, None) => Ok(Format::Pdf),
    }
}

/// The layout of a sheet (paper, grid, resolution, answer key, title; the diagrams drawn
/// as by default) and the page asked for (0-based).
fn layout(query: &Query) -> Result<(SheetOptions, usize), RequestError> {
    let last = |name: &str| query.last(sheet(name));
    let paper = match last("page") {
        None => Paper::A4,
        Some(v) => Paper::from_name(v)
            .ok_or_else(|| RequestError::bad_value("page", v, "expected a4 or letter"))?,
    };
    let columns = match last("columns") {
        None => 2,
        Some(v) => whole_number("columns", v, 1..=MAX_COLUMNS, "")?,
    };
    let rows = last("rows")
        .map(|v| whole_number("rows", v, 1..=MAX_ROWS, ""))
        .transpose()?;
    let dpi = match last("dpi") {
        None => DEFAULT_DPI,
        Some(v) => whole_number("dpi", v, DPI_RANGE, "")?,
    };
    let page = match last("pageNumber") {
        None => 0,
        Some(v) => whole_number("pageNumber", v, 1..=1000usize, "")? - 1,
    };
    let solutions = last("solutions")
        .map(|v| parse_flag("solutions", v))
        .transpose()?
        .unwrap_or(false);
    let title = last("title")
        .map(|t| bounded("title", 1, t, MAX_CAPTION_BYTES))
        .transpose()?
        .filter(|t| !t.is_empty());
    let options = SheetOptions {
        paper,
        columns,
        rows,
        title,
        solutions,
        dpi,
        diagram: RenderOptions::default(),
    };
    Ok((options, page))
}

/// The diagrams: `fen`, `caption` and `solution` repeated, at most `max_diagrams`; at
/// least one when `need_fens`.
fn entries(
    query: &Query,
    max_diagrams: usize,
    need_fens: bool,
    limits: &Limits,
) -> Result<Vec<Entry>, RequestError> {
    let fens = query.all(sheet("fen"));
    let reading = parse_reading(&|name: &str| query.last(named(name)))?;
    let captions = query.all(sheet("caption"));
    let answers = query.all(sheet("solution"));
    if need_fens && fens.is_empty() {
        return Err(RequestError::missing(
            "fen",
            format!(
                "give 1 to {max_diagrams} positions, each as its own fen parameter (fen=…&fen=…)"
            ),
        ));
    }
    if fens.len() > max_diagrams {
        return Err(RequestError::new(
            "fen",
            format!(
                "fen is given {} times: a sheet takes at most {max_diagrams} positions",
                fens.len()
            ),
        ));
    }
    for (name, given) in [("caption", captions.len()), ("solution", answers.len())] {
        if given > fens.len() && need_fens {
            return Err(RequestError::new(
                name,
                format!(
                    "{name} is given {given} times for {} positions: give at most one {name} per fen, in the same order",
                    fens.len()
                ),
            ));
        }
    }
    let mut entries = Vec::with_capacity(fens.len());
    for (i, fen) in fens.iter().enumerate() {
        let position = parse_fen(Some(fen), limits.fen_bytes, reading)
            .map_err(|e| RequestError::new("fen", format!("position {}: {e}", i + 1)))?;
        let text = |list: &[&str], name: &'static str, max: usize| {
            list.get(i)
                .map(|v| bounded(name, i + 1, v, max))
                .transpose()
                .map(|t| t.filter(|t| !t.is_empty()))
        };
        entries.push(Entry {
            position,
            caption: text(&captions, "caption", MAX_CAPTION_BYTES)?,
            solution: text(&answers, "solution", MAX_SOLUTION_BYTES)?,
        });
    }
    Ok(entries)
}

#[cfg(test)]
mod tests {
    use super::*;

    use super::super::query::owned as pairs;

    fn parse(list: &[(&str, &str)]) -> Result<SheetRequest, RequestError> {
        SheetRequest::from_pairs(
            &pairs(list),
            None,
            MAX_SHEET_DIAGRAMS,
            true,
            &Limits::default(),
        )
    }

    #[test]
    fn reads_repeated_fens_captions_and_layout() {
        let r = parse(&[
            ("fen", "start"),
            ("caption", "The start"),
            ("fen", "8/8/8/8/8/8/8/K6k b - - 0 1"),
            ("columns", "3"),
            ("page", "Letter"),
            ("theme", "print"),
            ("arrows", "Ge2e4"),
            ("title", " Homework "),
        ])
        .expect("valid");
        assert_eq!(r.entries.len(), 2);
        assert_eq!(r.entries[0].caption.as_deref(), Some("The start"));
        assert_eq!(r.entries[1].caption, None);
        assert_eq!(r.options.columns, 3);
        assert_eq!(r.options.paper, Paper::Letter);
        assert_eq!(r.options.title.as_deref(), Some("Homework"));
        assert!(
            r.options.diagram.theme.hatched,
            "theme applies to every diagram"
        );
        assert!(r.options.diagram.arrows.is_empty(), "arrows do not");
        assert_eq!(r.format, Format::Pdf);
    }

    #[test]
    fn bad_values_name_the_parameter() {
        let thirteen: Vec<(&str, &str)> = (0..13).map(|_| ("fen", "start")).collect();
        type Case<'a> = (Vec<(&'a str, &'a str)>, &'a str, &'a str);
        let cases: Vec<Case> = vec![
            (thirteen, "fen", "at most 12"),
            (vec![], "fen", "fen is missing"),
            (
                vec![("fen", "start"), ("page", "a3")],
                "page",
                "a4 or letter",
            ),
            (
                vec![("fen", "start"), ("columns", "9")],
                "columns",
                "1 to 6",
            ),
            (
                vec![("fen", "start"), ("format", "gif")],
                "format",
                "pdf, svg or png",
            ),
            (
                vec![("fen", "start"), ("fen", "nonsense"), ("caption", "x")],
                "fen",
                "position 2",
            ),
            (
                vec![("fen", "start"), ("caption", "a"), ("caption", "b")],
                "caption",
                "at most one caption per fen",
            ),
            (vec![("fen", "start"), ("dpi", "1200")], "dpi", "72 to 300"),
        ];
        for (list, param, says) in cases {
            let e = parse(&list).expect_err("invalid");
            assert_eq!(e.param, param, "{e}");
            assert!(e.to_string().contains(says), "{e}");
        }
    }

    #[test]
    fn the_key_follows_what_changes_the_bytes() {
        let a = parse(&[("fen", "start"), ("caption", "x")]).expect("valid");
        let b = parse(&[("fen", "start"), ("caption", "y")]).expect("valid");
        let c = parse(&[("fen", "start"), ("caption", "x"), ("coords", "none")]).expect("valid");
        let d = parse(&[("fen", "start"), ("caption", "x"), ("unknown", "1")]).expect("valid");
        assert_ne!(a.cache_key(), b.cache_key());
        assert_ne!(a.cache_key(), c.cache_key());
        assert_eq!(a.cache_key(), d.cache_key());
    }
}
