//! One image of a dataset, from the run's seed and its index alone: the position, the
//! look (theme or a random palette, piece set, size, coordinates, orientation), the marks
//! and the camera are drawn from the image's own random stream, then the diagram is
//! rendered, developed and measured.
//!
//! Owns what each part of the variety does to an image ([`Dataset::sample`]). The parts'
//! names and values are `variety`'s; the camera's work is `camera`'s; the labels' shape is
//! `labels`'.

use super::camera::{self, Encoding, Ground, Picture, Shot};
use super::labels::{self, Labels};
use super::positions::Given;
use super::rng::Rng;
use super::variety::{THEMES, Variety};
use crate::chess::piece::Piece;
use crate::chess::position::{Position, Square};
use crate::render::options::{
    Arrow, Check, Coordinates, LastMove, Marker, MarkerKind, Orientation, RenderOptions,
};
use crate::render::pieces::PieceSets;
use crate::render::theme::{MIN_LABEL_CONTRAST, MarkColor, Rgba, Theme};
use crate::render::{RenderError, Renderer};
use serde_json::{Map, Value, json};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Longest random game played for a position, in plies.
pub const MAX_RANDOM_PLIES: u32 = 120;

/// Bytes of the renderer's caches for a dataset (palette contexts, sprites, tiles).
const CACHE_BYTES: u64 = 128 << 20;

/// Why a dataset cannot be made, one sentence.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DatasetError {
    /// A part of the variety has a bad value, or names what does not exist.
    #[error(transparent)]
    Variety(#[from] super::variety::VarietyError),
    /// A file or folder it reads (the positions, the piece sets, the backgrounds) is
    /// unusable, or the variety names a piece set there is not.
    #[error("{param} {message}")]
    Input {
        /// The parameter at fault (`positions`, `pieces_dir`, `backgrounds`, `pieces`).
        param: &'static str,
        /// What is wrong, beginning with the value.
        message: String,
    },
    /// A render failed.
    #[error(transparent)]
    Render(#[from] RenderError),
}

/// What a dataset is made from.
#[derive(Debug, Clone, Default)]
pub struct Settings {
    /// The run's seed: image `i` depends on it and on `i` only.
    pub seed: u64,
    /// How the images vary.
    pub variety: Variety,
    /// The positions to draw (image `i` draws position `i` modulo their number); `None`,
    /// random legal play.
    pub positions: Option<Arc<Vec<Given>>>,
    /// Piece sets beside the built-in ones (see [`PieceSets::with_dir`]).
    pub piece_sets: Option<PieceSets>,
    /// Background pictures (see [`camera::load_pictures`]).
    pub pictures: Vec<Arc<Picture>>,
}

/// One image and its labels.
#[derive(Debug, Clone)]
pub struct Sample {
    /// The encoded image (PNG or JPEG).
    pub image: Vec<u8>,
    /// Its encoding.
    pub encoding: Encoding,
    /// Its labels; `file_name` is `images/` and the index, zero-padded to 8 digits.
    pub labels: Labels,
}

/// A dataset: makes image `i` on demand, in any order, on any thread.
#[derive(Debug)]
pub struct Dataset {
    seed: u64,
    variety: Variety,
    positions: Option<Arc<Vec<Given>>>,
    renderer: Renderer,
    sets: Vec<(String, f64)>,
    pictures: Vec<Arc<Picture>>,
    ink: Mutex<InkBoxes>,
}

/// The ink boxes measured so far, by piece set (its number), piece and square size.
type InkBoxes = HashMap<(usize, Piece, u32), Option<[u32; 4]>>;

/// What one image is, drawn from its stream before anything is rendered.
#[derive(Debug, Clone)]
struct Plan {
    position: Position,
    options: RenderOptions,
    shot: Shot,
    encoding: Encoding,
    set: usize,
    style: Map<String, Value>,
}

impl Dataset {
    /// A dataset made as `settings` say, or why it cannot be (a piece set the variety names
    /// that does not exist).
    pub fn new(settings: Settings) -> Result<Dataset, DatasetError> {
        let sets = settings.piece_sets.unwrap_or_else(PieceSets::builtin);
        let names: Vec<String> = sets.names().map(str::to_string).collect();
        let chosen = settings.variety.choice("pieces");
        let weighted: Vec<(String, f64)> = if chosen.is_empty() {
            names.iter().map(|n| (n.clone(), 1.0)).collect()
        } else {
            chosen.to_vec()
        };
        for (name, _) in &weighted {
            if !names.iter().any(|n| n.eq_ignore_ascii_case(name)) {
                return Err(DatasetError::Input {
                    param: "pieces",
                    message: format!(
                        "{name}: there is no such piece set; the sets are {}",
                        names.join(", ")
                    ),
                });
            }
        }
        Ok(Dataset {
            seed: settings.seed,
            variety: settings.variety,
            positions: settings.positions,
            renderer: Renderer::new(sets, CACHE_BYTES),
            sets: weighted,
            pictures: settings.pictures,
            ink: Mutex::new(HashMap::new()),
        })
    }

    /// Image `index`: rendered, developed, encoded and labelled.
    pub fn sample(&self, index: u64) -> Result<Sample, DatasetError> {
        self.draw(index, self.plan(index))
    }

    /// Image `index` with `edit` done to its position and options first, everything else
    /// as drawn (for the tests that prove the labels: the same image without its pieces).
    #[cfg(feature = "bench-internals")]
    #[doc(hidden)]
    pub fn sample_with(
        &self,
        index: u64,
        edit: impl FnOnce(&mut Position, &mut RenderOptions),
    ) -> Result<Sample, DatasetError> {
        let mut plan = self.plan(index);
        edit(&mut plan.position, &mut plan.options);
        self.draw(index, plan)
    }

    /// The file name of image `index` with `encoding`.
    pub fn file_name(index: u64, encoding: Encoding) -> String {
        format!("images/{index:08}.{}", encoding.extension())
    }

    fn draw(&self, index: u64, plan: Plan) -> Result<Sample, DatasetError> {
        let Plan {
            position,
            options,
            shot,
            encoding,
            set,
            style,
        } = plan;
        let pieces = self.renderer.set(&options)?;
        let scene = self.renderer.layout(&position, &options);
        let (image, width, height, transform) = if shot.is_plain() && encoding == Encoding::Png {
            let png = self.renderer.png(&position, &options)?;
            (png, scene.width, scene.height, camera::Homography::IDENTITY)
        } else {
            let rgba = self.renderer.rgba(&position, &options)?;
            let developed = camera::develop(&rgba.pixels, rgba.width, rgba.height, &shot);
            let bytes = camera::encode(&developed.rgb, developed.width, developed.height, encoding);
            (
                bytes,
                developed.width,
                developed.height,
                developed.transform,
            )
        };
        let mut ink = |piece: Piece, px: u32| {
            let key = (set, piece, px);
            let known = self
                .ink
                .lock()
                .ok()
                .and_then(|held| held.get(&key).copied());
            known.unwrap_or_else(|| {
                let found = self.renderer.ink_box(pieces, piece, px, scene.square);
                if let Ok(mut held) = self.ink.lock() {
                    held.insert(key, found);
                }
                found
            })
        };
        let mut labels = labels::measure(&position, &options, &scene, &transform, &mut ink);
        labels.file_name = Dataset::file_name(index, encoding);
        labels.index = index;
        labels.width = width;
        labels.height = height;
        labels.style = style;
        Ok(Sample {
            image,
            encoding,
            labels,
        })
    }

    /// Everything image `index` is, drawn from its stream. Each part draws from a stream of
    /// its own, so changing one part's value leaves the others' draws as they were.
    fn plan(&self, index: u64) -> Plan {
        let rng = Rng::for_image(self.seed, index);
        let v = &self.variety;
        let (position, known_move) = self.position(index, &mut rng.fork(1));
        let mut style = Map::new();
        let mut options = look(v, &mut rng.fork(2), &mut style);
        let set = rng
            .fork(3)
            .weighted(&self.sets.iter().map(|s| s.1).collect::<Vec<_>>())
            .unwrap_or(0);
        options.piece_set = self.sets[set].0.clone();
        style.insert("pieces".into(), json!(options.piece_set));
        marks(v, &mut rng.fork(4), known_move, &mut options);
        let (shot, encoding) = self.camera(options.size, &mut rng.fork(5), &mut style);
        Plan {
            position,
            options,
            shot,
            encoding,
            set,
            style,
        }
    }

    fn position(&self, index: u64, rng: &mut Rng) -> (Position, Option<(Square, Square)>) {
        match &self.positions {
            Some(given) => {
                let g = &given[(index % given.len() as u64) as usize];
                (g.position.clone(), g.last_move)
            }
            None => {
                let plies = rng.between(0, MAX_RANDOM_PLIES) as usize;
                crate::chess::game::random_play(plies, |n| rng.below(n as u64) as usize)
            }
        }
    }

    fn camera(&self, size: u32, rng: &mut Rng, style: &mut Map<String, Value>) -> (Shot, Encoding) {
        let v = &self.variety;
        let mut shot = Shot::plain();
        let (lo, hi) = v.range("margin");
        shot.margin = (rng.range(lo, hi) * f64::from(size)).round() as u32;
        shot.seed = rng.next_u64();
        let grounds = ["plain", "noise", "pictures"];
        let weights: Vec<f64> = grounds
            .iter()
            .map(|g| {
                if *g == "pictures" && self.pictures.is_empty() {
                    0.0
                } else {
                    weight(v.choice("background"), g)
                }
            })
            .collect();
        let ground = rng.weighted(&weights).map_or("plain", |i| grounds[i]);
        let base = [
            rng.between(40, 250) as u8,
            rng.between(40, 250) as u8,
            rng.between(40, 250) as u8,
        ];
        shot.ground = match ground {
            "noise" => Ground::Noise {
                base,
                amplitude: rng.between(10, 60) as u8,
            },
            "pictures" => Ground::Picture(
                self.pictures[rng.below(self.pictures.len() as u64) as usize].clone(),
            ),
            _ => Ground::Plain(base),
        };
        let signed = |rng: &mut Rng, (lo, hi): (f64, f64)| {
            let x = rng.range(lo, hi);
            if rng.chance(0.5) { -x } else { x }
        };
        if rng.chance(v.chance("rotation")) {
            shot.rotation = signed(rng, v.range("rotation-degrees"));
        }
        if rng.chance(v.chance("perspective")) {
            let amount = signed(rng, v.range("perspective-amount"));
            let share = rng.unit();
            shot.perspective = [amount * share, amount * (1.0 - share)];
        }
        if rng.chance(v.chance("blur")) {
            shot.blur = rng.range(v.range("blur-sigma").0, v.range("blur-sigma").1);
        }
        if rng.chance(v.chance("noise")) {
            shot.noise = rng.range(v.range("noise-sigma").0, v.range("noise-sigma").1);
        }
        if rng.chance(v.chance("brightness")) {
            shot.brightness =
                rng.range(v.range("brightness-range").0, v.range("brightness-range").1);
        }
        let encoding = if rng.chance(v.chance("jpeg")) {
            let (lo, hi) = v.range("jpeg-quality");
            Encoding::Jpeg(rng.range(lo, hi + 1.0).floor().clamp(1.0, 100.0) as u8)
        } else {
            Encoding::Png
        };
        // The diagram is opaque: a ground shows only around it (a margin, a turned or tilted
        // board). Where none shows, the ground is white, so the shot can stay plain.
        let hidden = shot.margin == 0 && shot.rotation == 0.0 && shot.perspective == [0.0, 0.0];
        if hidden {
            shot.ground = Ground::Plain([255, 255, 255]);
        }
        let ground = if hidden { None } else { Some(ground) };
        let picture = match &shot.ground {
            Ground::Picture(p) => json!(p.name),
            _ => Value::Null,
        };
        let r3 = |x: f64| (x * 1000.0).round() / 1000.0;
        style.extend([
            ("margin".into(), json!(shot.margin)),
            ("background".into(), json!(ground)),
            ("picture".into(), picture),
            ("rotation".into(), json!(r3(shot.rotation))),
            ("perspective".into(), json!(shot.perspective.map(r3))),
            ("blur".into(), json!(r3(shot.blur))),
            ("noise".into(), json!(r3(shot.noise))),
            ("brightness".into(), json!(r3(shot.brightness))),
            (
                "jpeg".into(),
                match encoding {
                    Encoding::Jpeg(q) => json!(q),
                    Encoding::Png => Value::Null,
                },
            ),
        ]);
        (shot, encoding)
    }
}

/// The weight `choice` gives `name` (an empty choice weighs every name 1).
fn weight(choice: &[(String, f64)], name: &str) -> f64 {
    if choice.is_empty() {
        return 1.0;
    }
    choice
        .iter()
        .filter(|(n, _)| n == name)
        .map(|(_, w)| *w)
        .sum()
}

/// A name drawn from `choice` among `names` (the first when nothing weighs).
fn pick<'a>(rng: &mut Rng, choice: &[(String, f64)], names: &[&'a str]) -> &'a str {
    let weights: Vec<f64> = names.iter().map(|n| weight(choice, n)).collect();
    names[rng.weighted(&weights).unwrap_or(0)]
}

/// The look of an image: theme or palette, hatching, size, coordinates, orientation.
fn look(v: &Variety, rng: &mut Rng, style: &mut Map<String, Value>) -> RenderOptions {
    let name = pick(rng, v.choice("theme"), THEMES);
    let mut theme = match name {
        "random" => random_palette(rng, v.range("contrast").0),
        named => Theme::named(named).unwrap_or_default(),
    };
    if rng.chance(v.chance("hatching")) {
        theme.hatched = true;
    }
    let (lo, hi) = v.range("size");
    let size = rng.range(lo, hi + 1.0).floor().clamp(lo, hi) as u32;
    let coordinates = match pick(rng, v.choice("coordinates"), &["none", "outside", "inside"]) {
        "none" => Coordinates::None,
        "inside" => Coordinates::Inside,
        _ => Coordinates::Outside,
    };
    let bottom = pick(rng, v.choice("orientation"), &["white", "black"]);
    let hex = |c: Rgba| format!("#{:02x}{:02x}{:02x}", c.r, c.g, c.b);
    style.extend([
        ("theme".into(), json!(name)),
        ("light".into(), json!(hex(theme.light))),
        ("dark".into(), json!(hex(theme.dark))),
        ("hatched".into(), json!(theme.hatched)),
        ("size".into(), json!(size)),
        ("coordinates".into(), json!(coordinates.to_string())),
    ]);
    RenderOptions {
        size,
        coordinates,
        orientation: if bottom == "black" {
            Orientation::Black
        } else {
            Orientation::White
        },
        theme,
        ..RenderOptions::default()
    }
}

/// A colour of hue `h` (degrees), saturation `s` and lightness `l` (0–1).
fn hsl(h: f64, s: f64, l: f64) -> Rgba {
    let c = (1.0 - (2.0 * l - 1.0).abs()) * s;
    let h6 = h.rem_euclid(360.0) / 60.0;
    let x = c * (1.0 - (h6 % 2.0 - 1.0).abs());
    let (r, g, b) = match h6 as u32 {
        0 => (c, x, 0.0),
        1 => (x, c, 0.0),
        2 => (0.0, c, x),
        3 => (0.0, x, c),
        4 => (x, 0.0, c),
        _ => (c, 0.0, x),
    };
    let m = l - c / 2.0;
    let byte = |v: f64| ((v + m) * 255.0).round().clamp(0.0, 255.0) as u8;
    Rgba {
        r: byte(r),
        g: byte(g),
        b: byte(b),
        a: 255,
    }
}

/// A palette of its own: light and dark squares at least `floor` apart in contrast, a
/// frame dark enough for labels on the white margin, a last-move tint.
fn random_palette(rng: &mut Rng, floor: f64) -> Theme {
    for _ in 0..32 {
        let hue = rng.range(0.0, 360.0);
        let light = hsl(hue, rng.range(0.0, 0.5), rng.range(0.7, 0.95));
        let dark_hue = if rng.chance(0.7) {
            hue + rng.range(-40.0, 40.0)
        } else {
            rng.range(0.0, 360.0)
        };
        let dark = hsl(dark_hue, rng.range(0.05, 0.65), rng.range(0.28, 0.66));
        if light.contrast(dark) < floor {
            continue;
        }
        let mut frame = hsl(dark_hue, 0.35, 0.25);
        let white = Rgba::hex(0xffffff);
        while frame.contrast(white) < MIN_LABEL_CONTRAST {
            frame = Rgba {
                r: frame.r / 2,
                g: frame.g / 2,
                b: frame.b / 2,
                a: 255,
            };
        }
        let tint = hsl(rng.range(40.0, 110.0), 0.8, 0.55).with_alpha(0x80);
        return Theme {
            light,
            dark,
            frame,
            label: frame,
            last_move: tint,
            ..Theme::default()
        };
    }
    Theme::default()
}

/// A random square.
fn any_square(rng: &mut Rng) -> Square {
    Square::new(rng.below(8) as u8, rng.below(8) as u8)
}

fn mark_color(rng: &mut Rng) -> MarkColor {
    [
        MarkColor::Green,
        MarkColor::Red,
        MarkColor::Yellow,
        MarkColor::Blue,
    ][rng.below(4) as usize]
}

/// The marks of an image: last move, check, arrows, highlights, markers.
fn marks(v: &Variety, rng: &mut Rng, known: Option<(Square, Square)>, options: &mut RenderOptions) {
    if let Some((from, to)) = known.filter(|_| rng.chance(v.chance("last-move"))) {
        options.last_move = Some(LastMove {
            from: Some(from),
            to,
            piece: None,
        });
    }
    if rng.chance(v.chance("check")) {
        options.check = Check::Auto;
    }
    if rng.chance(v.chance("arrows")) {
        for _ in 0..rng.between(1, 3) {
            let from = any_square(rng);
            let to = if rng.chance(0.15) {
                from
            } else {
                any_square(rng)
            };
            options.arrows.push(Arrow {
                from,
                to,
                color: mark_color(rng),
            });
        }
    }
    if rng.chance(v.chance("highlights")) {
        for _ in 0..rng.between(1, 4) {
            let (square, color) = (any_square(rng), mark_color(rng).highlight());
            // One colour a square: a square listed twice would be tinted twice.
            if options.highlights.iter().all(|(s, _)| *s != square) {
                options.highlights.push((square, color));
            }
        }
    }
    if rng.chance(v.chance("markers")) {
        let kinds = [
            MarkerKind::Circle,
            MarkerKind::Dotted,
            MarkerKind::Square,
            MarkerKind::Triangle,
            MarkerKind::Dot,
            MarkerKind::Ring,
        ];
        for _ in 0..rng.between(1, 3) {
            let kind = kinds[rng.below(kinds.len() as u64) as usize].clone();
            options.markers.push(Marker {
                square: any_square(rng),
                kind,
                color: mark_color(rng),
            });
        }
    }
}
