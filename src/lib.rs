pub mod piece;
pub mod position;
