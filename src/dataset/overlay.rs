//! The debug view (`staunton dataset --view`): an image with its labels drawn over it, to
//! look at, so that a wrong label shows at a glance.
//!
//! Owns that drawing and nothing else: the image is decoded, scaled up (2× below 480 px
//! wide, nearest neighbour, so the image's own pixels stay as they were), and over it go
//! every square's outline (thin cyan), the highlighted squares (dashed, in their colour),
//! the board's corners (a thick magenta outline and a dot at each corner, the top-left one
//! bigger), each piece's box (orange for white, blue for black) with its class letter in a
//! tag, the arrows (a line and a dot at the head), a diamond on each marked square, and a
//! dot on the last move's squares (yellow) and the king in check (red). The labels are
//! read, never changed.

use super::labels::{Labels, Point, Quad};
use crate::render::art::font::TextFace;
use crate::render::theme::Rgba;
use tiny_skia::{
    Color, FillRule, LineCap, LineJoin, Paint, Path, PathBuilder, Pixmap, PremultipliedColorU8,
    Rect, Stroke, StrokeDash, Transform,
};

/// Images narrower than this are drawn twice as large, so the lines stay legible.
const SCALE_BELOW: u32 = 480;
/// The squares' outlines: cyan, 70 %.
const GRID: [u8; 4] = [0x00, 0xe5, 0xff, 179];
/// The board's outline and corners.
const MAGENTA: [u8; 4] = [0xff, 0x00, 0xff, 0xff];
/// White pieces' boxes.
const ORANGE: [u8; 4] = [0xff, 0x8c, 0x00, 0xff];
/// Black pieces' boxes.
const BLUE: [u8; 4] = [0x1e, 0x50, 0xff, 0xff];
/// Letters in the tags, and the rims of the dots.
const WHITE: [u8; 4] = [0xff, 0xff, 0xff, 0xff];
/// The rims of the dots that stand on the squares.
const BLACK: [u8; 4] = [0x00, 0x00, 0x00, 0xff];
/// The last move's dots.
const YELLOW: [u8; 4] = [0xff, 0xd7, 0x00, 0xff];
/// The check's dot.
const RED: [u8; 4] = [0xff, 0x1e, 0x1e, 0xff];
/// The tags' letters, pixels per em.
const TAG_PX: f32 = 12.0;

/// `image` (PNG or JPEG bytes) with `labels` drawn over it, as PNG bytes; or one sentence
/// saying why not (the bytes do not decode, or their size is not the labels' width × height).
pub fn view(image: &[u8], labels: &Labels) -> Result<Vec<u8>, String> {
    let decoded = image::load_from_memory(image)
        .map_err(|e| format!("the image does not decode as PNG or JPEG ({e})"))?
        .to_rgba8();
    let (w, h) = decoded.dimensions();
    if (w, h) != (labels.width, labels.height) {
        return Err(format!(
            "the image is {w} × {h} pixels but its labels are for {} × {}",
            labels.width, labels.height
        ));
    }
    let scale = if w < SCALE_BELOW { 2 } else { 1 };
    let pixmap = enlarged(&decoded, scale).ok_or("the image is too large to draw on")?;
    let mut canvas = Canvas {
        pixmap,
        scale: scale as f32,
    };
    canvas.squares(labels);
    canvas.board(&labels.corners);
    canvas.pieces(labels);
    canvas.marks(labels);
    canvas
        .pixmap
        .encode_png()
        .map_err(|e| format!("the view does not encode as PNG ({e})"))
}

/// `image` as a pixmap, each pixel a `scale` × `scale` block (premultiplied, as tiny-skia
/// keeps them); `None` when that is too large for a pixmap.
fn enlarged(image: &image::RgbaImage, scale: u32) -> Option<Pixmap> {
    let (w, h) = image.dimensions();
    let mut pixmap = Pixmap::new(w.checked_mul(scale)?, h.checked_mul(scale)?)?;
    let width = pixmap.width() as usize;
    let pixels = pixmap.pixels_mut();
    for (x, y, p) in image.enumerate_pixels() {
        let [r, g, b, a] = p.0;
        let premultiply = |c: u8| ((u16::from(c) * u16::from(a) + 127) / 255) as u8;
        let colour =
            PremultipliedColorU8::from_rgba(premultiply(r), premultiply(g), premultiply(b), a)?;
        for dy in 0..scale {
            let row = ((y * scale + dy) as usize) * width;
            let from = row + (x * scale) as usize;
            pixels[from..from + scale as usize].fill(colour);
        }
    }
    Some(pixmap)
}

/// An anti-aliased paint of one colour.
fn paint(colour: [u8; 4]) -> Paint<'static> {
    let mut paint = Paint::default();
    paint.set_color(Color::from_rgba8(
        colour[0], colour[1], colour[2], colour[3],
    ));
    paint.anti_alias = true;
    paint
}

/// A stroke `width` pixels wide with round joins.
fn stroke(width: f32) -> Stroke {
    Stroke {
        width,
        line_join: LineJoin::Round,
        line_cap: LineCap::Round,
        ..Stroke::default()
    }
}

/// The closed outline through `points`.
fn polygon(points: &[Point]) -> Option<Path> {
    let mut b = PathBuilder::new();
    let (first, rest) = points.split_first()?;
    b.move_to(first[0] as f32, first[1] as f32);
    for p in rest {
        b.line_to(p[0] as f32, p[1] as f32);
    }
    b.close();
    b.finish()
}

/// The mean of a quad's corners: the middle of a square.
fn centre(q: &Quad) -> Point {
    let sum = q.iter().fold([0.0, 0.0], |s, p| [s[0] + p[0], s[1] + p[1]]);
    [sum[0] / 4.0, sum[1] / 4.0]
}

/// A mark colour's name as drawn; grey for a name the view does not know.
fn mark_colour(name: &str) -> [u8; 4] {
    match name {
        "green" => [0x00, 0xc8, 0x3c, 0xff],
        "red" => RED,
        "yellow" => YELLOW,
        "blue" => [0x00, 0x8c, 0xff, 0xff],
        _ => [0x80, 0x80, 0x80, 0xff],
    }
}

/// The enlarged image being drawn on; label coordinates are multiplied by `scale`.
struct Canvas {
    pixmap: Pixmap,
    scale: f32,
}

impl Canvas {
    /// A label's point in the view.
    fn at(&self, p: Point) -> Point {
        let s = f64::from(self.scale);
        [p[0] * s, p[1] * s]
    }

    /// A label's quad in the view.
    fn quad(&self, q: &Quad) -> Quad {
        q.map(|p| self.at(p))
    }

    /// Stroke `path` (in view pixels).
    fn stroke(&mut self, path: &Path, colour: [u8; 4], stroke: &Stroke) {
        self.pixmap
            .stroke_path(path, &paint(colour), stroke, Transform::identity(), None);
    }

    /// A filled disc at `p` (view pixels) with a 1 px rim of `rim`.
    fn dot(&mut self, p: Point, radius: f32, colour: [u8; 4], rim: [u8; 4]) {
        let Some(circle) = PathBuilder::from_circle(p[0] as f32, p[1] as f32, radius) else {
            return;
        };
        let identity = Transform::identity();
        self.pixmap
            .fill_path(&circle, &paint(colour), FillRule::Winding, identity, None);
        self.stroke(&circle, rim, &stroke(1.0));
    }

    /// A filled diamond at `p` (view pixels), 6 px from the middle to a tip, rimmed in
    /// black: where a marker's label says it is.
    fn diamond(&mut self, p: Point, colour: [u8; 4]) {
        let d = 6.0;
        let tips = [
            [p[0], p[1] - d],
            [p[0] + d, p[1]],
            [p[0], p[1] + d],
            [p[0] - d, p[1]],
        ];
        if let Some(path) = polygon(&tips) {
            let identity = Transform::identity();
            self.pixmap
                .fill_path(&path, &paint(colour), FillRule::Winding, identity, None);
            self.stroke(&path, BLACK, &stroke(1.0));
        }
    }

    /// Every square's outline, 1 px; then the highlighted squares', 2 px dashed in their
    /// colour at full alpha.
    fn squares(&mut self, labels: &Labels) {
        for (_, q) in &labels.squares {
            if let Some(path) = polygon(&self.quad(q)) {
                self.stroke(&path, GRID, &stroke(1.0));
            }
        }
        for (square, Rgba { r, g, b, .. }) in &labels.highlights {
            let Some((_, q)) = labels.squares.iter().find(|(s, _)| s == square) else {
                continue;
            };
            // Dashes of the colour with black between them: legible on the square's own
            // tint, which is the same colour.
            if let Some(path) = polygon(&self.quad(q)) {
                let dashed = |offset| Stroke {
                    dash: StrokeDash::new(vec![6.0, 4.0], offset),
                    line_cap: LineCap::Butt,
                    ..stroke(2.0)
                };
                self.stroke(&path, BLACK, &dashed(6.0));
                self.stroke(&path, [*r, *g, *b, 0xff], &dashed(0.0));
            }
        }
    }

    /// The board's outline, 2.5 px magenta, and a dot at each corner, the top-left one
    /// bigger.
    fn board(&mut self, corners: &Quad) {
        let corners = self.quad(corners);
        if let Some(path) = polygon(&corners) {
            self.stroke(&path, MAGENTA, &stroke(2.5));
        }
        for (k, p) in corners.iter().enumerate() {
            let radius = if k == 0 { 7.0 } else { 4.0 };
            self.dot(*p, radius, MAGENTA, WHITE);
        }
    }

    /// Each piece's box, 2 px, with a tag in its top-left corner holding the class letter.
    fn pieces(&mut self, labels: &Labels) {
        let face = TextFace::builtin(true);
        for piece in &labels.pieces {
            let colour = if piece.class.is_ascii_uppercase() {
                ORANGE
            } else {
                BLUE
            };
            let [x0, y0] = self.at([piece.bbox[0], piece.bbox[1]]);
            let [x1, y1] = self.at([piece.bbox[2], piece.bbox[3]]);
            let corners = [[x0, y0], [x1, y0], [x1, y1], [x0, y1]];
            if let Some(path) = polygon(&corners) {
                let square = Stroke {
                    line_join: LineJoin::Miter,
                    ..stroke(2.0)
                };
                self.stroke(&path, colour, &square);
            }
            if let Some(face) = face {
                self.tag(face, piece.class, (x0 as f32, y0 as f32), colour);
            }
        }
    }

    /// A filled tag of `colour` whose top-left corner is at `at`, with `letter` in white.
    fn tag(&mut self, face: &TextFace, letter: char, at: (f32, f32), colour: [u8; 4]) {
        let text = letter.to_string();
        let width = face.width(&text, TAG_PX).ceil() + 4.0;
        let height = face.cap_height(TAG_PX).ceil() + 5.0;
        if let Some(rect) = Rect::from_xywh(at.0, at.1, width, height) {
            let identity = Transform::identity();
            self.pixmap.fill_rect(rect, &paint(colour), identity, None);
        }
        let baseline = at.1 + height - 2.5;
        face.paint(
            &text,
            TAG_PX,
            (at.0 + 2.0, baseline),
            WHITE,
            &mut self.pixmap.as_mut(),
        );
    }

    /// The arrows (3 px from tail to head, a dot at the head; a ring for a circle, an arrow
    /// from a square to itself), a diamond in the middle of each marked square, then a dot
    /// on each of the last move's squares (yellow) and on the square in check (red).
    fn marks(&mut self, labels: &Labels) {
        for arrow in &labels.arrows {
            let colour = mark_colour(&arrow.color);
            let (tail, head) = (self.at(arrow.tail), self.at(arrow.head));
            let mut b = PathBuilder::new();
            if tail == head {
                b.push_circle(head[0] as f32, head[1] as f32, 9.0 * self.scale);
            } else {
                b.move_to(tail[0] as f32, tail[1] as f32);
                b.line_to(head[0] as f32, head[1] as f32);
            }
            if let Some(path) = b.finish() {
                self.stroke(&path, colour, &stroke(3.0));
            }
            self.dot(head, 5.0, colour, BLACK);
        }
        let centre_of = |square| {
            let found = labels.squares.iter().find(|(s, _)| *s == square);
            found.map(|(_, q)| centre(q))
        };
        for marker in &labels.markers {
            if let Some(p) = centre_of(marker.square) {
                self.diamond(self.at(p), mark_colour(&marker.color));
            }
        }
        let moved = labels.last_move.map_or(Vec::new(), |(f, t)| vec![f, t]);
        for square in moved {
            if let Some(p) = centre_of(square) {
                self.dot(self.at(p), 4.5, YELLOW, BLACK);
            }
        }
        if let Some(p) = labels.check.and_then(centre_of) {
            self.dot(self.at(p), 5.5, RED, BLACK);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::piece::Color as Side;
    use crate::chess::position::Square;
    use crate::dataset::labels::{MarkerLabel, PieceLabel};
    use serde_json::Map;

    /// The test image: a 160 × 160 picture, grey around a board at 16..144 of 16 px
    /// squares (light where file + rank is odd).
    const LIGHT: [u8; 3] = [240, 217, 181];
    const DARK: [u8; 3] = [181, 136, 99];
    const AROUND: [u8; 3] = [90, 90, 90];

    fn picture(size: u32) -> image::RgbImage {
        let s = size as f64 / 160.0;
        image::RgbImage::from_fn(size, size, |x, y| {
            let (x, y) = (f64::from(x) / s, f64::from(y) / s);
            if !(16.0..144.0).contains(&x) || !(16.0..144.0).contains(&y) {
                return image::Rgb(AROUND);
            }
            let (col, row) = (((x - 16.0) / 16.0) as u32, ((y - 16.0) / 16.0) as u32);
            image::Rgb(if (col + row) % 2 == 0 { LIGHT } else { DARK })
        })
    }

    fn png(img: &image::RgbImage) -> Vec<u8> {
        let mut out = std::io::Cursor::new(Vec::new());
        img.write_to(&mut out, image::ImageFormat::Png)
            .expect("encodes");
        out.into_inner()
    }

    /// The labels of [`picture`] at `size` px: a white king on e1 and a black pawn on d7.
    fn labels(size: u32) -> Labels {
        let s = size as f64 / 160.0;
        let quad = |x: f64, y: f64, d: f64| {
            [[x, y], [x + d, y], [x + d, y + d], [x, y + d]].map(|p| p.map(|v| v * s))
        };
        let mut squares = Vec::new();
        for row in 0..8u8 {
            for col in 0..8u8 {
                let (x, y) = (16.0 + 16.0 * f64::from(col), 16.0 + 16.0 * f64::from(row));
                squares.push((Square::new(col, 7 - row), quad(x, y, 16.0)));
            }
        }
        let piece = |class, file, rank, bbox: [f64; 4]| PieceLabel {
            class,
            square: Square::new(file, rank),
            bbox: bbox.map(|v| v * s),
        };
        Labels {
            file_name: "images/00000000.png".into(),
            index: 0,
            width: size,
            height: size,
            fen: "8/3p4/8/8/8/8/8/4K3 w - - 0 1".into(),
            orientation: Side::White,
            corners: quad(16.0, 16.0, 128.0),
            squares,
            pieces: vec![
                piece('K', 4, 0, [82.0, 130.0, 94.0, 143.0]),
                piece('p', 3, 6, [68.0, 34.0, 76.0, 46.0]),
            ],
            arrows: Vec::new(),
            highlights: Vec::new(),
            markers: Vec::new(),
            last_move: None,
            check: None,
            style: Map::new(),
        }
    }

    fn decode(bytes: &[u8]) -> image::RgbaImage {
        image::load_from_memory(bytes).expect("a PNG").to_rgba8()
    }

    fn near(got: image::Rgba<u8>, want: [u8; 3], by: u8) -> bool {
        (0..3).all(|k| got.0[k].abs_diff(want[k]) <= by)
    }

    #[test]
    fn a_small_image_is_drawn_twice_as_large_with_its_labels_on_it() {
        let img = picture(160);
        let out = decode(&view(&png(&img), &labels(160)).expect("a view"));
        assert_eq!(out.dimensions(), (320, 320));
        // The king's box: its left edge at x = 82 × 2, below the tag.
        let edge = *out.get_pixel(163, 280);
        assert!(
            near(edge, [0xff, 0x8c, 0x00], 40),
            "king's box edge is {edge:?}"
        );
        // The pawn's box: its right edge at x = 76 × 2.
        let edge = *out.get_pixel(152, 86);
        assert!(
            near(edge, [0x1e, 0x50, 0xff], 40),
            "pawn's box edge is {edge:?}"
        );
        // The board's left edge at x = 32.
        let outline = *out.get_pixel(31, 150);
        assert!(
            near(outline, [0xff, 0x00, 0xff], 60),
            "board outline is {outline:?}"
        );
        // The middle of b6 (an empty square) keeps its colour.
        let inside = *out.get_pixel(80, 112);
        let original = img.get_pixel(40, 56).0;
        assert_eq!(inside.0, [original[0], original[1], original[2], 255]);
    }

    #[test]
    fn the_tag_holds_a_white_letter() {
        let out = decode(&view(&png(&picture(160)), &labels(160)).expect("a view"));
        // The king's tag starts at (164, 260): some of it is the letter, near white.
        let whitish = (166..176)
            .flat_map(|x| (262..274).map(move |y| (x, y)))
            .filter(|&(x, y)| near(*out.get_pixel(x, y), [255, 255, 255], 30))
            .count();
        assert!(whitish >= 6, "only {whitish} white pixels in the tag");
    }

    #[test]
    fn a_large_image_is_drawn_at_its_size() {
        let img = picture(480);
        let out = decode(&view(&png(&img), &labels(480)).expect("a view"));
        assert_eq!(out.dimensions(), (480, 480));
        // The board's left edge at x = 48.
        assert!(near(*out.get_pixel(48, 240), [0xff, 0x00, 0xff], 60));
    }

    #[test]
    fn marks_are_drawn_at_the_squares_centres() {
        let img = picture(160);
        let mut l = labels(160);
        l.check = Some(Square::new(4, 0));
        l.last_move = Some((Square::new(0, 0), Square::new(7, 7)));
        l.markers.push(MarkerLabel {
            square: Square::new(2, 2),
            kind: "circle".into(),
            color: "green".into(),
        });
        let out = decode(&view(&png(&img), &l).expect("a view"));
        let rgb = |c: [u8; 4]| [c[0], c[1], c[2]];
        // e1's centre is (88, 136), a1's (24, 136), h8's (136, 24), c3's (56, 104).
        assert!(near(*out.get_pixel(176, 272), rgb(RED), 30));
        assert!(near(*out.get_pixel(48, 272), rgb(YELLOW), 30));
        assert!(near(*out.get_pixel(272, 48), rgb(YELLOW), 30));
        assert!(near(
            *out.get_pixel(112, 208),
            rgb(mark_colour("green")),
            30
        ));
    }

    #[test]
    fn a_highlight_is_outlined_in_its_colour_and_black() {
        let img = picture(160);
        let mut l = labels(160);
        let colour = Rgba {
            r: 0x20,
            g: 0x60,
            b: 0xff,
            a: 0x80,
        };
        l.highlights.push((Square::new(6, 5), colour));
        let out = decode(&view(&png(&img), &l).expect("a view"));
        // g6's top edge runs from (224, 96) to (256, 96): a dash of the colour, then black.
        assert!(near(*out.get_pixel(226, 96), [0x20, 0x60, 0xff], 30));
        assert!(near(*out.get_pixel(232, 96), [0, 0, 0], 30));
        // Another square's edge stays the grid's.
        assert!(!near(*out.get_pixel(194, 96), [0x20, 0x60, 0xff], 60));
    }

    #[test]
    fn bytes_that_are_no_image_or_the_wrong_size_are_refused() {
        let garbage = view(b"not an image at all", &labels(160)).expect_err("refused");
        assert!(garbage.contains("does not decode"), "{garbage}");
        let wrong = view(&png(&picture(160)), &labels(200)).expect_err("refused");
        assert!(
            wrong.contains("160 × 160") && wrong.contains("200 × 200"),
            "{wrong}"
        );
    }
}
