//! The routes, one file each, behind one trait. Each route's file owns everything about
//! it: its handler, the parameters it reads, its operation in `/openapi.json`, whether it
//! takes a POST, and how its errors are drawn, through [`Endpoint`]; `table` lists them
//! ([`ROUTES`]), and the router, `/openapi.json` ([`openapi`], made by `document`), the
//! names each route knows and the error images are made from that table.
//!
//! What the routes stand on: `endpoint` (the trait and [`Route`]), `skeleton` (the one way
//! a route answers: read, key, make, answer through the cache) and `operation` (the parts
//! of an OpenAPI operation routes share). The routes: `page` (the front page's files),
//! `diagram`, `image` (lila-gif's still GIF), `game`, `move_list` (`/game.json`), `piece`,
//! `sheet`, `article`, `card`, `describe`, `openapi`, `health` (and readiness), `metrics`.
//!
//! A new route is a new file here that implements [`Endpoint`], its `mod` line below, and
//! one line in [`ROUTES`].

mod article;
mod card;
mod describe;
mod diagram;
mod document;
mod endpoint;
mod game;
mod health;
mod image;
mod metrics;
mod move_list;
mod openapi;
mod operation;
mod page;
mod piece;
mod sheet;
mod skeleton;
mod table;

pub use document::openapi;
pub use endpoint::Route;
#[cfg_attr(not(feature = "bench-internals"), allow(unused_imports))]
pub use endpoint::{Endpoint, Terms};
pub(crate) use health::HEALTH_HEADER;
pub use table::ROUTES;
