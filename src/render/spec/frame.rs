//! One frame of an animation, as data: the position, its options, how long it shows and
//! its player bars. What is wanted of a frame, before anything is drawn: the cost model
//! prices frames ([`super::cost`]) and `layouts::animate` draws them.

use crate::chess::position::Position;
use crate::render::spec::options::RenderOptions;

/// A player bar: the player (title, name, rating) on the left, the clock on the right.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Bar {
    /// Title, name and rating, as shown.
    pub player: String,
    /// The clock, as shown (`1:02:03`, `4:59`), if known.
    pub clock: Option<String>,
}

/// One frame of an animation.
#[derive(Debug, Clone)]
pub struct Frame {
    /// The position shown.
    pub position: Position,
    /// How to draw it (the same options as a still diagram).
    pub options: RenderOptions,
    /// How long it shows, in hundredths of a second.
    pub delay: u16,
    /// The bars above and below the board, if any.
    pub bars: Option<[Bar; 2]>,
}

