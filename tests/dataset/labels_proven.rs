//! The labels proven from the pixels, not trusted: for a sample of images covering every
//! kind of variety (themes and random palettes, both built-in sets and one from a folder,
//! sizes, coordinates, orientation, marks, hatching, margins, backgrounds, rotation,
//! perspective, blur, noise, brightness), each image is drawn twice: as it is, and with
//! its pieces taken off the board (everything else the same, the camera's noise too). The
//! pixels that differ are the pieces' ink. Then, in the labelled geometry:
//!
//! - every square the FEN says is occupied has ink inside its labelled polygon;
//! - every square the FEN says is empty has none;
//! - a piece's ink lies inside its labelled box (within the blur's reach), and fills it
//!   (the box is not loose);
//! - white pieces' ink is lighter than black pieces' in the same image.
//!
//! JPEG images are checked the same way, with the tolerance its blocks need.

use super::common::{bg_folder, decode, piece_folder};
use staunton::dataset::labels::{Labels, Point};
use staunton::dataset::{Dataset, Settings, Variety};
use staunton::render::options::Check;

/// Pixels whose channels differ by more than this are ink.
const INK: u8 = 40;

/// Is `p` inside the convex quadrilateral `q` (corners in drawing order)?
fn inside(q: &[Point; 4], p: Point) -> bool {
    let mut sign = 0.0f64;
    for i in 0..4 {
        let (a, b) = (q[i], q[(i + 1) % 4]);
        let cross = (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]);
        if cross.abs() < 1e-9 {
            continue;
        }
        if sign == 0.0 {
            sign = cross.signum();
        } else if cross.signum() != sign {
            return false;
        }
    }
    true
}

/// `q` shrunk towards its centre to `f` of its size.
fn shrink(q: &[Point; 4], f: f64) -> [Point; 4] {
    let c = [
        q.iter().map(|p| p[0]).sum::<f64>() / 4.0,
        q.iter().map(|p| p[1]).sum::<f64>() / 4.0,
    ];
    q.map(|p| [c[0] + (p[0] - c[0]) * f, c[1] + (p[1] - c[1]) * f])
}

/// Does the segment from `a` to `b` pass within a square's side of the centre of `q`?
fn near_segment(q: &[Point; 4], a: Point, b: Point) -> bool {
    let c = [
        q.iter().map(|p| p[0]).sum::<f64>() / 4.0,
        q.iter().map(|p| p[1]).sum::<f64>() / 4.0,
    ];
    let side = (q[1][0] - q[0][0]).hypot(q[1][1] - q[0][1]);
    let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
    let t =
        (((c[0] - a[0]) * dx + (c[1] - a[1]) * dy) / (dx * dx + dy * dy).max(1e-9)).clamp(0.0, 1.0);
    (a[0] + t * dx - c[0]).hypot(a[1] + t * dy - c[1]) < side
}

/// What the two drawings of one image say about one square.
#[derive(Default)]
struct Ink {
    /// Ink pixels inside the square's inner part (its polygon shrunk to 70 %).
    inner: usize,
    /// Ink pixels inside the square, outside the piece's box grown by the tolerance.
    outside_box: usize,
    /// Ink pixels inside the square.
    all: usize,
    /// The box of the ink pixels inside the square.
    bounds: [f64; 4],
    /// The sum of the ink pixels' luminance in the full drawing.
    light: f64,
}

struct Drawn {
    w: usize,
    full: Vec<u8>,
    empty: Vec<u8>,
}

impl Drawn {
    fn ink_at(&self, x: usize, y: usize) -> bool {
        let i = (y * self.w + x) * 3;
        (0..3).any(|c| self.full[i + c].abs_diff(self.empty[i + c]) > INK)
    }

    /// The ink inside square `q`, and outside `bbox` grown by `grow` pixels.
    fn ink(&self, q: &[Point; 4], bbox: Option<[f64; 4]>, grow: f64) -> Ink {
        let inner = shrink(q, 0.7);
        let xs = q.map(|p| p[0]);
        let ys = q.map(|p| p[1]);
        let (x0, x1) = (
            xs.iter().cloned().fold(f64::MAX, f64::min),
            xs.iter().cloned().fold(0.0, f64::max),
        );
        let (y0, y1) = (
            ys.iter().cloned().fold(f64::MAX, f64::min),
            ys.iter().cloned().fold(0.0, f64::max),
        );
        let mut ink = Ink {
            bounds: [f64::MAX, f64::MAX, 0.0, 0.0],
            ..Ink::default()
        };
        for y in
            y0.floor().max(0.0) as usize..(y1.ceil() as usize).min(self.full.len() / 3 / self.w)
        {
            for x in x0.floor().max(0.0) as usize..(x1.ceil() as usize).min(self.w) {
                let p = [x as f64 + 0.5, y as f64 + 0.5];
                // Only pixels well inside the square: its edges are shared with neighbours.
                if !inside(&shrink(q, 0.96), p) || !self.ink_at(x, y) {
                    continue;
                }
                ink.all += 1;
                if inside(&inner, p) {
                    ink.inner += 1;
                }
                if let Some(b) = bbox {
                    let out = p[0] < b[0] - grow
                        || p[0] > b[2] + grow
                        || p[1] < b[1] - grow
                        || p[1] > b[3] + grow;
                    ink.outside_box += usize::from(out);
                }
                let b = &mut ink.bounds;
                *b = [
                    b[0].min(p[0] - 0.5),
                    b[1].min(p[1] - 0.5),
                    b[2].max(p[0] + 0.5),
                    b[3].max(p[1] + 0.5),
                ];
                let i = (y * self.w + x) * 3;
                ink.light += 0.2126 * f64::from(self.full[i])
                    + 0.7152 * f64::from(self.full[i + 1])
                    + 0.0722 * f64::from(self.full[i + 2]);
            }
        }
        ink
    }
}

/// Check one image; returns what was wrong, if anything.
fn prove(dataset: &Dataset, index: u64) -> Result<Labels, String> {
    let full = dataset.sample(index).map_err(|e| e.to_string())?;
    let empty = dataset
        .sample_with(index, |position, options| {
            // The glow stays where the king was: only the pieces go.
            if options.check == Check::Auto {
                options.check = staunton::chess::attacks::checked_king(position)
                    .map_or(Check::Off, Check::Square);
            }
            for (s, _) in position.pieces().collect::<Vec<_>>() {
                position.set(s, None);
            }
        })
        .map_err(|e| e.to_string())?;
    let labels = full.labels;
    let (w, h, full_rgb) = decode(&full.image);
    let (_, _, empty_rgb) = decode(&empty.image);
    if (w, h) != (labels.width, labels.height) {
        return Err(format!(
            "{w}x{h} image, labels say {}x{}",
            labels.width, labels.height
        ));
    }
    let drawn = Drawn {
        w: w as usize,
        full: full_rgb,
        empty: empty_rgb,
    };
    let style = &labels.style;
    let blur = style["blur"].as_f64().unwrap_or(0.0);
    let jpeg = !style["jpeg"].is_null();
    // How far ink may reach beyond its box: antialiasing, the blur, JPEG's blocks.
    let grow = 1.5 + 3.0 * blur + if jpeg { 8.0 } else { 0.0 };
    let marked: Vec<_> = labels.markers.iter().map(|m| m.square).collect();
    let mut problems = Vec::new();
    let (mut white, mut black) = ((0.0, 0usize), (0.0, 0usize));
    for (square, quad) in &labels.squares {
        let piece = labels.pieces.iter().find(|p| p.square == *square);
        let ink = drawn.ink(quad, piece.map(|p| p.bbox), grow);
        let area = (quad[1][0] - quad[0][0])
            .hypot(quad[1][1] - quad[0][1])
            .powi(2);
        match piece {
            None if ink.inner as f64 > area * if jpeg { 0.02 } else { 0.002 } => {
                problems.push(format!(
                    "{square}: empty by the FEN, but {} ink pixels",
                    ink.inner
                ));
            }
            None => {}
            Some(p) => {
                if (ink.inner as f64) < area * 0.03 {
                    problems.push(format!(
                        "{square}: {} by the FEN, but only {} ink pixels",
                        p.class, ink.inner
                    ));
                    continue;
                }
                if marked.contains(square) {
                    continue; // a marker is laid out around a piece: its ink is no piece's
                }
                // An arrow drawn over a piece hides part of its ink (in both drawings).
                let hidden = labels
                    .arrows
                    .iter()
                    .any(|a| near_segment(quad, a.tail, a.head));
                if ink.outside_box as f64 > ink.all as f64 * 0.01 + 2.0 {
                    problems.push(format!(
                        "{square}: {} of {} ink pixels outside the box {:?}",
                        ink.outside_box, ink.all, p.bbox
                    ));
                }
                let (bw, bh) = (p.bbox[2] - p.bbox[0], p.bbox[3] - p.bbox[1]);
                let (iw, ih) = (ink.bounds[2] - ink.bounds[0], ink.bounds[3] - ink.bounds[1]);
                if !jpeg && blur == 0.0 && !hidden && (iw < bw * 0.7 || ih < bh * 0.7) {
                    problems.push(format!(
                        "{square}: box {bw:.1}x{bh:.1} is loose around ink {iw:.1}x{ih:.1}"
                    ));
                }
                let side = if p.class.is_ascii_uppercase() {
                    &mut white
                } else {
                    &mut black
                };
                side.0 += ink.light;
                side.1 += ink.all;
            }
        }
    }
    if white.1 > 0 && black.1 > 0 && white.0 / white.1 as f64 <= black.0 / black.1 as f64 {
        problems.push("white pieces' ink is not lighter than black pieces'".into());
    }
    if problems.is_empty() {
        Ok(labels)
    } else {
        Err(problems.join("; "))
    }
}

/// Which kinds of variety an image shows, by name, for the coverage check.
fn kinds(labels: &Labels) -> Vec<String> {
    let s = &labels.style;
    let mut k = vec![
        format!("theme {}", s["theme"].as_str().unwrap_or("")),
        format!("pieces {}", s["pieces"].as_str().unwrap_or("")),
        format!("coordinates {}", s["coordinates"].as_str().unwrap_or("")),
        format!("background {}", s["background"].as_str().unwrap_or("")),
        format!("orientation {:?}", labels.orientation),
    ];
    let on = [
        ("rotation", s["rotation"].as_f64() != Some(0.0)),
        (
            "perspective",
            s["perspective"] != serde_json::json!([0.0, 0.0]),
        ),
        ("margin", s["margin"].as_u64() != Some(0)),
        ("blur", s["blur"].as_f64() != Some(0.0)),
        ("noise", s["noise"].as_f64() != Some(0.0)),
        ("brightness", s["brightness"].as_f64() != Some(1.0)),
        ("jpeg", !s["jpeg"].is_null()),
        ("hatched", s["hatched"] == true),
        ("arrows", !labels.arrows.is_empty()),
        ("highlights", !labels.highlights.is_empty()),
        ("markers", !labels.markers.is_empty()),
        ("last move", labels.last_move.is_some()),
    ];
    k.extend(on.iter().filter(|(_, on)| *on).map(|(n, _)| n.to_string()));
    k
}

#[test]
fn labels_agree_with_the_pixels_across_every_kind_of_variety() {
    let pieces = piece_folder();
    let pictures = bg_folder();
    let mut variety = Variety::full();
    // Every camera effect often, so a sample of this size shows each many times.
    for (part, value) in [
        ("rotation", "0.5"),
        ("perspective", "0.5"),
        ("blur", "0.3"),
        ("noise", "0.4"),
        ("markers", "0.4"),
    ] {
        variety.set(part, value).unwrap();
    }
    let (sets, problems) = staunton::render::pieces::PieceSets::with_dir(&pieces);
    assert!(problems.is_empty(), "{problems:?}");
    let dataset = Dataset::new(Settings {
        seed: 63,
        variety,
        piece_sets: Some(sets),
        pictures: staunton::dataset::camera::load_pictures(&pictures).unwrap(),
        ..Settings::default()
    })
    .unwrap();
    let mut seen = std::collections::BTreeSet::new();
    let mut failures = Vec::new();
    for index in 0..90 {
        match prove(&dataset, index) {
            Ok(labels) => seen.extend(kinds(&labels)),
            Err(problem) => failures.push(format!("image {index}: {problem}")),
        }
    }
    assert!(
        failures.is_empty(),
        "{} image(s) disagree with their labels:\n{}",
        failures.len(),
        failures.join("\n")
    );
    for kind in [
        "theme random",
        "theme print",
        "theme brown",
        "pieces staunton",
        "pieces staunton-classic",
        "pieces folder-set",
        "coordinates none",
        "coordinates inside",
        "coordinates outside",
        "background noise",
        "background pictures",
        "background plain",
        "orientation Black",
        "rotation",
        "perspective",
        "margin",
        "blur",
        "noise",
        "brightness",
        "jpeg",
        "hatched",
        "arrows",
        "highlights",
        "markers",
        "last move",
    ] {
        assert!(
            seen.contains(kind),
            "no image of the sample shows {kind}: {seen:?}"
        );
    }
}

#[test]
fn plain_labels_are_the_renderers_own_geometry() {
    let dataset = Dataset::new(Settings {
        seed: 1,
        variety: Variety::plain(),
        ..Settings::default()
    })
    .unwrap();
    let labels = prove(&dataset, 0).unwrap();
    // 400 px with coordinates outside: the board's corners are whole pixels, squares equal.
    let c = labels.corners;
    assert_eq!((labels.width, labels.height), (400, 400));
    assert!(c.iter().flatten().all(|v| v.fract() == 0.0), "{c:?}");
    assert_eq!(c[1][0] - c[0][0], c[2][1] - c[1][1]);
    let a8 = labels
        .squares
        .iter()
        .find(|(s, _)| s.to_string() == "a8")
        .unwrap()
        .1;
    assert_eq!(
        a8[0], c[0],
        "a8 is the top-left square with White at the bottom"
    );
}
