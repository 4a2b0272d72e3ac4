//! A scene's pixels, the way the PNG, WebP and GIF encoders take them: composed as palette
//! indices by [`indexed`] where the board's context covers the scene (painting RGBA with
//! [`raster`] only for the runs it does not), else painted whole in RGBA.
//!
//! Free functions over the painters' caches ([`Painters`]) and a buffer kept between
//! renders ([`Canvas`]); the caller (the `Renderer`) hands the result to `encode`.

use super::indexed::{self, Tiles};
use super::raster::{self, SpriteCache};
use crate::render::RenderError;
use crate::render::art::font::LabelFont;
use crate::render::art::pieces::PieceSet;
use crate::render::scene::Scene;

/// What a scene is painted with: the piece set, and the caches and font of the renderer.
#[derive(Clone, Copy)]
pub struct Painters<'a> {
    pub set: &'a PieceSet,
    pub sprites: &'a SpriteCache,
    pub tiles: &'a Tiles,
    pub font: &'a LabelFont,
}

/// A thread's painting buffers, reused from render to render: RGBA pixels and the indexed
/// composition.
#[derive(Default)]
pub struct Canvas {
    pixels: Vec<u8>,
    indexed: indexed::Scratch,
}

/// The pixels of one scene, borrowed from the [`Canvas`] that holds them.
pub enum Pixels<'a> {
    /// Palette indices, one byte a pixel, and their palette (RGB triplets).
    Indexed { indices: &'a [u8], palette: &'a [u8] },
    /// Premultiplied RGBA.
    Rgba(&'a [u8]),
}

impl Canvas {
    /// Bytes held.
    pub fn capacity(&self) -> usize {
        self.pixels.capacity() + self.indexed.capacity()
    }

    /// The indexed composition's buffers, for a caller that takes them over (animation
    /// frames) rather than copying them: swapped with `indices` and `palette`.
    pub fn take_indexed(&mut self, indices: &mut Vec<u8>, palette: &mut Vec<u8>) {
        std::mem::swap(indices, &mut self.indexed.indices);
        std::mem::swap(palette, &mut self.indexed.palette);
    }
}

/// Whether `scene` would be composed from a context already held: no sprites rasterised
/// and no context built, so its PNG takes a composition and an encoding.
pub fn is_held(scene: &Scene, p: Painters) -> bool {
    indexed::has_context(scene, p.set, p.tiles, scene.labels_in_margin)
}

/// Paint `scene` into `canvas`: as palette indices when the board's context covers it
/// (painting RGBA only for what it does not), else all in RGBA.
pub fn paint<'c>(
    scene: &Scene,
    p: Painters,
    canvas: &'c mut Canvas,
) -> Result<Pixels<'c>, RenderError> {
    let labels = scene.labels_in_margin;
    let context = indexed::context(scene, p.set, (p.sprites, p.tiles), p.font, labels);
    if let Some(context) = context {
        let layers = (p.set, p.sprites, p.tiles);
        let dirty = indexed::compose(&context, scene, layers, p.font, labels, &mut canvas.indexed);
        if canvas.indexed.too_many_colours() {
            return full_colour(scene, p, canvas);
        }
        if dirty {
            // Only the dirty runs are read: paint just those.
            let within = Some(canvas.indexed.dirty());
            if !raster::paint_within(scene, p.set, p.sprites, p.font, within, &mut canvas.pixels)
            {
                return Err(RenderError::Allocate(scene.width, scene.height));
            }
        }
        if indexed::convert(&context, &canvas.pixels, &mut canvas.indexed) {
            let (indices, palette) = (&canvas.indexed.indices, &canvas.indexed.palette);
            return Ok(Pixels::Indexed { indices, palette });
        }
    }
    full_colour(scene, p, canvas)
}

/// Paint all of `scene` in RGBA into `canvas`.
fn full_colour<'c>(
    scene: &Scene,
    p: Painters,
    canvas: &'c mut Canvas,
) -> Result<Pixels<'c>, RenderError> {
    if !raster::paint_buffer(scene, p.set, p.sprites, p.font, &mut canvas.pixels) {
        return Err(RenderError::Allocate(scene.width, scene.height));
    }
    Ok(Pixels::Rgba(&canvas.pixels))
}
