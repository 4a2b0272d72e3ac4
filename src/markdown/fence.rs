//! One diagram fence read into a request: the grammar of the info string and the body.
//!
//! Owns the fence's words: which info strings are diagrams, `key=value` words and
//! `key: value` lines, the position line, other plugins' spellings (normalised to the HTTP
//! parameters' values), `caption` and `alt`. Everything else is the HTTP parameters' own
//! validation ([`Request::read`]), so a fence and a URL accept the same values and are
//! refused in the same words.

use crate::render::options::{Format, SvgForm};
use crate::request::{self, Known, Limits, PARAMS, Param, ParamKind, Query, Request, RequestError};

/// The info-string words that make a fence a diagram (the first word, any case).
pub const INFO_WORDS: &[&str] = &["fen", "chess", "chessboard", "pgn"];

/// Most bytes in a fence's body: four times the longest game a `pgn` fence may hold
/// ([`request::MAX_PGN_BYTES`]), room for its option lines.
pub const MAX_FENCE_BYTES: usize = 64 * 1024;

/// Most lines in a fence's body: a game written one move a line fits, with its tags.
pub const MAX_FENCE_LINES: usize = 2_000;

/// Keys a fence takes beyond the HTTP parameters: its own and other plugins' spellings.
pub const FENCE_PARAMS: &[Param] = &[
    fence_param(
        "caption",
        &["caption", "title"],
        "A caption under the diagram (`<figure>` and `<figcaption>`).",
    ),
    fence_param(
        "image-caption",
        &["image-caption", "image_caption", "imagecaption"],
        "Text drawn in the image under the board (the HTTP parameter `caption`: text, `fen` or `move`), which travels with the image where a `<figcaption>` does not.",
    ),
    fence_param(
        "alt",
        &["alt"],
        "The image's alt text (default: the position described in `lang`).",
    ),
    fence_param(
        "load",
        &["load", "position"],
        "The position, as `fen` (mdbook-chess writes `load: start`).",
    ),
    fence_param(
        "flip",
        &["flip", "flipped"],
        "`true` puts Black at the bottom (`orientation: black`).",
    ),
];

const fn fence_param(
    name: &'static str,
    spellings: &'static [&'static str],
    doc: &'static str,
) -> Param {
    Param {
        name,
        spellings,
        kind: ParamKind::Text { example: "" },
        doc,
        separator: None,
    }
}

/// A fence read: the request, its normalised parameters, its words for people.
#[derive(Debug, Clone)]
pub struct Diagram {
    /// The validated request (its format is the one the caller asked for).
    pub request: Request,
    /// The parameters as the service takes them (canonical names, one value each, in the
    /// order first given): a URL's query.
    pub pairs: Vec<(&'static str, String)>,
    /// The alt text: the fence's `alt`, or the position described.
    pub alt: String,
    /// The fence's caption, if any.
    pub caption: Option<String>,
    /// The request's cache key: equal for equal diagrams, whatever the spelling.
    pub key: String,
}

impl Diagram {
    /// A file name for the diagram: a hash of its key, and the format's extension.
    pub fn file_name(&self) -> String {
        let hash = crate::hash::fnv1a(self.key.bytes());
        format!(
            "{}.{}",
            crate::hash::base36(hash, 13),
            self.request.format.extension()
        )
    }
}

/// Whether `info` (a fence's info string) names a diagram.
pub fn is_diagram(info: &str) -> bool {
    info_kind(info).is_some()
}

/// The diagram kind of an info string: its first word without pandoc's `{.` and `}`.
fn info_kind(info: &str) -> Option<&'static str> {
    let first = info.split_whitespace().next()?;
    let word = first.trim_start_matches('{').trim_start_matches('.');
    let word = word.trim_end_matches('}');
    INFO_WORDS
        .iter()
        .find(|w| w.eq_ignore_ascii_case(word))
        .copied()
}

/// The parameters a fence gives, in order; later values replace earlier ones.
#[derive(Debug, Default)]
struct Pairs {
    list: Vec<(&'static str, String)>,
    /// The items of the list parameters (`arrows`, `highlight`, `squares`), gathered line
    /// by line and joined once, in [`Pairs::joined`]: a fence of many `arrows:` lines is
    /// read in time linear in its length.
    lists: Vec<(&'static str, Vec<String>)>,
    caption: Option<String>,
    alt: Option<String>,
    /// mdbook-chess's `moves` in SAN: played from the position as a game.
    san: Option<String>,
}

impl Pairs {
    fn set(&mut self, name: &'static str, value: String) {
        // A list given whole replaces the items gathered so far.
        if let Some((_, items)) = self.lists.iter_mut().find(|(n, _)| *n == name) {
            *items = vec![value];
            return;
        }
        self.set_pair(name, value);
    }

    fn set_pair(&mut self, name: &'static str, value: String) {
        match self.list.iter_mut().find(|(n, _)| *n == name) {
            Some(pair) => pair.1 = value,
            None => self.list.push((name, value)),
        }
    }

    fn get(&self, name: &str) -> Option<&str> {
        self.list
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Add `items` (already a comma list) to the list parameter `name`.
    fn extend(&mut self, name: &'static str, items: String) {
        if !self.lists.iter().any(|(n, _)| *n == name) {
            // A value set before is the list's first item.
            let old = self.get(name).map(str::to_string);
            if old.is_none() {
                self.list.push((name, String::new()));
            }
            self.lists.push((name, old.into_iter().collect()));
        }
        if let Some((_, list)) = self.lists.iter_mut().find(|(n, _)| *n == name) {
            list.push(items);
        }
    }

    /// The pairs with each list parameter's items joined by commas (empty items left out).
    fn joined(mut self) -> Self {
        for (name, items) in std::mem::take(&mut self.lists) {
            let items: Vec<String> = items.into_iter().filter(|i| !i.is_empty()).collect();
            self.set_pair(name, items.join(","));
        }
        self
    }
}

/// Read a fence: its info string, its body (the lines between the fence lines), the
/// caller's `defaults` (given before the fence's own), the output `format`.
pub fn read(
    info: &str,
    body: &str,
    defaults: &[(String, String)],
    format: Format,
) -> Result<Diagram, RequestError> {
    check_size(body)?;
    let kind = info_kind(info).ok_or_else(|| {
        RequestError::new(
            "fence",
            format!(
                "fence info string {} is not a diagram: expected fen, chess, chessboard or pgn",
                request::Echo(info)
            ),
        )
    })?;
    let mut pairs = Pairs::default();
    for (key, value) in defaults {
        apply(&mut pairs, key, value)?;
    }
    for word in words(info)?.into_iter().skip(1) {
        info_word(&mut pairs, &word)?;
    }
    let position = body_lines(&mut pairs, body, kind == "pgn")?;
    let mut pairs = pairs.joined();
    place(&mut pairs, kind, position)?;
    finish(pairs, format)
}

/// What a diagram inlined in an HTML page starts from, before the caller's defaults: the
/// form no site framework can break, and the page's own colours.
pub const PAGE_DEFAULTS: [(&str, &str); 2] = [("svg", "inline"), ("background", "page")];

/// [`read`] for a diagram inlined in an HTML page (`staunton markdown --inline`, the
/// plugins' inline mode): an SVG in the `inline` form, on the page's colours unless
/// `defaults` or the fence name a background. A fence asking for another form is refused:
/// a style sheet or shared ids in a page are what frameworks break.
pub fn read_for_page(
    info: &str,
    body: &str,
    defaults: &[(String, String)],
) -> Result<Diagram, RequestError> {
    let page = PAGE_DEFAULTS
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()));
    let defaults: Vec<(String, String)> = page.chain(defaults.iter().cloned()).collect();
    let diagram = read(info, body, &defaults, Format::Svg)?;
    let form = diagram.request.options.svg_form;
    if form != SvgForm::Inline {
        return Err(RequestError::new(
            "svg",
            format!(
                "svg={} cannot be inlined in a page: a diagram in the page is always svg=inline (no style sheet, ids of its own, which site frameworks cannot break); leave svg out, or write image files",
                form.name()
            ),
        ));
    }
    Ok(diagram)
}

/// Where in a fence `error` (what [`read`] gave for `info` and `body`) stands: 1 for the
/// first body line and so on, 0 for the opening line (the info string, or the caller's
/// defaults). The position's errors stand on the position's line, an option's on the last
/// body line that gives that option.
pub fn error_line(info: &str, body: &str, error: &RequestError) -> usize {
    let pgn = info_kind(info) == Some("pgn");
    let mut found = 0;
    let mut position = 0;
    for (index, line) in body.lines().enumerate() {
        let trimmed = line.trim();
        if trimmed.is_empty() || (trimmed.starts_with('#') && !pgn) {
            continue;
        }
        let mut scratch = Pairs::default();
        let gives = |result: Result<(), RequestError>, scratch: &Pairs| match result {
            Err(e) => e.param == error.param,
            Ok(()) => {
                scratch.get(error.param).is_some()
                    || scratch.lists.iter().any(|(n, _)| *n == error.param)
            }
        };
        // In a pgn fence the options come first (as `body_lines` reads them).
        let in_game = pgn && position != 0;
        if let (false, Some(flags)) = (in_game, trimmed.strip_prefix("--")) {
            let result = flag_line(&mut scratch, flags);
            if gives(result, &scratch) {
                found = index + 1;
            }
        } else if let (false, Some((key, value))) = (in_game, option_line(trimmed)) {
            let result = apply(&mut scratch, key, value);
            if gives(result, &scratch) {
                found = index + 1;
            }
        } else if position == 0 {
            position = index + 1;
        }
    }
    match error.param {
        "fen" | "pgn" | "moves" if found == 0 => position,
        _ => found,
    }
}

/// A body within [`MAX_FENCE_BYTES`] and [`MAX_FENCE_LINES`], refused before it is read.
fn check_size(body: &str) -> Result<(), RequestError> {
    let lines = body.lines().count();
    if body.len() <= MAX_FENCE_BYTES && lines <= MAX_FENCE_LINES {
        return Ok(());
    }
    Err(RequestError::new(
        "fence",
        format!(
            "the fence holds {} bytes in {lines} lines: a fence may hold at most {MAX_FENCE_BYTES} bytes and {MAX_FENCE_LINES} lines",
            body.len()
        ),
    ))
}

/// A word of the info string after the first: `key=value` (pandoc's `{…}` braces and
/// `.class` / `#id` words are skipped).
fn info_word(pairs: &mut Pairs, word: &str) -> Result<(), RequestError> {
    let word = word.trim_start_matches('{').trim_end_matches('}');
    if word.is_empty() || word.starts_with('.') || word.starts_with('#') {
        return Ok(());
    }
    match word.split_once('=') {
        Some((key, value)) => apply(pairs, key, unquoted(value)),
        None => Err(RequestError::new(
            "fence",
            format!(
                "info string word {} is not an option: write key=value, e.g. size=300",
                request::Echo(word)
            ),
        )),
    }
}

/// The body's option lines applied to `pairs`; returns its other lines: the position
/// (a FEN line), or for a `pgn` fence the game's text.
fn body_lines(pairs: &mut Pairs, body: &str, pgn: bool) -> Result<String, RequestError> {
    let mut rest = String::new();
    for line in body.lines() {
        let trimmed = line.trim();
        if trimmed.is_empty() || (trimmed.starts_with('#') && !pgn) {
            if pgn && !rest.is_empty() {
                rest.push('\n');
            }
            continue;
        }
        // In a pgn fence the options come first: once the game starts, every line is
        // the game's (a comment may hold `Idea: …`).
        let in_game = pgn && !rest.is_empty();
        if let (false, Some(flags)) = (in_game, trimmed.strip_prefix("--")) {
            flag_line(pairs, flags)?;
        } else if let (false, Some((key, value))) = (in_game, option_line(trimmed)) {
            apply(pairs, key, value)?;
        } else if pgn {
            rest.push_str(line);
            rest.push('\n');
        } else if rest.is_empty() {
            rest = trimmed.to_string();
        } else {
            return Err(RequestError::new(
                "fen",
                format!(
                    "a fen fence has one position line: {} is neither the position nor a `key: value` option",
                    request::Echo(trimmed)
                ),
            ));
        }
    }
    Ok(rest.trim().to_string())
}

/// `key: value` when `line` is one: a key of letters, digits, `_` and `-` starting with a
/// letter, then a colon. A FEN, a PGN tag (`[…]`) or movetext (`1. e4`) never is.
fn option_line(line: &str) -> Option<(&str, &str)> {
    let (key, value) = line.split_once(':')?;
    let key = key.trim_end();
    let mut chars = key.chars();
    let first = chars.next()?;
    let word = chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    (first.is_ascii_alphabetic() && word).then(|| (key, unquoted(value.trim())))
}

/// A fen2png options line (`--size=300 --flip`), without its first `--`.
fn flag_line(pairs: &mut Pairs, flags: &str) -> Result<(), RequestError> {
    for flag in format!("--{flags}").split_whitespace() {
        let flag = flag.trim_start_matches('-');
        let (name, value) = flag.split_once('=').unwrap_or((flag, ""));
        match name.to_ascii_lowercase().as_str() {
            "flip" => pairs.set("orientation", "black".into()),
            "auto-flip" => pairs.set("orientation", "turn".into()),
            "coordinates" if value.is_empty() => pairs.set("coordinates", "outside".into()),
            // fen2png's own colours and encodings: the look is Staunton's.
            "bg" | "fg" | "grayscale" | "base64" => {}
            _ => apply(pairs, name, value)?,
        }
    }
    Ok(())
}

/// Set the position line: the FEN of a fen fence (the start when none is given), the
/// game of a pgn fence.
fn place(pairs: &mut Pairs, kind: &str, position: String) -> Result<(), RequestError> {
    if kind == "pgn" {
        if !position.is_empty() {
            pairs.set("pgn", position);
        }
        if pairs.get("pgn").is_none() {
            return Err(RequestError::new(
                "pgn",
                "a pgn fence needs a game: its moves in PGN after any `key: value` lines",
            ));
        }
        starting_tag(pairs);
        return Ok(());
    }
    if !position.is_empty() {
        if pairs.get("fen").is_some() && pairs.get("fen") != Some(position.as_str()) {
            return Err(RequestError::new(
                "fen",
                format!(
                    "the fence gives two positions, a fen option and the line {}: keep one",
                    request::Echo(&position)
                ),
            ));
        }
        pairs.set("fen", position);
    }
    if let Some(san) = pairs.san.take() {
        pairs.set("pgn", san);
    }
    starting_tag(pairs);
    if ["fen", "pgn", "moves"]
        .iter()
        .all(|n| pairs.get(n).is_none())
    {
        pairs.set("fen", "start".into());
    }
    Ok(())
}

/// A game from a position other than the start: the position as the PGN's `[FEN]` tag
/// (the service takes a game's start from there, not from `fen`).
fn starting_tag(pairs: &mut Pairs) {
    let (Some(fen), Some(pgn)) = (pairs.get("fen"), pairs.get("pgn")) else {
        return;
    };
    let game = match fen.eq_ignore_ascii_case("start") || pgn.contains("[FEN ") {
        true => pgn.to_string(),
        false => format!("[FEN \"{fen}\"]\n\n{pgn}"),
    };
    pairs.list.retain(|(name, _)| *name != "fen");
    pairs.set("pgn", game);
}

/// Validate the pairs as a request, describe it, and key it.
fn finish(mut pairs: Pairs, format: Format) -> Result<Diagram, RequestError> {
    // In the order of the parameter table (fen first): one spelling of a URL.
    pairs
        .list
        .sort_by_key(|(name, _)| PARAMS.iter().position(|p| p.name == *name));
    let query = Query::from_pairs(pairs.list.iter().map(|(k, v)| (*k, v.as_str())));
    let limits = Limits::default();
    let request = Request::read(&query, Some(format), &limits)?;
    let alt = match pairs.alt {
        Some(alt) => alt,
        None => Request::described(&query, &limits)?.text(),
    };
    let key = request.cache_key();
    Ok(Diagram {
        request,
        pairs: pairs.list,
        alt: one_line(&alt),
        caption: pairs.caption.map(|c| one_line(&c)),
        key,
    })
}

/// `text` on one line: line breaks and tabs as spaces.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Apply one option, `key` in any spelling the grammar accepts.
fn apply(pairs: &mut Pairs, key: &str, value: &str) -> Result<(), RequestError> {
    let value = value.trim();
    let lower = key.to_ascii_lowercase().replace('-', "_");
    match lower.as_str() {
        "caption" | "title" => pairs.caption = Some(value.to_string()),
        "alt" => pairs.alt = Some(value.to_string()),
        "image_caption" | "imagecaption" => pairs.set("caption", unquoted(value).to_string()),
        "fen" | "load" | "position" => pairs.set("fen", unquoted(value).to_string()),
        "flip" | "flipped" => {
            let black = request::parse_flag("flip", value)?;
            pairs.set("orientation", if black { "black" } else { "white" }.into());
        }
        "arrows" | "arrow" => pairs.extend("arrows", arrows(value)),
        "highlight" | "highlights" => pairs.extend("highlight", list(value).join(",")),
        "squares" => pairs.extend("squares", list(value).join(",")),
        "annotations" if !value.contains("[%") => annotations(pairs, value)?,
        "lastmove" | "last_move" => pairs.set("lastMove", squares_joined(value)),
        "moves" => moves(pairs, value),
        "size" => pairs.set("size", value.trim_end_matches("px").trim().to_string()),
        "save" | "overwrite" => return Err(kept_boards(key)),
        "format" => return Err(format_in_fence(value)),
        _ => match PARAMS.iter().find(|p| p.accepts(&lower) || p.accepts(key)) {
            Some(p) => pairs.set(p.name, value.to_string()),
            None => return Err(unknown(key)),
        },
    }
    Ok(())
}

fn kept_boards(key: &str) -> RequestError {
    RequestError::new(
        "fence",
        format!(
            "{} is mdbook-chess's store of boards between fences, which Staunton does not keep: give each fence its position (fen or load) and moves",
            request::Echo(key)
        ),
    )
}

fn format_in_fence(value: &str) -> RequestError {
    RequestError::new(
        "format",
        format!(
            "format {} is not allowed in a fence: one format is chosen for every diagram of the document (the command line's --format, a Markdown plugin's format option)",
            request::Echo(value)
        ),
    )
}

fn unknown(key: &str) -> RequestError {
    let known = Known::new(PARAMS.iter().chain(FENCE_PARAMS));
    let hint = match known.nearest(key) {
        Some(near) => format!("did you mean {near}?"),
        None => "see the fence options in the book's Markdown chapter".to_string(),
    };
    RequestError::new(
        "fence",
        format!("{} is not a fence option: {hint}", request::Echo(key)),
    )
}

/// A list as the plugins write one: `[a, b]`, `"a" "b"`, `a, b` or `a b`.
fn list(value: &str) -> Vec<String> {
    let inner = value.trim().trim_start_matches('[').trim_end_matches(']');
    inner
        .split(|c: char| c == ',' || c.is_whitespace())
        .map(|item| unquoted(item.trim()))
        .filter(|item| !item.is_empty())
        .map(str::to_string)
        .collect()
}

/// Arrows as `Ge2e4`, `e2->e4`, `g1-f3`, `"c8->f5"` or `e2 -> e4`: the service's
/// spelling (an optional colour letter, then the squares).
fn arrows(value: &str) -> String {
    let tight = value.replace(" -> ", "->").replace(" - ", "-");
    list(&tight)
        .iter()
        .map(|item| item.replace("->", "").replace('-', ""))
        .collect::<Vec<_>>()
        .join(",")
}

/// obsidian-chessboard's annotations: `Af8-b4` an arrow, `Hf8` a highlighted square.
fn annotations(pairs: &mut Pairs, value: &str) -> Result<(), RequestError> {
    for item in list(value) {
        let (tag, rest) = item.split_at(item.chars().next().map_or(0, char::len_utf8));
        match tag {
            "A" | "a" => pairs.extend("arrows", rest.replace('-', "")),
            "H" | "h" => pairs.extend("highlight", rest.to_string()),
            _ => {
                return Err(RequestError::new(
                    "annotations",
                    format!(
                        "annotations item {} is not allowed: expected [%cal …]/[%csl …] commands, or Af8-b4 (an arrow) and Hf8 (a square)",
                        request::Echo(&item)
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// A move written with its squares apart (`e2 e4`, `e2-e4`) as UCI (`e2e4`).
fn squares_joined(value: &str) -> String {
    value
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '-')
        .collect()
}

/// `moves`: UCI moves as the service takes them, or mdbook-chess's SAN list (played
/// as a game from the position).
fn moves(pairs: &mut Pairs, value: &str) {
    let items = list(value);
    let uci = items.iter().all(|m| {
        let b = m.as_bytes();
        (4..=5).contains(&b.len())
            && b[0].is_ascii_lowercase()
            && b[1].is_ascii_digit()
            && b[2].is_ascii_lowercase()
            && b[3].is_ascii_digit()
    });
    match uci {
        true => pairs.set("moves", items.join(" ")),
        false => pairs.san = Some(items.join(" ")),
    }
}

/// `value` without one pair of surrounding quotes.
fn unquoted(value: &str) -> &str {
    for q in ['"', '\''] {
        if let Some(inner) = value.strip_prefix(q).and_then(|v| v.strip_suffix(q)) {
            return inner;
        }
    }
    value
}

/// The info string's words: split at spaces outside quotes (`caption="A b"` is one word).
/// A quote opens a quoted part only at the start of a word or right after `=`
/// (`caption=Morphy's` is a plain word); inside quotes a backslash takes the next
/// character as it is (`"say \"hi\""`, for `staunton fence --info`: Markdown has
/// already read such escapes out of a fence's info string).
fn words(info: &str) -> Result<Vec<String>, RequestError> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut quote = None;
    let mut chars = info.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(_), '\\') => word.extend(chars.next()),
            (Some(q), c) if c == q => quote = None,
            (None, '"' | '\'') if word.is_empty() || word.ends_with('=') => quote = Some(c),
            (None, c) if c.is_whitespace() => {
                if !word.is_empty() {
                    out.push(std::mem::take(&mut word));
                }
            }
            (_, c) => word.push(c),
        }
    }
    if let Some(q) = quote {
        return Err(RequestError::new(
            "fence",
            format!(
                "the info string {} opens a quote {q} that does not close",
                request::Echo(info)
            ),
        ));
    }
    if !word.is_empty() {
        out.push(word);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn diagram(info: &str, body: &str) -> Result<Diagram, RequestError> {
        read(info, body, &[], Format::Svg)
    }

    /// The body line `read`'s error for `info` and `body` stands on.
    fn line_of_error(info: &str, body: &str) -> usize {
        let error = diagram(info, body).expect_err("a bad fence");
        error_line(info, body, &error)
    }

    #[test]
    fn errors_stand_on_the_line_that_caused_them() {
        // The position's line, after comments and options.
        assert_eq!(
            line_of_error("fen", "# a comment\nsize: 300\nnot a fen\n"),
            3
        );
        // An option after the position, and the last of two that give it.
        assert_eq!(line_of_error("fen", "start\nsize: 300\nsize: 9\n"), 3);
        assert_eq!(line_of_error("fen", "start\n--size=9 --flip\n"), 2);
        assert_eq!(
            line_of_error("fen", "start\narrows: e2e4\nflip: maybe\n"),
            3
        );
        // A list option's bad item; an unknown option.
        assert_eq!(
            line_of_error("fen", "start\narrows: e2e4\narrows: z9z9\n"),
            3
        );
        assert_eq!(line_of_error("fen", "start\n\nsise: 300\n"), 3);
        // The info string's own errors stand on the opening line.
        assert_eq!(line_of_error("fen size=9", "start\n"), 0);
        // A pgn fence: its options first, then the game.
        assert_eq!(line_of_error("pgn", "size: 9\n1. e4 e5\n"), 1);
        assert_eq!(line_of_error("pgn", "ply: 1\n\n1. e4 Ke7 2. Kf9\n"), 3);
    }

    fn pairs(info: &str, body: &str) -> Vec<(&'static str, String)> {
        diagram(info, body).unwrap().pairs
    }

    #[test]
    fn a_fence_that_names_a_format_is_told_where_formats_are_chosen() {
        for (info, body) in [
            ("fen", "start\nformat: png\n"),
            ("fen format=png", "start\n"),
        ] {
            let error = diagram(info, body).expect_err("no format in a fence");
            assert_eq!(error.param, "format");
            let said = error.to_string();
            assert!(said.contains("the command line's --format"), "{said}");
            assert!(said.contains("a Markdown plugin's format option"), "{said}");
        }
    }

    #[test]
    fn the_first_line_is_the_position_and_options_follow() {
        let d = diagram("fen size=300", "start\norientation: black\n").unwrap();
        assert_eq!(d.request.options.size, 300);
        assert_eq!(
            d.pairs,
            vec![
                ("fen", "start".to_string()),
                ("size", "300".to_string()),
                ("orientation", "black".to_string()),
            ]
        );
        assert!(d.alt.contains("King e1"), "{}", d.alt);
    }

    #[test]
    fn other_plugins_spellings_become_the_services() {
        let p = pairs(
            "chess",
            "fen: start\narrows: f3->e5 b5->c6\nlastMove: e2 e4\n",
        );
        assert!(p.contains(&("arrows", "f3e5,b5c6".to_string())), "{p:?}");
        assert!(p.contains(&("lastMove", "e2e4".to_string())), "{p:?}");
        let p = pairs(
            "chess",
            "load: \"start\"\narrows: [\"c8->f5\"]\nhighlights: [\"e4\", \"d5\"]",
        );
        assert!(p.contains(&("arrows", "c8f5".to_string())), "{p:?}");
        assert!(p.contains(&("highlight", "e4,d5".to_string())), "{p:?}");
        let p = pairs("chessboard", "fen: start\nannotations: Af8-b4 Hf8");
        assert!(p.contains(&("arrows", "f8b4".to_string())), "{p:?}");
        assert!(p.contains(&("highlight", "f8".to_string())), "{p:?}");
        let p = pairs("fen", "8/8/8/8/8/8/8/k6K b\n--size=240 --flip --grayscale");
        assert!(p.contains(&("orientation", "black".to_string())), "{p:?}");
        assert!(p.contains(&("size", "240".to_string())), "{p:?}");
    }

    #[test]
    fn san_moves_are_played_as_a_game() {
        let d = diagram(
            "chess",
            "load: start\nmoves: [\"e4\", \"c6\", \"d4\", \"d5\"]",
        )
        .unwrap();
        let pawn = d
            .request
            .position
            .get(crate::Square::parse("d5", crate::chess::position::BoardSize::CHESS).unwrap());
        assert!(pawn.is_some(), "{:?}", d.pairs);
        let from = diagram("chess", "load: 8/8/8/8/8/8/4P3/k6K w\nmoves: [\"e4\"]").unwrap();
        assert!(
            from.request
                .position
                .get(crate::Square::parse("e4", crate::chess::position::BoardSize::CHESS).unwrap())
                .is_some()
        );
        let uci = pairs("fen", "start\nmoves: e2e4 e7e5");
        assert!(uci.contains(&("moves", "e2e4 e7e5".to_string())), "{uci:?}");
    }

    #[test]
    fn pgn_fences_take_the_game_and_a_ply() {
        let d = diagram("pgn ply=2", "[Event \"x\"]\n\n1. e4 e5 2. Nf3 Nc6\n").unwrap();
        assert!(d.alt.starts_with("After 1...e5."), "{}", d.alt);
        assert!(diagram("pgn", "caption: nothing").is_err());
        let comment = diagram("pgn", "ply: 1\n1. e4 {The plan\nIdea: Bc4} e5").unwrap();
        assert!(comment.caption.is_none() && comment.alt.starts_with("After 1. e4."));
    }

    #[test]
    fn bad_values_are_refused_in_the_services_words() {
        let e = diagram("fen", "start\nsize: 9000").unwrap_err();
        assert_eq!(e.param, "size");
        let http = Request::from_query("fen=start&size=9000", None).unwrap_err();
        assert_eq!(e.to_string(), http.to_string());
        let e = diagram("fen", "start\nsise: 300").unwrap_err();
        assert!(e.to_string().contains("did you mean size?"), "{e}");
        assert!(diagram("fen", "start\nsave: board").is_err());
        assert!(diagram("fen", "start\n8/8/8/8/8/8/8/8").is_err());
        assert!(diagram("fen oops", "start").is_err());
    }

    #[test]
    fn list_lines_are_gathered_and_joined_once_in_order() {
        let defaults = [("arrows".to_string(), "Ga1a2".to_string())];
        let d = read(
            "fen arrows=b1b2",
            "start\narrows: e2e4\nsquares: e4\narrow: d2->d4\nsquares:\nsquares: d5",
            &defaults,
            Format::Svg,
        )
        .unwrap();
        assert!(
            d.pairs
                .contains(&("arrows", "Ga1a2,b1b2,e2e4,d2d4".to_string())),
            "{:?}",
            d.pairs
        );
        assert!(
            d.pairs.contains(&("squares", "e4,d5".to_string())),
            "{:?}",
            d.pairs
        );
    }

    #[test]
    fn a_page_takes_the_inline_form_on_its_own_colours_unless_told() {
        use crate::render::options::SvgForm;
        let d = read_for_page("fen", "start", &[]).unwrap();
        assert_eq!(d.request.options.svg_form, SvgForm::Inline);
        assert!(d.request.options.theme.page_ink);
        assert!(d.pairs.contains(&("background", "page".to_string())));
        // A background named by the defaults or the fence wins.
        let defaults = [("background".to_string(), "dark".to_string())];
        let dark = read_for_page("fen", "start", &defaults).unwrap();
        assert!(!dark.request.options.theme.page_ink);
        let own = read_for_page("fen background=light", "start", &[]).unwrap();
        assert!(!own.request.options.theme.page_ink);
        // Another form would bring a style sheet or shared ids into the page.
        let e = read_for_page("fen svg=compact", "start", &[]).unwrap_err();
        assert_eq!(e.param, "svg");
        assert!(
            e.to_string()
                .starts_with("svg=compact cannot be inlined in a page"),
            "{e}"
        );
    }

    #[test]
    fn a_fence_past_its_limits_is_refused_before_it_is_read() {
        let at_limit = format!("start\n{}", "# a comment\n".repeat(MAX_FENCE_LINES - 1));
        assert!(diagram("fen", &at_limit).is_ok());
        let past = format!("{at_limit}# one more\n");
        let e = diagram("fen", &past).unwrap_err();
        assert_eq!(e.param, "fence");
        assert!(
            e.to_string()
                .ends_with("at most 65536 bytes and 2000 lines"),
            "{e}"
        );
        let long = format!("start\ncaption: {}", "x".repeat(MAX_FENCE_BYTES));
        assert!(
            diagram("fen", &long)
                .unwrap_err()
                .to_string()
                .contains("bytes in 2 lines")
        );
    }

    #[test]
    fn spellings_of_one_diagram_share_a_key_and_a_name() {
        let a = diagram("fen size=300 caption=\"A game\"", "start").unwrap();
        let b = diagram(
            "chess",
            "size: 300\nfen: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        )
        .unwrap();
        assert_eq!(a.key, b.key);
        assert_eq!(a.file_name(), b.file_name());
        assert!(a.file_name().ends_with(".svg"));
        assert_eq!(a.caption.as_deref(), Some("A game"));
        let quoted = diagram(r#"fen caption="say \"hi\" \\ o'k""#, "start").unwrap();
        assert_eq!(quoted.caption.as_deref(), Some(r#"say "hi" \ o'k"#));
        let apostrophe = diagram("fen caption=Morphy's size=300", "start").unwrap();
        assert_eq!(apostrophe.caption.as_deref(), Some("Morphy's"));
        assert_eq!(apostrophe.request.options.size, 300);
        assert!(diagram("fen caption=\"open", "start").is_err());
        let c = diagram("fen size=301", "start").unwrap();
        assert_ne!(a.file_name(), c.file_name());
    }
}
