//! The dataset's camera: what a phone's camera or a scanner does to a rendered diagram
//! before a recogniser sees it, and exactly where every point of the diagram went, so that
//! the labels move with the pixels.
//!
//! This module owns [`Homography`] (plane maps, and the one a [`Shot`] makes), [`develop`]
//! (a diagram's RGBA pixels in, the final RGB image and its map out), the grounds around
//! the diagram ([`Ground`], [`Picture`], [`load_pictures`]) and the writing of the final
//! image ([`encode`]).
//!
//! The stages: ground; the diagram placed in the middle, tilted, turned and (if a corner
//! would leave the image) shrunk about the centre, drawn by inverse mapping (bilinear,
//! premultiplied); blur, brightness, noise. The image is made row by row, every stage in
//! turn on a row, so what is worked on stays in the cache. The same inputs give the same
//! bytes on every run and platform: randomness is the dataset's [`Rng`], the arithmetic
//! exactly rounded IEEE operations (sine, cosine and exponential by series here, not the
//! platform's maths library), no threads, no hash maps.
//!
//! Speed (release, this 2-core Xeon shared with other builds, load 4–5): a 400×400 diagram,
//! margin 40, value-noise ground, rotation 7°, tilt [0.1, −0.08], blur 1, noise 6,
//! brightness 0.9: 3.6 ms (best mean of 40 batches of 25), ~47 M instructions (callgrind).

use std::fmt;
use std::io::{Cursor, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use image::codecs::jpeg::JpegEncoder;
use image::codecs::png::PngEncoder;
use image::{ExtendedColorType, ImageEncoder, ImageFormat, ImageReader};

use crate::dataset::rng::Rng;

/// A projective map of the plane (3x3, row-major, acting on [x, y, 1]), from the diagram's
/// pixel coordinates to the final image's. Coordinates are continuous: pixel (i, j) covers
/// [i, i+1) x [j, j+1).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Homography(pub [f64; 9]);

impl Homography {
    /// The map that moves nothing.
    pub const IDENTITY: Homography = Homography([1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]);

    fn affine([a, b, c]: [f64; 3], [d, e, f]: [f64; 3]) -> Homography {
        Homography([a, b, c, d, e, f, 0.0, 0.0, 1.0])
    }

    /// Where `p` goes. A point the map sends to infinity comes back with infinite or NaN
    /// coordinates (never for the maps [`develop`] makes, on the diagram's area).
    pub fn apply(&self, p: [f64; 2]) -> [f64; 2] {
        let (m, [x, y]) = (&self.0, p);
        let w = m[6] * x + m[7] * y + m[8];
        [
            (m[0] * x + m[1] * y + m[2]) / w,
            (m[3] * x + m[4] * y + m[5]) / w,
        ]
    }

    /// The map that applies `self` first, then `next`.
    pub fn then(&self, next: &Homography) -> Homography {
        let (a, b) = (&next.0, &self.0);
        Homography(std::array::from_fn(|k| {
            let (r, c) = (k / 3 * 3, k % 3);
            a[r] * b[c] + a[r + 1] * b[3 + c] + a[r + 2] * b[6 + c]
        }))
    }

    /// The map that undoes this one, or `None` when it flattens the plane (its determinant
    /// is zero, or too small beside its entries to divide by).
    pub fn inverse(&self) -> Option<Homography> {
        let m = &self.0;
        // Entry (r, c) of the inverse is the cofactor of (c, r) over the determinant; with
        // indices taken mod 3, the cofactors need no signs.
        let at = |r: usize, c: usize| m[r % 3 * 3 + c % 3];
        let adjugate: [f64; 9] = std::array::from_fn(|k| {
            let (r, c) = (k / 3, k % 3);
            at(c + 1, r + 1) * at(c + 2, r + 2) - at(c + 1, r + 2) * at(c + 2, r + 1)
        });
        let det = m[0] * adjugate[0] + m[1] * adjugate[3] + m[2] * adjugate[6];
        let scale = m.iter().fold(0.0f64, |a, v| a.max(v.abs()));
        if !det.is_finite() || det.abs() <= 1e-12 * scale * scale * scale {
            return None;
        }
        Some(Homography(adjugate.map(|v| v / det)))
    }

    /// The map that moves every point by (`dx`, `dy`).
    pub fn translate(dx: f64, dy: f64) -> Homography {
        Homography::affine([1.0, 0.0, dx], [0.0, 1.0, dy])
    }

    /// The map that scales by `s` about the point (`cx`, `cy`), which stays where it is.
    pub fn scale_about(s: f64, cx: f64, cy: f64) -> Homography {
        Homography::affine([s, 0.0, cx - s * cx], [0.0, s, cy - s * cy])
    }

    /// The map that turns the plane by `degrees` about (`cx`, `cy`), clockwise on screen
    /// (y points down): at 90°, the point right of the centre goes below it. The sine and
    /// cosine are exact at multiples of 90° and the same on every platform.
    pub fn rotate_about(degrees: f64, cx: f64, cy: f64) -> Homography {
        let (s, c) = sin_cos_degrees(degrees);
        Homography::affine([c, -s, cx - c * cx + s * cy], [s, c, cy - s * cx - c * cy])
    }

    /// The projective map taking the four points `from` to `to` (for the perspective), or
    /// `None` when there is none (three of either four points on a line).
    pub fn from_quads(from: [[f64; 2]; 4], to: [[f64; 2]; 4]) -> Option<Homography> {
        let map = square_to_quad(from)?.inverse()?.then(&square_to_quad(to)?);
        let k = if map.0[8].abs() > 1e-12 {
            map.0[8]
        } else {
            1.0
        };
        let map = Homography(map.0.map(|v| v / k));
        map.0.iter().all(|v| v.is_finite()).then_some(map)
    }
}

/// The map taking the unit square's corners (TL, TR, BR, BL) to `q` (Heckbert, 1989).
fn square_to_quad(q: [[f64; 2]; 4]) -> Option<Homography> {
    let [[x0, y0], [x1, y1], [x2, y2], [x3, y3]] = q;
    let (dx1, dx2, dx3) = (x1 - x2, x3 - x2, x0 - x1 + x2 - x3);
    let (dy1, dy2, dy3) = (y1 - y2, y3 - y2, y0 - y1 + y2 - y3);
    let den = dx1 * dy2 - dx2 * dy1;
    if den == 0.0 || !den.is_finite() {
        return None;
    }
    let g = (dx3 * dy2 - dx2 * dy3) / den;
    let h = (dx1 * dy3 - dx3 * dy1) / den;
    let (a, b) = (x1 - x0 + g * x1, x3 - x0 + h * x3);
    let (d, e) = (y1 - y0 + g * y1, y3 - y0 + h * y3);
    let map = Homography([a, b, x0, d, e, y0, g, h, 1.0]);
    map.inverse().map(|_| map)
}

/// The sine and cosine of `degrees` by series on [−45°, 45°]: exact at multiples of 90°.
fn sin_cos_degrees(degrees: f64) -> (f64, f64) {
    let d = degrees % 360.0;
    let quarter = (d / 90.0).round();
    let x = (d - quarter * 90.0) * (std::f64::consts::PI / 180.0);
    // sin x = x (1 − x²/(2·3) (1 − x²/(4·5) (…))), cos x = 1 − x²/(1·2) (1 − x²/(3·4) (…)).
    let series = |f: [f64; 8]| f.iter().rev().fold(1.0, |acc, f| 1.0 - x * x / f * acc);
    let s = x * series([6.0, 20.0, 42.0, 72.0, 110.0, 156.0, 210.0, 272.0]);
    let c = series([2.0, 12.0, 30.0, 56.0, 90.0, 132.0, 182.0, 240.0]);
    [(s, c), (c, -s), (-s, -c), (-c, s)][(quarter as i64).rem_euclid(4) as usize]
}

/// e^x for −5 ≤ x ≤ 0 (the blur's kernel): a series on x/1024, squared ten times.
fn exp_series(x: f64) -> f64 {
    let y = x / 1024.0;
    let e = (1..=8)
        .rev()
        .fold(1.0, |acc, k| 1.0 + y / f64::from(k) * acc);
    (0..10).fold(e, |e, _| e * e)
}

/// What lies around and behind the diagram.
#[derive(Debug, Clone)]
pub enum Ground {
    /// One colour (RGB).
    Plain([u8; 3]),
    /// Value noise (smooth blotches, not per-pixel salt) around `base`, of `amplitude` levels.
    Noise {
        /// The colour the blotches vary about (RGB).
        base: [u8; 3],
        /// How far a blotch may lie from `base`, in levels of 255 (every channel alike).
        amplitude: u8,
    },
    /// A photograph or scan from the user's folder, a random crop scaled to the image.
    Picture(Arc<Picture>),
}

/// A background picture, decoded.
pub struct Picture {
    /// The file's name in its folder.
    pub name: String,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// RGB, 8 bits a channel, rows top to bottom: `width * height * 3` bytes.
    pub rgb: Vec<u8>,
}

/// Shows the name and the size, not the pixels (megabytes of them).
impl fmt::Debug for Picture {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Picture")
            .field("name", &self.name)
            .field("width", &self.width)
            .field("height", &self.height)
            .field("rgb", &format_args!("[{} bytes]", self.rgb.len()))
            .finish()
    }
}

/// What the camera does to one image. `Shot::plain()` does nothing (margin 0, no warp, no
/// filters): [`develop`] then returns the diagram's pixels composited over white, with the
/// identity transform. Values out of their ranges are brought into them (NaN or infinite:
/// the neutral value).
#[derive(Debug, Clone)]
pub struct Shot {
    /// Pixels of ground on each side of the diagram.
    pub margin: u32,
    /// What fills the image around and behind the diagram.
    pub ground: Ground,
    /// Degrees, clockwise on screen, about the image's centre.
    pub rotation: f64,
    /// The tilt, `[horizontal, vertical]`, each in −0.25..=0.25: the fraction by which one
    /// edge of the diagram shrinks against the opposite one (0: none). Horizontal turns the
    /// diagram about its vertical axis: positive shrinks the right edge, negative the left.
    /// Vertical turns it about its horizontal axis: positive shrinks the top edge (a board
    /// on a table seen from the front), negative the bottom. The diagram stays centred.
    pub perspective: [f64; 2],
    /// Gaussian blur's sigma in pixels (0: none; at most 20).
    pub blur: f64,
    /// Sensor noise's sigma in levels of 255 (0: none; at most 128). Each channel of each
    /// pixel gets its own draw, approximately Gaussian (the sum of four uniform bytes: the
    /// same mean and variance, tails cut at 3.45 sigma).
    pub noise: f64,
    /// The multiplier of every channel (1: unchanged; 0 to 16).
    pub brightness: f64,
    /// The seed of the noise's, the value noise's and the picture crop's randomness.
    pub seed: u64,
}

impl Shot {
    /// The shot that does nothing: margin 0, a white ground, no warp, no filters.
    pub fn plain() -> Shot {
        Shot {
            margin: 0,
            ground: Ground::Plain([255, 255, 255]),
            rotation: 0.0,
            perspective: [0.0, 0.0],
            blur: 0.0,
            noise: 0.0,
            brightness: 1.0,
            seed: 0,
        }
    }

    /// Whether this shot does what [`Shot::plain`] does: no margin, no warp, no filters
    /// and a white ground (which shows through a diagram's transparent pixels). The seed
    /// does not matter.
    pub fn is_plain(&self) -> bool {
        let s = self.settled();
        let white = matches!(self.ground, Ground::Plain([255, 255, 255]));
        let still = s.rotation == 0.0 && s.perspective == [0.0, 0.0];
        let clean = s.blur == 0.0 && s.noise == 0.0 && s.brightness == 1.0;
        self.margin == 0 && white && still && clean
    }

    /// This shot with its numbers brought into their ranges (−0 made 0, whole turns none).
    fn settled(&self) -> Shot {
        let mut s = self.clone();
        let finite = |v: f64, neutral: f64| if v.is_finite() { v } else { neutral };
        let no_sign = |v: f64| if v == 0.0 { 0.0 } else { v };
        s.rotation = no_sign(finite(s.rotation, 0.0) % 360.0);
        s.perspective = s
            .perspective
            .map(|t| no_sign(finite(t, 0.0).clamp(-0.25, 0.25)));
        s.blur = finite(s.blur, 0.0).clamp(0.0, 20.0);
        s.noise = finite(s.noise, 0.0).clamp(0.0, 128.0);
        s.brightness = finite(s.brightness, 1.0).clamp(0.0, 16.0);
        s
    }
}

/// The final image: RGB, 8 bits, and where the diagram's points went.
#[derive(Debug, Clone)]
pub struct Developed {
    /// Width in pixels: the diagram's plus twice the margin.
    pub width: u32,
    /// Height in pixels: the diagram's plus twice the margin.
    pub height: u32,
    /// RGB, 8 bits a channel, rows top to bottom: `width * height * 3` bytes.
    pub rgb: Vec<u8>,
    /// The map from the diagram's pixel coordinates to this image's.
    pub transform: Homography,
}

/// The streams of the shot's seed that the ground and the noise draw from.
const GROUND_STREAM: u64 = 1;
const NOISE_STREAM: u64 = 2;

/// `rgba` (straight, not premultiplied, RGBA of a `width` x `height` diagram) as `shot`
/// takes it: the image is `width + 2 * margin` by `height + 2 * margin` pixels and holds the
/// whole diagram (shrunk when turning or tilting would push a corner out; an image under 3
/// pixels a side is not turned or tilted).
///
/// # Panics
///
/// When `rgba` is not `width * height * 4` bytes, or the image's size overflows `u32`.
pub fn develop(rgba: &[u8], width: u32, height: u32, shot: &Shot) -> Developed {
    let (w, h) = (width as usize, height as usize);
    assert_eq!(rgba.len(), w * h * 4, "a {width}×{height} diagram's RGBA");
    let grow = |side: u32| shot.margin.checked_mul(2).and_then(|m| side.checked_add(m));
    let size = grow(width).zip(grow(height));
    let (out_w, out_h) = size.expect("the developed image's size fits in u32");
    let shot = &shot.settled();
    let transform = camera_transform(width, height, shot);
    let diagram = Diagram { rgba, w, h };
    let size = (out_w as usize, out_h as usize);
    let rgb = match size {
        (0, _) | (_, 0) => Vec::new(),
        _ => print(&diagram, size, &transform, shot),
    };
    Developed {
        width: out_w,
        height: out_h,
        rgb,
        transform,
    }
}

/// The pixels of [`develop`] (both sides over 0), row by row: ground, diagram, blur (row y
/// leaves when row y + r has come), film.
fn print(d: &Diagram, size: (usize, usize), t: &Homography, s: &Shot) -> Vec<u8> {
    let ((w, h), stride) = (size, size.0 * 3);
    let rng = Rng::new(s.seed);
    let mut ground = Painter::new(&s.ground, w, h, &mut rng.fork(GROUND_STREAM));
    let mut placement = Placement::new(t, d, w, h);
    let mut film = Film {
        brightness: s.brightness as f32,
        noise: s.noise as f32,
        rng: rng.fork(NOISE_STREAM),
        bits: Vec::new(),
        grain: Vec::new(),
    };
    let mut blur = RowBlur::new(w, s.blur);
    let mut rgb = Vec::with_capacity(stride * h);
    let (mut row, mut sum) = (vec![0.0f32; stride], vec![0.0f32; stride]);
    let mut next = 0;
    for v in 0..h {
        ground.paint(v, &mut row);
        placement.draw(v, &mut row, d);
        match blur {
            None => film.expose(&row, &mut rgb),
            Some(ref mut blur) => {
                blur.push(v, &row);
                if let Some(y) = v.checked_sub(blur.radius) {
                    blur.emit(y, h, &mut sum);
                    film.expose(&sum, &mut rgb);
                    next = y + 1;
                }
            }
        }
    }
    if let Some(blur) = &blur {
        for y in next..h {
            blur.emit(y, h, &mut sum);
            film.expose(&sum, &mut rgb);
        }
    }
    rgb
}

/// The diagram's straight RGBA pixels and size.
struct Diagram<'a> {
    rgba: &'a [u8],
    w: usize,
    h: usize,
}

/// The map a settled shot makes: place the diagram `margin` pixels in, tilt it and turn it
/// about the image's centre, and shrink it about the centre if a corner is then outside
/// [1, W−1] × [1, H−1].
fn camera_transform(width: u32, height: u32, s: &Shot) -> Homography {
    let m = f64::from(s.margin);
    let place = Homography::translate(m, m);
    let (w, h) = (f64::from(width), f64::from(height));
    let (cx, cy) = (w / 2.0 + m, h / 2.0 + m);
    let still = s.rotation == 0.0 && s.perspective == [0.0, 0.0];
    if still || width == 0 || height == 0 || cx < 1.5 || cy < 1.5 {
        return place;
    }
    let corners = [[0.0, 0.0], [w, 0.0], [w, h], [0.0, h]];
    let placed = corners.map(|p| place.apply(p));
    let tilted = tilt_quad(placed, s.perspective, cx, cy);
    let tilt = Homography::from_quads(placed, tilted).filter(|_| placed != tilted);
    let perspective = tilt.unwrap_or(Homography::IDENTITY);
    let turn = Homography::rotate_about(s.rotation, cx, cy);
    let turned = place.then(&perspective).then(&turn);
    // The largest scale (at most 1) that keeps offset d from the centre within `room`.
    let reach = |d: f64, room: f64| if d.abs() > room { room / d.abs() } else { 1.0 };
    let fit = corners.iter().fold(1.0f64, |fit, &p| {
        let [x, y] = turned.apply(p);
        fit.min(reach(x - cx, cx - 1.0))
            .min(reach(y - cy, cy - 1.0))
    });
    match fit < 1.0 {
        true => turned.then(&Homography::scale_about(fit, cx, cy)),
        false => turned,
    }
}

/// The placed diagram's corners (TL, TR, BR, BL) with the far edges pulled towards the
/// centre lines: the right or left by `tilt[0]`, the top or bottom by `tilt[1]`.
fn tilt_quad(quad: [[f64; 2]; 4], [th, tv]: [f64; 2], cx: f64, cy: f64) -> [[f64; 2]; 4] {
    let mut out = quad;
    for (i, p) in out.iter_mut().enumerate() {
        let (right, bottom) = (i == 1 || i == 2, i >= 2);
        if (th > 0.0 && right) || (th < 0.0 && !right) {
            p[1] = cy + (p[1] - cy) * (1.0 - th.abs());
        }
        if (tv > 0.0 && !bottom) || (tv < 0.0 && bottom) {
            p[0] = cx + (p[0] - cx) * (1.0 - tv.abs());
        }
    }
    out
}

/// What paints the ground, one row at a time.
enum Painter<'a> {
    /// One colour: the row is a copy of this one.
    Plain(Vec<f32>),
    /// Value noise: the base colour, the octaves with their amplitudes, one row's blotches.
    Noise([f32; 3], [(Octave, f32); 2], Vec<f32>),
    /// A crop of a picture: how each column, then each row, blends the picture's.
    Picture(&'a Picture, Vec<Blend>, Vec<Blend>),
}

/// Two source pixels and the weight of the second.
type Blend = (usize, usize, f32);

impl<'a> Painter<'a> {
    /// The painter of `ground` for a `w` x `h` image: value noise of two octaves (cells of
    /// 1/5 and 1/20 of the longer side); a random crop of the picture with the image's
    /// proportions (1/2 to all of the largest), scaled bilinearly.
    fn new(ground: &'a Ground, w: usize, h: usize, rng: &mut Rng) -> Painter<'a> {
        let plain = |c: [u8; 3]| Painter::Plain(c.map(f32::from).repeat(w));
        let p = match ground {
            Ground::Plain(colour) => return plain(*colour),
            Ground::Noise { base, amplitude } => {
                let (cell, a) = ((w.max(h) / 5).max(8), f32::from(*amplitude));
                let coarse = (Octave::new(w, h, cell, rng), 0.7 * a);
                let fine = (Octave::new(w, h, (cell / 4).max(4), rng), 0.3 * a);
                return Painter::Noise(base.map(f32::from), [coarse, fine], vec![0.0; w]);
            }
            Ground::Picture(picture) => picture.as_ref(),
        };
        if p.rgb.len() != p.width as usize * p.height as usize * 3 || p.rgb.is_empty() {
            return plain([255, 255, 255]);
        }
        let (pw, ph, aspect) = (f64::from(p.width), f64::from(p.height), w as f64 / h as f64);
        let (cw, ch) = if pw / ph > aspect {
            (ph * aspect, ph)
        } else {
            (pw, pw / aspect)
        };
        let f = rng.range(0.5, 1.0);
        let (x0, y0) = (rng.unit() * (pw - cw * f), rng.unit() * (ph - ch * f));
        let xs = sample_axis(w, x0, cw * f / w as f64, p.width);
        Painter::Picture(p, xs, sample_axis(h, y0, ch * f / h as f64, p.height))
    }

    /// Paints image row `v` (RGB levels of 255) into `row`.
    fn paint(&mut self, v: usize, row: &mut [f32]) {
        match self {
            Painter::Plain(colour) => row.copy_from_slice(colour),
            Painter::Noise(base, octaves, blotches) => {
                blotches.fill(0.0);
                for (octave, amplitude) in octaves.iter_mut() {
                    octave.add_row(v, *amplitude, blotches);
                }
                for (px, &n) in row.chunks_exact_mut(3).zip(blotches.iter()) {
                    px[0] = (base[0] + n).clamp(0.0, 255.0);
                    px[1] = (base[1] + n).clamp(0.0, 255.0);
                    px[2] = (base[2] + n).clamp(0.0, 255.0);
                }
            }
            Painter::Picture(picture, xs, ys) => {
                let ((j0, j1, ty), stride) = (ys[v], picture.width as usize * 3);
                let r0 = &picture.rgb[j0 * stride..][..stride];
                let r1 = &picture.rgb[j1 * stride..][..stride];
                for (px, &(i0, i1, tx)) in row.chunks_exact_mut(3).zip(xs.iter()) {
                    for (c, out) in px.iter_mut().enumerate() {
                        let at = |r: &[u8], i: usize| f32::from(r[i * 3 + c]);
                        let top = at(r0, i0) + (at(r0, i1) - at(r0, i0)) * tx;
                        let bottom = at(r1, i0) + (at(r1, i1) - at(r1, i0)) * tx;
                        *out = top + (bottom - top) * ty;
                    }
                }
            }
        }
    }
}

/// One layer of value noise: values in −1..=1 on a lattice of `cell` pixels, smoothly
/// interpolated. A row's pixels between two lattice columns are a chunk of `cell` pixels,
/// with the same weights along every chunk.
struct Octave {
    cell: usize,
    /// Lattice points a row.
    cols: usize,
    values: Vec<f32>,
    /// The smoothed fraction of the way to the next lattice point, for each pixel of a chunk.
    weights: Vec<f32>,
    /// The lattice interpolated down to the current image row: one value a lattice column.
    row: Vec<f32>,
}

impl Octave {
    fn new(w: usize, h: usize, cell: usize, rng: &mut Rng) -> Octave {
        let (cols, rows) = (w / cell + 2, h / cell + 2);
        let values = (0..cols * rows).map(|_| rng.range(-1.0, 1.0) as f32);
        let smooth = |i: usize| {
            let f = ((i as f64 + 0.5) / cell as f64) as f32;
            f * f * (3.0 - 2.0 * f)
        };
        let (values, weights) = (values.collect(), (0..cell).map(smooth).collect());
        Octave {
            cell,
            cols,
            values,
            weights,
            row: vec![0.0; cols],
        }
    }

    /// Adds `amplitude` times the layer along image row `v` to `out` (one value a pixel).
    fn add_row(&mut self, v: usize, amplitude: f32, out: &mut [f32]) {
        let (j, fy) = (v / self.cell, self.weights[v % self.cell]);
        let top = &self.values[j * self.cols..][..self.cols];
        let bottom = &self.values[(j + 1) * self.cols..][..self.cols];
        for ((r, t), b) in self.row.iter_mut().zip(top).zip(bottom) {
            *r = t + (b - t) * fy;
        }
        for (chunk, ends) in out.chunks_mut(self.cell).zip(self.row.windows(2)) {
            let (a, d) = (amplitude * ends[0], amplitude * (ends[1] - ends[0]));
            for (o, f) in chunk.iter_mut().zip(&self.weights) {
                *o += a + d * f;
            }
        }
    }
}

/// How each of `len` pixels blends `source` pixels, from `start` in steps of `step`.
fn sample_axis(len: usize, start: f64, step: f64, source: u32) -> Vec<Blend> {
    let last = f64::from(source - 1);
    let at = |i: usize| (start + (i as f64 + 0.5) * step - 0.5).clamp(0.0, last);
    let blend = |c: f64, i: f64| (i as usize, (i + 1.0).min(last) as usize, (c - i) as f32);
    (0..len).map(|i| blend(at(i), at(i).floor())).collect()
}

/// How the diagram is put on the image.
enum Placement {
    /// Moved by whole pixels, inside the image: copied (the plain shot, margins).
    Copy { dx: usize, dy: usize },
    /// Through a map.
    Warp(Box<Warp>),
}

impl Placement {
    fn new(t: &Homography, diagram: &Diagram, w: usize, h: usize) -> Placement {
        let m = t.0;
        let linear =
            [m[0], m[1], m[3], m[4], m[6], m[7], m[8]] == [1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0];
        let whole = |d: f64| d >= 0.0 && d.fract() == 0.0 && d < 1e9;
        let (dx, dy) = (m[2] as usize, m[5] as usize);
        if linear && whole(m[2]) && whole(m[5]) && dx + diagram.w <= w && dy + diagram.h <= h {
            return Placement::Copy { dx, dy };
        }
        Placement::Warp(Box::new(Warp::new(t, diagram, w, h)))
    }

    /// Draws the diagram's part in image row `v` over the ground in `row`.
    fn draw(&mut self, v: usize, row: &mut [f32], diagram: &Diagram) {
        match *self {
            Placement::Copy { dx, dy } if (dy..dy + diagram.h).contains(&v) && diagram.w > 0 => {
                let src = &diagram.rgba[(v - dy) * diagram.w * 4..][..diagram.w * 4];
                copy_row(&mut row[dx * 3..][..diagram.w * 3], src);
            }
            Placement::Warp(ref mut warp) if (warp.rows[0]..warp.rows[1]).contains(&v) => {
                warp.locate(v);
                warp.sample(row);
            }
            _ => {}
        }
    }
}

/// A diagram row over the ground: `(c·a + g·(255 − a)) / 255`, which rounds as the integer
/// `(c·a + g·(255 − a) + 127) / 255` does (no result is midway).
fn copy_row(out: &mut [f32], src: &[u8]) {
    for (out, s) in out.chunks_exact_mut(3).zip(src.chunks_exact(4)) {
        let a = f32::from(s[3]);
        for (o, &c) in out.iter_mut().zip(&s[..3]) {
            *o = match s[3] {
                255 => f32::from(c),
                0 => *o,
                _ => (f32::from(c) * a + *o * (255.0 - a)) / 255.0,
            };
        }
    }
}

/// The diagram drawn through a map, a row at a time: each pixel's centre taken back to the
/// diagram, sampled bilinearly (pixel centres at i + 0.5, transparent outside) and laid
/// over the ground. Two loops: where the pixels sample (branch-free: vector code), then
/// the samples.
struct Warp {
    /// The inverse map, its sign chosen so that the third coordinate is positive in front.
    inverse: [f64; 9],
    /// The columns and rows the diagram may touch.
    cols: [usize; 2],
    rows: [usize; 2],
    /// The diagram premultiplied (alpha in 0..=1), with a transparent border of one pixel
    /// so that edge samples need no tests: `pw` x `ph` pixels.
    px: Vec<[f32; 4]>,
    pw: usize,
    ph: usize,
    /// For each column of the row: the sample's top-left pixel (`ix` −1: none) and weights.
    ix: Vec<i32>,
    iy: Vec<i32>,
    tx: Vec<f32>,
    ty: Vec<f32>,
}

impl Warp {
    /// The warp of `diagram` through `t` (which flattens nothing) in a `w` x `h` image.
    fn new(t: &Homography, diagram: &Diagram, w: usize, h: usize) -> Warp {
        let (pw, ph) = (diagram.w + 2, diagram.h + 2);
        let mut px = Vec::with_capacity(pw * ph);
        px.resize(pw + 1, [0.0f32; 4]);
        for src in diagram.rgba.chunks_exact(diagram.w.max(1) * 4) {
            px.extend(src.chunks_exact(4).map(|s| {
                let a = f32::from(s[3]) * (1.0 / 255.0);
                [f32::from(s[0]), f32::from(s[1]), f32::from(s[2]), 1.0].map(|c| c * a)
            }));
            px.extend([[0.0f32; 4]; 2]); // this row's right border, the next one's left
        }
        px.resize(pw * ph, [0.0f32; 4]);
        // The bounding box of the corners, one pixel wider (a sample reaches half a pixel
        // past the edge). A homography is defined up to a factor: the inverse's sign is
        // chosen to make the third coordinate positive at the diagram's centre.
        let (dw, dh) = (diagram.w as f64, diagram.h as f64);
        let corners = [[0.0, 0.0], [dw, 0.0], [dw, dh], [0.0, dh]].map(|p| t.apply(p));
        let span = |k: usize, len: usize| {
            let (lo, hi) = corners.iter().fold((f64::MAX, f64::MIN), |(lo, hi), p| {
                (lo.min(p[k]), hi.max(p[k]))
            });
            [
                (lo.floor() - 1.0).clamp(0.0, len as f64) as usize,
                (hi.ceil() + 1.0).clamp(0.0, len as f64) as usize,
            ]
        };
        let (cols, rows, n) = (
            span(0, w),
            span(1, h),
            t.inverse().map_or([0.0; 9], |i| i.0),
        );
        let centre = t.apply([dw / 2.0, dh / 2.0]);
        let sign = (n[6] * centre[0] + n[7] * centre[1] + n[8]).signum();
        let len = cols[1] - cols[0];
        let (ix, iy, tx, ty) = (vec![-1; len], vec![0; len], vec![0.0; len], vec![0.0; len]);
        Warp {
            inverse: n.map(|v| v * sign),
            cols,
            rows,
            px,
            pw,
            ph,
            ix,
            iy,
            tx,
            ty,
        }
    }

    /// Where each pixel of row `v` samples the diagram.
    fn locate(&mut self, v: usize) {
        let (m, y) = (&self.inverse, v as f64 + 0.5);
        let (mx, my, mw) = (m[0] as f32, m[3] as f32, m[6] as f32);
        let (bx, by) = ((m[1] * y + m[2]) as f32, (m[4] * y + m[5]) as f32);
        let bw = (m[7] * y + m[8]) as f32;
        // In the bordered diagram, pixel i's centre is at i − 0.5 of the diagram's own
        // coordinates, so a point x lies between pixels ⌊x + 0.5⌋ and the next one.
        let (x_end, y_end) = ((self.pw - 1) as f32, (self.ph - 1) as f32);
        let (first, n) = (self.cols[0] as f32 + 0.5, self.ix.len());
        let (ix, iy) = (&mut self.ix[..n], &mut self.iy[..n]);
        let (tx, ty) = (&mut self.tx[..n], &mut self.ty[..n]);
        for i in 0..n {
            let x = i as i32 as f32 + first;
            let den = mw * x + bw;
            let (sx, sy) = ((mx * x + bx) / den, (my * x + by) / den);
            let (gx, gy) = (sx + 0.5, sy + 0.5);
            let inside = den > 0.0 && gx >= 0.0 && gx < x_end && gy >= 0.0 && gy < y_end;
            let ((jx, fx), (jy, fy)) = (whole_and_rest(sx), whole_and_rest(sy));
            ix[i] = if inside { jx } else { -1 };
            (iy[i], tx[i], ty[i]) = (jy, fx, fy);
        }
    }

    /// Samples the diagram where [`Warp::locate`] said and composites over `row`.
    fn sample(&self, row: &mut [f32]) {
        let (pw, n) = (self.pw, self.ix.len());
        let out = &mut row[self.cols[0] * 3..][..n * 3];
        let (xs, ys, txs, tys) = (&self.ix[..n], &self.iy[..n], &self.tx[..n], &self.ty[..n]);
        for i in 0..n {
            if xs[i] < 0 {
                continue;
            }
            let k = ys[i] as usize * pw + xs[i] as usize;
            let (top, bottom) = (&self.px[k..k + 2], &self.px[k + pw..k + pw + 2]);
            let (tx, ty) = (txs[i], tys[i]);
            let (w00, w10) = ((1.0 - tx) * (1.0 - ty), tx * (1.0 - ty));
            let upper = add4(scale4(top[0], w00), scale4(top[1], w10));
            let lower = add4(
                scale4(bottom[0], (1.0 - tx) * ty),
                scale4(bottom[1], tx * ty),
            );
            let s = add4(upper, lower);
            // Where the sample is transparent, this leaves the ground as it was (s is 0).
            let (keep, o) = (1.0 - s[3], &mut out[i * 3..i * 3 + 3]);
            (o[0], o[1], o[2]) = (s[0] + keep * o[0], s[1] + keep * o[1], s[2] + keep * o[2]);
        }
    }
}

/// 1.5 · 2²³: adding it rounds a float to a whole number (ties to even) in its low bits.
const ROUNDER: f32 = 12_582_912.0;

/// For x (|x| < 2²¹), the bordered diagram's pixel j whose centre is at or left of x and
/// the weight of j + 1: round(x) and x + 0.5 − round(x) (midway, j may be one less with
/// weight 1: the same sample). Bit work, which becomes vector code; a cast would not.
fn whole_and_rest(x: f32) -> (i32, f32) {
    let r = x + ROUNDER;
    let j = r.to_bits() as i32 - ROUNDER.to_bits() as i32;
    (j, (x - (r - ROUNDER)) + 0.5)
}

/// `p` times `w`, lane by lane.
fn scale4(p: [f32; 4], w: f32) -> [f32; 4] {
    [p[0] * w, p[1] * w, p[2] * w, p[3] * w]
}

/// `a` plus `b`, lane by lane.
fn add4(a: [f32; 4], b: [f32; 4]) -> [f32; 4] {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3]]
}

/// A separable Gaussian blur (e^(−k²/2σ²), |k| ≤ ⌈3σ⌉ = r), edges clamped, as rows come:
/// each row blurred along itself into a ring of the last 2r + 1, an output row the
/// weighted sum of its ring rows.
struct RowBlur {
    /// The weights of offsets 0, 1, …, r (the kernel sums to 1).
    half: Vec<f32>,
    radius: usize,
    /// Pixels a row.
    width: usize,
    /// One row with `radius` copies of its edge pixels on each side.
    padded: Vec<f32>,
    /// The last 2r + 1 rows blurred along themselves, row y in slot y % (2r + 1).
    ring: Vec<f32>,
}

impl RowBlur {
    /// The blur of `sigma` pixels for rows of `width` pixels (`None` when sigma is 0).
    fn new(width: usize, sigma: f64) -> Option<RowBlur> {
        if sigma <= 0.0 || width == 0 {
            return None;
        }
        let radius = (3.0 * sigma).ceil() as usize;
        let weights: Vec<f64> = (0..=radius)
            .map(|k| exp_series(-((k * k) as f64) / (2.0 * sigma * sigma)))
            .collect();
        let total = weights[0] + 2.0 * weights[1..].iter().sum::<f64>();
        Some(RowBlur {
            half: weights.iter().map(|w| (w / total) as f32).collect(),
            radius,
            width,
            padded: vec![0.0; (width + 2 * radius) * 3],
            ring: vec![0.0; width * 3 * (2 * radius + 1)],
        })
    }

    /// Takes image row `v` (rows come in order, from 0).
    fn push(&mut self, v: usize, row: &[f32]) {
        let (r, stride) = (self.radius, self.width * 3);
        for j in 0..r {
            self.padded[j * 3..j * 3 + 3].copy_from_slice(&row[..3]);
            self.padded[(r + self.width + j) * 3..][..3].copy_from_slice(&row[stride - 3..]);
        }
        self.padded[r * 3..r * 3 + stride].copy_from_slice(row);
        let out = &mut self.ring[v % (2 * r + 1) * stride..][..stride];
        let at = |j: usize| &self.padded[j * 3..][..stride];
        symmetric(out, &self.half, |k| (at(r - k), at(r + k)));
    }

    /// Blurs output row `y` down its columns into `sum`; the ring must hold rows y − r to
    /// y + r (clamped to the image's `height`).
    fn emit(&self, y: usize, height: usize, sum: &mut [f32]) {
        let (stride, len, last) = (self.width * 3, 2 * self.radius + 1, height - 1);
        let at = |source: usize| &self.ring[(source % len) * stride..][..stride];
        symmetric(sum, &self.half, |k| {
            (at(y.saturating_sub(k)), at((y + k).min(last)))
        });
    }
}

/// `out` = Σ `half[k]` times the two rows `rows(k)` (at k = 0 one row, once), row-wide.
fn symmetric<'r>(out: &mut [f32], half: &[f32], rows: impl Fn(usize) -> (&'r [f32], &'r [f32])) {
    for (o, p) in out.iter_mut().zip(rows(0).0) {
        *o = half[0] * p;
    }
    for (k, &weight) in half.iter().enumerate().skip(1) {
        let (a, b) = rows(k);
        for ((o, a), b) in out.iter_mut().zip(a).zip(b) {
            *o += weight * (a + b);
        }
    }
}

/// Two about normal numbers from 64 random bits: sums of four bytes (Irwin–Hall), centred
/// and scaled by √(4 · (256² − 1) / 12).
fn normals_from_bits(bits: u64) -> [f32; 2] {
    const BYTES: u64 = 0x00FF_00FF_00FF_00FF;
    const PAIRS: u64 = 0x0000_FFFF_0000_FFFF;
    let pairs = (bits & BYTES) + ((bits >> 8) & BYTES);
    let quads = (pairs & PAIRS) + ((pairs >> 16) & PAIRS);
    let z = |sum: u64| (sum as i32 - 510) as f32 * (1.0 / 147.800_54);
    [z(quads & 0xFFFF_FFFF), z(quads >> 32)]
}

/// The last stage: brightness and sensor noise, then bytes.
struct Film {
    brightness: f32,
    noise: f32,
    rng: Rng,
    /// One row's random words, and its noise in levels.
    bits: Vec<u64>,
    grain: Vec<f32>,
}

impl Film {
    /// Appends a row to `out` as bytes: level × brightness + sigma × a normal draw (two a
    /// random word, in byte order; an odd last byte takes a word), rounded, clamped.
    fn expose(&mut self, px: &[f32], out: &mut Vec<u8>) {
        // Rounded to the nearest whole number (ties to even) by adding ROUNDER: bit work,
        // which becomes vector code.
        let byte = |v: f32| (v.clamp(0.0, 255.0) + ROUNDER).to_bits() as u8;
        let (brightness, noise) = (self.brightness, self.noise);
        self.grain.resize(px.len().next_multiple_of(2), 0.0);
        if noise > 0.0 {
            // The random words first (the generator is a chain), then the normals.
            self.bits.clear();
            self.bits
                .extend((0..px.len().div_ceil(2)).map(|_| self.rng.next_u64()));
            for (g, &bits) in self.grain.chunks_exact_mut(2).zip(&self.bits) {
                let z = normals_from_bits(bits);
                (g[0], g[1]) = (noise * z[0], noise * z[1]);
            }
        }
        let expose = |(&p, &g): (&f32, &f32)| byte(p * brightness + g);
        out.extend(px.iter().zip(&self.grain).map(expose));
    }
}

/// How an image is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    /// PNG, RGB 8 bits, fast compression.
    Png,
    /// JPEG of this quality, 1..=100 (values outside are brought into it).
    Jpeg(u8),
}

impl Encoding {
    /// The file name's extension, without the dot: `"png"` or `"jpg"`.
    pub fn extension(self) -> &'static str {
        match self {
            Encoding::Png => "png",
            Encoding::Jpeg(_) => "jpg",
        }
    }
}

/// The file of an RGB image (`width * height * 3` bytes, 8 bits a channel).
///
/// # Panics
///
/// When `rgb` is not `width * height * 3` bytes, or (JPEG) a side is over 65,535 pixels:
/// an encoder writing to memory fails for no other reason.
pub fn encode(rgb: &[u8], width: u32, height: u32, encoding: Encoding) -> Vec<u8> {
    let (mut out, rgb8, what) = (Vec::new(), ExtendedColorType::Rgb8, encoding.extension());
    let written = match encoding {
        Encoding::Png => PngEncoder::new(&mut out).write_image(rgb, width, height, rgb8),
        Encoding::Jpeg(q) => JpegEncoder::new_with_quality(&mut out, q.clamp(1, 100))
            .write_image(rgb, width, height, rgb8),
    };
    if let Err(e) = written {
        panic!("cannot encode a {width}×{height} image as {what}: {e}");
    }
    out
}

// A backgrounds folder's limits: pictures, bytes a file, pixels a picture, pixels a side.
const MAX_PICTURES: usize = 10_000;
const MAX_FILE_BYTES: u64 = 32 << 20;
const MAX_PIXELS: u64 = 40_000_000;
const MIN_SIDE: u32 = 16;

/// Why a backgrounds folder could not be loaded: one sentence naming the folder or the file
/// and what is allowed.
#[derive(Debug, thiserror::Error)]
pub enum PictureError {
    /// The folder could not be listed (the folder, the system's reason).
    #[error("cannot read the backgrounds folder {0:?} ({1}): expected a folder of pictures")]
    Folder(PathBuf, String),
    /// The folder holds no file, hidden ones aside.
    #[error("the backgrounds folder {0:?} has no pictures: expected PNG or JPEG files")]
    Empty(PathBuf),
    /// The folder holds more than 10,000 files.
    #[error("the backgrounds folder {0:?} holds over 10,000 files: 10,000 pictures at most")]
    TooMany(PathBuf),
    /// A file is not a picture that may be used (the file; what is wrong and what is allowed).
    #[error("the background picture {0:?} {1}")]
    File(PathBuf, String),
}

/// Every picture in `dir` (PNG or JPEG by content, non-recursive, sorted by name), for
/// [`Ground::Picture`]. Hidden files (a name starting with a dot) and folders are skipped;
/// every other file must be a picture. Errors are one sentence naming the folder or file
/// and what is allowed: an unreadable folder, no pictures in it, a file that does not
/// decode, a file over 32 MiB, a picture over 40 megapixels or under 16 px on a side, more
/// than 10,000 pictures.
pub fn load_pictures(dir: &Path) -> Result<Vec<Arc<Picture>>, PictureError> {
    let folder_error = |e: std::io::Error| PictureError::Folder(dir.to_path_buf(), e.to_string());
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(folder_error)? {
        let entry = entry.map_err(folder_error)?;
        let (name, path) = (entry.file_name(), entry.path());
        // Links are followed; folders and what is not a regular file are skipped.
        if name.as_encoded_bytes().starts_with(b".") || !path.is_file() {
            continue;
        }
        if files.len() == MAX_PICTURES {
            return Err(PictureError::TooMany(dir.to_path_buf()));
        }
        files.push((name, path));
    }
    if files.is_empty() {
        return Err(PictureError::Empty(dir.to_path_buf()));
    }
    files.sort_by(|a, b| a.0.cmp(&b.0));
    files
        .iter()
        .map(|(name, path)| load_picture(name.to_string_lossy().into_owned(), path))
        .collect()
}

/// One picture file, checked and decoded to RGB.
fn load_picture(name: String, path: &Path) -> Result<Arc<Picture>, PictureError> {
    let fail = |why: String| PictureError::File(path.to_path_buf(), why);
    let unreadable = |e: std::io::Error| fail(format!("cannot be read ({e})"));
    let (file, mut bytes) = (std::fs::File::open(path).map_err(unreadable)?, Vec::new());
    let read = file.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes);
    read.map_err(unreadable)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(fail(
            "is over 32 MiB: a picture file may have 32 MiB at most".into(),
        ));
    }
    let format = match bytes.as_slice() {
        [0x89, b'P', b'N', b'G', ..] => ImageFormat::Png,
        [0xFF, 0xD8, 0xFF, ..] => ImageFormat::Jpeg,
        _ => {
            return Err(fail(
                "is not a PNG or JPEG file: the folder may hold only those".into(),
            ));
        }
    };
    let reader = || ImageReader::with_format(Cursor::new(&bytes), format);
    let undecodable =
        |e: image::ImageError| fail(format!("does not decode ({e}): expected a valid picture"));
    let (width, height) = reader().into_dimensions().map_err(undecodable)?;
    if width < MIN_SIDE || height < MIN_SIDE || u64::from(width) * u64::from(height) > MAX_PIXELS {
        let allowed = "16 pixels a side at least and 40 megapixels at most";
        return Err(fail(format!(
            "is {width}×{height} pixels: a picture may have {allowed}"
        )));
    }
    let decoded = reader().decode().map_err(undecodable)?.into_rgb8();
    let ((width, height), rgb) = (decoded.dimensions(), decoded.into_raw());
    Ok(Arc::new(Picture {
        name,
        width,
        height,
        rgb,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: [f64; 2], b: [f64; 2], tolerance: f64) -> bool {
        (a[0] - b[0]).abs() <= tolerance && (a[1] - b[1]).abs() <= tolerance
    }

    /// A `w` x `h` opaque white diagram with a black `side` x `side` square at (x, y).
    fn diagram_with_square(w: u32, h: u32, x: u32, y: u32, side: u32) -> Vec<u8> {
        let mut rgba = vec![255u8; (w * h * 4) as usize];
        for j in y..y + side {
            for i in x..x + side {
                let k = ((j * w + i) * 4) as usize;
                rgba[k..k + 3].copy_from_slice(&[0, 0, 0]);
            }
        }
        rgba
    }

    /// The mean of a developed image's channels over the pixels within `radius` of `p`.
    fn mean_around(d: &Developed, p: [f64; 2], radius: i64) -> f64 {
        let (mut sum, mut n) = (0.0, 0.0);
        for v in p[1] as i64 - radius..=p[1] as i64 + radius {
            for u in p[0] as i64 - radius..=p[0] as i64 + radius {
                if (0..d.width as i64).contains(&u) && (0..d.height as i64).contains(&v) {
                    let k = ((v * d.width as i64 + u) * 3) as usize;
                    sum += d.rgb[k..k + 3].iter().map(|&c| f64::from(c)).sum::<f64>() / 3.0;
                    n += 1.0;
                }
            }
        }
        sum / n
    }

    fn pixel(d: &Developed, u: u32, v: u32) -> [u8; 3] {
        let k = ((v * d.width + u) * 3) as usize;
        [d.rgb[k], d.rgb[k + 1], d.rgb[k + 2]]
    }

    fn shot(margin: u32, rotation: f64, perspective: [f64; 2]) -> Shot {
        Shot {
            margin,
            rotation,
            perspective,
            ..Shot::plain()
        }
    }

    #[test]
    fn homographies_apply_compose_and_invert() {
        let a = Homography::rotate_about(30.0, 50.0, 40.0)
            .then(&Homography::scale_about(0.8, 10.0, 20.0));
        let tilt = [[0.0, 0.0], [100.0, 10.0], [90.0, 95.0], [5.0, 100.0]];
        let b = Homography::from_quads(
            [[0.0, 0.0], [100.0, 0.0], [100.0, 100.0], [0.0, 100.0]],
            tilt,
        )
        .unwrap();
        let ab = a.then(&b);
        for p in [[0.0, 0.0], [12.5, -3.0], [77.0, 64.0]] {
            assert!(close(ab.apply(p), b.apply(a.apply(p)), 1e-9), "{p:?}");
            assert!(
                close(ab.inverse().unwrap().apply(ab.apply(p)), p, 1e-9),
                "{p:?}"
            );
            assert!(close(Homography::IDENTITY.apply(p), p, 0.0));
        }
        assert!(close(
            Homography::translate(3.0, -2.0).apply([1.0, 1.0]),
            [4.0, -1.0],
            0.0
        ));
        assert!(close(
            Homography::scale_about(2.0, 10.0, 10.0).apply([11.0, 9.0]),
            [12.0, 8.0],
            1e-12
        ));
        assert_eq!(
            Homography([1.0, 2.0, 0.0, 2.0, 4.0, 0.0, 0.0, 0.0, 1.0]).inverse(),
            None
        );
    }

    #[test]
    fn from_quads_maps_the_four_points_and_refuses_a_flat_quad() {
        let from = [[10.0, 10.0], [410.0, 10.0], [410.0, 410.0], [10.0, 410.0]];
        let to = [[30.0, 12.0], [400.0, 40.0], [380.0, 390.0], [15.0, 420.0]];
        let map = Homography::from_quads(from, to).unwrap();
        for (f, t) in from.iter().zip(&to) {
            assert!(
                close(map.apply(*f), *t, 1e-9),
                "{f:?} went to {:?}, not {t:?}",
                map.apply(*f)
            );
        }
        let flat = [[0.0, 0.0], [1.0, 1.0], [2.0, 2.0], [3.0, 3.0]];
        assert_eq!(Homography::from_quads(from, flat), None);
    }

    #[test]
    fn rotate_about_90_degrees_turns_clockwise_on_screen() {
        let turn = Homography::rotate_about(90.0, 10.0, 10.0);
        assert_eq!(turn.apply([20.0, 10.0]), [10.0, 20.0]); // right of the centre goes below
        assert_eq!(turn.apply([10.0, 0.0]), [20.0, 10.0]); // above goes right
        for degrees in [
            -725.0, -90.0, -33.3, 0.0, 1e-7, 17.0, 45.0, 135.5, 270.0, 359.9,
        ] {
            let (s, c) = sin_cos_degrees(degrees);
            let radians = f64::to_radians(degrees);
            assert!(
                (s - radians.sin()).abs() < 1e-14 && (c - radians.cos()).abs() < 1e-14,
                "{degrees}"
            );
        }
        for x in [0.0, -0.01, -0.5, -1.0, -2.5, -4.5] {
            assert!((exp_series(x) - f64::exp(x)).abs() < 1e-12, "{x}");
        }
    }

    #[test]
    fn the_plain_shot_returns_the_diagram_over_white() {
        let (w, h) = (7u32, 5u32);
        let rgba: Vec<u8> = (0..w * h * 4).map(|i| (i * 37 % 256) as u8).collect();
        let shot = Shot::plain();
        assert!(shot.is_plain());
        let d = develop(&rgba, w, h, &shot);
        assert_eq!(
            (d.width, d.height, d.transform),
            (w, h, Homography::IDENTITY)
        );
        let over_white: Vec<u8> = rgba
            .chunks_exact(4)
            .flat_map(|p| {
                let a = u32::from(p[3]);
                [0, 1, 2].map(|c| ((u32::from(p[c]) * a + 255 * (255 - a) + 127) / 255) as u8)
            })
            .collect();
        assert_eq!(d.rgb, over_white);
        assert!(
            Shot {
                seed: 9,
                ..Shot::plain()
            }
            .is_plain()
        );
        assert!(
            !Shot {
                margin: 1,
                ..Shot::plain()
            }
            .is_plain()
        );
        assert!(
            !Shot {
                ground: Ground::Plain([0, 0, 0]),
                ..Shot::plain()
            }
            .is_plain()
        );
        assert!(
            Shot {
                rotation: 360.0,
                blur: f64::NAN,
                ..Shot::plain()
            }
            .is_plain()
        );
    }

    #[test]
    fn a_margin_moves_the_diagram_by_whole_pixels() {
        let rgba = diagram_with_square(30, 20, 4, 6, 3);
        let shot = Shot {
            ground: Ground::Plain([10, 200, 30]),
            ..shot(12, 0.0, [0.0, 0.0])
        };
        let d = develop(&rgba, 30, 20, &shot);
        assert_eq!((d.width, d.height, d.rgb.len()), (54, 44, 54 * 44 * 3));
        assert_eq!(d.transform, Homography::translate(12.0, 12.0));
        assert_eq!(pixel(&d, 12 + 5, 12 + 7), [0, 0, 0]);
        assert_eq!(pixel(&d, 12, 12), [255, 255, 255]);
        assert_eq!(pixel(&d, 11, 12), [10, 200, 30]);
        assert_eq!(pixel(&d, 53, 43), [10, 200, 30]);
    }

    #[test]
    fn turned_and_tilted_diagrams_follow_their_transform() {
        let (w, h) = (200u32, 160u32);
        let rgba = diagram_with_square(w, h, 150, 30, 12);
        let shots = [
            shot(20, 17.0, [0.2, -0.15]),
            shot(0, -35.0, [-0.25, 0.25]),
            shot(30, 90.0, [0.0, 0.1]),
            shot(10, 180.0, [0.12, 0.0]),
            Shot {
                blur: 0.8,
                noise: 3.0,
                brightness: 1.1,
                ..shot(16, 8.0, [0.05, 0.05])
            },
        ];
        for shot in &shots {
            let d = develop(&rgba, w, h, shot);
            let t = d.transform;
            assert_ne!(t, Homography::IDENTITY);
            let (big_w, big_h) = (f64::from(d.width), f64::from(d.height));
            for corner in [[0.0, 0.0], [200.0, 0.0], [200.0, 160.0], [0.0, 160.0]] {
                let [x, y] = t.apply(corner);
                let inside = (1.0 - 1e-9..=big_w - 1.0 + 1e-9).contains(&x)
                    && (1.0 - 1e-9..=big_h - 1.0 + 1e-9).contains(&y);
                assert!(inside, "{shot:?}: corner {corner:?} went to {:?}", [x, y]);
            }
            let dark = mean_around(&d, t.apply([156.0, 36.0]), 1);
            let light = mean_around(&d, t.apply([40.0, 120.0]), 1);
            assert!(
                dark < 90.0 && light > 200.0,
                "{shot:?}: square {dark}, elsewhere {light}"
            );
        }
    }

    #[test]
    fn half_and_quarter_turns_move_pixels_exactly() {
        let (w, h) = (9u32, 9u32);
        let rgba: Vec<u8> = (0..w * h)
            .flat_map(|i| [(i * 7) as u8, (i * 13) as u8, 200, 255])
            .collect();
        let at = |i: u32, j: u32| rgba[((j * w + i) * 4) as usize];
        let half = develop(&rgba, w, h, &shot(2, 180.0, [0.0, 0.0]));
        let quarter = develop(&rgba, w, h, &shot(2, 90.0, [0.0, 0.0]));
        for (i, j) in (0..w).flat_map(|i| (0..h).map(move |j| (i, j))) {
            assert_eq!(
                pixel(&half, 2 + w - 1 - i, 2 + h - 1 - j)[0],
                at(i, j),
                "({i}, {j})"
            );
            assert_eq!(
                pixel(&quarter, 2 + h - 1 - j, 2 + i)[0],
                at(i, j),
                "({i}, {j})"
            );
        }
    }

    #[test]
    fn development_is_deterministic_and_seeded() {
        let rgba = diagram_with_square(64, 48, 10, 10, 8);
        let ground = Ground::Noise {
            base: [120, 130, 140],
            amplitude: 40,
        };
        let noisy = Shot {
            ground,
            noise: 8.0,
            blur: 1.2,
            seed: 5,
            ..shot(9, 11.0, [0.1, 0.0])
        };
        let a = develop(&rgba, 64, 48, &noisy);
        assert_eq!(a.rgb, develop(&rgba, 64, 48, &noisy).rgb);
        let other = develop(
            &rgba,
            64,
            48,
            &Shot {
                seed: 6,
                ..noisy.clone()
            },
        );
        assert_ne!(a.rgb, other.rgb);
        assert_eq!(a.transform, other.transform);
    }

    #[test]
    fn blur_brightness_and_noise_do_what_they_say() {
        // Left half black, right half white.
        let (w, h) = (40u32, 10u32);
        let rgba: Vec<u8> = (0..w * h)
            .flat_map(|i| if i % w < 20 { [0, 0, 0, 255] } else { [255; 4] })
            .collect();
        let sharp = develop(&rgba, w, h, &Shot::plain());
        let soft = develop(
            &rgba,
            w,
            h,
            &Shot {
                blur: 2.0,
                ..Shot::plain()
            },
        );
        assert_eq!(
            (pixel(&sharp, 19, 5), pixel(&sharp, 20, 5)),
            ([0; 3], [255; 3])
        );
        let (a, b) = (pixel(&soft, 19, 5)[0], pixel(&soft, 20, 5)[0]);
        assert!(a > 40 && a < 128 && b > 128 && b < 215, "{a} {b}");
        assert_eq!(
            (pixel(&soft, 0, 0), pixel(&soft, 39, 9)),
            ([0; 3], [255; 3])
        );
        let dim = develop(
            &rgba,
            w,
            h,
            &Shot {
                brightness: 0.5,
                ..Shot::plain()
            },
        );
        assert_eq!(pixel(&dim, 30, 5), [128; 3]); // 127.5 rounds to even
        let grey = [128u8, 128, 128, 255].repeat(100 * 100);
        let noisy = develop(
            &grey,
            100,
            100,
            &Shot {
                noise: 10.0,
                seed: 3,
                ..Shot::plain()
            },
        );
        let values: Vec<f64> = noisy.rgb.iter().map(|&v| f64::from(v) - 128.0).collect();
        let mean = values.iter().sum::<f64>() / values.len() as f64;
        let sd = (values.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>()
            / values.len() as f64)
            .sqrt();
        assert!(
            mean.abs() < 0.2 && (sd - 10.0).abs() < 0.4,
            "mean {mean}, sd {sd}"
        );
    }

    #[test]
    fn grounds_fill_the_margin() {
        let rgba = diagram_with_square(20, 20, 0, 0, 1);
        let blotchy = Shot {
            ground: Ground::Noise {
                base: [100, 100, 100],
                amplitude: 50,
            },
            ..shot(60, 0.0, [0.0, 0.0])
        };
        let d = develop(&rgba, 20, 20, &blotchy);
        let row: Vec<i32> = (0..d.width)
            .map(|u| i32::from(pixel(&d, u, 3)[0]))
            .collect();
        assert!(row.iter().all(|v| (50..=150).contains(v)), "{row:?}");
        assert!(
            row.iter().max().unwrap() - row.iter().min().unwrap() > 10,
            "flat: {row:?}"
        );
        assert!(
            row.windows(2).all(|p| (p[0] - p[1]).abs() <= 12),
            "not smooth: {row:?}"
        );
        let stripes: Vec<u8> = (0..64 * 32)
            .flat_map(|i| {
                if i % 64 < 32 {
                    [200, 0, 0]
                } else {
                    [0, 0, 200]
                }
            })
            .collect();
        let name = "stripes.png".to_string();
        let picture = Arc::new(Picture {
            name,
            width: 64,
            height: 32,
            rgb: stripes,
        });
        let d = develop(
            &rgba,
            20,
            20,
            &Shot {
                ground: Ground::Picture(picture),
                ..blotchy
            },
        );
        for v in 0..d.height {
            for u in 0..d.width {
                let [r, g, b] = pixel(&d, u, v);
                let inside = (60..80).contains(&u) && (60..80).contains(&v);
                assert!(
                    inside || (g == 0 && u32::from(r) + u32::from(b) >= 198),
                    "({u}, {v}): {r} {g} {b}"
                );
            }
        }
    }

    #[test]
    fn encoded_images_decode_to_their_size() {
        let rgba = diagram_with_square(120, 90, 20, 20, 30);
        let d = develop(
            &rgba,
            120,
            90,
            &Shot {
                noise: 6.0,
                ..shot(5, 3.0, [0.0, 0.0])
            },
        );
        let png = encode(&d.rgb, d.width, d.height, Encoding::Png);
        let decoded = image::load_from_memory(&png).unwrap().into_rgb8();
        assert_eq!((decoded.width(), decoded.height()), (130, 100));
        assert_eq!(decoded.into_raw(), d.rgb);
        let small = encode(&d.rgb, d.width, d.height, Encoding::Jpeg(30));
        let fine = encode(&d.rgb, d.width, d.height, Encoding::Jpeg(95));
        assert!(small.len() < fine.len(), "{} {}", small.len(), fine.len());
        let decoded = image::load_from_memory(&small).unwrap();
        assert_eq!((decoded.width(), decoded.height()), (130, 100));
        assert_eq!(
            (Encoding::Png.extension(), Encoding::Jpeg(80).extension()),
            ("png", "jpg")
        );
    }

    /// A fresh, empty folder of its own for one test.
    fn scratch(test: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("staunton-camera-{}-{test}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn load_pictures_reads_a_folder_of_pictures() {
        let dir = scratch("good");
        let rgb: Vec<u8> = (0..20 * 18 * 3).map(|i| (i % 251) as u8).collect();
        std::fs::write(dir.join("b.png"), encode(&rgb, 20, 18, Encoding::Png)).unwrap();
        std::fs::write(dir.join("a.jpg"), encode(&rgb, 20, 18, Encoding::Jpeg(90))).unwrap();
        std::fs::write(dir.join(".hidden"), b"not a picture").unwrap();
        std::fs::create_dir(dir.join("folder")).unwrap();
        let pictures = load_pictures(&dir).unwrap();
        let names: Vec<&str> = pictures.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["a.jpg", "b.png"]);
        assert_eq!(
            (pictures[1].width, pictures[1].height, &pictures[1].rgb),
            (20, 18, &rgb)
        );
        assert!(format!("{:?}", pictures[0]).contains("1080 bytes"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn load_pictures_names_what_is_wrong() {
        let dir = scratch("bad");
        let rgb = vec![90u8; 20 * 20 * 3];
        std::fs::write(dir.join("good.png"), encode(&rgb, 20, 20, Encoding::Png)).unwrap();
        std::fs::write(dir.join("garbage.png"), b"\x89PNG\r\n\x1a\nnot really").unwrap();
        let message = load_pictures(&dir).unwrap_err().to_string();
        assert!(
            message.contains("garbage.png") && message.contains("does not decode"),
            "{message}"
        );
        std::fs::write(dir.join("garbage.png"), b"hello").unwrap();
        let message = load_pictures(&dir).unwrap_err().to_string();
        assert!(
            message.contains("garbage.png") && message.contains("not a PNG or JPEG"),
            "{message}"
        );
        std::fs::remove_file(dir.join("garbage.png")).unwrap();
        std::fs::write(
            dir.join("tiny.png"),
            encode(&rgb[..8 * 8 * 3], 8, 8, Encoding::Png),
        )
        .unwrap();
        let message = load_pictures(&dir).unwrap_err().to_string();
        assert!(
            message.contains("tiny.png") && message.contains("8×8"),
            "{message}"
        );
        let empty = scratch("empty");
        std::fs::write(empty.join(".DS_Store"), b"").unwrap();
        let message = load_pictures(&empty).unwrap_err().to_string();
        assert!(
            matches!(load_pictures(&empty), Err(PictureError::Empty(_)))
                && message.contains("no pictures")
        );
        let missing = load_pictures(&dir.join("missing")).unwrap_err().to_string();
        assert!(
            missing.contains("missing") && missing.contains("cannot read"),
            "{missing}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
        std::fs::remove_dir_all(&empty).unwrap();
    }
}
