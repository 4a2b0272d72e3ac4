//! The scene: a diagram laid out in pixels, ready for either backend.
//!
//! Owns geometry: image size, where each square, piece and label goes, in paint order.
//! Pure: no I/O, no piece artwork, no encoding. `paint/svg.rs` writes a scene as text and
//! `paint/raster/` paints it; because both draw the same scene, PNG and SVG look the same.
//!
//! This file builds the scene; beside it, the parts it is laid out with: [`figure`] (what
//! a square holds beyond an orthodox piece), `markers` (square markers), [`region`] (a
//! part of the board drawn alone) and [`caption`] (the lines under the board). Reads
//! `spec` and `art` (the label font), nothing after it.

use crate::chess::piece::{Color, Piece};
use crate::chess::position::{Position, Square};
use caption::TextLine;
use figure::PlacedFigure;
use crate::render::art::font::LabelFont;
use crate::render::spec::options::{Arrow, Check, Coordinates, Glyph, Region, RenderOptions};
use region::{Cut, clip_polygon};
use crate::render::spec::theme::{HALO, INK, Page, Rgba, Theme};

pub mod caption;
pub mod figure;
mod markers;
pub mod region;

/// An axis-aligned rectangle on whole pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rect {
    /// Left edge.
    pub x: u32,
    /// Top edge.
    pub y: u32,
    /// Width.
    pub w: u32,
    /// Height.
    pub h: u32,
}

impl Rect {
    /// Whether the two share a pixel (the tests' measure of overlap).
    #[cfg(any(test, feature = "bench-internals"))]
    pub fn intersects(&self, other: &Rect) -> bool {
        self.x < other.x + other.w
            && other.x < self.x + self.w
            && self.y < other.y + other.h
            && other.y < self.y + self.h
    }
}

/// Pixels `x0..x1` of row `y`. Sorted lists of runs, none overlapping, say where a
/// partial paint must be right (the indexed path's dirty pixels).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Run {
    /// Row.
    pub y: u32,
    /// First pixel.
    pub x0: u32,
    /// One past the last pixel.
    pub x1: u32,
}

/// A filled rectangle.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Fill {
    /// Where.
    pub rect: Rect,
    /// What colour.
    pub color: Rgba,
}

/// A piece drawn into a square.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlacedPiece {
    /// Which piece.
    pub piece: Piece,
    /// The square's top-left corner and side, in pixels.
    pub rect: Rect,
}

/// One character of a coordinate label.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Label {
    /// The character (`a`–`j`, `1`–`8`).
    pub ch: char,
    /// Glyph origin (left end of the baseline), in pixels.
    pub x: f32,
    /// Baseline, in pixels.
    pub y: f32,
    /// Pixels per font unit.
    pub scale: f32,
    /// Colour.
    pub color: Rgba,
}

/// A point in pixels.
pub type Point = (f32, f32);

/// A vector shape, drawn identically by both backends.
#[derive(Debug, Clone, PartialEq)]
pub enum Shape {
    /// A filled rectangle (possibly translucent).
    Rect {
        /// Where.
        rect: Rect,
        /// Colour.
        color: Rgba,
    },
    /// A filled polygon.
    Polygon {
        /// Corners, in order.
        points: Vec<Point>,
        /// Colour.
        color: Rgba,
    },
    /// An open polyline stroked `width` wide, butt ends, mitred corners.
    Line {
        /// Vertices, in order.
        points: Vec<Point>,
        /// Stroke width.
        width: f32,
        /// Colour.
        color: Rgba,
    },
    /// A circle outline.
    Ring {
        /// Centre.
        center: Point,
        /// Radius (to the middle of the stroke).
        radius: f32,
        /// Stroke width.
        width: f32,
        /// Colour.
        color: Rgba,
    },
    /// A filled disc.
    Disc {
        /// Centre.
        center: Point,
        /// Radius.
        radius: f32,
        /// Colour.
        color: Rgba,
    },
    /// A disc filled with a radial gradient, `stops` as (offset 0–1, colour).
    Glow {
        /// Centre.
        center: Point,
        /// Radius.
        radius: f32,
        /// Gradient stops.
        stops: Vec<(f32, Rgba)>,
    },
}

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
    /// Marks over the pieces: arrows, circles, crosses, square markers.
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
    /// The board's rectangle (the squares only).
    pub board: Rect,
    /// Side of one square in pixels.
    pub square: u32,
    /// The colour at the bottom of the board.
    pub bottom: Color,
}

/// Board and margin sizes for an image `size` px wide.
struct Layout {
    square: u32,
    /// Left edge of the board.
    left: u32,
    /// Top edge of the board.
    top: u32,
    /// Label band on each side of the board (coordinates outside), else 0.
    margin: u32,
    /// Height of each pocket strip (crazyhouse), else 0.
    pocket: u32,
    width: u32,
    height: u32,
    frame: u32,
    /// Thickness of a region's cut-edge dashes.
    cut: u32,
}

/// What besides the board needs room.
struct Extras {
    /// Pieces in hand above and below the board.
    pockets: bool,
    /// A side-to-move marker to the right of the board.
    marker: bool,
    /// The cut edges of a region, on screen.
    cut: Cut,
}

fn layout(size: u32, files: u32, ranks: u32, coordinates: Coordinates, extras: Extras) -> Layout {
    let (square, margin, frame) = match coordinates {
        Coordinates::Outside => {
            // A margin of about 5 % of the width on every side holds the labels; the squares
            // take what is left, whole pixels each, and the rest goes back to the margins.
            let margin = size.div_ceil(20).max(1);
            let square = (size.saturating_sub(2 * margin) / files).max(1);
            let margin = size.saturating_sub(square * files) / 2;
            (square, margin, (square / 28).clamp(1, margin.max(1)))
        }
        Coordinates::Inside | Coordinates::None => ((size / files).max(1), 0, 0),
    };
    // Without a margin, a cut edge gets a band of its own for its dashes.
    let (square, cut, bands) = match coordinates {
        Coordinates::Outside => (square, frame.max(2).min(margin.max(1)), [0; 4]),
        _ => extras.cut.bands(size, files),
    };
    let [band_left, band_top, band_right, band_bottom] = bands;
    let pocket = if extras.pockets { square * 9 / 10 } else { 0 };
    // Outside, the marker sits in the margin; otherwise it gets a strip of its own.
    let marker = if extras.marker && margin == 0 {
        (square * 2 / 5).max(6)
    } else {
        0
    };
    let board_w = square * files;
    let width = match coordinates {
        Coordinates::Outside => size.max(board_w),
        _ => band_left + board_w + band_right + marker,
    };
    Layout {
        square,
        left: margin + band_left,
        top: pocket + margin + band_top,
        margin,
        pocket,
        width,
        height: 2 * pocket + 2 * margin + square * ranks + band_top + band_bottom,
        frame,
        cut,
    }
}

/// Where squares are on screen: the board rectangle (of the region drawn), the square
/// size and the turn.
#[derive(Debug, Clone, Copy)]
struct Grid {
    board: Rect,
    square: u32,
    /// The squares drawn: the whole board, or a region of it.
    region: Region,
    files: u32,
    ranks: u32,
    bottom: Color,
}

impl Grid {
    /// Whether `s` is drawn.
    fn shows(&self, s: Square) -> bool {
        self.region.contains(s)
    }

    /// The pixel rectangle of `s` (a square the grid shows).
    fn rect(&self, s: Square) -> Rect {
        let low = self.region.low;
        let f = u32::from(s.file.saturating_sub(low.file));
        let r = u32::from(s.rank.saturating_sub(low.rank));
        let (col, row) = match self.bottom {
            Color::White => (f, self.ranks - 1 - r),
            Color::Black => (self.files - 1 - f, r),
        };
        Rect {
            x: self.board.x + col * self.square,
            y: self.board.y + row * self.square,
            w: self.square,
            h: self.square,
        }
    }
}

/// Lay out `position` as `options` ask (colours from `options.theme`), with `font`'s label
/// glyphs.
pub fn build(position: &Position, options: &RenderOptions, font: &LabelFont) -> Scene {
    let theme = &options.theme;
    let region = region::on_board(options.region, position.size());
    let files = u32::from(region.files());
    let ranks = u32::from(region.ranks());
    let size = options.size.clamp(
        crate::render::spec::options::MIN_SIZE,
        crate::render::spec::options::MAX_SIZE,
    );
    let bottom = options.orientation.bottom(position.turn);
    let cut = Cut::of(region, position.size(), bottom);
    let extras = Extras {
        pockets: position.pocket.is_some() && options.region.is_none(),
        marker: options.turn_marker,
        cut,
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
    let board = grid.board;

    let cut = options.region.map(|_| cut);
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
    let mut marks = marks(position, options, &grid, theme);
    let mut labels = labels(options.coordinates, &grid, &l, theme, font);
    let mut overlays = overlays(options, &grid);
    promoted_marks(position, &grid, theme, &mut overlays);
    markers::lay_out(&options.markers, &grid, font, &mut overlays, &mut labels);
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
        board,
        square: sq,
        bottom: grid.bottom,
    }
}

/// Whether the ink of every one of `labels` lies outside `board`.
fn in_margin(labels: &[Label], board: Rect, font: &LabelFont) -> bool {
    // A label's ink lies within its glyph's horizontal extent and between the baseline and
    // the cap height (labels are digits and the letters a–j; descenders only go further
    // from the board).
    let (left, top) = (board.x as f32, board.y as f32);
    let (right, bottom) = ((board.x + board.w) as f32, (board.y + board.h) as f32);
    labels.iter().all(|l| {
        let (ink0, ink1) = font.glyph(l.ch).map_or((0.0, 0.0), |g| g.ink_x);
        let (x0, x1) = (l.x + ink0 * l.scale, l.x + ink1 * l.scale);
        let (y0, y1) = (l.y - font.cap_height() * l.scale, l.y);
        x1 <= left || x0 >= right || y1 <= top || y0 >= bottom
    })
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

/// A small disc in the top-right corner of every promoted (`~`) piece.
fn promoted_marks(position: &Position, grid: &Grid, theme: &Theme, out: &mut Vec<Shape>) {
    let sq = grid.square as f32;
    for (s, _) in position
        .pieces()
        .filter(|(s, _)| position.is_promoted(*s) && grid.shows(*s))
    {
        let r = grid.rect(s);
        let radius = (sq * 0.09).max(1.5);
        let center = (r.x as f32 + sq - radius * 1.6, r.y as f32 + radius * 1.6);
        out.push(Shape::Disc {
            center,
            radius,
            color: theme.frame,
        });
        out.push(Shape::Disc {
            center,
            radius: radius * 0.5,
            color: Rgba::hex(0xffffff),
        });
    }
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

/// A disc beside the board, level with the rank nearest the side to move: light for White,
/// dark for Black, outlined.
fn turn_marker(turn: Color, grid: &Grid, l: &Layout, theme: &Theme) -> Vec<Shape> {
    let sq = grid.square as f32;
    let board = grid.board;
    let right = (board.x + board.w + l.frame) as f32;
    let room = if l.margin > 0 {
        (l.margin - l.frame) as f32
    } else {
        (l.width - board.x - board.w) as f32
    };
    let radius = (room * 0.32).min(sq * 0.22).max(2.0);
    let cy = if turn == grid.bottom {
        (board.y + board.h) as f32 - sq / 2.0
    } else {
        board.y as f32 + sq / 2.0
    };
    let center = (right + room / 2.0, cy);
    let fill = match turn {
        Color::White => Rgba::hex(0xffffff),
        Color::Black => Rgba::hex(0x1a1a1a),
    };
    let outline = (radius * 0.22).max(1.0);
    // Ringed in the page's ink (the frame's colour on the built-in pages), so a black disc
    // shows on a dark page.
    vec![
        Shape::Disc {
            center,
            radius,
            color: theme.label,
        },
        Shape::Disc {
            center,
            radius: radius - outline,
            color: fill,
        },
    ]
}

/// Marks drawn on the squares, under the pieces.
fn marks(position: &Position, options: &RenderOptions, grid: &Grid, theme: &Theme) -> Vec<Shape> {
    let mut out = Vec::new();
    let sq = grid.square as f32;
    if theme.hatched {
        // Printed-book dark squares: diagonal lines, about six per square.
        let width = (sq / 36.0).max(0.75);
        let step = sq / 6.0;
        for s in position.squares().filter(|s| s.is_dark() && grid.shows(*s)) {
            let r = grid.rect(s);
            let (x0, y0, side) = (r.x as f32, r.y as f32, sq);
            // Lines x - y = c, for c across the square, clipped to it.
            let mut c = -side + step / 2.0;
            while c < side {
                let (ax, ay) = if c >= 0.0 { (x0 + c, y0) } else { (x0, y0 - c) };
                let (bx, by) = if c >= 0.0 {
                    (x0 + side, y0 + side - c)
                } else {
                    (x0 + side + c, y0 + side)
                };
                out.push(Shape::Line {
                    points: vec![(ax, ay), (bx, by)],
                    width,
                    color: theme.frame,
                });
                c += step;
            }
        }
    }
    if let Some(m) = options.last_move {
        let squares = m.from.into_iter().chain(std::iter::once(m.to));
        for s in squares.filter(|s| grid.shows(*s)) {
            out.push(Shape::Rect {
                rect: grid.rect(s),
                color: theme.last_move,
            });
        }
    }
    for (s, color) in options.highlights.iter().filter(|(s, _)| grid.shows(*s)) {
        out.push(Shape::Rect {
            rect: grid.rect(*s),
            color: *color,
        });
    }
    let checked = match options.check {
        Check::Off => None,
        Check::Auto => crate::chess::attacks::checked_king(position),
        Check::Square(s) => Some(s),
    };
    if let Some(s) = checked.filter(|s| grid.shows(*s)) {
        let r = grid.rect(s);
        out.push(Shape::Glow {
            center: (r.x as f32 + sq / 2.0, r.y as f32 + sq / 2.0),
            radius: sq / 2.0,
            stops: theme.check_glow().to_vec(),
        });
    }
    out
}

/// Marks drawn over the pieces: arrows, circles, crosses.
fn overlays(options: &RenderOptions, grid: &Grid) -> Vec<Shape> {
    let mut out = Vec::new();
    let sq = grid.square as f32;
    let halo = Halo::of(sq);
    for s in options.crosses.iter().filter(|s| grid.shows(**s)) {
        let r = grid.rect(*s);
        let (x0, y0) = (r.x as f32, r.y as f32);
        let (a, b) = (sq * 0.28, sq * 0.72);
        let width = band(sq, 0.08, 1.5);
        let arms = [
            [(x0 + a, y0 + a), (x0 + b, y0 + b)],
            [(x0 + a, y0 + b), (x0 + b, y0 + a)],
        ];
        // The halo under both arms first, so it rings the whole cross and covers neither
        // arm; each arm's halo is longer by the halo's width at both (butt) ends.
        for [p, q] in arms {
            let (ux, uy) = unit(p, q);
            let (dx, dy) = (ux * halo.light, uy * halo.light);
            out.push(Shape::Line {
                points: vec![(p.0 - dx, p.1 - dy), (q.0 + dx, q.1 + dy)],
                width: width + 2.0 * halo.light,
                color: HALO,
            });
        }
        for points in arms {
            out.push(Shape::Line {
                points: points.to_vec(),
                width,
                color: INK,
            });
        }
    }
    for arrow in &options.arrows {
        let inside = (grid.shows(arrow.from), grid.shows(arrow.to));
        if arrow.from == arrow.to {
            if inside.0 {
                circle(arrow, grid, halo, &mut out);
            }
        } else if inside == (true, true) {
            out.push(arrow_shape(arrow, grid));
        } else if let Shape::Polygon { points, color } = arrow_shape(arrow, grid) {
            // Partly outside a region: clipped at its edge (nothing left, nothing drawn).
            let points = clip_polygon(&points, grid.board);
            if points.len() >= 3 {
                out.push(Shape::Polygon { points, color });
            }
        }
    }
    out
}

/// The outline that keeps crosses and circles readable on every square and piece, light,
/// middling or dark: ink (a cross's arms, a circle's rims) inside a light halo, the two
/// colours of the built-in pieces ([`INK`], [`HALO`]). Whatever lies under a mark, one of
/// the two stands out from it: no colour has a contrast ratio (WCAG) under 4:1 against
/// both. `tests/mark_contrast.rs` checks it on rendered pixels.
#[derive(Debug, Clone, Copy)]
struct Halo {
    /// Width of the light halo on each side of a mark.
    light: f32,
    /// Width of a circle's ink rim on each side of its colour.
    rim: f32,
}

impl Halo {
    fn of(sq: f32) -> Halo {
        Halo {
            light: band(sq, 0.03, 1.25),
            rim: band(sq, 0.02, 1.25),
        }
    }
}

/// A band `share` of the square wide, but at least `floor` px: a band much thinner than
/// a pixel is smeared into its neighbours by anti-aliasing and stands out from nothing
/// (the floors bite on squares under 20–60 px, by band). On tiny squares, at most three
/// times its share.
fn band(sq: f32, share: f32, floor: f32) -> f32 {
    (sq * share).max(floor.min(sq * share * 3.0))
}

/// A circle (an arrow from a square to itself), from the outside in: the halo, an ink rim,
/// the colour, an ink rim, the halo; its outer edge 0.01 square inside the square. Three
/// rings on one centre line, each drawn over the one before: the halo (the widest), the
/// ink, the colour.
fn circle(arrow: &Arrow, grid: &Grid, halo: Halo, out: &mut Vec<Shape>) {
    let sq = grid.square as f32;
    let center = centre(grid, arrow.from);
    let width = band(sq, 0.05, 1.5);
    let radius = (sq * 0.49 - halo.light - halo.rim - width / 2.0).max(0.5);
    for (width, color) in [
        (width + 2.0 * (halo.rim + halo.light), HALO),
        (width + 2.0 * halo.rim, INK),
        (width, arrow.color.circle()),
    ] {
        out.push(Shape::Ring {
            center,
            radius,
            width,
            color,
        });
    }
}

/// The colour of a move annotation's badge.
fn glyph_color(glyph: Glyph) -> Rgba {
    let (r, g, b) = match glyph {
        Glyph::Brilliant => (0x1b, 0x8a, 0x86),
        Glyph::Good => (0x3b, 0x93, 0x2f),
        Glyph::Interesting => (0xc2, 0x45, 0x93),
        Glyph::Dubious => (0xd9, 0x9a, 0x12),
        Glyph::Mistake => (0xdf, 0x6f, 0x16),
        Glyph::Blunder => (0xcf, 0x2e, 0x22),
    };
    Rgba { r, g, b, a: 255 }
}

/// A move annotation as a badge in the top-right corner of the square `to`: a disc in the
/// glyph's colour, ringed in white, with the glyph in white.
fn badge(
    glyph: Glyph,
    to: Rect,
    font: &LabelFont,
    overlays: &mut Vec<Shape>,
    labels: &mut Vec<Label>,
) {
    let sq = to.w as f32;
    let radius = (sq * 0.2).max(3.0);
    let center = (
        to.x as f32 + sq - radius * 1.05,
        to.y as f32 + radius * 1.05,
    );
    let white = Rgba {
        r: 255,
        g: 255,
        b: 255,
        a: 255,
    };
    overlays.push(Shape::Disc {
        center,
        radius,
        color: glyph_color(glyph),
    });
    overlays.push(Shape::Ring {
        center,
        radius,
        width: (sq * 0.03).max(1.0),
        color: white,
    });
    // Glyphs about as tall as the disc's radius, centred on it by their ink.
    let scale = radius * 1.1 / font.cap_height().max(1.0);
    let gap = radius * 0.08;
    let glyphs: Vec<_> = glyph
        .symbol()
        .chars()
        .filter_map(|c| Some((c, font.glyph(c)?)))
        .collect();
    let width: f32 = glyphs
        .iter()
        .map(|(_, g)| (g.ink_x.1 - g.ink_x.0) * scale)
        .sum::<f32>()
        + gap * glyphs.len().saturating_sub(1) as f32;
    let mut x = center.0 - width / 2.0;
    let y = center.1 + font.cap_height() * scale / 2.0;
    for (ch, g) in glyphs {
        labels.push(Label {
            ch,
            x: x - g.ink_x.0 * scale,
            y,
            scale,
            color: white,
        });
        x += (g.ink_x.1 - g.ink_x.0) * scale + gap;
    }
}

fn centre(grid: &Grid, s: Square) -> Point {
    let r = grid.rect(s);
    let half = grid.square as f32 / 2.0;
    (r.x as f32 + half, r.y as f32 + half)
}

/// One arrow between two squares: a shaft and a head, as one polygon.
fn arrow_shape(arrow: &Arrow, grid: &Grid) -> Shape {
    let sq = grid.square as f32;
    let color = arrow.color.arrow();
    let start = centre(grid, arrow.from);
    let end = centre(grid, arrow.to);
    // Knight moves bend: along the long leg first, then the short one.
    let (df, dr) = (
        i16::from(arrow.to.file) - i16::from(arrow.from.file),
        i16::from(arrow.to.rank) - i16::from(arrow.from.rank),
    );
    let knight = matches!((df.abs(), dr.abs()), (1, 2) | (2, 1));
    let mut path = vec![start];
    if knight {
        let horizontal_first = (end.0 - start.0).abs() > (end.1 - start.1).abs();
        path.push(if horizontal_first {
            (end.0, start.1)
        } else {
            (start.0, end.1)
        });
    }
    // The head stops a little short of the centre, so heads meeting on one square stay
    // apart; the shaft stops where the head begins, so translucent parts never overlap.
    let last = path[path.len() - 1];
    let (dx, dy) = (end.0 - last.0, end.1 - last.1);
    let len = (dx * dx + dy * dy).sqrt().max(1e-3);
    let (ux, uy) = (dx / len, dy / len);
    let shaft = sq * 0.16;
    let head_len = (sq * 0.42).min(len * 0.8);
    let head_half = sq * 0.24;
    let tip = (end.0 - ux * sq * 0.12, end.1 - uy * sq * 0.12);
    let base = (tip.0 - ux * head_len, tip.1 - uy * head_len);
    let (nx, ny) = (-uy, ux);
    // Build the outline: shaft along `path` to `base`, then the head.
    let mut pts = path.clone();
    pts.push(base);
    let half = shaft / 2.0;
    let mut left = Vec::new();
    let mut right = Vec::new();
    for (i, p) in pts.iter().enumerate() {
        // Offset each vertex along the bisector of its neighbouring segments (mitre).
        let dir_in = if i > 0 {
            unit(pts[i - 1], *p)
        } else {
            unit(*p, pts[i + 1])
        };
        let dir_out = if i + 1 < pts.len() {
            unit(*p, pts[i + 1])
        } else {
            dir_in
        };
        let (mx, my) = (-(dir_in.1 + dir_out.1), dir_in.0 + dir_out.0);
        let m_len = (mx * mx + my * my).sqrt().max(1e-3);
        let cos = ((mx / m_len) * -dir_in.1 + (my / m_len) * dir_in.0).max(0.3);
        let k = half / cos;
        left.push((p.0 + mx / m_len * k, p.1 + my / m_len * k));
        right.push((p.0 - mx / m_len * k, p.1 - my / m_len * k));
    }
    let mut points = left;
    points.push((base.0 + nx * head_half, base.1 + ny * head_half));
    points.push(tip);
    points.push((base.0 - nx * head_half, base.1 - ny * head_half));
    points.extend(right.into_iter().rev());
    Shape::Polygon { points, color }
}

/// A circle as four cubic Béziers, starting and ending at (cx + r, cy): the one
/// construction both backends use, so SVG and PNG draw the same curve.
pub fn circle_curves(center: Point, r: f32) -> [(Point, Point, Point); 4] {
    const K: f32 = 0.552_284_8; // 4/3 · (√2 − 1)
    let (cx, cy) = center;
    let k = r * K;
    [
        ((cx + r, cy + k), (cx + k, cy + r), (cx, cy + r)),
        ((cx - k, cy + r), (cx - r, cy + k), (cx - r, cy)),
        ((cx - r, cy - k), (cx - k, cy - r), (cx, cy - r)),
        ((cx + k, cy - r), (cx + r, cy - k), (cx + r, cy)),
    ]
}

fn unit(a: Point, b: Point) -> Point {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len = (dx * dx + dy * dy).sqrt().max(1e-6);
    (dx / len, dy / len)
}

/// Labels whose digits would be under this many pixels tall are not drawn: unreadable.
const MIN_CAP_PX: f32 = 4.0;

/// The coordinate labels, glyph by glyph.
fn labels(
    coordinates: Coordinates,
    grid: &Grid,
    l: &Layout,
    theme: &Theme,
    font: &LabelFont,
) -> Vec<Label> {
    let mut labels = Labels {
        font,
        cap: font.cap_height() / font.units_per_em(),
        out: Vec::new(),
    };
    match coordinates {
        Coordinates::Outside => labels.outside(grid, l, theme),
        Coordinates::Inside => labels.inside(grid, theme),
        Coordinates::None => {}
    }
    labels.out
}

/// Where a label's ink goes across: centred on an x, starting at one, or ending at one.
enum At {
    Centre(f32),
    Left(f32),
    Right(f32),
}

/// Labels being placed, glyph by glyph.
struct Labels<'a> {
    font: &'a LabelFont,
    /// The cap height in ems.
    cap: f32,
    out: Vec<Label>,
}

impl Labels<'_> {
    /// Place `ch` with its ink `at` across and its baseline at `baseline`, its capitals
    /// `cap_px` tall.
    fn put(&mut self, ch: char, at: At, baseline: f32, cap_px: f32, color: Rgba) {
        let Some(glyph) = self.font.glyph(ch) else {
            return;
        };
        let scale = cap_px / self.cap / self.font.units_per_em();
        let (ink_l, ink_r) = glyph.ink_x;
        let x = match at {
            At::Centre(cx) => cx - (ink_l + ink_r) / 2.0 * scale,
            At::Left(left) => left - ink_l * scale,
            At::Right(right) => right - ink_r * scale,
        };
        self.out.push(Label {
            ch,
            x,
            y: baseline,
            scale,
            color,
        });
    }

    /// Place a rank number (`1`…`16`) as [`Labels::put`] places one character: two digits
    /// set as a word, their ink a small gap apart, made smaller when wider
    /// than `room` pixels.
    fn put_number(&mut self, n: u8, at: At, baseline: f32, cap_px: f32, room: f32, color: Rgba) {
        let digit = |d: u8| char::from(b'0' + d);
        if n < 10 {
            return self.put(digit(n), at, baseline, cap_px, color);
        }
        let (first, second) = (digit(n / 10 % 10), digit(n % 10));
        let (Some(a), Some(b)) = (self.font.glyph(first), self.font.glyph(second)) else {
            return;
        };
        let (wa, wb) = (a.ink_x.1 - a.ink_x.0, b.ink_x.1 - b.ink_x.0);
        let gap = self.cap * self.font.units_per_em() * 0.12;
        let natural = (wa + gap + wb) * cap_px / self.cap / self.font.units_per_em();
        let cap_px = if natural > room { cap_px * room / natural } else { cap_px };
        let scale = cap_px / self.cap / self.font.units_per_em();
        let width = (wa + gap + wb) * scale;
        let left = match at {
            At::Centre(cx) => cx - width / 2.0,
            At::Left(left) => left,
            At::Right(right) => right - width,
        };
        self.put(first, At::Left(left), baseline, cap_px, color);
        let second_left = left + (wa + gap) * scale;
        self.put(second, At::Left(second_left), baseline, cap_px, color);
    }

    /// Labels centred in the margin, clear of the frame; the text height is about half
    /// the margin and never more than a third of a square.
    fn outside(&mut self, grid: &Grid, l: &Layout, theme: &Theme) {
        let sq = grid.square as f32;
        let margin = l.margin.saturating_sub(l.frame) as f32;
        let cap_px = (margin * 0.5).min(sq * 0.34);
        if cap_px < MIN_CAP_PX {
            return;
        }
        let below = (grid.board.y + grid.board.h + l.frame) as f32;
        // Letters mix x-height and ascenders; centring the cap height reads as centred.
        let band_end = (grid.board.y + grid.board.h + l.margin) as f32;
        let baseline = (below + band_end) / 2.0 + cap_px / 2.0;
        let region = grid.region;
        for f in region.low.file..=region.high.file {
            let r = grid.rect(Square::new(f, region.low.rank));
            let cx = r.x as f32 + sq / 2.0;
            let ch = Square::new(f, 0).file_char();
            self.put(ch, At::Centre(cx), baseline, cap_px, theme.label);
        }
        let cx = margin / 2.0;
        for rank in region.low.rank..=region.high.rank {
            let r = grid.rect(Square::new(region.low.file, rank));
            let baseline = r.y as f32 + sq / 2.0 + cap_px / 2.0;
            let number = Square::new(0, rank).rank_number();
            let room = margin * 0.8;
            self.put_number(number, At::Centre(cx), baseline, cap_px, room, theme.label);
        }
    }

    /// Labels on the board: ranks in the top-left corner of the left-hand column, files in
    /// the bottom-right corner of the bottom row, in the other square colour.
    fn inside(&mut self, grid: &Grid, theme: &Theme) {
        let sq = grid.square as f32;
        let cap_px = sq * 0.2;
        if cap_px < MIN_CAP_PX {
            return;
        }
        let pad = (sq * 0.07).max(1.0);
        // On hatched (printed) boards both square colours are white: labels in ink.
        let other = |s: Square| match (theme.hatched, s.is_dark()) {
            (true, _) => theme.label,
            (false, true) => theme.light,
            (false, false) => theme.dark,
        };
        let (low, high) = (grid.region.low, grid.region.high);
        let (bottom_rank, left_file) = match grid.bottom {
            Color::White => (low.rank, low.file),
            Color::Black => (high.rank, high.file),
        };
        for f in low.file..=high.file {
            let s = Square::new(f, bottom_rank);
            let r = grid.rect(s);
            let right = (r.x + r.w) as f32 - pad;
            // Leave room under the baseline for the descender of g and j.
            let baseline = (r.y + r.h) as f32 - pad - cap_px * 0.22;
            self.put(s.file_char(), At::Right(right), baseline, cap_px, other(s));
        }
        for rank in low.rank..=high.rank {
            let s = Square::new(left_file, rank);
            let r = grid.rect(s);
            let (left, baseline) = (r.x as f32 + pad, r.y as f32 + pad + cap_px);
            let number = s.rank_number();
            self.put_number(number, At::Left(left), baseline, cap_px, sq * 0.45, other(s));
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
    use crate::render::spec::options::Orientation;

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
