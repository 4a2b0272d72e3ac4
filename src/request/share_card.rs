//! Share-card requests: `/card.png` query parameters (or `staunton render --card`
//! options) in, a validated [`CardRequest`] out.
//!
//! Owns the card's own parameters (`title`, `subtitle`), their limits and one-sentence
//! errors, the text a game gives when they are missing (players, result, event, the move),
//! and the cache key. The diagram's parameters are read by the diagram parser, so a card
//! accepts exactly the values a diagram does; the card decides the diagram's size.

use super::chosen::Chosen;
use super::diagram::Request;
use super::error::{ONE_LINE, RequestError};
use super::key::KeyWriter;
use super::limits::Limits;
use super::params::{PARAMS, Param, named, text};
use super::query::Query;
use crate::chess::describe::{Lang, after_move};
use crate::chess::game::Game;
use crate::echo::Echo;
use crate::render::options::Format;
use crate::render::share_card::{self, Block, BlockRole};
use crate::render::{RenderError, Renderer};

/// Longest `title` or `subtitle`, in characters.
pub const MAX_CARD_TEXT_CHARS: usize = 200;

/// The parameters of a share card beside the diagram's, each with its spellings, what it
/// takes and one sentence.
pub const CARD_PARAMS: &[Param] = &[
    text(
        "title",
        &["title"],
        "The Immortal Game",
        "The card's heading, in bold beside the diagram: at most 200 characters, no control characters; wrapped to at most 3 lines, the rest cut with `…`. With a game and no title: the players and their ratings.",
    ),
    text(
        "subtitle",
        &["subtitle"],
        "Anderssen – Kieseritzky, London 1851",
        "A line under the title, as long and as limited. With a game and no subtitle: its event and year.",
    ),
];

/// The diagram parameters that change nothing on a card: its size and format are the
/// card's, and pixels have no text style (`style`), print size (`dpi`) nor SVG form (`svg`).
/// `lang` is read: a game's moves in its letters (`Sf3` in German), the move under the title
/// in its words.
const NOT_ON_CARD: [&str; 5] = ["size", "format", "style", "dpi", "svg"];

/// The diagram parameters a card reads (of [`PARAMS`]).
pub fn diagram_params() -> impl Iterator<Item = &'static Param> {
    PARAMS.iter().filter(|p| !NOT_ON_CARD.contains(&p.name))
}

/// A validated share-card request.
#[derive(Debug, Clone)]
pub struct CardRequest {
    /// The diagram: its position and how it is drawn (at the card's size, see
    /// `render::share_card`), as PNG.
    pub diagram: Request,
    /// The text column, top to bottom.
    pub blocks: Vec<Block>,
}

/// The card parameter named `name` (of [`CARD_PARAMS`]).
fn card(name: &str) -> &'static Param {
    Param::of(CARD_PARAMS, name)
}

impl CardRequest {
    /// Validate `(name, value)` pairs under `limits` (see [`CardRequest::read`]).
    pub fn from_pairs_with<K: AsRef<str>, V: AsRef<str>>(
        pairs: impl IntoIterator<Item = (K, V)>,
        limits: &Limits,
    ) -> Result<CardRequest, RequestError> {
        CardRequest::read(&Query::from_pairs(pairs), limits)
    }

    /// Validate a card's query: `title` and `subtitle`, then the diagram (a `fen`, or a
    /// game in `pgn` or `moves` with `ply` or `move`) and its drawing parameters. Names a
    /// card does not read (`size`, `format`, …) are left out.
    pub fn read(query: &Query, limits: &Limits) -> Result<CardRequest, RequestError> {
        let title = card_text(query, "title")?;
        let subtitle = card_text(query, "subtitle")?;
        // Names the card decides are left out; most queries have none, and are read as
        // they are (a cache hit costs what a diagram's does).
        let ignored = |k: &str| NOT_ON_CARD.iter().any(|n| named(n).accepts(k));
        let filtered;
        let diagram = match query.names().any(ignored) {
            true => {
                filtered = query.only(|k| !ignored(k));
                &filtered
            }
            false => query,
        };
        let (mut request, chosen) = Request::with_game(diagram, Some(Format::Png), limits)?;
        if request.options.caption.is_some() {
            // Under the diagram it would leave the card; the card's text column says it.
            return Err(RequestError::new(
                "caption",
                "caption is for a diagram alone: a card writes its words beside the board, in title and subtitle",
            ));
        }
        request.options.size = share_card::DIAGRAM_SIZE;
        let mut blocks = Vec::new();
        let mut push = |role: BlockRole, text: Option<String>| {
            if let Some(text) = text.filter(|t| !t.is_empty()) {
                blocks.push(Block { role, text });
            }
        };
        let game = chosen.as_ref().map(|c| &c.game);
        push(BlockRole::Title, title.or_else(|| game.and_then(players)));
        push(
            BlockRole::Subtitle,
            subtitle.or_else(|| game.and_then(event)),
        );
        push(BlockRole::Result, game.and_then(result));
        let lang = request.options.lang;
        push(
            BlockRole::Note,
            chosen.as_ref().and_then(|c| after(c, lang)),
        );
        Ok(CardRequest {
            diagram: request,
            blocks,
        })
    }

    /// The cache key: the diagram's fields and the card's text, normalised (two spellings,
    /// or two games that give one card, share an entry).
    pub fn cache_key(&self) -> String {
        let mut key = KeyWriter::new("card");
        self.diagram
            .key_fields(&mut key)
            .field(self.diagram.options.lang.code())
            .field(self.blocks.len());
        for b in &self.blocks {
            key.field(b.role.name()).field(&b.text);
        }
        key.finish()
    }

    /// The card as PNG bytes.
    pub fn png(&self, renderer: &Renderer) -> Result<Vec<u8>, RenderError> {
        let d = &self.diagram;
        share_card::png(renderer, &d.position, &d.options, &self.blocks)
    }
}

/// `title` or `subtitle` as given: trimmed, `None` when missing or blank; at most
/// [`MAX_CARD_TEXT_CHARS`] characters, without control characters.
fn card_text(query: &Query, name: &'static str) -> Result<Option<String>, RequestError> {
    let Some(value) = query.last(card(name)) else {
        return Ok(None);
    };
    let count = value.chars().count();
    if count > MAX_CARD_TEXT_CHARS {
        return Err(RequestError::new(
            name,
            format!(
                "{name} {} is {count} characters long: at most {MAX_CARD_TEXT_CHARS} characters are allowed",
                Echo(value)
            ),
        ));
    }
    RequestError::check_line(name, name, value, ONE_LINE)?;
    let value = value.trim();
    Ok((!value.is_empty()).then(|| value.to_string()))
}

/// A tag's value, unless empty or unknown (`?`, `-`); a character that is not printable
/// (a tab, a control character) as a space, as the card's own text may have none.
fn tag(game: &Game, name: &str) -> Option<String> {
    let value = game.header(name)?;
    let value: String = value
        .chars()
        .map(|c| if crate::echo::forbidden(c) { ' ' } else { c })
        .collect();
    let value = value.trim();
    (!value.is_empty() && !value.chars().all(|c| c == '?' || c == '-')).then(|| value.to_string())
}

/// `White Name (2750) – Black Name (2710)`, when the tags name a player.
fn players(game: &Game) -> Option<String> {
    let side = |side: &str| {
        let name = tag(game, side)?;
        let elo = game
            .header(&format!("{side}Elo"))
            .map(str::trim)
            .filter(|e| !e.is_empty() && e.bytes().all(|b| b.is_ascii_digit()));
        Some(match elo {
            Some(elo) => format!("{name} ({elo})"),
            None => name,
        })
    };
    match (side("White"), side("Black")) {
        (None, None) => None,
        (white, black) => Some(format!(
            "{} – {}",
            white.as_deref().unwrap_or("White"),
            black.as_deref().unwrap_or("Black")
        )),
    }
}

/// `Event, Year` (either alone when the other is unknown).
fn event(game: &Game) -> Option<String> {
    let year = tag(game, "Date")
        .and_then(|d| d.get(..4).map(str::to_string))
        .filter(|y| y.bytes().all(|b| b.is_ascii_digit()));
    match (tag(game, "Event"), year) {
        (Some(e), Some(y)) => Some(format!("{e}, {y}")),
        (Some(e), None) => Some(e),
        (None, Some(y)) => Some(y),
        (None, None) => None,
    }
}

/// The result as printed (`1–0`, `0–1`, `½–½`): the movetext's, else the tag's; none
/// for a game going on (`*`).
fn result(game: &Game) -> Option<String> {
    let token = game
        .result()
        .map(str::to_string)
        .or_else(|| tag(game, "Result"))?;
    match token.trim() {
        "1-0" => Some("1–0".to_string()),
        "0-1" => Some("0–1".to_string()),
        "1/2-1/2" | "½-½" => Some("½–½".to_string()),
        _ => None,
    }
}

/// `After 23...Qxf2+` in `lang` (`Nach 23...Qxf2+`), for a position after the start; the
/// move alone when the words need a font the service lacks (Japanese without `--fonts`).
fn after(chosen: &Chosen, lang: Lang) -> Option<String> {
    let label = chosen.game.label(chosen.ply)?;
    Some(after_move(&label, lang))
        .filter(|t| crate::render::scene::caption::missing_glyph(t).is_none())
        .or(Some(label))
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAME: &str = "[Event \"London\"]\n[Date \"1851.06.21\"]\n[White \"Anderssen, Adolf\"]\n[Black \"Kieseritzky, Lionel\"]\n[WhiteElo \"2600\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. f4 exf4 3. Bc4 Qh4+ 1-0";

    fn read(pairs: &[(&str, &str)]) -> Result<CardRequest, RequestError> {
        CardRequest::from_pairs_with(pairs.iter().copied(), &Limits::default())
    }

    fn texts(r: &CardRequest) -> Vec<(BlockRole, &str)> {
        r.blocks.iter().map(|b| (b.role, b.text.as_str())).collect()
    }

    #[test]
    fn a_game_gives_players_event_result_and_move() {
        let r = read(&[("pgn", GAME), ("ply", "6")]).expect("valid");
        assert_eq!(
            texts(&r),
            [
                (
                    BlockRole::Title,
                    "Anderssen, Adolf (2600) – Kieseritzky, Lionel"
                ),
                (BlockRole::Subtitle, "London, 1851"),
                (BlockRole::Result, "1–0"),
                (BlockRole::Note, "After 3...Qh4+"),
            ]
        );
        let r = read(&[("pgn", GAME), ("title", " Mine "), ("subtitle", "Sub")]).expect("valid");
        assert_eq!(
            texts(&r)[..2],
            [(BlockRole::Title, "Mine"), (BlockRole::Subtitle, "Sub")]
        );
        assert_eq!(r.diagram.options.size, share_card::DIAGRAM_SIZE);
    }

    #[test]
    fn lang_reads_the_game_and_words_the_move() {
        let r = read(&[("pgn", "1. e4 e5 2. Sf3 *"), ("lang", "de")]).expect("German letters");
        assert_eq!(texts(&r), [(BlockRole::Note, "Nach 2. Sf3")]);
        let plain = read(&[("pgn", "1. e4 e5 2. Nf3 *")]).expect("English letters");
        assert_ne!(plain.cache_key(), r.cache_key());
    }

    #[test]
    fn bad_text_names_its_parameter() {
        let long = "a".repeat(201);
        let e = read(&[("fen", "start"), ("title", &long)]).expect_err("too long");
        assert_eq!(e.param, "title");
        assert!(e.to_string().contains("at most 200 characters"), "{e}");
        let e = read(&[("fen", "start"), ("subtitle", "a\nb")]).expect_err("control");
        assert_eq!(e.param, "subtitle");
        assert!(e.to_string().contains("control characters"), "{e}");
        assert!(read(&[("fen", "start"), ("title", &"é".repeat(200))]).is_ok());
    }

    #[test]
    fn the_key_follows_what_changes_the_bytes() {
        let key = |p: &[(&str, &str)]| read(p).expect("valid").cache_key();
        let a = key(&[("fen", "start"), ("title", "T")]);
        assert_eq!(
            a,
            key(&[("fen", "start"), ("title", " T "), ("size", "900")])
        );
        assert_eq!(
            a,
            key(&[("fen", "start"), ("title", "T"), ("format", "svg")])
        );
        assert_ne!(a, key(&[("fen", "start"), ("title", "U")]));
        assert_ne!(a, key(&[("fen", "start"), ("subtitle", "T")]));
        assert_ne!(
            a,
            key(&[("fen", "start"), ("title", "T"), ("theme", "blue")])
        );
    }
}
