//! The scene: a diagram laid out in pixels, ready for either backend.
//!
//! Owns geometry: image size, where each square, piece and label goes, in paint order.
//! Pure: no I/O, no piece artwork, no encoding. `paint/svg.rs` writes a scene as text and
//! `paint/raster/` paints it; because both draw the same scene, PNG and SVG look the same.
//!
//! This file builds the scene and keys its base; beside it, in the order they are read:
//! [`parts`] (the data a scene is made of), `grid` (margins, bands and where each square
//! goes), [`region`] (a part of the board drawn alone), `marks` (highlights, arrows,
//! circles, badges), `markers` (square markers), `labels` (coordinates), [`figure`]
//! (what a square holds beyond an orthodox piece) and [`caption`] (the lines under the
//! board). Reads `spec` and `art` (the label font), nothing after it.

pub mod caption;
pub mod figure;
mod grid;
mod labels;
mod markers;
mod marks;
pub mod parts;
pub mod region;

pub use marks::circle_curves;
pub use parts::{Fill, Label, PlacedPiece, Point, Rect, Run, Shape};

use crate::chess::piece::Color;
use crate::chess::position::{Position, Square};
use crate::render::art::font::LabelFont;
use crate::render::spec::options::RenderOptions;
use crate::render::spec::theme::{Page, Rgba, Theme};
use caption::TextLine;
use figure::PlacedFigure;
use grid::{Extras, Grid, Layout, layout};
use labels::{MIN_CAP_PX, in_margin};
use marks::{badge, promoted_marks, turn_marker};
use region::Cut;

/// A diagram laid out in pixels. Paint order: background, fills, marks, pieces, figures,
/// overlays, labels.
#[derive(Debug, Clone, PartialEq)]
pub struct Scene {
    /// Image width.
    pub width: u32,
    /// Image height.
    pub height: u32,
    /// Colour under everything.
    pub background: Rgba,
    /// Frame and squares, in paint order.
    pub fills: Vec<Fill>,
    /// Marks under the pieces: hatching, last move, highlights, check glow.
    pub marks: Vec<Shape>,
    /// Pieces.
    pub pieces: Vec<PlacedPiece>,
    /// Figures: neutral and turned pieces, markers, text, letter pieces (`scene/figure.rs`).
    pub figures: Vec<PlacedFigure>,
    /// Marks over the pieces, in paint order: square markers, crosses, arrows and circles,
    /// promoted pieces' dots, badges.
    pub overlays: Vec<Shape>,
    /// Label glyphs.
    pub labels: Vec<Label>,
    /// Whether every label's ink lies in the margin, where nothing but the base is drawn
    /// (then the painters draw the labels with the base), known once per scene.
    pub labels_in_margin: bool,
    /// The caption's lines, under the board.
    pub caption: Vec<TextLine>,
    /// The caption as given (an SVG's `<desc>`): its lines may break a word after a `/`.
    pub caption_text: Option<String>,
    /// The colour of the labels in the margin and of the caption.
    pub label: Rgba,
    /// The margin and labels on a dark page (`background=auto`, SVG only).
    pub dark_page: Option<Page>,
    /// The labels and caption in the page's text colour, no margin (`background=page`).
    pub page_ink: bool,
    /// The board's rectangle (the squares only).
    pub board: Rect,
    /// Side of one square in pixels.
    pub square: u32,
    /// The colour at the bottom of the board.
    pub bottom: Color,
}

/// Lay out `position` as `options` ask (colours from `options.theme`), with `font`'s label
/// glyphs.
pub fn build(position: &Position, options: &RenderOptions, font: &LabelFont) -> Scene {
    let theme = &options.theme;
    let (grid, l) = lay_out(position, options);
    let sq = grid.square;
    let board = grid.board;

    let cut = options.region.map(|_| Cut::of(grid.region, position.size(), grid.bottom));
    let mut fills = board_fills(position, &grid, &l, cut, theme);

    let mut pieces: Vec<PlacedPiece> = position
        .pieces()
        .filter(|(s, _)| grid.shows(*s))
        .map(|(s, piece)| PlacedPiece {
            piece,
            rect: grid.rect(s),
        })
        .collect();
    let figures = position
        .figures()
        .filter(|(s, _)| grid.shows(*s))
        .map(|(s, f)| PlacedFigure::new(*f, grid.rect(s), s.is_dark(), theme))
        .collect();
    let mut marks = marks::marks(position, options, &grid, theme);
    let mut labels = labels::labels(options.coordinates, &grid, &l, theme, font);
    // Square markers first, under the arrows: an arrowhead on a marked square stays whole.
    let mut overlays = Vec::new();
    let occupied = |s| position.get(s).is_some() || position.figure(s).is_some();
    markers::lay_out(&options.markers, &grid, &occupied, font, &mut overlays, &mut labels);
    overlays.extend(marks::overlays(options, &grid));
    promoted_marks(position, &grid, theme, &mut overlays);
    if let (Some(pocket), None) = (&position.pocket, options.region) {
        let placed = (&mut fills, &mut pieces, &mut labels);
        draw_pockets(pocket, &grid, &l, theme, font, placed);
    }
    if options.turn_marker {
        marks.extend(turn_marker(position.turn, &grid, &l, theme));
    }
    if let (Some(glyph), Some(m)) = (options.glyph, options.last_move)
        && grid.shows(m.to)
    {
        badge(glyph, grid.rect(m.to), font, &mut overlays, &mut labels);
    }

    let (caption, band) = match options.caption.as_deref() {
        Some(text) => caption::lay_out(text, l.width, l.height, l.margin, theme.label),
        None => (Vec::new(), 0),
    };
    Scene {
        width: l.width,
        height: l.height + band,
        background: theme.margin,
        fills,
        marks,
        pieces,
        figures,
        overlays,
        labels_in_margin: in_margin(&labels, board, font),
        labels,
        caption,
        caption_text: options.caption.clone(),
        label: theme.label,
        dark_page: theme.dark_page,
        page_ink: theme.page_ink,
        board,
        square: sq,
        bottom: grid.bottom,
    }
}

/// Where `position`'s squares go as `options` ask: the grid, and the margins around it.
fn lay_out(position: &Position, options: &RenderOptions) -> (Grid, Layout) {
    let region = region::on_board(options.region, position.size());
    let files = u32::from(region.files());
    let ranks = u32::from(region.ranks());
    let size = options.size.clamp(
        crate::render::spec::options::MIN_SIZE,
        crate::render::spec::options::MAX_SIZE,
    );
    let bottom = options.orientation.bottom(position.turn);
    let extras = Extras {
        pockets: position.pocket.is_some() && options.region.is_none(),
        marker: options.turn_marker,
        cut: Cut::of(region, position.size(), bottom),
    };
    let l = layout(size, files, ranks, options.coordinates, extras);
    let sq = l.square;
    let grid = Grid {
        board: Rect {
            x: l.left,
            y: l.top,
            w: sq * files,
            h: sq * ranks,
        },
        square: sq,
        region,
        files,
        ranks,
        bottom,
    };
    (grid, l)
}

/// Where a diagram's board lies in its image, and the coordinates along its edges: for a
/// document that sets the labels itself, in its own typeface (the Typst package's
/// `labels: "typst"`).
#[derive(Debug, Clone, PartialEq)]
pub struct Frame {
    /// The image's width.
    pub width: u32,
    /// The image's height, a caption's lines included.
    pub height: u32,
    /// The squares' rectangle.
    pub board: Rect,
    /// The width of the frame drawn around the squares (0: none).
    pub frame: u32,
    /// The files' letters, left to right as drawn.
    pub files: Vec<char>,
    /// The ranks' numbers, top to bottom as drawn.
    pub ranks: Vec<u8>,
}

/// The [`Frame`] of `position` drawn as `options` ask.
pub fn frame(position: &Position, options: &RenderOptions) -> Frame {
    let (grid, l) = lay_out(position, options);
    let region = grid.region;
    let mut files: Vec<char> = (region.low.file..=region.high.file)
        .map(|f| Square::new(f, 0).file_char())
        .collect();
    let mut ranks: Vec<u8> = (region.low.rank..=region.high.rank).rev().map(|r| r + 1).collect();
    if grid.bottom == Color::Black {
        files.reverse();
        ranks.reverse();
    }
    let band = match options.caption.as_deref() {
        Some(text) => caption::lay_out(text, l.width, l.height, l.margin, options.theme.label).1,
        None => 0,
    };
    Frame {
        width: l.width,
        height: l.height + band,
        board: grid.board,
        frame: l.frame,
        files,
        ranks,
    }
}

/// The frame (or a region's edges: see [`Cut`]) and the squares, in paint order.
fn board_fills(
    position: &Position,
    grid: &Grid,
    l: &Layout,
    cut: Option<Cut>,
    theme: &Theme,
) -> Vec<Fill> {
    let board = grid.board;
    let mut fills = Vec::with_capacity(2 + (grid.files * grid.ranks) as usize / 2);
    if let Some(cut) = cut {
        cut.edges(board, (l.frame, l.cut), grid.square, theme.frame, &mut fills);
    } else if l.frame > 0 {
        fills.push(Fill {
            rect: Rect {
                x: board.x - l.frame,
                y: board.y - l.frame,
                w: board.w + 2 * l.frame,
                h: board.h + 2 * l.frame,
            },
            color: theme.frame,
        });
    }
    // Light squares as one rectangle, dark squares on top.
    fills.push(Fill {
        rect: board,
        color: theme.light,
    });
    for s in position.squares().filter(|s| s.is_dark() && grid.shows(*s)) {
        fills.push(Fill {
            rect: grid.rect(s),
            color: theme.dark,
        });
    }
    fills
}

/// Pieces in hand: the bottom side's below the board, the other side's above, in role order,
/// each with its count when more than one.
fn draw_pockets(
    pocket: &crate::chess::position::Pocket,
    grid: &Grid,
    l: &Layout,
    theme: &Theme,
    font: &LabelFont,
    (fills, pieces, labels): (&mut Vec<Fill>, &mut Vec<PlacedPiece>, &mut Vec<Label>),
) {
    let size = l.pocket * 8 / 9;
    // On a dark page a black piece would vanish: each stands on a light square's colour.
    let plate = theme.margin.a == 255 && theme.margin.luminance() < 0.18;
    let cap = font.cap_height() / font.units_per_em();
    let cap_px = size as f32 * 0.3;
    for color in [Color::White, Color::Black] {
        let y = if color == grid.bottom {
            l.height - l.pocket + (l.pocket - size) / 2
        } else {
            (l.pocket - size) / 2
        };
        let mut x = grid.board.x;
        for (piece, count) in pocket.iter().filter(|(p, _)| p.color == color) {
            let rect = Rect {
                x,
                y,
                w: size,
                h: size,
            };
            if plate {
                fills.push(Fill {
                    rect,
                    color: theme.light,
                });
            }
            pieces.push(PlacedPiece { piece, rect });
            if count > 1 && cap_px >= MIN_CAP_PX {
                let mut pen = (x + size) as f32;
                for ch in count.to_string().chars() {
                    let Some(glyph) = font.glyph(ch) else {
                        continue;
                    };
                    let scale = cap_px / cap / font.units_per_em();
                    labels.push(Label {
                        ch,
                        x: pen - glyph.ink_x.0 * scale,
                        y: (y + size) as f32,
                        scale,
                        color: theme.label,
                    });
                    pen += (glyph.ink_x.1 - glyph.ink_x.0) * scale + cap_px * 0.1;
                }
            }
            x += grid.square;
        }
    }
}

/// The exact description of a scene's base layers (with its labels if `labels`): the
/// context cache's key.
pub fn base_key(scene: &Scene, labels: bool) -> Vec<u8> {
    let mut key = Vec::with_capacity(16 + scene.fills.len() * 20 + scene.labels.len() * 20);
    let mut put = |v: u32| key.extend_from_slice(&v.to_le_bytes());
    let rgba = |c: Rgba| u32::from_le_bytes([c.r, c.g, c.b, c.a]);
    put(scene.width);
    put(scene.height);
    put(rgba(scene.background));
    for fill in &scene.fills {
        let r = fill.rect;
        for v in [r.x, r.y, r.w, r.h, rgba(fill.color)] {
            put(v);
        }
    }
    if labels {
        describe_labels(scene, &mut key);
    }
    key
}

/// Append the exact description of `scene`'s labels to `key`.
pub fn describe_labels(scene: &Scene, key: &mut Vec<u8>) {
    key.reserve(scene.labels.len() * 20);
    for l in &scene.labels {
        let rgba = u32::from_le_bytes([l.color.r, l.color.g, l.color.b, l.color.a]);
        for v in [
            u32::from(l.ch),
            l.x.to_bits(),
            l.y.to_bits(),
            l.scale.to_bits(),
            rgba,
        ] {
            key.extend_from_slice(&v.to_le_bytes());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::spec::options::{Coordinates, Orientation};

    fn scene(fen_files: u8, size: u32, coordinates: Coordinates) -> Scene {
        let pos = if fen_files == 8 {
            Position::start()
        } else {
            Position::empty(10)
        };
        let options = RenderOptions {
            size,
            coordinates,
            ..RenderOptions::default()
        };
        build(&pos, &options, LabelFont::builtin())
    }

    #[test]
    fn without_coordinates_the_image_is_exactly_the_board() {
        for size in [16, 17, 100, 400, 401, 799, 2048] {
            let s = scene(8, size, Coordinates::None);
            assert_eq!(s.square, size / 8);
            assert_eq!((s.width, s.height), (8 * (size / 8), 8 * (size / 8)));
            assert_eq!(
                s.board,
                Rect {
                    x: 0,
                    y: 0,
                    w: s.width,
                    h: s.height
                }
            );
            assert!(s.labels.is_empty());
        }
        let s = scene(10, 400, Coordinates::None);
        assert_eq!((s.width, s.height, s.square), (400, 320, 40));
    }

    #[test]
    fn outside_coordinates_keep_the_requested_width() {
        for size in [16, 64, 100, 400, 401, 800, 2048] {
            let s = scene(8, size, Coordinates::Outside);
            assert_eq!(s.width, size, "size {size}");
            assert_eq!(
                s.height,
                size - (size - s.board.w) % 2,
                "square image for 8 files"
            );
            assert!(s.board.x >= 1 && s.board.x + s.board.w <= s.width);
        }
        let s = scene(8, 400, Coordinates::Outside);
        assert_eq!((s.square, s.board.x), (45, 20));
        assert_eq!(s.labels.len(), 16);
    }

    #[test]
    fn labels_stay_inside_the_image() {
        for coordinates in [Coordinates::Outside, Coordinates::Inside] {
            for size in [16, 100, 400, 2048] {
                let s = scene(10, size, coordinates);
                for l in &s.labels {
                    assert!(l.x >= 0.0 && l.x < s.width as f32, "{l:?} at {size}");
                    assert!(l.y > 0.0 && l.y <= s.height as f32, "{l:?} at {size}");
                }
            }
        }
    }

    #[test]
    fn black_orientation_turns_the_board() {
        let pos = Position::start();
        let white = build(&pos, &RenderOptions::default(), LabelFont::builtin());
        let options = RenderOptions {
            orientation: Orientation::Black,
            ..RenderOptions::default()
        };
        let black = build(&pos, &options, LabelFont::builtin());
        // a1 holds a white rook: bottom-left for white, top-right for black.
        let a1 = |s: &Scene| {
            s.pieces
                .iter()
                .find(|p| p.piece.fen_char() == 'R')
                .map(|p| p.rect)
        };
        let (w, b) = (a1(&white).unwrap(), a1(&black).unwrap());
        assert_eq!(
            (w.x, w.y),
            (white.board.x, white.board.y + 7 * white.square)
        );
        assert_eq!(
            (b.x, b.y),
            (black.board.x + 7 * black.square, black.board.y)
        );
        assert_eq!(black.bottom, Color::Black);
    }
}
