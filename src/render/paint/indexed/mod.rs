//! Indexed rendering: a diagram composed directly as palette indices.
//!
//! Most diagrams are one of a few boards with pieces standing on plain squares. For each
//! (board, piece set, square size), a [`Context`], the base layers (background, frame,
//! squares, margin labels) and every piece on every plain square colour are converted to
//! palette indices once, into one palette they share. A render is then a copy of the base's
//! indices and, per piece, a copy of its tile's rows: no RGBA pixels and no colour lookups.
//!
//! A marked square (last move, highlight, check glow, or any arrow, circle or cross
//! crossing it) with its piece is a cached [`CellTile`]: its own colours and each pixel's
//! number among them, converted by colour. What neither covers (labels over the board,
//! shapes reaching off the grid, pieces off it, figures) is *dirty*: exactly the row runs those
//! shapes' stamps paint, and boxes around labels. The caller paints just those runs in
//! RGBA (`raster::paint_within`), and they are converted against the context's palette,
//! extended for this render when new colours appear. Colours join the palette as in
//! `encode` (both through `palette`): a colour within `palette::PALETTE_TOLERANCE` of an entry is drawn by that entry,
//! so the result is the same visually lossless palette image the full-colour path makes.
//! When 256 entries are not enough, the caller falls back to that path.
//!
//! ```text
//!  context.rs   the palette context of a board: palette, base and piece tiles as indices
//!  tiles.rs     the caches (Tiles) of contexts and of marked cells' tiles (CellTile)
//!  compose.rs   a diagram composed from them (compose, Scratch); the dirty runs listed
//!  convert.rs   the marked cells and the dirty runs converted to indices (convert)
//! ```

mod compose;
mod context;
mod convert;
mod tiles;

pub use compose::{Scratch, compose};
pub use convert::convert;
pub use tiles::{Tiles, context, has_context};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Renderer;
    use crate::render::art::font::LabelFont;
    use crate::render::paint::raster;
    use crate::render::paint::palette::PALETTE_TOLERANCE;
    use crate::request::Request;

    /// Compose `query` the way `Renderer::png` does; the scratch and whether it was dirty.
    fn composed(renderer: &Renderer, query: &str) -> (Scratch, bool) {
        let r = Request::from_query(query, None).expect("valid");
        let set = renderer.set(&r.options).expect("set");
        let scene = renderer.scene(&r.position, &r.options);
        let font = LabelFont::builtin();
        let labels = scene.labels_in_margin;
        let caches = (renderer.sprites(), renderer.tiles());
        let context = context(&scene, set, caches, font, labels).expect("fits");
        let mut scratch = Scratch::default();
        let layers = (set, renderer.sprites(), renderer.tiles());
        let dirty = compose(&context, &scene, layers, font, labels, &mut scratch);
        // Stale, translucent pixels: outside the dirty runs nothing may read them.
        let mut rgba = vec![0x7f; scene.width as usize * scene.height as usize * 4];
        if dirty {
            let within = Some(scratch.dirty());
            let sprites = renderer.sprites();
            assert!(raster::paint_within(
                &scene, set, sprites, font, within, &mut rgba
            ));
        }
        assert!(
            convert(&context, &rgba, &mut scratch),
            "{query}: no palette"
        );
        (scratch, dirty)
    }

    /// Largest channel difference between the indexed image and the full-colour render.
    fn max_difference(renderer: &Renderer, query: &str, scratch: &Scratch) -> u8 {
        let r = Request::from_query(query, None).expect("valid");
        let full = renderer.pixmap(&r.position, &r.options).expect("renders");
        let mut worst = 0;
        for (i, px) in full.pixels().iter().enumerate() {
            let e = scratch.indices[i] as usize * 3;
            let c = px.demultiply();
            let want = [c.red(), c.green(), c.blue()];
            for (k, w) in want.iter().enumerate() {
                worst = worst.max(scratch.palette[e + k].abs_diff(*w));
            }
        }
        worst
    }

    #[test]
    fn a_plain_position_is_only_tiles() {
        let renderer = Renderer::default();
        let query = "fen=r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR";
        let (scratch, dirty) = composed(&renderer, query);
        assert!(!dirty, "a plain diagram needed painting");
        assert!(max_difference(&renderer, query, &scratch) <= PALETTE_TOLERANCE);
    }

    #[test]
    fn marked_squares_arrows_circles_and_crosses_on_the_board_are_cell_tiles_not_dirty() {
        // Last move, a check glow, highlights (two marks on f3: last move and highlight,
        // and one on an empty square), and arrows, circles and crosses that stay on the
        // board come from the cell cache: nothing is painted.
        let renderer = Renderer::default();
        for query in [
            "fen=rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR_w_KQkq_-_1_3\
             &lastMove=d8h4&check=auto&arrows=Gh4e1,Rg2g3,Yb1c3&highlight=Ge5,Rf3",
            "fen=start&arrows=Ga1h8,Rb1c3,Yd4&squares=e5,d2&orientation=black&size=333",
            "fen=rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR_w_KQkq_-_1_3\
             &lastMove=d8h4&check=auto&highlight=Ge5,Rf3,Yh4",
            "fen=start&lastMove=g1f3&highlight=Rf3&orientation=black&size=333",
        ] {
            let (scratch, dirty) = composed(&renderer, query);
            assert!(!dirty, "{query}: marks or arrows needed painting");
            assert!(!scratch.placed.is_empty(), "{query}: no cell tiles");
            assert!(max_difference(&renderer, query, &scratch) <= PALETTE_TOLERANCE);
        }
    }

    #[test]
    fn labels_on_the_board_are_dirty_and_converted() {
        // Inside coordinates, with arrows or on a board turned round.
        let renderer = Renderer::default();
        for query in [
            "fen=start&coordinates=inside&arrows=Ge2e4,Ra1a8&size=360",
            "fen=start&coordinates=inside&orientation=black&size=333",
        ] {
            let (scratch, dirty) = composed(&renderer, query);
            assert!(dirty, "{query}: labels on the board were not seen as dirty");
            assert!(max_difference(&renderer, query, &scratch) <= PALETTE_TOLERANCE);
        }
    }

    #[test]
    fn cells_with_more_new_colours_than_a_palette_takes_stop_the_composition() {
        let renderer = Renderer::default();
        let files = "abcdefgh".as_bytes();
        // 48 long arrows in four colours crossing each other at 800 px.
        let arrows: Vec<String> = (0..48)
            .map(|i| {
                let (a, b) = (files[i % 8] as char, files[(i * 3 + 5) % 8] as char);
                let colour = ["G", "R", "Y", "B"][i % 4];
                format!("{colour}{a}{}{b}{}", 1 + i % 8, 8 - (i / 8) % 8)
            })
            .collect();
        let heavy = format!("fen=start&size=800&arrows={}", arrows.join(","));
        let light = "fen=start&size=800&arrows=Ge2e4,Rg1f3&highlight=Ye5";
        for (query, too_many) in [(heavy.as_str(), true), (light, false)] {
            let r = Request::from_query(query, None).expect("valid");
            let set = renderer.set(&r.options).expect("set");
            let scene = renderer.scene(&r.position, &r.options);
            let font = LabelFont::builtin();
            let caches = (renderer.sprites(), renderer.tiles());
            let context = context(&scene, set, caches, font, true).expect("fits");
            let mut scratch = Scratch::default();
            let layers = (set, renderer.sprites(), renderer.tiles());
            compose(&context, &scene, layers, font, true, &mut scratch);
            assert_eq!(scratch.too_many_colours(), too_many, "{query}");
            // What convert decides from the same cells and the dirty runs painted.
            let mut rgba = vec![0; scene.width as usize * scene.height as usize * 4];
            let within = Some(scratch.dirty());
            raster::paint_within(&scene, set, renderer.sprites(), font, within, &mut rgba);
            assert_eq!(convert(&context, &rgba, &mut scratch), !too_many, "{query}");
        }
    }
}
