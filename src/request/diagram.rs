//! The diagram request: a query (or command-line options) in, a validated [`Request`] out,
//! with its cache key; the theme, marks and options it gathers from the parameters.

use super::chosen::{Chosen, Described, choose_game, comment_error, param_error};
use super::error::RequestError;
use super::limits::Limits;
use super::params::named;
use super::query::Query;
use super::values::{
    Annotations, check_figure_text, parse_annotations, parse_arrows, parse_check, parse_color,
    parse_coordinates, parse_crosses, parse_dpi, parse_fen, parse_flag, parse_format, parse_glyph,
    parse_highlights, parse_lang, parse_last_move, parse_orientation, parse_piece_set,
    parse_reading, parse_size, parse_style, parse_svg_form, parse_theme,
};
use super::{key, marks, page, region};
use crate::chess::position::{BoardSize, Position};
use crate::render::options::{Check, DEFAULT_PIECE_SET, Format, RenderOptions, SvgForm};
use crate::render::theme::Theme;

/// A validated diagram request: the query string of the service's image routes (the same
/// parameters, spellings and error sentences) as a position, options and a format.
///
/// ```
/// use staunton::request::Request;
/// use staunton::{Format, Renderer};
///
/// let request = Request::from_query("fen=start&size=240&arrows=Ge2e4&format=svg", None)?;
/// assert_eq!((request.options.size, request.format), (240, Format::Svg));
/// let svg = Renderer::default().render(&request.position, &request.options, request.format)?;
/// assert!(svg.starts_with(b"<svg"));
///
/// let error = Request::from_query("fen=start&size=9000", None).unwrap_err();
/// assert_eq!(error.param, "size");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// The position.
    pub position: Position,
    /// How to draw it.
    pub options: RenderOptions,
    /// The encoding.
    pub format: Format,
}

impl Request {
    /// Validate a URL query string (without the `?`; percent-encoded UTF-8, see
    /// [`Query::decode`]). `path_format` is the format the path asked for (`/diagram.svg`),
    /// if any; `format=` may only agree with it.
    pub fn from_query(query: &str, path_format: Option<Format>) -> Result<Request, RequestError> {
        Request::read(&Query::decode(query)?, path_format, &Limits::default())
    }

    /// Validate `(name, value)` pairs; later pairs override earlier ones, unknown names are
    /// ignored (URLs written for other diagram services keep working).
    pub fn from_pairs<K: AsRef<str>, V: AsRef<str>>(
        pairs: impl IntoIterator<Item = (K, V)>,
        path_format: Option<Format>,
    ) -> Result<Request, RequestError> {
        Request::read(&Query::from_pairs(pairs), path_format, &Limits::default())
    }

    /// [`Request::from_pairs`] with the service's own `limits`.
    pub fn from_pairs_with<K: AsRef<str>, V: AsRef<str>>(
        pairs: impl IntoIterator<Item = (K, V)>,
        path_format: Option<Format>,
        limits: &Limits,
    ) -> Result<Request, RequestError> {
        Request::read(&Query::from_pairs(pairs), path_format, limits)
    }

    /// Validate a [`Query`] under `limits` (see [`Request::from_query`]).
    pub fn read(
        query: &Query,
        path_format: Option<Format>,
        limits: &Limits,
    ) -> Result<Request, RequestError> {
        Request::with_game(query, path_format, limits).map(|(request, _)| request)
    }

    /// [`Request::read`], and the game the request named (`pgn` or `moves`) with the ply
    /// it chose, if it named one.
    pub(super) fn with_game(
        query: &Query,
        path_format: Option<Format>,
        limits: &Limits,
    ) -> Result<(Request, Option<Chosen>), RequestError> {
        let get = |name: &str| query.last(named(name));
        let reading = parse_reading(&get)?;
        let chosen = choose_game(&get, limits)?;
        let position = match &chosen {
            Some(c) => c.game.position(c.ply),
            None => parse_fen(get("fen"), limits.fen_bytes, reading)?,
        };
        check_figure_text(&position)?;
        let board = position.size();
        let theme = theme(&get)?;
        let marks = marks(&get, chosen.as_ref(), board, limits)?;
        let mut options = options(&get, chosen.as_ref(), (theme, marks), board, limits)?;
        let format = format(get("format"), path_format)?;
        page::check_format(&options.theme, format)?;
        options.markers = markers(&get, chosen.as_ref(), &position, limits)?;
        if let Some(v) = get("caption") {
            options.caption = page::caption(v, &position, chosen.as_ref(), options.lang)?;
        }
        if options.glyph.is_some() && options.last_move.is_none() {
            return Err(RequestError::new(
                "glyph",
                "glyph needs a last move to stand on: give lastMove, or a game (pgn or moves) at a ply after the start",
            ));
        }
        let request = Request {
            position,
            options,
            format,
        };
        Ok((request, chosen))
    }

    /// The position of a query and, when it names a game, the move that led there
    /// (`23...Qxf2+`) and the game's length in plies: what `/describe` needs. Image
    /// parameters are ignored.
    pub fn described(query: &Query, limits: &Limits) -> Result<Described, RequestError> {
        let get = |name: &str| query.last(named(name));
        let lang = get("lang").map(parse_lang).transpose()?.unwrap_or_default();
        match choose_game(&get, limits)? {
            Some(c) => Ok(Described {
                position: c.game.position(c.ply),
                last_move: c.game.label(c.ply),
                plies: Some(c.game.len()),
                lang,
            }),
            None => Ok(Described {
                position: parse_fen(get("fen"), limits.fen_bytes, parse_reading(&get)?)?,
                last_move: None,
                plies: None,
                lang,
            }),
        }
    }

    /// `Ok` when rendering this request is within the bound the service holds every
    /// render to (see `render::spec::cost`), checked before the render starts; else the
    /// sentence of the service's 400.
    pub fn within_cost(&self) -> Result<(), crate::render::CostError> {
        let units = crate::render::spec::cost::position(&self.position, &self.options, self.format);
        crate::render::spec::cost::within_bound(
            units,
            "this image",
            "choose a smaller size or fewer marks",
        )
    }

    /// The cache key: everything that decides the output bytes, normalised, so that two
    /// spellings of one diagram share an entry. Includes the renderer version.
    pub fn cache_key(&self) -> String {
        self.key_fields(&mut key::KeyWriter::new("diagram"))
            .finish()
    }

    /// Write the fields of one diagram of a page (an article's, a sheet's) into `key`:
    /// `options` drawn as SVG at `position`.
    pub(crate) fn page_key_fields<'k>(
        key: &'k mut key::KeyWriter,
        position: &Position,
        options: &RenderOptions,
    ) -> &'k mut key::KeyWriter {
        let request = Request {
            position: position.clone(),
            options: options.clone(),
            format: Format::Svg,
        };
        request.key_fields(key)
    }

    /// Write this request's fields into `key` (for keys that hold a diagram and more).
    pub(crate) fn key_fields<'k>(&self, key: &'k mut key::KeyWriter) -> &'k mut key::KeyWriter {
        let o = &self.options;
        let bottom = o.orientation.bottom(self.position.turn).letter();
        if self.format == Format::Txt {
            // Text shows only the position, the side at the bottom, the labels and the style.
            key.field("txt")
                .position(&self.position)
                .field(bottom)
                .field(o.coordinates)
                .field(o.text_style.name());
            if let Some(region) = o.region {
                key.field("region").field(region);
            }
            return key;
        }
        let t = &o.theme;
        key.field(self.format.extension())
            .position(&self.position)
            .field(o.size)
            .field(bottom)
            .field(o.coordinates)
            .field(o.piece_set.to_ascii_lowercase());
        for colour in [t.light, t.dark, t.margin, t.frame, t.label, t.last_move] {
            key.field(colour);
        }
        key.field(u8::from(t.hatched));
        key.optional(
            o.last_move
                .map(|m| format!("{:?}{}{:?}", m.from, m.to, m.piece.map(|p| p.fen_char()))),
        );
        key.field(format!("{:?}", o.check))
            .field(u8::from(o.turn_marker))
            .optional(o.glyph.map(|g| g.symbol()));
        if self.format == Format::Pdf {
            key.field(o.dpi);
        }
        if self.format == Format::Svg {
            // Only an SVG has words: its `<title>`. Other formats share one entry.
            key.field(o.lang.code());
        }
        key.field(o.arrows.len());
        for a in &o.arrows {
            key.field(format!("{}{}{}", a.color.letter(), a.from, a.to));
        }
        key.field(o.crosses.len());
        for s in &o.crosses {
            key.field(s);
        }
        key.field(o.highlights.len());
        for (s, c) in &o.highlights {
            key.field(format!("{s}{c}"));
        }
        // Last, and only when asked for: the keys of every other request stay as they were.
        if let Some(page) = t.dark_page {
            key.field("auto").field(page.background).field(page.label);
        }
        if t.page_ink {
            key.field("page");
        }
        if let Some(caption) = &o.caption {
            key.field("caption").field(caption);
        }
        if let Some(region) = o.region {
            key.field("region").field(region);
        }
        if self.format == Format::Svg && o.svg_form != SvgForm::Compact {
            key.field("svg").field(o.svg_form.name());
        }
        if !o.markers.is_empty() {
            key.field("markers").field(o.markers.len());
            for m in &o.markers {
                let text = match &m.kind {
                    crate::render::options::MarkerKind::Label(text) => text.as_str(),
                    _ => "",
                };
                key.field(format!(
                    "{}{}{}{}",
                    m.kind.name(),
                    m.color.letter(),
                    m.square,
                    text
                ));
            }
        }
        key
    }
}

/// The board's colours: `theme`, then `light` and `dark` over it.
fn theme<'a>(get: &impl Fn(&str) -> Option<&'a str>) -> Result<Theme, RequestError> {
    let mut theme = match get("theme") {
        Some(v) => parse_theme(v)?,
        None => Theme::default(),
    };
    if let Some(v) = get("light") {
        theme.light = parse_color("light", v)?;
    }
    if let Some(v) = get("dark") {
        theme.dark = parse_color("dark", v)?;
        theme.hatched = false;
    }
    page::apply(get, &mut theme)?;
    Ok(theme)
}

/// The arrows and coloured squares: `arrows`, `highlight`, `annotations` and the chosen
/// ply's comment together, within the limits.
fn marks<'a>(
    get: &impl Fn(&str) -> Option<&'a str>,
    chosen: Option<&Chosen>,
    board: BoardSize,
    limits: &Limits,
) -> Result<Annotations, RequestError> {
    let mut arrows = match get("arrows") {
        Some(v) => parse_arrows("arrows", v, board, limits.arrows)?,
        None => Vec::new(),
    };
    let mut highlights = match get("highlight") {
        Some(v) => parse_highlights("highlight", v, board, limits.squares)?,
        None => Vec::new(),
    };
    if let Some(v) = get("annotations") {
        let (cal, csl) =
            parse_annotations(v, board, limits).map_err(|e| param_error("annotations", &e))?;
        arrows.extend(cal);
        highlights.extend(csl);
    }
    if let Some(c) = chosen {
        let (cal, csl) = c.annotations(board, limits)?;
        arrows.extend(cal);
        highlights.extend(csl);
    }
    // Named by where they came from, as the user wrote them: `arrows`, `annotations`,
    // `[%cal]` in the game's comment.
    let sources = |param: &str, command: &str| {
        let mut from: Vec<String> = [param, "annotations"]
            .into_iter()
            .filter(|p| get(p).is_some())
            .map(str::to_string)
            .collect();
        if chosen.is_some() {
            from.push(format!("{command} in the game's comment"));
        }
        from.join(" and ")
    };
    let counts = [
        (
            "arrows",
            "[%cal]",
            "draw",
            arrows.len(),
            "arrows and circles",
            limits.arrows,
        ),
        (
            "highlight",
            "[%csl]",
            "colour",
            highlights.len(),
            "squares",
            limits.squares,
        ),
    ];
    for (param, command, verb, count, things, limit) in counts {
        if count > limit {
            let from = sources(param, command);
            return Err(RequestError::new(
                param,
                format!("{from} {verb} {count} {things} together: at most {limit} are allowed"),
            ));
        }
    }
    Ok((arrows, highlights))
}

/// The square markers: `marks`, then `[%mark]` in `annotations` and the chosen ply's
/// comment, then `dots` and `legalMoves`, together at most `limits.squares`.
fn markers<'a>(
    get: &impl Fn(&str) -> Option<&'a str>,
    chosen: Option<&Chosen>,
    position: &Position,
    limits: &Limits,
) -> Result<Vec<crate::render::options::Marker>, RequestError> {
    let (board, max) = (position.size(), limits.squares);
    let mut out = match get("marks") {
        Some(v) => marks::parse_marks("marks", v, board, max)?,
        None => Vec::new(),
    };
    if let Some(v) = get("annotations") {
        let found = marks::parse_mark_commands("annotations", v, board, max);
        out.extend(found.map_err(|e| param_error("annotations", &e))?);
    }
    if let Some(c) = chosen {
        let found = marks::parse_mark_commands("pgn", c.game.comment(c.ply), board, max);
        out.extend(found.map_err(|e| comment_error(&c.game, c.ply, &e))?);
    }
    if let Some(v) = get("dots") {
        out.extend(marks::parse_dots(v, board, max)?);
    }
    if let Some(v) = get("legalMoves") {
        out.extend(marks::parse_legal_moves(v, position)?);
    }
    marks::within("marks", "marks, dots, legalMoves and [%mark]", out, max)
}

/// The drawing options of a request, read in the order of their fields (so the first bad
/// parameter is the one named), with its colours and marks already read.
fn options<'a>(
    get: &impl Fn(&str) -> Option<&'a str>,
    chosen: Option<&Chosen>,
    (theme, (arrows, highlights)): (Theme, Annotations),
    board: BoardSize,
    limits: &Limits,
) -> Result<RenderOptions, RequestError> {
    Ok(RenderOptions {
        size: get("size")
            .map(|v| parse_size(v, limits.max_size))
            .transpose()?
            .unwrap_or(crate::render::options::DEFAULT_SIZE),
        orientation: get("orientation")
            .map(parse_orientation)
            .transpose()?
            .unwrap_or_default(),
        coordinates: get("coordinates")
            .map(parse_coordinates)
            .transpose()?
            .unwrap_or_default(),
        piece_set: get("pieces")
            .map(parse_piece_set)
            .transpose()?
            .unwrap_or_else(|| DEFAULT_PIECE_SET.to_string()),
        theme,
        last_move: match get("lastMove") {
            Some(v) => parse_last_move(v, board)?,
            None => chosen.and_then(Chosen::last_move),
        },
        check: match get("check") {
            Some(v) => parse_check(v, board)?,
            None if chosen.is_some() => Check::Auto,
            None => Check::Off,
        },
        glyph: match get("glyph") {
            Some(v) => Some(parse_glyph(v)?),
            None => chosen.and_then(Chosen::glyph),
        },
        arrows,
        crosses: get("squares")
            .map(|v| parse_crosses(v, board, limits.squares))
            .transpose()?
            .unwrap_or_default(),
        highlights,
        markers: Vec::new(),
        turn_marker: get("turn")
            .map(|v| parse_flag("turn", v))
            .transpose()?
            .unwrap_or(false),
        dpi: get("dpi")
            .map(parse_dpi)
            .transpose()?
            .unwrap_or(crate::render::options::DEFAULT_DPI),
        text_style: get("style")
            .map(parse_style)
            .transpose()?
            .unwrap_or_default(),
        lang: get("lang").map(parse_lang).transpose()?.unwrap_or_default(),
        svg_form: get("svg")
            .map(parse_svg_form)
            .transpose()?
            .unwrap_or_default(),
        caption: None,
        region: get("region")
            .map(|v| region::parse_region(v, board))
            .transpose()?,
    })
}

/// The format `format=` asks for, which must agree with the path's (`/diagram.svg`).
fn format(asked: Option<&str>, path_format: Option<Format>) -> Result<Format, RequestError> {
    match (asked.map(parse_format), path_format) {
        (None, path) => Ok(path.unwrap_or_default()),
        (Some(Err(e)), _) => Err(e),
        (Some(Ok(asked)), None) => Ok(asked),
        (Some(Ok(asked)), Some(path)) if asked == path => Ok(asked),
        (Some(Ok(asked)), Some(path)) => Err(RequestError::new(
            "format",
            format!(
                "format \"{}\" contradicts the path, which asks for {}: drop format= or use /diagram.{}",
                asked.extension(),
                path.extension(),
                asked.extension()
            ),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::position::Square;
    use crate::render::options::{Coordinates, Glyph, Orientation};
    use crate::render::theme::MarkColor;

    fn err(query: &str) -> String {
        Request::from_query(query, None).unwrap_err().to_string()
    }

    #[test]
    fn fen_text_without_a_glyph_is_refused_naming_the_square() {
        let fen = encode("4k3/8/8/8/4'\u{1F986}3/8/8/4K3");
        let said = err(&format!("fen={fen}&dialect=fairy"));
        assert!(
            said.starts_with(
                "fen text on e4 \"?\" has the character U+1F986 at character 1, which cannot be drawn: text is drawn in DejaVu Sans"
            ),
            "{said}"
        );
        assert!(!said.contains('\u{1F986}'), "{said}");
        let greek = encode("4k3/8/8/8/4'\u{3A9}3/8/8/4K3");
        assert!(Request::from_query(&format!("fen={greek}&dialect=fairy"), None).is_ok());
    }

    /// `value` percent-encoded for a query.
    fn encode(value: &str) -> String {
        form_urlencoded::byte_serialize(value.as_bytes()).collect()
    }

    #[test]
    fn defaults_and_aliases() {
        let r = Request::from_query("fen=start", None).unwrap();
        assert_eq!(r.options, RenderOptions::default());
        assert_eq!(r.format, Format::Png);
        let r = Request::from_query(
            "FEN=start&Size=200&orientation=BLACK&coordinates=0&pieceSet=Staunton&format=svg",
            None,
        )
        .unwrap();
        assert_eq!(r.options.size, 200);
        assert_eq!(r.options.orientation, Orientation::Black);
        assert_eq!(r.options.coordinates, Coordinates::None);
        assert_eq!(r.options.piece_set, "staunton");
        assert_eq!(r.format, Format::Svg);
        let r = Request::from_query(
            "fen=start&piece=staunton&coordinates=true",
            Some(Format::Svg),
        )
        .unwrap();
        assert_eq!(r.options.coordinates, Coordinates::Outside);
        assert_eq!(r.format, Format::Svg);
    }

    #[test]
    fn two_spellings_of_one_position_share_a_key() {
        let a = Request::from_query("fen=start", None).unwrap();
        let b = Request::from_query(
            "fen=rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR+w+KQkq+-+0+1&size=400&orientation=white",
            None,
        )
        .unwrap();
        let c = Request::from_query(
            "fen=%5BFEN+%22rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR_w_KQkq_-_0_1%22%5D&orientation=turn",
            None,
        )
        .unwrap();
        assert_eq!(a.cache_key(), b.cache_key());
        assert_eq!(a.cache_key(), c.cache_key());
        let d = Request::from_query("fen=start&size=401", None).unwrap();
        assert_ne!(a.cache_key(), d.cache_key());
    }

    #[test]
    fn text_keys_hold_the_style_and_only_what_text_shows() {
        let key = |query: &str| {
            Request::from_query(query, Some(Format::Txt))
                .unwrap()
                .cache_key()
        };
        let plain = key("fen=start");
        assert_eq!(plain, key("fen=start&style=LETTERS"));
        // Size, theme, pieces and marks do not change the text.
        assert_eq!(
            plain,
            key("fen=start&size=300&theme=blue&arrows=Ge2e4&lastMove=e2e4&style=letters")
        );
        assert_ne!(plain, key("fen=start&style=figurines"));
        assert_ne!(plain, key("fen=start&orientation=black"));
        assert_ne!(plain, key("fen=start&coordinates=none"));
        assert_ne!(
            plain,
            key("fen=rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR_b")
        );
        assert_ne!(
            plain,
            Request::from_query("fen=start", None).unwrap().cache_key()
        );
        // Images ignore the style: one entry for either.
        let image = |q: &str| Request::from_query(q, None).unwrap().cache_key();
        assert_eq!(image("fen=start&style=figurines"), image("fen=start"));
    }

    #[test]
    fn bad_sizes_name_the_parameter_and_the_range() {
        for bad in [
            "0",
            "-1",
            "15",
            "2049",
            "99999",
            "abc",
            "4e2",
            "",
            " 400",
            "400.0",
            "99999999999",
        ] {
            let msg = err(&format!("fen=start&size={}", bad.replace(' ', "+")));
            assert!(
                msg.starts_with(&format!("size \"{bad}\" is not allowed")),
                "{msg}"
            );
            assert!(msg.contains("from 16 to 2048"), "{msg}");
        }
    }

    #[test]
    fn bad_values_get_one_sentence_each() {
        assert_eq!(
            err("fen=start&orientation=up"),
            "orientation \"up\" is not allowed: expected white, black or turn"
        );
        assert_eq!(
            err("fen=start&coordinates=left"),
            "coordinates \"left\" is not allowed: expected outside, inside or none (1/true/yes = outside, 0/false/no = none)"
        );
        assert_eq!(
            err("fen=start&format=jpeg"),
            "format \"jpeg\" is not allowed: expected png, svg, pdf, webp, gif or txt"
        );
        assert_eq!(
            err("fen=start&format=txt&style=fancy"),
            "style \"fancy\" is not allowed: expected letters or figurines (how format=txt writes pieces)"
        );
        assert!(err("size=400").starts_with("fen is missing"));
        let long = "8/".repeat(600);
        let msg = err(&format!("fen={long}"));
        assert!(
            msg.starts_with("fen \"8/8/8/8/8/8/8/8/8/8/8/8/8/8/8/8/8/8/8/8/…\" is 1200 bytes long"),
            "{msg}"
        );
        let msg = Request::from_query("fen=start&format=png", Some(Format::Svg))
            .unwrap_err()
            .to_string();
        assert!(msg.contains("contradicts the path"), "{msg}");
    }

    #[test]
    fn echoed_values_are_tamed() {
        let msg = err("fen=start&orientation=%3Cscript%3E%0A%00%C3%A9");
        assert_eq!(
            msg,
            "orientation \"<script>???\" is not allowed: expected white, black or turn"
        );
        assert!(!msg.contains('\n'));
    }

    #[test]
    fn marks_parse_with_colours_and_defaults() {
        let r = Request::from_query(
            "fen=start&arrows=Ge2e4,e7e5,Bd4,bb1,Rb1b1&highlight=Ye4,d5&squares=a1,h8&lastMove=N@f3&check=auto",
            None,
        )
        .unwrap();
        let sq = |t: &str| Square::parse(t, crate::chess::position::BoardSize::CHESS).unwrap();
        let a = &r.options.arrows;
        assert_eq!(a.len(), 5);
        assert_eq!(
            (a[0].color, a[0].from, a[0].to),
            (MarkColor::Green, sq("e2"), sq("e4"))
        );
        assert_eq!(
            (a[1].color, a[1].from, a[1].to),
            (MarkColor::Green, sq("e7"), sq("e5"))
        );
        assert_eq!(
            (a[2].color, a[2].from, a[2].to),
            (MarkColor::Blue, sq("d4"), sq("d4"))
        );
        assert_eq!(
            (a[3].color, a[3].from),
            (MarkColor::Blue, sq("b1")),
            "bb1 is a blue b1"
        );
        assert_eq!((a[4].color, a[4].to), (MarkColor::Red, sq("b1")));
        assert_eq!(
            r.options.highlights[0],
            (sq("e4"), MarkColor::Yellow.highlight())
        );
        assert_eq!(
            r.options.highlights[1],
            (sq("d5"), MarkColor::Green.highlight())
        );
        assert_eq!(r.options.crosses, vec![sq("a1"), sq("h8")]);
        let m = r.options.last_move.unwrap();
        assert_eq!(
            (m.from, m.to, m.piece.map(|p| p.fen_char())),
            (None, sq("f3"), Some('N'))
        );
        assert_eq!(r.options.check, Check::Auto);
    }

    #[test]
    fn a_game_gives_the_position_after_a_ply_with_its_move_marked() {
        let pgn = "[White \"A\"] 1. e4 e5 2. Nf3 {[%cal Gf3e5][%csl Re5]} Nc6 3. Bb5 a6!? *";
        let query = |extra: &str| format!("pgn={}{extra}", encode(pgn));
        let end = Request::from_query(&query(""), None).expect("valid");
        assert_eq!(
            end.position.to_string(),
            "r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4"
        );
        let o = &end.options;
        let m = o.last_move.expect("the last move is tinted");
        assert_eq!(
            (m.from.map(|s| s.to_string()), m.to.to_string()),
            (Some("a7".into()), "a6".into())
        );
        assert_eq!(o.check, Check::Auto);
        assert_eq!(
            o.glyph,
            Some(Glyph::Interesting),
            "the NAG becomes the badge"
        );
        let third = Request::from_query(&query("&ply=3"), None).expect("valid");
        assert_eq!(third.options.arrows.len(), 1, "the comment's arrow");
        assert_eq!(third.options.highlights.len(), 1, "and its square");
        assert_eq!(third.options.glyph, None);
        let by_move = Request::from_query(&query("&move=2w"), None).expect("valid");
        assert_eq!(by_move.position, third.position);
        let start = Request::from_query(&query("&ply=0"), None).expect("valid");
        assert_eq!(start.position, Position::start());
        assert_eq!(start.options.last_move, None);
        let plain = Request::from_query(&query("&ply=3&lastMove=a2a3&check=0&glyph=??"), None)
            .expect("valid");
        assert_eq!(
            plain
                .options
                .last_move
                .and_then(|m| m.from)
                .map(|s| s.to_string()),
            Some("a2".into())
        );
        assert_eq!(plain.options.check, Check::Off);
        assert_eq!(plain.options.glyph, Some(Glyph::Blunder));
        assert_ne!(plain.cache_key(), third.cache_key());
        let uci = Request::from_query("moves=e2e4,e7e5&fen=start", None).expect("valid");
        assert_eq!(
            uci.position,
            Request::from_query(&query("&ply=2"), None)
                .unwrap()
                .position
        );
    }

    #[test]
    fn arrows_from_many_places_are_counted_naming_each_place() {
        let arrows = |n: usize| vec!["Ge2e4"; n].join(",");
        let cal = encode(&format!("[%cal {}]", arrows(20)));
        assert_eq!(
            err(&format!(
                "fen=start&arrows={}&annotations={cal}",
                arrows(50)
            )),
            "arrows and annotations draw 70 arrows and circles together: at most 64 are allowed"
        );
        let pgn = encode(&format!("1. e4 {{[%cal {}]}}", arrows(30)));
        assert_eq!(
            err(&format!("pgn={pgn}&arrows={}", arrows(40))),
            "arrows and [%cal] in the game's comment draw 70 arrows and circles together: at most 64 are allowed"
        );
        let csl = encode(&format!("1. e4 {{[%csl {}]}}", vec!["Ge4"; 50].join(",")));
        assert_eq!(
            err(&format!("pgn={csl}&highlight={}", vec!["d5"; 40].join(","))),
            "highlight and [%csl] in the game's comment colour 90 squares together: at most 80 are allowed"
        );
    }

    #[test]
    fn a_fen_too_long_to_caption_says_so_in_the_users_terms() {
        let rank = "pPpPpPpPpPpPpPpP";
        let fen = vec![rank; 16].join("/");
        let e = err(&format!("fen={fen}&caption=fen"));
        assert!(
            e.starts_with("caption=fen: this board's FEN is 281 characters, more than a caption holds (at most 200)"),
            "{e}"
        );
        let fits = Request::from_query("fen=start&caption=fen", None).expect("fits");
        assert_eq!(
            fits.options.caption.as_deref(),
            Some("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
        );
    }

    #[test]
    fn bad_games_and_plies_get_one_sentence_each() {
        let e = err(&format!("pgn={}", encode("1. e4 e5 2. Ke3")));
        assert_eq!(e, "pgn: 2. Ke3 is not a legal move for White after 1...e5");
        let e = err(&format!("pgn={}&ply=9", encode("1. e4 e5")));
        assert_eq!(e, "ply 9 is past the end of the game, which has 2 plies");
        let e = err(&format!("pgn={}&move=7b", encode("1. e4 e5")));
        assert!(e.contains("move \"7b\" is not in the game"), "{e}");
        assert!(err("fen=start&ply=3").contains("give the game as pgn or moves"));
        assert!(err("fen=start&pgn=e4").contains("fen and pgn cannot both be given"));
        assert!(err("moves=e2e5").contains("moves: 1. e2e5 is not a legal move for White"));
        assert!(err("fen=start&glyph=!").contains("glyph needs a last move"));
        assert!(err("fen=start&lastMove=e2e4&glyph=wow").contains("glyph \"wow\" is not allowed"));
        let long = "e4 ".repeat(6000);
        assert!(err(&format!("pgn={long}")).contains("at most 16384 bytes are allowed in a URL"));
        let e = err(&format!("pgn={}", encode("1. e4 {[%cal Gz9e4]}")));
        assert!(
            e.starts_with("pgn: the comment after 1. e4 has bad marks"),
            "{e}"
        );
    }
}
