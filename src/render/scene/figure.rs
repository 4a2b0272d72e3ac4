//! Figures drawn: the geometry of what a square holds beyond an orthodox piece.
//!
//! Owns how each [`Figure`] looks, as layers in the square's own coordinates (origin at
//! its top-left corner, upright), which both backends draw the same way:
//!
//! - a piece's artwork, whole; a **neutral** piece is the white artwork's left half and
//!   the black artwork's right half, split at the square's vertical centre line
//!   ([`split`], a whole pixel);
//! - a **marker** (circle, cross, square, triangle), about 70 % of the square: white is a
//!   light fill in a dark outline, black a dark fill, neutral half of each;
//! - a **letter piece**, a round token with its letter in capitals: white a light disc in a
//!   dark rim with a dark letter, black a dark disc with a light letter, neutral half of
//!   each;
//! - **text**, one or two characters in the label face (or a font added to fall back on),
//!   centred on their ink, in the ink the scene chose for the square ([`PlacedFigure::ink`]).
//!
//! A turned figure is all of that turned clockwise about the square's centre: the raster
//! backend turns the painted square of pixels (a quarter turn of a square maps its pixels
//! onto each other exactly), the SVG backend writes a `rotate`. Where figures stand is
//! `scene/mod.rs`; what they are is `chess/fairy.rs`.

use crate::chess::fairy::{Figure, FairyMarker, FigureKind, Side};
use crate::chess::piece::{Color, Piece};
use crate::render::art::font::TextFace;
use crate::render::scene::parts::{Point, Rect, Shape};
use crate::render::spec::theme::{INK, Rgba, Theme, label_for};

/// The light of markers and tokens.
pub const LIGHT: Rgba = Rgba::hex(0xfbf9f4);
/// The dark of markers and tokens, and the ink of text on light squares.
pub const DARK: Rgba = INK;

/// A figure placed on a square.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlacedFigure {
    /// What it is.
    pub figure: Figure,
    /// The square's top-left corner and side, in pixels.
    pub rect: Rect,
    /// The ink of text on this square: dark, or light where dark would not keep 4.5:1.
    pub ink: Rgba,
}

impl PlacedFigure {
    /// `figure` on the square `rect`, dark (`dark`) or light, of `theme`.
    pub fn new(figure: Figure, rect: Rect, dark: bool, theme: &Theme) -> PlacedFigure {
        let ground = if dark { theme.dark } else { theme.light };
        PlacedFigure {
            figure,
            rect,
            ink: label_for(ground, DARK),
        }
    }

    /// Clockwise quarter turns, 0 to 3.
    pub fn quarters(&self) -> u8 {
        self.figure.turn.quarters()
    }
}

/// Which part of the square a layer shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Half {
    /// All of it.
    Whole,
    /// Left of [`split`].
    Left,
    /// From [`split`] rightwards.
    Right,
}

/// What a layer draws.
#[derive(Debug, Clone, PartialEq)]
pub enum Ink {
    /// A piece's artwork over the whole square.
    Piece(Piece),
    /// A vector shape.
    Shape(Shape),
    /// Text in a face at `px` pixels per em, the left end of its baseline at `origin`.
    Text {
        /// The characters.
        text: String,
        /// The face.
        bold: bool,
        /// Pixels per em.
        px: f32,
        /// Left end of the baseline.
        origin: Point,
        /// Colour.
        color: Rgba,
    },
}

/// One layer of a figure, upright, in the square's coordinates.
#[derive(Debug, Clone, PartialEq)]
pub struct Layer {
    /// Where it shows.
    pub half: Half,
    /// What it draws.
    pub ink: Ink,
}

/// The column where a neutral figure's black half begins, in a square `px` wide.
pub fn split(px: u32) -> u32 {
    px / 2
}

/// The face of text (`bold` for letter tokens).
pub fn face(bold: bool) -> Option<&'static TextFace> {
    TextFace::builtin(bold)
}

/// The pieces `figure` draws from a set's artwork.
pub fn pieces(figure: &Figure) -> impl Iterator<Item = Piece> {
    let role = match figure.shape {
        FigureKind::Piece(role) => Some(role),
        _ => None,
    };
    let colors: &[Color] = match figure.side {
        Side::White => &[Color::White],
        Side::Black => &[Color::Black],
        Side::Neutral => &[Color::White, Color::Black],
    };
    colors
        .iter()
        .filter_map(move |&color| role.map(|role| Piece { color, role }))
}

/// The layers of `f`, upright, in its square's coordinates, in paint order.
pub fn layers(f: &PlacedFigure) -> Vec<Layer> {
    let s = f.rect.w as f32;
    let halves: &[(Half, Side)] = match f.figure.side {
        Side::Neutral => &[(Half::Left, Side::White), (Half::Right, Side::Black)],
        side => &[(Half::Whole, side)][..],
    };
    let mut out = Vec::new();
    for &(half, side) in halves {
        let mut put = |ink| out.push(Layer { half, ink });
        match f.figure.shape {
            FigureKind::Piece(role) => {
                let color = match side {
                    Side::Black => Color::Black,
                    _ => Color::White,
                };
                put(Ink::Piece(Piece { color, role }));
            }
            FigureKind::Marker(m) => marker(m, side, s).into_iter().for_each(|x| put(Ink::Shape(x))),
            FigureKind::Letter(c) => {
                let (rim, disc, letter) = match side {
                    Side::Black => (DARK, DARK, LIGHT),
                    _ => (DARK, LIGHT, DARK),
                };
                let center = (s / 2.0, s / 2.0);
                let radius = s * 0.42;
                put(Ink::Shape(Shape::Disc { center, radius, color: rim }));
                if disc != rim {
                    let radius = radius - outline(s);
                    put(Ink::Shape(Shape::Disc { center, radius, color: disc }));
                }
                let text: String = c.to_uppercase().collect();
                if let Some(ink) = centred(&text, true, s, (0.46, 0.62), letter) {
                    put(ink);
                }
            }
            FigureKind::Text(text) => {
                // Text is ink on the square whatever its side: drawn once, whole.
                if half != Half::Right
                    && let Some(ink) = centred(&text.to_string(), false, s, (0.56, 0.9), f.ink)
                {
                    out.push(Layer {
                        half: Half::Whole,
                        ink,
                    });
                }
            }
        }
    }
    out
}

/// The width of a marker's or token's outline in a square `s` px wide: whole pixels.
fn outline(s: f32) -> f32 {
    (s / 16.0).round().max(1.0)
}

/// `text` centred on its ink in a square `s` px wide: its ink `height` of the square high
/// (taller text is made smaller to fit) and at most `width` of it wide.
fn centred(text: &str, bold: bool, s: f32, (height, width): (f32, f32), color: Rgba) -> Option<Ink> {
    let face = face(bold)?;
    let (x0, y0, x1, y1) = face.ink_box(text, 1.0)?;
    let (w, h) = ((x1 - x0).max(1e-3), (y1 - y0).max(1e-3));
    // Ink boxes are proportional to the size: one measure at 1 px per em places it.
    let cap = face.cap_height(1.0).max(h);
    let px = (s * height / cap).min(s * width / w);
    let origin = (
        s / 2.0 - (x0 + w / 2.0) * px,
        s / 2.0 - (y0 + h / 2.0) * px,
    );
    Some(Ink::Text {
        text: text.to_string(),
        bold,
        px,
        origin,
        color,
    })
}

/// The shapes of `marker` for `side` (white or black) in a square `s` px wide.
fn marker(marker: FairyMarker, side: Side, s: f32) -> Vec<Shape> {
    let t = outline(s);
    let c = s / 2.0;
    let fills: &[(f32, Rgba)] = match side {
        Side::Black => &[(0.0, DARK)],
        _ => &[(0.0, DARK), (t, LIGHT)],
    };
    fills
        .iter()
        .map(|&(inset, color)| match marker {
            FairyMarker::Circle => Shape::Disc {
                center: (c, c),
                radius: s * 0.35 - inset,
                color,
            },
            FairyMarker::Square => {
                // On whole pixels, so its edges are crisp.
                let (a, b) = ((s * 0.18).round() + inset, s - (s * 0.18).round() - inset);
                let points = vec![(a, a), (b, a), (b, b), (a, b)];
                Shape::Polygon { points, color }
            }
            FairyMarker::Triangle => {
                // Equilateral about the centre; an inset of d takes 2d off its radius.
                let r = s * 0.4 - 2.0 * inset;
                let at = |deg: f32| {
                    let a = deg.to_radians();
                    (c + r * a.cos(), c + s * 0.04 + r * a.sin())
                };
                let points = vec![at(-90.0), at(30.0), at(150.0)];
                Shape::Polygon { points, color }
            }
            FairyMarker::Cross => Shape::Polygon {
                points: cross(c, s * 0.36 - inset, (s * 0.1).max(1.5) - inset),
                color,
            },
        })
        .collect()
}

/// A diagonal cross centred on (`c`, `c`): a plus of arms `reach` long and `half` half
/// wide, turned 45°.
fn cross(c: f32, reach: f32, half: f32) -> Vec<Point> {
    let (e, w) = (reach, half);
    let plus = [
        (w, -e),
        (w, -w),
        (e, -w),
        (e, w),
        (w, w),
        (w, e),
        (-w, e),
        (-w, w),
        (-e, w),
        (-e, -w),
        (-w, -w),
        (-w, -e),
    ];
    let k = std::f32::consts::FRAC_1_SQRT_2;
    plus.iter()
        .map(|&(x, y)| (c + (x - y) * k, c + (x + y) * k))
        .collect()
}

/// The pixel of an upright square `px` wide that lands on (`x`, `y`) after `quarters`
/// clockwise quarter turns.
pub fn turned_from(quarters: u8, px: u32, (x, y): (u32, u32)) -> (u32, u32) {
    let last = px - 1;
    match quarters % 4 {
        1 => (y, last - x),
        2 => (last - x, last - y),
        3 => (last - y, x),
        _ => (x, y),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::fairy::{SquareText, Turn};
    use crate::chess::piece::Role;

    fn placed(shape: FigureKind, side: Side) -> PlacedFigure {
        let figure = Figure {
            shape,
            side,
            turn: Turn::None,
        };
        let rect = Rect { x: 0, y: 0, w: 32, h: 32 };
        PlacedFigure::new(figure, rect, false, &Theme::named("brown").unwrap())
    }

    #[test]
    fn a_neutral_piece_is_two_halves_of_two_colours() {
        let l = layers(&placed(FigureKind::Piece(Role::Queen), Side::Neutral));
        let halves: Vec<_> = l.iter().map(|l| (l.half, l.ink.clone())).collect();
        let queen = |color| Ink::Piece(Piece { color, role: Role::Queen });
        assert_eq!(
            halves,
            vec![(Half::Left, queen(Color::White)), (Half::Right, queen(Color::Black))]
        );
    }

    #[test]
    fn text_is_centred_and_fits() {
        for t in ["A", "12", "Ж", "Ω"] {
            let f = placed(FigureKind::Text(SquareText::new(t).unwrap()), Side::White);
            let Ink::Text { px, origin, bold, .. } = &layers(&f)[0].ink else {
                panic!("{t}: not text");
            };
            let (x0, y0, x1, y1) = face(*bold).unwrap().ink_box(t, *px).unwrap();
            let (cx, cy) = (origin.0 + (x0 + x1) / 2.0, origin.1 + (y0 + y1) / 2.0);
            assert!((cx - 16.0).abs() < 0.01 && (cy - 16.0).abs() < 0.01, "{t}");
            assert!(x1 - x0 <= 32.0 * 0.9 + 0.01 && y1 - y0 <= 32.0 * 0.9, "{t}");
        }
    }

    #[test]
    fn quarter_turns_go_clockwise() {
        // The top middle of an upright square goes to the right middle after a quarter.
        assert_eq!(turned_from(1, 5, (4, 2)), (2, 0));
        assert_eq!(turned_from(2, 5, (2, 4)), (2, 0));
        assert_eq!(turned_from(3, 5, (0, 2)), (2, 0));
        assert_eq!(turned_from(0, 5, (3, 1)), (3, 1));
    }
}
