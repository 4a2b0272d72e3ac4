//! The proportions of the built-in `staunton` pieces: each of the twelve standard pieces
//! rendered alone on a white 100 px square, its ink box (see [`piece_metrics`]: a pixel is
//! ink when any channel is at most 207, that is 255 − 48) measured in % of the square.

use crate::piece_metrics::{self, InkBox};
use staunton::{Piece, Renderer, Role};

/// The square the pieces are measured on: 1 px is 1 %.
const PX: u32 = 100;

/// Inclusive ranges of the ink box's width and height, in % of the square.
fn ranges(role: Role) -> ((u32, u32), (u32, u32)) {
    match role {
        Role::King => ((78, 90), (79, 88)),
        Role::Queen => ((78, 90), (76, 88)),
        Role::Rook => ((62, 72), (69, 88)),
        Role::Bishop => ((74, 88), (78, 87)),
        Role::Knight => ((74, 88), (75, 84)),
        _ => ((54, 62), (70, 80)),
    }
}

/// What is wrong with one piece's box, if anything.
fn faults(piece: Piece, ink: Option<InkBox>, same_role: Option<InkBox>) -> Vec<String> {
    let Some(b) = ink else {
        return vec!["no ink at all".to_string()];
    };
    let ((w0, w1), (h0, h1)) = ranges(piece.role);
    let mut faults = Vec::new();
    if !(w0..=w1).contains(&b.width) {
        faults.push(format!("width outside {w0}–{w1}"));
    }
    if !(h0..=h1).contains(&b.height) {
        faults.push(format!("height outside {h0}–{h1}"));
    }
    // Knights face one way, so only the others must be centred.
    if piece.role != Role::Knight && b.off_centre(PX) > 2 * 2 {
        faults.push(format!(
            "off centre by {:.1} px (left margin {}, right {})",
            f64::from(b.off_centre(PX)) / 2.0,
            b.left,
            PX - b.left - b.width
        ));
    }
    if let Some(o) = same_role
        && (o.width.abs_diff(b.width) > 1 || o.height.abs_diff(b.height) > 1)
    {
        faults.push(format!(
            "{}×{} for the other colour: more than 1 px apart",
            o.width, o.height
        ));
    }
    faults
}

#[test]
fn the_built_in_pieces_fill_their_squares_as_designed() {
    let renderer = Renderer::default();
    let boxes = piece_metrics::ink_boxes(&renderer, "staunton", PX);
    let mut table = String::new();
    let mut failed = false;
    for &(piece, ink) in &boxes {
        let other = boxes
            .iter()
            .find(|(p, _)| p.role == piece.role && p.color != piece.color)
            .and_then(|(_, b)| *b);
        let faults = faults(piece, ink, other);
        let ((w0, w1), (h0, h1)) = ranges(piece.role);
        let measured = ink.map_or("none".to_string(), |b| {
            format!("{} × {} % at ({}, {})", b.width, b.height, b.left, b.top)
        });
        failed |= !faults.is_empty();
        table.push_str(&format!(
            "{}: {measured}; range {w0}–{w1} × {h0}–{h1}{}{}\n",
            piece.code(),
            if faults.is_empty() { "" } else { " — " },
            faults.join("; ")
        ));
    }
    assert!(!failed, "ink boxes (width × height):\n{table}");
}
