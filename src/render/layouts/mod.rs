//! Whole pages and images made of diagrams and text, on top of the [`Renderer`]: a game's
//! frames ([`animate`]: GIF, APNG), worksheets ([`sheet`]), articles ([`article`]: a game
//! with its comments, as HTML, SVG pages or PDF), share cards ([`share_card`]) and the
//! image of an error's sentence (`card`).
//!
//! The top floor: each calls the `Renderer` for its diagrams and the stages below for
//! text and encoding; nothing under it imports these, but `spec::cost` prices an
//! animation's [`Frame`](animate::Frame)s.
//!
//! [`Renderer`]: crate::render::Renderer

pub mod animate;
pub mod article;
pub mod page_text;
pub mod share_card;
pub mod sheet;
mod tagged_pdf;
internal_mod!(card);
