//! Prints, as a markdown table, the ink box of each standard piece (width × height in %
//! of a 100 px square; ink is a pixel with a channel at most 207) for the built-in sets
//! and every set of an optional pieces directory, then per set the smallest square size
//! in 4–40 px from which up every piece stays apart from every other (the margin of the
//! small-size decoding test).
//!
//! `cargo run --release --example piece_metrics -- [pieces-dir]`

#[path = "../tests/render/piece_metrics.rs"]
mod piece_metrics;

use staunton::Renderer;
use staunton::render::pieces::PieceSets;

fn main() {
    let sets = match std::env::args_os().nth(1) {
        Some(dir) => {
            let (sets, problems) = PieceSets::with_dir(std::path::Path::new(&dir));
            for problem in problems {
                eprintln!("{problem}");
            }
            sets
        }
        None => PieceSets::builtin(),
    };
    let names: Vec<String> = sets.names().map(str::to_string).collect();
    let renderer = Renderer::new(sets, 1 << 26);
    println!("| set | K | Q | R | B | N | P |");
    println!("|---|---|---|---|---|---|---|");
    for name in &names {
        let boxes = piece_metrics::ink_boxes(&renderer, name, 100);
        // White and black of one role: one cell, both boxes if they differ.
        let cells: Vec<String> = boxes[..6]
            .iter()
            .zip(&boxes[6..])
            .map(|((_, white), (_, black))| {
                let cell = |b: &Option<piece_metrics::InkBox>| {
                    b.map_or("–".to_string(), |b| format!("{} × {}", b.width, b.height))
                };
                let (w, b) = (cell(white), cell(black));
                if w == b { w } else { format!("{w} / {b}") }
            })
            .collect();
        println!("| {name} | {} |", cells.join(" | "));
    }
    println!();
    println!(
        "Smallest square (px, 4–40) from which up every standard piece differs from every other \
         on the same square colour in at least max(4, 1 % of the tile) pixels whose luminance \
         differs by {} or more:",
        piece_metrics::MARGIN_LUMA
    );
    println!();
    for name in &names {
        let smallest = piece_metrics::smallest_legible(&renderer, name, 4..=40);
        let text = smallest.map_or("none (not even 40 px)".to_string(), |px| format!("{px} px"));
        println!("- {name}: {text}");
    }
}
