//! What a route is: a path, one line for people and an [`Endpoint`], the one trait each
//! route's file implements. Through it the router finds the route's handlers,
//! `/openapi.json` its parameters and answers, the service the names it reads (for
//! `Staunton-Warning` and `strict=1`), and `error_image` the format its errors are drawn in.

use super::super::state::AppState;
use crate::render::options::Format;
use crate::request::{Limits, PARAMS, Param};
use axum::routing::MethodRouter;
use serde_json::Value;
use std::sync::Arc;

/// One route: its path, one line for the API description, and what answers it.
#[derive(Debug, Clone, Copy)]
pub struct Route {
    /// The path (every route answers GET and HEAD; some POST too: [`Endpoint::posts`]).
    pub path: &'static str,
    /// One line for people.
    pub summary: &'static str,
    /// What answers it.
    pub endpoint: &'static dyn Endpoint,
}

/// What `/openapi.json` is written with: the service's limits and the piece sets it loaded.
#[derive(Debug, Clone, Copy)]
pub struct Terms<'a> {
    /// The limits (a FEN's bytes, the largest size, …), documented as the schemas' bounds.
    pub limits: &'a Limits,
    /// The names `pieces` takes.
    pub piece_sets: &'a [String],
}

/// Everything about a route but its path and summary: its handlers, what it reads, how it
/// is described, how its errors may be drawn.
pub trait Endpoint: std::fmt::Debug + Sync {
    /// Its methods and their handlers: GET (axum answers HEAD with it too), and POST when
    /// it [`posts`](Endpoint::posts).
    fn router(&self) -> MethodRouter<Arc<AppState>>;

    /// Every parameter its handler reads (validates, so a bad value is a 400); empty (the
    /// default) for a route that reads no query. A route that reads one also takes the
    /// service-wide [`SERVICE_PARAMS`](crate::request::SERVICE_PARAMS); a name outside both
    /// is ignored by the route: `Staunton-Warning` names it, `strict=1` refuses it.
    /// `/openapi.json` documents these (less those that change nothing on a path), the
    /// service-wide ones once per path.
    fn reads(&self) -> Vec<&'static Param> {
        Vec::new()
    }

    /// The parameters and answers of its GET in `/openapi.json`, written with `terms`;
    /// `summary` is the route's line.
    fn operation(&self, terms: Terms<'_>, summary: &str) -> (Vec<Value>, Value);

    /// Whether it answers POST too, the PGN as the body (described as a second operation).
    fn posts(&self) -> bool {
        false
    }

    /// The image format it answers in when the query's `format` names `asked`; `None` (the
    /// default) for a route that answers no image (a page, text, JSON). Its 4xx are drawn
    /// in that format for a client that wants an image (see `error_image`).
    fn image(&self, asked: Option<Format>) -> Option<Format> {
        let _ = asked;
        None
    }

    /// The size its error images are drawn at when it takes no `size`; `None` (the
    /// default): the query's `size`.
    fn error_size(&self) -> Option<u32> {
        None
    }
}

/// The diagram parameters ([`PARAMS`]) named in `names`, in the table's order: for a
/// route that reads some of them.
pub(super) fn diagram_params(
    names: &'static [&'static str],
) -> impl Iterator<Item = &'static Param> {
    PARAMS.iter().filter(move |p| names.contains(&p.name))
}
