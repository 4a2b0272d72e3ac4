//! An image's labels: where the board, each square, each piece and each mark lies in the
//! final image, measured from the scene the renderer drew and carried through the camera's
//! transform, and written as one `metadata.jsonl` line (read back for the debug view).
//!
//! Owns the labels' types, their measurement and their JSON. Coordinates are pixels of the
//! final image, continuous (pixel (i, j) covers [i, i+1) × [j, j+1)), origin at the top
//! left. The COCO and YOLO files are made from these in `formats`.

use super::camera::Homography;
use crate::chess::piece::{Color, Piece};
use crate::chess::position::{BoardSize, Position, Square};
use crate::render::options::{Check, MarkerKind, RenderOptions};
use crate::render::scene::{Rect, Scene};
use crate::render::theme::{MarkColor, Rgba};
use serde_json::{Map, Value, json};

/// A point of the image.
pub type Point = [f64; 2];

/// Four corners, in the order the board is drawn: top left, top right, bottom right,
/// bottom left (before the camera turned it).
pub type Quad = [Point; 4];

/// A piece: its class (the FEN letter), its square, and the box of its ink.
#[derive(Debug, Clone, PartialEq)]
pub struct PieceLabel {
    /// `K`, `q`, …: the FEN letter.
    pub class: char,
    /// Where it stands.
    pub square: Square,
    /// `[x_min, y_min, x_max, y_max]`: the axis-aligned box of its ink after the camera.
    pub bbox: [f64; 4],
}

/// An arrow (or a circle, from a square to itself).
#[derive(Debug, Clone, PartialEq)]
pub struct ArrowLabel {
    /// Tail square.
    pub from: Square,
    /// Head square.
    pub to: Square,
    /// `green`, `red`, `yellow` or `blue`.
    pub color: String,
    /// The centre of the tail square.
    pub tail: Point,
    /// The centre of the head square.
    pub head: Point,
}

/// A square marker.
#[derive(Debug, Clone, PartialEq)]
pub struct MarkerLabel {
    /// Where.
    pub square: Square,
    /// `circle`, `dotted`, `square`, `triangle`, `dot` or `ring`.
    pub kind: String,
    /// `green`, `red`, `yellow` or `blue`.
    pub color: String,
}

/// Everything known about one image.
#[derive(Debug, Clone, PartialEq)]
pub struct Labels {
    /// Its path in the dataset folder (`images/00000042.png`).
    pub file_name: String,
    /// Its index in the run.
    pub index: u64,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// The position, all six fields.
    pub fen: String,
    /// The side at the bottom.
    pub orientation: Color,
    /// The board's outer corners (the squares' area).
    pub corners: Quad,
    /// Every square's corners, top row first as drawn, left to right.
    pub squares: Vec<(Square, Quad)>,
    /// The pieces, in the order of the squares.
    pub pieces: Vec<PieceLabel>,
    /// Arrows and circles.
    pub arrows: Vec<ArrowLabel>,
    /// Squares filled with a colour, and the colour.
    pub highlights: Vec<(Square, Rgba)>,
    /// Square markers.
    pub markers: Vec<MarkerLabel>,
    /// The last move's squares, when tinted.
    pub last_move: Option<(Square, Square)>,
    /// The king's square, when it glows.
    pub check: Option<Square>,
    /// The variety drawn for this image (theme, piece set, size, camera…).
    pub style: Map<String, Value>,
}

/// A mark colour's name.
pub fn color_name(c: MarkColor) -> &'static str {
    match c {
        MarkColor::Green => "green",
        MarkColor::Red => "red",
        MarkColor::Yellow => "yellow",
        MarkColor::Blue => "blue",
    }
}

/// The rectangle's corners, top left first, clockwise.
fn corners_of(r: Rect) -> [Point; 4] {
    let (x0, y0) = (f64::from(r.x), f64::from(r.y));
    let (x1, y1) = (x0 + f64::from(r.w), y0 + f64::from(r.h));
    [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]
}

/// The axis-aligned box of `points`.
fn bounds(points: &[Point]) -> [f64; 4] {
    points.iter().fold(
        [
            f64::INFINITY,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NEG_INFINITY,
        ],
        |b, p| {
            [
                b[0].min(p[0]),
                b[1].min(p[1]),
                b[2].max(p[0]),
                b[3].max(p[1]),
            ]
        },
    )
}

/// Where square `s` is drawn in `scene`.
fn square_rect(scene: &Scene, s: Square) -> Rect {
    let sq = scene.square;
    let (col, row) = match scene.bottom {
        Color::White => (u32::from(s.file), 7 - u32::from(s.rank)),
        Color::Black => (7 - u32::from(s.file), u32::from(s.rank)),
    };
    Rect {
        x: scene.board.x + col * sq,
        y: scene.board.y + row * sq,
        w: sq,
        h: sq,
    }
}

/// The labels of `position` drawn as `options` ask (laid out as `scene`), after the camera's
/// `transform`; `ink(piece, px)` is the box of a piece's ink in a `px` square. The file
/// name, index, size and style are the caller's to fill in.
pub(crate) fn measure(
    position: &Position,
    options: &RenderOptions,
    scene: &Scene,
    transform: &Homography,
    ink: &mut dyn FnMut(Piece, u32) -> Option<[u32; 4]>,
) -> Labels {
    // Rounded as written, so the labels in memory are the labels in the files.
    let moved = |p: Point| transform.apply(p).map(r2);
    let quad = |r: Rect| corners_of(r).map(moved);
    let centre = |s: Square| {
        let r = square_rect(scene, s);
        moved([
            f64::from(r.x) + f64::from(r.w) / 2.0,
            f64::from(r.y) + f64::from(r.h) / 2.0,
        ])
    };
    let mut squares = Vec::with_capacity(64);
    for row in 0..8u8 {
        for col in 0..8u8 {
            let s = match scene.bottom {
                Color::White => Square::new(col, 7 - row),
                Color::Black => Square::new(7 - col, row),
            };
            squares.push((s, quad(square_rect(scene, s))));
        }
    }
    let mut pieces = Vec::new();
    for (s, _) in &squares {
        let Some(piece) = position.get(*s) else {
            continue;
        };
        let r = square_rect(scene, *s);
        let Some([x0, y0, x1, y1]) = ink(piece, r.w) else {
            continue;
        };
        let (x, y) = (f64::from(r.x), f64::from(r.y));
        let ink_corners = [
            [x + f64::from(x0), y + f64::from(y0)],
            [x + f64::from(x1), y + f64::from(y0)],
            [x + f64::from(x1), y + f64::from(y1)],
            [x + f64::from(x0), y + f64::from(y1)],
        ];
        pieces.push(PieceLabel {
            class: piece.fen_char(),
            square: *s,
            bbox: bounds(&ink_corners.map(moved)),
        });
    }
    let arrows = options
        .arrows
        .iter()
        .map(|a| ArrowLabel {
            from: a.from,
            to: a.to,
            color: color_name(a.color).into(),
            tail: centre(a.from),
            head: centre(a.to),
        })
        .collect();
    let markers = options
        .markers
        .iter()
        .filter(|m| !matches!(m.kind, MarkerKind::Label(_)))
        .map(|m| MarkerLabel {
            square: m.square,
            kind: m.kind.name().into(),
            color: color_name(m.color).into(),
        })
        .collect();
    let check = match options.check {
        Check::Off => None,
        Check::Square(s) => Some(s),
        Check::Auto => crate::chess::attacks::checked_king(position),
    };
    Labels {
        file_name: String::new(),
        index: 0,
        width: 0,
        height: 0,
        fen: position.to_string(),
        orientation: scene.bottom,
        corners: quad(scene.board),
        squares,
        pieces,
        arrows,
        highlights: options.highlights.clone(),
        markers,
        last_move: options.last_move.and_then(|m| Some((m.from?, m.to))),
        check,
        style: Map::new(),
    }
}

/// Rounded to 1/100 pixel, as written.
fn r2(v: f64) -> f64 {
    (v * 100.0).round() / 100.0
}

fn point(p: Point) -> Value {
    json!([r2(p[0]), r2(p[1])])
}

fn quad_json(q: &Quad) -> Value {
    Value::Array(q.iter().map(|p| point(*p)).collect())
}

fn hex(c: Rgba) -> String {
    format!("#{:02x}{:02x}{:02x}{:02x}", c.r, c.g, c.b, c.a)
}

impl Labels {
    /// The `metadata.jsonl` object (see the book's "Training data" chapter).
    pub fn to_json(&self) -> Value {
        let squares: Map<String, Value> = self
            .squares
            .iter()
            .map(|(s, q)| (s.to_string(), quad_json(q)))
            .collect();
        let pieces: Vec<Value> = self
            .pieces
            .iter()
            .map(|p| {
                json!({"class": p.class.to_string(), "square": p.square.to_string(),
                       "box": p.bbox.map(r2)})
            })
            .collect();
        let arrows: Vec<Value> = self
            .arrows
            .iter()
            .map(|a| {
                json!({"from": a.from.to_string(), "to": a.to.to_string(), "color": a.color,
                       "tail": point(a.tail), "head": point(a.head)})
            })
            .collect();
        let highlights: Vec<Value> = self
            .highlights
            .iter()
            .map(|(s, c)| json!({"square": s.to_string(), "color": hex(*c)}))
            .collect();
        let markers: Vec<Value> = self
            .markers
            .iter()
            .map(|m| json!({"square": m.square.to_string(), "kind": m.kind, "color": m.color}))
            .collect();
        json!({
            "file_name": self.file_name,
            "index": self.index,
            "width": self.width,
            "height": self.height,
            "fen": self.fen,
            "orientation": if self.orientation == Color::White { "white" } else { "black" },
            "corners": quad_json(&self.corners),
            "squares": squares,
            "pieces": pieces,
            "arrows": arrows,
            "highlights": highlights,
            "markers": markers,
            "last_move": self.last_move.map(|(f, t)| json!({"from": f.to_string(), "to": t.to_string()})),
            "check": self.check.map(|s| s.to_string()),
            "style": self.style,
        })
    }

    /// The labels of a `metadata.jsonl` object, or what is wrong with it.
    pub fn from_json(v: &Value) -> Result<Labels, String> {
        let field = |name: &str| v.get(name).ok_or_else(|| format!("no \"{name}\""));
        let text = |name: &str| -> Result<String, String> {
            field(name)?
                .as_str()
                .map(str::to_string)
                .ok_or_else(|| format!("\"{name}\" is no text"))
        };
        let number = |name: &str| {
            field(name)?
                .as_u64()
                .ok_or_else(|| format!("\"{name}\" is no count"))
        };
        let squares = field("squares")?
            .as_object()
            .ok_or("\"squares\" is no object")?
            .iter()
            .map(|(name, q)| Ok((square(name)?, read_quad(q)?)))
            .collect::<Result<Vec<_>, String>>()?;
        let list = |name: &str| -> Result<&[Value], String> {
            Ok(field(name)?.as_array().map_or(&[][..], Vec::as_slice))
        };
        let pieces = read_all(list("pieces")?, read_piece)?;
        let arrows = read_all(list("arrows")?, read_arrow)?;
        let highlights = read_all(list("highlights")?, |h| {
            let color = h["color"].as_str().and_then(|c| Rgba::parse_hex(c, true));
            Ok((
                square_in(h, "square")?,
                color.ok_or("a highlight has no colour")?,
            ))
        })?;
        let markers = read_all(list("markers")?, |m| {
            Ok(MarkerLabel {
                square: square_in(m, "square")?,
                kind: m["kind"].as_str().unwrap_or("").to_string(),
                color: m["color"].as_str().unwrap_or("red").to_string(),
            })
        })?;
        let last_move = match field("last_move")? {
            Value::Null => None,
            m => Some((square_in(m, "from")?, square_in(m, "to")?)),
        };
        Ok(Labels {
            file_name: text("file_name")?,
            index: number("index")?,
            width: number("width")? as u32,
            height: number("height")? as u32,
            fen: text("fen")?,
            orientation: if text("orientation")? == "black" {
                Color::Black
            } else {
                Color::White
            },
            corners: read_quad(field("corners")?)?,
            squares,
            pieces,
            arrows,
            highlights,
            markers,
            last_move,
            check: v
                .get("check")
                .and_then(Value::as_str)
                .map(square)
                .transpose()?,
            style: v
                .get("style")
                .and_then(Value::as_object)
                .cloned()
                .unwrap_or_default(),
        })
    }
}

/// Every item of `items` read by `read`, or the first error.
fn read_all<T>(
    items: &[Value],
    read: impl Fn(&Value) -> Result<T, String>,
) -> Result<Vec<T>, String> {
    items.iter().map(read).collect()
}

fn read_piece(p: &Value) -> Result<PieceLabel, String> {
    let class = p["class"]
        .as_str()
        .and_then(|c| c.chars().next())
        .ok_or("a piece has no class")?;
    let b = read_numbers(&p["box"], 4)?;
    Ok(PieceLabel {
        class,
        square: square_in(p, "square")?,
        bbox: [b[0], b[1], b[2], b[3]],
    })
}

fn read_arrow(a: &Value) -> Result<ArrowLabel, String> {
    Ok(ArrowLabel {
        from: square_in(a, "from")?,
        to: square_in(a, "to")?,
        color: a["color"].as_str().unwrap_or("green").to_string(),
        tail: read_point(&a["tail"])?,
        head: read_point(&a["head"])?,
    })
}

fn square(name: &str) -> Result<Square, String> {
    Square::parse(name, BoardSize::CHESS).ok_or_else(|| format!("{name:?} is no square"))
}

fn square_in(v: &Value, name: &str) -> Result<Square, String> {
    square(
        v[name]
            .as_str()
            .ok_or_else(|| format!("no \"{name}\" square"))?,
    )
}

fn read_numbers(v: &Value, n: usize) -> Result<Vec<f64>, String> {
    let numbers: Option<Vec<f64>> = v
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_f64).collect());
    numbers
        .filter(|a| a.len() == n)
        .ok_or_else(|| format!("{v} is not {n} numbers"))
}

fn read_point(v: &Value) -> Result<Point, String> {
    let p = read_numbers(v, 2)?;
    Ok([p[0], p[1]])
}

fn read_quad(v: &Value) -> Result<Quad, String> {
    let points = v
        .as_array()
        .filter(|a| a.len() == 4)
        .ok_or_else(|| format!("{v} is not 4 points"))?;
    let mut quad = [[0.0; 2]; 4];
    for (q, p) in quad.iter_mut().zip(points) {
        *q = read_point(p)?;
    }
    Ok(quad)
}
