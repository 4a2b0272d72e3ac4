//! The whole-game image request: a game (read by `chosen`), the plies shown, the frames'
//! delays and whether the animation loops.

use super::chosen::{Chosen, GAME_MISSING, comment_marks_at};
use super::diagram::Request;
use super::error::RequestError;
use super::limits::Limits;
use super::params::{GAME_PARAMS, Param, named};
use super::query::Query;
use super::values::{parse_flag, whole_number};
use super::{key, page};
use crate::chess::game::Game;
use crate::render::animate::Play;
use crate::render::options::Format;

/// A whole-number game parameter `name`, `default` when not given, at most `max`.
fn game_number(
    value: Option<&str>,
    name: &'static str,
    default: u64,
    max: u64,
) -> Result<u64, RequestError> {
    let Some(v) = value else {
        return Ok(default);
    };
    whole_number(name, v, 0..=max, "")
}

/// Longest frame delay, in hundredths of a second (a minute).
pub const MAX_DELAY: u16 = 6000;

/// A validated whole-game image request: the game, the plies shown and how, and whether
/// the animation loops; `render::animate` draws its frames.
#[derive(Debug, Clone)]
pub struct GameRequest {
    /// What the animation shows.
    pub play: Play,
    /// Play in a loop.
    pub looped: bool,
    key: String,
}

impl GameRequest {
    /// Validate a whole-game request: the game in `pgn` (or `body`, a POSTed PGN, which wins)
    /// or `moves`, the image parameters of every frame, and [`GAME_PARAMS`]. `kind` names
    /// the output (`gif`, `apng`) in the cache key.
    pub fn from_pairs_with(
        pairs: Vec<(String, String)>,
        body: Option<&str>,
        kind: &str,
        limits: &Limits,
    ) -> Result<GameRequest, RequestError> {
        GameRequest::read(&Query::from_pairs(pairs), body, kind, limits)
    }

    /// [`GameRequest::from_pairs_with`] over a [`Query`].
    pub fn read(
        query: &Query,
        body: Option<&str>,
        kind: &str,
        limits: &Limits,
    ) -> Result<GameRequest, RequestError> {
        let game_value = |name: &str| query.last(Param::of(GAME_PARAMS, name));
        let number = |name, default, max| game_number(game_value(name), name, default, max);
        let delay = number("delay", 80, u64::from(MAX_DELAY))? as u16;
        let last_delay = number("lastDelay", 300, u64::from(MAX_DELAY))? as u16;
        let looped = match game_value("loop") {
            Some(v) => parse_flag("loop", v)?,
            None => true,
        };
        let players = game_value("players")
            .map(|v| parse_flag("players", v))
            .transpose()?;
        // The image parameters, with the game at its start: ply and move pick nothing here.
        let mut limits = *limits;
        let (pgn, moves) = (named("pgn"), named("moves"));
        let posted = |k: &str| body.is_some() && pgn.accepts(k);
        let mut image =
            query.only(|k| !named("ply").accepts(k) && !named("move").accepts(k) && !posted(k));
        if let Some(body) = body {
            limits.pgn_bytes = limits.pgn_bytes.max(body.len());
            image.push("pgn", body);
        }
        let missing = || RequestError::missing("pgn", GAME_MISSING);
        if !image.has(pgn) && !image.has(moves) {
            return Err(missing());
        }
        image.push("ply", "0");
        let (request, chosen) = Request::with_game(&image, Some(Format::Png), &limits)?;
        page::check_animation(&request.options)?;
        let Some(Chosen { game, .. }) = chosen else {
            return Err(missing());
        };
        let plies = game.len() as u64;
        let from = number("from", 0, plies)? as usize;
        let to = number("to", plies, plies)? as usize;
        if from > to {
            return Err(RequestError::new(
                "from",
                format!("from {from} is after to {to}: the excerpt would be empty"),
            ));
        }
        let bars =
            players.unwrap_or_else(|| ["White", "Black"].iter().any(|s| names_player(&game, s)));
        let board = request.position.size();
        let marks = (from..=to)
            .map(|ply| comment_marks_at(&game, ply, board, &limits))
            .collect::<Result<Vec<_>, _>>()?;
        let play = Play {
            game,
            options: request.options.clone(),
            from,
            to,
            delay,
            last_delay,
            bars,
            marks,
        };
        within_cost(&play.frames(), request.options.size)?;
        let source = body
            .or_else(|| query.last(pgn))
            .or_else(|| query.last(moves))
            .unwrap_or("");
        let key = request
            .key_fields(&mut key::KeyWriter::new("game"))
            .field(kind)
            .field(from)
            .field(to)
            .field(delay)
            .field(last_delay)
            .field(u8::from(looped))
            .field(u8::from(bars))
            .field(source)
            // The letters the game was read in: `1. Rf1` is a rook's move in English and
            // a king's in Italian, one text for two games.
            .field(request.options.lang.code())
            .finish();
        Ok(GameRequest { play, looped, key })
    }

    /// The frames, one per ply shown (see [`Play::frames`]).
    pub fn frames(&self) -> Vec<crate::render::animate::Frame> {
        self.play.frames()
    }

    /// The cache key: the output kind, every parameter, and the game's text.
    pub fn cache_key(&self) -> &str {
        &self.key
    }
}

/// `Ok` when an animation of `frames` at `size` is within the cost bound. Every frame's
/// marks count: a thousand plies of 64 arrows at 2048 px would keep a worker for minutes.
fn within_cost(frames: &[crate::render::animate::Frame], size: u32) -> Result<(), RequestError> {
    crate::render::spec::cost::within_bound(
        crate::render::spec::cost::frames(frames),
        &format!(
            "the animation of {} frames of {size}×{size} pixels",
            frames.len()
        ),
        "choose a smaller size, fewer arrows or an excerpt (from, to)",
    )
    .map_err(|why| RequestError::new("size", why.to_string()))
}

/// Whether the tag `side` names a player (not empty, not `?`).
fn names_player(game: &Game, side: &str) -> bool {
    game.header(side)
        .is_some_and(|n| !n.trim().is_empty() && n.trim() != "?")
}
