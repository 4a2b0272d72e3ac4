//! What a fence becomes: its diagram rendered (each distinct request once, on every core)
//! and the text put in its place, in the mode's form; or, going on past a bad fence, an
//! error card.

use super::fence::Diagram;
use super::settings::{MarkdownError, Mode, Report, Settings};
use crate::render::layouts::card::Card;
use crate::render::options::{DEFAULT_SIZE, Format, MAX_SIZE, MIN_SIZE};
use crate::render::{RenderError, Renderer};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Bytes of inline SVG kept for fences met again later; past it the kept ones are dropped
/// (a repeated diagram is then rendered again, from the renderer's warm caches).
const KEPT_SVG_BYTES: usize = 32 * 1024 * 1024;

/// A rewrite's state: the settings, what is rendered and written, the report.
pub struct Emitter<'a> {
    settings: &'a Settings,
    renderer: &'a Renderer,
    /// Images mode: file names written or found; a diagram's render error by name.
    files: HashMap<String, Result<(), String>>,
    /// Inline mode: the one-line HTML of each SVG (or the render error) by request key and
    /// alt text, made once however often the diagram recurs.
    svgs: HashMap<String, Result<String, String>>,
    svg_bytes: usize,
    report: Report,
}

impl<'a> Emitter<'a> {
    /// An emitter for `settings`; in images mode its folder is made (the folders made are
    /// the first of [`Report::created`]).
    pub fn new(settings: &'a Settings, renderer: &'a Renderer) -> Result<Self, MarkdownError> {
        let mut report = Report::default();
        if let Mode::Images { dir, .. } = &settings.mode {
            report.created = missing_folders(dir);
            std::fs::create_dir_all(dir).map_err(|e| named(dir, "make", e))?;
        }
        Ok(Emitter {
            settings,
            renderer,
            files: HashMap::new(),
            svgs: HashMap::new(),
            svg_bytes: 0,
            report,
        })
    }

    /// What was done so far.
    pub fn report(self) -> Report {
        self.report
    }

    /// Render those of `diagrams` (the readable ones of `fences` fences) not rendered yet,
    /// in parallel, each distinct one once.
    pub fn render(&mut self, diagrams: &[&Diagram], fences: usize) -> Result<(), MarkdownError> {
        self.report.fences += fences;
        match &self.settings.mode {
            Mode::Images { dir, .. } => self.write_files(dir, diagrams),
            Mode::Inline => {
                self.render_svgs(diagrams);
                Ok(())
            }
            Mode::Url { .. } => Ok(()),
        }
    }

    fn write_files(&mut self, dir: &Path, diagrams: &[&Diagram]) -> Result<(), MarkdownError> {
        let mut seen = HashSet::new();
        let todo: Vec<(&Diagram, String)> = diagrams
            .iter()
            .map(|d| (*d, d.file_name()))
            .filter(|(_, name)| !self.files.contains_key(name) && seen.insert(name.clone()))
            .collect();
        let renderer = self.renderer;
        let results = parallel(&todo, |(d, name)| {
            let bytes = renderer.render(&d.request.position, &d.request.options, d.request.format);
            match bytes {
                Ok(bytes) => write_if_changed(&dir.join(name), &bytes).map(Ok),
                Err(e) => Ok(Err(e.to_string())),
            }
        });
        // Every file written is recorded before any error is passed on, so a failed
        // rewrite can remove them all.
        let mut failure = None;
        for ((_, name), result) in todo.into_iter().zip(results) {
            match result {
                Ok(result) => {
                    if result == Ok(true) {
                        self.report.written += 1;
                        self.report.created.push(dir.join(&name));
                    }
                    self.files.insert(name, result.map(|_| ()));
                }
                Err(e) => failure = failure.or(Some(e)),
            }
        }
        failure.map_or(Ok(()), Err)
    }

    fn render_svgs(&mut self, diagrams: &[&Diagram]) {
        // Dropped before choosing what to render, so every diagram of the chunk is there.
        if self.svg_bytes > KEPT_SVG_BYTES {
            self.svgs.clear();
            self.svg_bytes = 0;
        }
        let mut seen = HashSet::new();
        let todo: Vec<&Diagram> = diagrams
            .iter()
            .filter(|d| {
                let key = inline_key(d);
                !self.svgs.contains_key(&key) && seen.insert(key)
            })
            .copied()
            .collect();
        let renderer = self.renderer;
        let results = parallel(&todo, |d| {
            page_svg(renderer, d)
                .map(|svg| block(&svg))
                .map_err(|e| e.to_string())
        });
        for (d, result) in todo.into_iter().zip(results) {
            self.svg_bytes += result.as_ref().map_or(0, String::len);
            self.svgs.insert(inline_key(d), result);
        }
    }

    /// The text in place of the fence at `line` that read as `diagram`.
    pub fn replacement(
        &mut self,
        line: usize,
        diagram: &Result<Diagram, String>,
    ) -> Result<String, MarkdownError> {
        let made = diagram
            .as_ref()
            .map_err(Clone::clone)
            .and_then(|d| self.made(d));
        match made {
            Ok(text) => Ok(text),
            Err(sentence) if self.settings.keep_going => {
                self.report
                    .warnings
                    .push(format!("line {line}: {sentence}"));
                self.error_card(line, &sentence)
            }
            Err(sentence) => Err(MarkdownError::Fence { line, sentence }),
        }
    }

    /// The diagram's text in the mode's form, or its render error.
    fn made(&self, d: &Diagram) -> Result<String, String> {
        let image = match &self.settings.mode {
            Mode::Images { link, .. } => {
                let name = d.file_name();
                if let Some(Err(e)) = self.files.get(&name) {
                    return Err(e.clone());
                }
                img(&linked(link, &name), &d.alt, self.pixels(d))
            }
            Mode::Inline => match self.svgs.get(&inline_key(d)) {
                Some(Ok(html)) => html.clone(),
                Some(Err(e)) => return Err(e.clone()),
                None => return Err("the diagram was not rendered".to_string()),
            },
            Mode::Url { base } => img(&service_url(base, d), &d.alt, self.pixels(d)),
        };
        Ok(framed(image, d.caption.as_deref()))
    }

    /// The diagram's width and height in pixels (CSS pixels; points for a PDF), from its
    /// layout alone: an `<img>` carries them so the page does not reflow as it loads.
    fn pixels(&self, d: &Diagram) -> (u32, u32) {
        let scene = self
            .renderer
            .layout(&d.request.position, &d.request.options);
        (scene.width, scene.height)
    }

    /// An error card for the fence at `line`: a file in images mode, inline SVG otherwise.
    fn error_card(&mut self, line: usize, sentence: &str) -> Result<String, MarkdownError> {
        let size = self.card_size();
        let heading = format!("Diagram error, line {line}");
        let card = Card::new(&heading, sentence, size).map_err(|e| MarkdownError::Fence {
            line,
            sentence: e.to_string(),
        })?;
        let alt = format!("{heading}: {sentence}");
        let Mode::Images { dir, link, format } = &self.settings.mode else {
            let svg = crate::render::paint::svg::labelled(&card.svg(Some(sentence)), &alt);
            return Ok(framed(block(&svg), None));
        };
        let hash = crate::hash::fnv1a(format!("{size} {heading} {sentence}").bytes());
        let name = format!(
            "error-{}.{}",
            crate::hash::base36(hash, 13),
            format.extension()
        );
        let bytes = match format {
            Format::Pdf => {
                let about = crate::render::encode::convert::About {
                    title: &heading,
                    lang: "en",
                };
                crate::render::encode::convert::pdf(&card.svg(Some(sentence)), 72, about, &alt)
            }
            other => card.encode(*other),
        };
        let bytes = bytes.map_err(|e| MarkdownError::Fence {
            line,
            sentence: e.to_string(),
        })?;
        if write_if_changed(&dir.join(&name), &bytes)? {
            self.report.written += 1;
            self.report.created.push(dir.join(&name));
        }
        Ok(img(&linked(link, &name), &alt, (card.size, card.size)))
    }

    /// The size of an error card: the `size` every fence is given, else the default.
    fn card_size(&self) -> u32 {
        let given = self
            .settings
            .defaults
            .iter()
            .rev()
            .find(|(k, _)| k.eq_ignore_ascii_case("size"));
        given
            .and_then(|(_, v)| v.trim().parse::<u32>().ok())
            .map_or(DEFAULT_SIZE, |s| s.clamp(MIN_SIZE, MAX_SIZE))
    }
}

/// What an inline diagram's HTML depends on: the request and the alt text.
fn inline_key(d: &Diagram) -> String {
    format!("{}\n{}", d.key, d.alt)
}

/// Run `work` on every item on all cores; the results in the items' order.
fn parallel<T: Sync, R: Send>(items: &[T], work: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(items.len());
    if threads <= 1 {
        return items.iter().map(work).collect();
    }
    let next = AtomicUsize::new(0);
    let mut results: Vec<Option<R>> = (0..items.len()).map(|_| None).collect();
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(item) = items.get(i) else { break done };
                        done.push((i, work(item)));
                    }
                })
            })
            .collect();
        for worker in workers {
            let done = worker
                .join()
                .unwrap_or_else(|e| std::panic::resume_unwind(e));
            for (i, result) in done {
                results[i] = Some(result);
            }
        }
    });
    results.into_iter().flatten().collect()
}

/// Write `bytes` to `path` (its name is a hash of what it holds) unless a regular file
/// with these bytes is there already; anything else there is replaced, not followed
/// ([`crate::safe_write::write_if_changed`]). Whether it was written.
fn write_if_changed(path: &Path, bytes: &[u8]) -> Result<bool, MarkdownError> {
    crate::safe_write::write_if_changed(path, bytes).map_err(|e| named(path, "write", e))
}

/// An I/O error that names the file and what was being done to it.
fn named(path: &Path, doing: &str, e: std::io::Error) -> MarkdownError {
    let message = format!("cannot {doing} {}: {e}", path.display());
    MarkdownError::Io(std::io::Error::new(e.kind(), message))
}

/// The folders of `dir` that do not exist yet, outermost first: those
/// `create_dir_all(dir)` makes.
fn missing_folders(dir: &Path) -> Vec<PathBuf> {
    let mut missing: Vec<PathBuf> = dir
        .ancestors()
        .filter(|a| !a.as_os_str().is_empty())
        .take_while(|a| std::fs::symlink_metadata(a).is_err())
        .map(Path::to_path_buf)
        .collect();
    missing.reverse();
    missing
}

/// `link` and a file `name` joined with one `/`.
fn linked(link: &str, name: &str) -> String {
    match link.trim_end_matches('/') {
        "" => name.to_string(),
        prefix => format!("{prefix}/{name}"),
    }
}

/// The service URL of a diagram: its format's route and its normalised parameters.
fn service_url(base: &str, d: &Diagram) -> String {
    let mut query = form_urlencoded::Serializer::new(String::new());
    for (name, value) in &d.pairs {
        query.append_pair(name, value);
    }
    let route = match d.request.format {
        Format::Png => "diagram".to_string(),
        other => format!("diagram.{}", other.extension()),
    };
    format!("{}/{route}?{}", base.trim_end_matches('/'), query.finish())
}

/// A diagram read for a page ([`crate::markdown::fence::read_for_page`]) as the SVG element
/// a page holds: drawn in the inline form, named by its alt text (`role="img"`,
/// `aria-label`), on one line. The plugins of the npm package take theirs from here.
pub fn page_svg(renderer: &Renderer, d: &Diagram) -> Result<String, RenderError> {
    let svg = renderer.svg(&d.request.position, &d.request.options)?;
    Ok(crate::render::paint::svg::labelled(&svg, &d.alt))
}

/// An SVG element as an HTML block (a `<div>`: Markdown leaves what is inside alone).
fn block(svg: &str) -> String {
    format!(r#"<div class="staunton-diagram">{svg}</div>"#)
}

/// An `<img>` element.
/// An `<img>` of `src` with its alt text, width and height.
fn img(src: &str, alt: &str, (width, height): (u32, u32)) -> String {
    format!(
        r#"<img src="{}" alt="{}" width="{width}" height="{height}">"#,
        attribute(src),
        attribute(alt)
    )
}

/// `image` with its caption as a figure, on one line; without a caption, as it is.
fn framed(image: String, caption: Option<&str>) -> String {
    match caption {
        None => image,
        Some(c) => format!(
            r#"<figure class="staunton-diagram">{image}<figcaption>{}</figcaption></figure>"#,
            attribute(c)
        ),
    }
}

/// Text escaped for an HTML attribute or element.
fn attribute(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
