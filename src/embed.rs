//! The one door for embedders: the Python package's native module (`python/src/lib.rs`),
//! the npm package's WebAssembly module (`js/src/lib.rs`), the Typst plugin
//! (`typst/plugin/src/lib.rs`) and the command line's `render` and `latex` (with a renderer
//! of their own, [`render_with`]) call this and only marshal.
//!
//! Query pairs in (the service's parameters, as a door spells a call), bytes or a
//! [`Failure`] out: the parameter at fault, the sentence the service answers with a 400,
//! and for a name that is no parameter the nearest one ([`suggestion`], the one
//! "did you mean" of every door; in kebab-case, [`kebab_suggestion`], for the doors that
//! take kebab-case names through [`service_spelling`]: the Typst plugin and `staunton
//! latex`). A door turns a list given as items into a query value
//! with the parameter table's [`Param::separator`] ([`parameters`]). Every call is read
//! under one set of limits ([`limits`], [`MAX_BODY_BYTES`] for a game's text) and priced
//! before it renders, so every door refuses what the service refuses, with its sentence.
//!
//! Owns none of the parsing or rendering: that is `request` and `render`'s. The
//! markdown fence of the npm package is the `markdown` module's.

use crate::render::animate;
use crate::request::{
    GAME_PARAMS, GameRequest, Known, Limits, MAX_BODY_BYTES, PARAMS, Param, Query, Request,
    RequestError, SERVICE_PARAMS,
};
use crate::snapshot::SnapshotError;
use crate::{Format, RenderError, Renderer};
use std::sync::OnceLock;

/// The renderer's caches, in bytes: half the service's. A WebAssembly module's memory
/// never shrinks, so this (and the largest render the limits allow) bounds what it grows to.
pub const CACHE_BYTES: u64 = 32 << 20;

/// What kind of failure a [`Failure`] is: what a door raises it as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum FailureKind {
    /// A bad value or name in the call (the service's 400); `param` names the parameter.
    Input,
    /// The render itself failed (an encoder's error, an internal error).
    Render,
    /// A snapshot does not match its diagram, or is missing (a test's failure).
    Mismatch,
    /// Anything else (a snapshot folder that cannot be read or written).
    Other,
}

/// Why a call failed: the parameter at fault (`""` when none), one sentence for people,
/// and for a name that is no parameter, the nearest one that is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// The parameter at fault (canonical name), `""` when none.
    pub param: &'static str,
    /// What was wrong, the sentence the service answers with.
    pub sentence: String,
    /// The canonical name of the parameter a misspelt name was nearest, if any.
    pub suggestion: Option<&'static str>,
    /// What the failure is.
    pub kind: FailureKind,
}

impl Failure {
    /// A bad input of `param`.
    pub fn input(param: &'static str, sentence: impl Into<String>) -> Failure {
        Failure {
            param,
            sentence: sentence.into(),
            suggestion: None,
            kind: FailureKind::Input,
        }
    }

    /// An internal error of the renderer (e.g. a panic a door caught): "internal error in
    /// the renderer: `why`".
    pub fn internal(why: &str) -> Failure {
        Failure {
            kind: FailureKind::Render,
            ..Failure::input("", format!("internal error in the renderer: {why}"))
        }
    }

    /// `name`, given to a call whose parameters are the image ones (and the game ones
    /// when `game`), is none of them: the sentence names it and the nearest parameter.
    pub fn unknown(name: &str, game: bool) -> Failure {
        let suggestion = suggestion(name, game);
        let shown = crate::echo::Echo(name);
        let sentence = match suggestion {
            Some(near) => format!("{shown} is not a parameter: did you mean {near}?"),
            None => format!("{shown} is not a parameter"),
        };
        Failure {
            suggestion,
            ..Failure::input("", sentence)
        }
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.sentence)
    }
}

impl std::error::Error for Failure {}

impl From<RequestError> for Failure {
    fn from(e: RequestError) -> Failure {
        Failure::input(e.param, e.to_string())
    }
}

impl From<RenderError> for Failure {
    fn from(e: RenderError) -> Failure {
        match e {
            RenderError::UnknownPieceSet(..) => Failure::input("pieces", e.to_string()),
            _ => Failure {
                kind: FailureKind::Render,
                ..Failure::input("", e.to_string())
            },
        }
    }
}

impl From<crate::render::CostError> for Failure {
    fn from(e: crate::render::CostError) -> Failure {
        Failure::input("size", e.to_string())
    }
}

impl From<SnapshotError> for Failure {
    fn from(e: SnapshotError) -> Failure {
        let kind = match e {
            SnapshotError::Render { error, .. } => return Failure::from(error),
            SnapshotError::Mismatch(_)
            | SnapshotError::SizeDiffers { .. }
            | SnapshotError::Missing { .. } => FailureKind::Mismatch,
            _ => FailureKind::Other,
        };
        Failure {
            kind,
            ..Failure::input("", e.to_string())
        }
    }
}

/// The one renderer every call shares, with its caches ([`CACHE_BYTES`]).
pub fn renderer() -> &'static Renderer {
    static RENDERER: OnceLock<Renderer> = OnceLock::new();
    RENDERER.get_or_init(|| Renderer::new(crate::render::pieces::PieceSets::builtin(), CACHE_BYTES))
}

/// The limits every door's call is read under: the service's, but a game (`pgn`, `moves`)
/// may be as long as the service's longest body, [`MAX_BODY_BYTES`]: a door has no URL
/// to keep short.
pub fn limits() -> Limits {
    Limits {
        pgn_bytes: MAX_BODY_BYTES,
        ..Limits::default()
    }
}

/// Every parameter a door takes, with `"image"` or `"game"` (the whole-game calls'
/// own): its name, spellings, and [`Param::separator`] for a list.
pub fn parameters() -> impl Iterator<Item = (&'static Param, &'static str)> {
    let image = PARAMS.iter().map(|p| (p, "image"));
    image.chain(GAME_PARAMS.iter().map(|p| (p, "game")))
}

/// The canonical name of the parameter nearest `name` (of the image parameters, and the
/// game ones when `game`), if it is near enough to be a slip: the service's own choice
/// (the `Staunton-Warning` header's and `strict=1`'s). Never one of the service's own
/// [`SERVICE_PARAMS`] (`strict`, `errors`), which no door takes.
pub fn suggestion(name: &str, game: bool) -> Option<&'static str> {
    let game_params = if game { GAME_PARAMS } else { &[] };
    let near = Known::new(PARAMS.iter().chain(game_params)).nearest(name)?;
    (!SERVICE_PARAMS.iter().any(|p| p.name == near)).then_some(near)
}

/// A name as the service spells it: a kebab-case name (`last-move`, `legal-moves`), the
/// spelling of Typst's named arguments and of LaTeX's keys, is read as its snake-case
/// spelling (`last_move`) when that is an image parameter's; any other name as given, for
/// [`request`] to read or refuse. The doors that take kebab-case (the Typst plugin,
/// `staunton latex`) spell each name through this, and answer a failure through
/// [`kebab_suggestion`].
pub fn service_spelling(name: String) -> String {
    if !name.contains('-') {
        return name;
    }
    let snake = name.replace('-', "_");
    let known = parameters().any(|(p, kind)| kind == "image" && p.accepts(&snake));
    if known { snake } else { name }
}

/// `failure` with its suggestion, if it has one, in kebab-case in its sentence: "did you
/// mean last-move?" rather than "lastMove?", for the doors whose names are
/// [`service_spelling`]'s. The `suggestion` field keeps the canonical name.
pub fn kebab_suggestion(mut failure: Failure) -> Failure {
    if let Some(near) = failure.suggestion {
        let mut kebab = String::new();
        for ch in near.chars() {
            if ch.is_ascii_uppercase() {
                kebab.push('-');
            }
            kebab.push(ch.to_ascii_lowercase());
        }
        failure.sentence = failure
            .sentence
            .replace(&format!("mean {near}?"), &format!("mean {kebab}?"));
    }
    failure
}

/// The format named `name` (one of [`Format::NAMES`]), or the service's sentence for a
/// bad `format`.
pub fn format_named(name: &str) -> Result<Format, Failure> {
    Ok(crate::request::parse_format(name)?)
}

/// `Ok` when every name of `pairs` is a parameter (of the game ones too when `game`), and
/// no game text (`pgn`, `moves`, the `body`) is longer than [`MAX_BODY_BYTES`].
fn check(pairs: &[(String, String)], body: Option<&str>, game: bool) -> Result<(), Failure> {
    let game_params = if game { GAME_PARAMS } else { &[] };
    for (name, value) in pairs {
        let mut known = PARAMS.iter().chain(game_params).chain(SERVICE_PARAMS);
        let Some(param) = known.find(|p| p.accepts(name)) else {
            return Err(Failure::unknown(name, game));
        };
        if matches!(param.name, "pgn" | "moves") {
            within_body(param.name, value)?;
        }
    }
    body.map_or(Ok(()), |text| within_body("pgn", text))
}

/// `Ok` when the game text `text` of `param` is at most [`MAX_BODY_BYTES`] long.
fn within_body(param: &'static str, text: &str) -> Result<(), Failure> {
    match text.len() {
        len if len > MAX_BODY_BYTES => Err(Failure::input(
            param,
            format!("{param} is {len} bytes long: at most {MAX_BODY_BYTES} bytes are read"),
        )),
        _ => Ok(()),
    }
}

/// The request of the query `pairs` in `format` (`None`: as `pairs` say, else PNG), read
/// under [`limits`] and priced: what [`render`] renders, and what a door's snapshot checks.
pub fn request(pairs: Vec<(String, String)>, format: Option<Format>) -> Result<Request, Failure> {
    check(&pairs, None, false)?;
    let request = Request::from_pairs_with(pairs, format, &limits())?;
    request.within_cost()?;
    Ok(request)
}

/// The diagram of the query `pairs` in the format of extension `format`.
pub fn render(pairs: Vec<(String, String)>, format: &str) -> Result<Vec<u8>, Failure> {
    render_with(renderer(), pairs, format_named(format)?)
}

/// The diagram of the query `pairs` in `format`, drawn by `renderer` (the command line's,
/// with the sets of `--pieces-dir`): [`render`] for a door with a renderer of its own.
pub fn render_with(
    renderer: &Renderer,
    pairs: Vec<(String, String)>,
    format: Format,
) -> Result<Vec<u8>, Failure> {
    let request = request(pairs, Some(format))?;
    Ok(renderer.render(&request.position, &request.options, request.format)?)
}

/// A whole game as an animation, `kind` `gif` or `apng`: the game is `pgn` (its text,
/// as the service's POSTed body) when given, else the one `pairs` name (`pgn`, `moves`).
pub fn render_game(
    pairs: Vec<(String, String)>,
    pgn: Option<&str>,
    kind: &str,
) -> Result<Vec<u8>, Failure> {
    render_game_with(renderer(), pairs, pgn, kind)
}

/// [`render_game`] drawn by `renderer`.
pub fn render_game_with(
    renderer: &Renderer,
    pairs: Vec<(String, String)>,
    pgn: Option<&str>,
    kind: &str,
) -> Result<Vec<u8>, Failure> {
    let encode = match kind {
        "gif" => animate::gif,
        "apng" => animate::apng,
        _ => {
            let sentence = format!("no animation kind {kind:?}: expected gif or apng");
            return Err(Failure::input("format", sentence));
        }
    };
    check(&pairs, pgn, true)?;
    let game = GameRequest::from_pairs_with(pairs, pgn, kind, &limits())?;
    Ok(encode(renderer, &game.frames(), game.looped)?)
}

/// What `/describe` says of the query `pairs`, and the game's length in plies when the
/// query names a game. A game's own parameters (`delay`, `from`, …) are taken and change
/// nothing said: a door's game describes its position with the options it animates with.
pub fn describe(pairs: Vec<(String, String)>) -> Result<(String, Option<usize>), Failure> {
    check(&pairs, None, true)?;
    let described = Request::described(&Query::from_pairs(pairs), &limits())?;
    Ok((described.text(), described.plies))
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::request::owned as pairs;

    #[test]
    fn a_game_is_described_with_the_options_it_is_animated_with() {
        let moves = ("moves", "e2e4 e7e5");
        let plain = describe(pairs(&[moves])).expect("described");
        let animated = describe(pairs(&[moves, ("delay", "60"), ("from", "1")]));
        assert_eq!(animated, Ok(plain));
        let misspelt = describe(pairs(&[moves, ("dealy", "60")])).expect_err("no such name");
        assert_eq!(misspelt.suggestion, Some("delay"));
    }

    #[test]
    fn a_render_is_the_renderers_bytes() {
        let png = render(pairs(&[("fen", "start"), ("size", "240")]), "png").expect("png");
        let request =
            Request::from_pairs(vec![("fen", "start"), ("size", "240")], None).expect("request");
        let direct = Renderer::default()
            .png(&request.position, &request.options)
            .expect("direct");
        assert_eq!(png, direct);
        let text = render(pairs(&[("fen", "8/8/8/8/8/8/8/k6K b")]), "TXT").expect("txt");
        assert!(
            String::from_utf8(text)
                .expect("utf-8")
                .contains("Black to move")
        );
    }

    #[test]
    fn the_list_rule_is_the_tables() {
        let lists: Vec<(&str, &str)> = parameters()
            .filter_map(|(p, _)| p.separator.map(|s| (p.name, s)))
            .collect();
        let expected = [
            ("arrows", ","),
            ("squares", ","),
            ("highlight", ","),
            ("annotations", ""),
            ("marks", ","),
            ("dots", ","),
            ("moves", " "),
        ];
        let expected: Vec<_> = expected
            .into_iter()
            .filter(|(_, s)| !s.is_empty())
            .collect();
        assert_eq!(lists, expected);
        // Items joined by the separator are what the parser takes, as one string is.
        let joined = ["Ge2e4", "Rd8d4"].join(",");
        let one = render(pairs(&[("fen", "start"), ("arrows", &joined)]), "svg");
        let two = render(
            pairs(&[("fen", "start"), ("arrows", "Ge2e4"), ("arrows", "Rd8d4")]),
            "svg",
        );
        assert_ne!(one.clone().expect("joined"), two.expect("last wins"));
        let moves = ["e2e4", "e7e5"].join(" ");
        let (_, plies) = describe(pairs(&[("moves", &moves)])).expect("moves");
        assert_eq!(plies, Some(2));
    }

    #[test]
    fn a_misspelt_name_is_refused_with_the_services_suggestion() {
        let failure =
            render(pairs(&[("fen", "start"), ("sise", "200")]), "png").expect_err("unknown name");
        assert_eq!(failure.suggestion, Some("size"));
        assert_eq!(
            failure.sentence,
            "\"sise\" is not a parameter: did you mean size?"
        );
        assert_eq!((failure.param, failure.kind), ("", FailureKind::Input));
        for (name, game, near) in [
            ("orientaton", false, Some("orientation")),
            ("last_mvoe", false, Some("lastMove")),
            ("dealy", false, None),
            ("dealy", true, Some("delay")),
            ("xyzzy", true, None),
        ] {
            assert_eq!(suggestion(name, game), near, "{name}");
            assert_eq!(
                suggestion(name, game),
                Known::new(PARAMS.iter().chain(if game { GAME_PARAMS } else { &[] })).nearest(name)
            );
        }
        // The service's own names are no door's: never "strict: did you mean strict?".
        assert_eq!(suggestion("strict", false), None);
        assert_eq!(suggestion("errorz", true), None);
        let failure = render(pairs(&[("fen", "start"), ("xyzzy", "1")]), "png").expect_err("xyzzy");
        assert_eq!(
            (failure.sentence.as_str(), failure.suggestion),
            ("\"xyzzy\" is not a parameter", None)
        );
        // A game's parameter is no parameter of a diagram.
        let failure = render(pairs(&[("fen", "start"), ("delay", "1")]), "png").expect_err("delay");
        assert_eq!(failure.suggestion, None);
        assert!(render_game(pairs(&[("moves", "e2e4"), ("delay", "10")]), None, "gif").is_ok());
    }

    #[test]
    fn kebab_case_names_are_read_and_suggested_in_kebab_case() {
        let spelt = |name: &str| service_spelling(name.to_string());
        assert_eq!(spelt("last-move"), "last_move");
        assert_eq!(spelt("legal-moves"), "legal_moves");
        assert_eq!(spelt("lastMove"), "lastMove", "no hyphen: as given");
        assert_eq!(spelt("last-mvoe"), "last-mvoe", "no parameter: as given");
        // A game's parameter is no image parameter: left for the check to refuse.
        assert_eq!(spelt("last-delay"), "last-delay");
        let kebab = |list: &[(&str, &str)]| {
            let pairs = list.iter().map(|(k, v)| (spelt(k), v.to_string()));
            render(pairs.collect(), "svg").map_err(kebab_suggestion)
        };
        let fen = ("fen", "start");
        let drawn = kebab(&[fen, ("last-move", "e2e4"), ("legal-moves", "e2")]);
        let canonical = render(
            pairs(&[fen, ("lastMove", "e2e4"), ("legalMoves", "e2")]),
            "svg",
        );
        assert_eq!(drawn, canonical);
        let failure = kebab(&[fen, ("last-mvoe", "e2e4")]).expect_err("misspelt");
        assert_eq!(
            failure.sentence,
            "\"last-mvoe\" is not a parameter: did you mean last-move?"
        );
        assert_eq!(
            failure.suggestion,
            Some("lastMove"),
            "the field stays canonical"
        );
        // A failure without a suggestion is left as it is.
        let bad = render(pairs(&[("fen", "x")]), "svg").expect_err("bad FEN");
        assert_eq!(kebab_suggestion(bad.clone()), bad);
    }

    #[test]
    fn a_bad_value_is_the_services_sentence() {
        let failure = render(pairs(&[("fen", "start"), ("orientation", "up")]), "png")
            .expect_err("bad value");
        let service = Request::from_pairs(vec![("fen", "start"), ("orientation", "up")], None)
            .expect_err("service");
        assert_eq!(failure, Failure::from(service));
        assert_eq!(
            (failure.param, failure.kind),
            ("orientation", FailureKind::Input)
        );
        let failure = render(pairs(&[("fen", "start")]), "bmp").expect_err("format");
        assert_eq!(failure.param, "format");
        let failure = render_game(pairs(&[("moves", "e2e4")]), None, "avi").expect_err("kind");
        assert_eq!(failure.param, "format");
        let failure =
            render(pairs(&[("fen", "start"), ("pieces", "nope")]), "png").expect_err("set");
        assert_eq!(failure.param, "pieces");
    }

    #[test]
    fn a_game_text_over_the_body_limit_is_refused_before_it_is_read() {
        let long = "1. Nf3 Nf6 2. Ng1 Ng8 ".repeat(MAX_BODY_BYTES / 22 + 1);
        let sentence = format!(
            "pgn is {} bytes long: at most {MAX_BODY_BYTES} bytes are read",
            long.len()
        );
        let body = render_game(vec![], Some(&long), "gif").expect_err("body");
        assert_eq!(
            (body.param, body.sentence.as_str()),
            ("pgn", sentence.as_str())
        );
        let value = render(pairs(&[("pgn", &long)]), "png").expect_err("value");
        assert_eq!(value, body);
        let moves = describe(pairs(&[("MOVES", &"e2e4 ".repeat(20_000))])).expect_err("moves");
        assert_eq!(moves.param, "moves");
        // Under the limit, a game longer than a URL's (16 KB) is read.
        let game = "1. Nf3 Nf6 2. Ng1 Ng8 ".repeat(800);
        assert!(game.len() > Limits::default().pgn_bytes);
        let failure = render(pairs(&[("pgn", &game)]), "png").expect_err("too many plies");
        assert!(failure.sentence.contains("1000"), "{}", failure.sentence);
    }

    #[test]
    fn a_render_over_the_cost_bound_is_refused_before_it_runs() {
        let moves = "g1f3 g8f6 f3g1 f6g8 ".repeat(120);
        let game = render_game(pairs(&[("moves", &moves), ("size", "2048")]), None, "gif")
            .expect_err("priced");
        assert_eq!(game.param, "size");
        assert!(
            game.sentence.contains("animation of 481 frames"),
            "{}",
            game.sentence
        );
    }
}
