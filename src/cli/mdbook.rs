//! `staunton mdbook`: an mdBook preprocessor that turns the diagram fences of every chapter
//! into images, with [`crate::markdown::rewrite`].
//!
//! mdBook runs `staunton mdbook supports RENDERER` (exit status 0: yes), then `staunton mdbook`
//! with `[context, book]` as JSON on stdin, and reads the book back from stdout. The book's
//! JSON is walked without a schema (any object with a `content` string and a `path` or
//! `source_path` is a chapter), so mdBook 0.4 (`sections`, `__non_exhaustive`) and 0.5
//! (`items`) both work and every other field goes back as it came.
//!
//! ```toml
//! [preprocessor.staunton]
//! command = "staunton mdbook"
//! mode = "images"          # or "inline" (the SVG in the page), or "url" (a running service)
//! images = "diagrams"      # folder under the book's src, files named by hash
//! format = "svg"           # or "png"
//! url = "https://…"        # mode = "url": the service's address
//! lang = "de"              # the alt text's language (default: the book's, if known)
//! keep-going = false       # true: a bad fence becomes an error card and a warning
//! pieces-dir = "pieces"    # piece sets, relative to the book's root
//! [preprocessor.staunton.defaults]   # options every fence starts from
//! size = 320
//! ```

use crate::markdown;
use crate::render::options::Format;
use anyhow::{Context as _, bail};
use clap::{Args, Subcommand};
use markdown::{MarkdownError, Mode, Settings};
use serde_json::{Map, Value};
use std::io::{Read as _, Write as _};
use std::path::{Path, PathBuf};

/// `staunton mdbook [supports RENDERER]`.
#[derive(Debug, Args)]
pub struct MdbookArgs {
    #[command(subcommand)]
    command: Option<MdbookCommand>,
}

#[derive(Debug, Subcommand)]
enum MdbookCommand {
    /// Exit status 0: the diagrams are made for every renderer (html, epub, markdown, …).
    Supports {
        /// The renderer mdBook asks about.
        renderer: String,
    },
}

/// Run the preprocessor (or answer `supports`).
pub fn run(args: MdbookArgs) -> anyhow::Result<()> {
    // Every renderer: a fence left alone shows a FEN as code, in any output; the image
    // links and `<img>`/`<svg>` elements written are what mdBook's Markdown already holds.
    if let Some(MdbookCommand::Supports { .. }) = args.command {
        return Ok(());
    }
    let mut input = String::new();
    std::io::stdin()
        .read_to_string(&mut input)
        .context("cannot read mdBook's input")?;
    let book = preprocess(&input)?;
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(book.as_bytes())?;
    stdout
        .flush()
        .context("cannot write the book back to mdBook")
}

/// Rewrite every chapter of mdBook's `[context, book]`; returns the book's JSON.
fn preprocess(input: &str) -> anyhow::Result<String> {
    let value: Value = serde_json::from_str(input).context("mdBook's input is not JSON")?;
    let Value::Array(mut pair) = value else {
        bail!("mdBook's input is not a [context, book] pair");
    };
    let (Some(mut book), Some(context), None) = (pair.pop(), pair.pop(), pair.pop()) else {
        bail!("mdBook's input is not a [context, book] pair");
    };
    let job = Job::new(&context)?;
    // The images every chapter made: a book that fails in a later chapter leaves none.
    let mut reports = Vec::new();
    let walked = walk(&mut book, &mut |chapter| {
        reports.extend(job.chapter(chapter)?);
        Ok(())
    });
    if let Err(e) = walked {
        reports
            .iter()
            .rev()
            .for_each(markdown::Report::remove_created);
        return Err(e);
    }
    Ok(serde_json::to_string(&book)?)
}

/// What each chapter is rewritten with.
struct Job {
    /// The book's `src` as book.toml gives it, for the file names in messages.
    src: PathBuf,
    /// Where image files go: the book's root, its src and the `images` folder.
    dir: PathBuf,
    config: Config,
    lang: Option<String>,
    renderer: crate::render::Renderer,
}

impl Job {
    fn new(context: &Value) -> anyhow::Result<Job> {
        let root = PathBuf::from(context.get("root").and_then(Value::as_str).unwrap_or("."));
        let src = context.pointer("/config/book/src").and_then(Value::as_str);
        let src = PathBuf::from(src.unwrap_or("src"));
        let (name, table) = find_table(context);
        let config = read_config(&name, table).map_err(anyhow::Error::msg)?;
        let dir = match &config.output {
            Output::Images(folder) => root.join(&src).join(folder.join("/")),
            Output::Inline | Output::Url(_) => PathBuf::new(),
        };
        // The book's own language words the alt text, when Staunton has words for it.
        let language = context
            .pointer("/config/book/language")
            .and_then(Value::as_str);
        let known = language.filter(|l| crate::request::parse_lang(l).is_ok());
        let lang = config.lang.clone().or(known.map(str::to_string));
        check_defaults(&name, &config).map_err(anyhow::Error::msg)?;
        let pieces = config.pieces_dir.as_ref().map(|p| root.join(p));
        let pieces = pieces.or_else(|| std::env::var_os("STAUNTON_PIECES_DIR").map(PathBuf::from));
        let renderer = super::shared::command_renderer(pieces.as_deref());
        Ok(Job {
            src,
            dir,
            config,
            lang,
            renderer,
        })
    }

    /// The settings for a chapter at `location` (relative to src): image links climb out
    /// of the chapter's own folder.
    fn settings(&self, location: &str) -> Settings {
        let mode = match &self.config.output {
            Output::Images(folder) => Mode::Images {
                dir: self.dir.clone(),
                link: link_for(location, folder),
                format: self.config.format,
            },
            Output::Inline => Mode::Inline,
            Output::Url(base) => Mode::Url { base: base.clone() },
        };
        Settings {
            mode,
            defaults: self.config.defaults.clone(),
            lang: self.lang.clone(),
            keep_going: self.config.keep_going,
        }
    }

    /// Rewrite one chapter; its report, `None` for a draft.
    fn chapter(
        &self,
        chapter: &mut Map<String, Value>,
    ) -> anyhow::Result<Option<markdown::Report>> {
        let text = |key: &str| chapter.get(key).and_then(Value::as_str);
        // A draft chapter (no file) has neither: nothing to rewrite.
        let Some(location) = text("path").or_else(|| text("source_path")) else {
            return Ok(None);
        };
        let file = self.src.join(text("source_path").unwrap_or(location));
        let file = file.display();
        let content = text("content").unwrap_or_default();
        let mut out = Vec::new();
        let renderer = &self.renderer;
        let report = match markdown::rewrite(content, &self.settings(location), renderer, &mut out)
        {
            Ok(report) => report,
            Err(MarkdownError::Fence { line, sentence }) => bail!("{file}:{line}: {sentence}"),
            Err(e) => bail!("{file}: {e}"),
        };
        for warning in &report.warnings {
            let warning = warning.strip_prefix("line ").unwrap_or(warning);
            eprintln!("staunton: warning: {file}:{warning}");
        }
        let content = match String::from_utf8(out) {
            Ok(content) => content,
            Err(_) => {
                report.remove_created();
                bail!("{file}: the rewritten chapter is not UTF-8");
            }
        };
        chapter.insert("content".into(), Value::String(content));
        Ok(Some(report))
    }
}

/// Visit every chapter of a book's JSON, whatever its layout: a chapter is an object with
/// a `content` string and a `path` or `source_path`; its sub-chapters are found below it.
fn walk(
    value: &mut Value,
    visit: &mut dyn FnMut(&mut Map<String, Value>) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    match value {
        Value::Object(map) => {
            let is_chapter = map.get("content").is_some_and(Value::is_string)
                && (map.contains_key("path") || map.contains_key("source_path"));
            if is_chapter {
                visit(map)?;
            }
            for (key, child) in map.iter_mut() {
                if key != "content" {
                    walk(child, visit)?;
                }
            }
        }
        Value::Array(items) => {
            for item in items {
                walk(item, visit)?;
            }
        }
        _ => {}
    }
    Ok(())
}

/// The link to the images folder from a chapter at `location` (relative to src, `/` or
/// `\` separated): one `..` for each folder the chapter is in.
fn link_for(location: &str, folder: &[String]) -> String {
    let parts: Vec<&str> = location
        .split(['/', '\\'])
        .filter(|c| !c.is_empty() && *c != ".")
        .collect();
    let depth = parts.len().saturating_sub(1);
    let up = std::iter::repeat_n("..", depth);
    up.chain(folder.iter().map(String::as_str))
        .collect::<Vec<_>>()
        .join("/")
}

/// What the fences become.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Output {
    /// Files in this folder under src (its parts, without `.` or `..`).
    Images(Vec<String>),
    Inline,
    /// The service's address, without a trailing `/`.
    Url(String),
}

/// The preprocessor's table in book.toml, read and checked.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Config {
    output: Output,
    format: Format,
    lang: Option<String>,
    keep_going: bool,
    /// Relative to the book's root.
    pieces_dir: Option<PathBuf>,
    defaults: Vec<(String, String)>,
}

/// Keys mdBook itself reads from a preprocessor's table.
const MDBOOK_KEYS: [&str; 5] = ["command", "renderers", "before", "after", "optional"];
/// The keys of `[preprocessor.staunton]`.
const KEYS: [&str; 8] = [
    "mode",
    "images",
    "format",
    "url",
    "lang",
    "keep-going",
    "pieces-dir",
    "defaults",
];

/// The preprocessor's name and table: `staunton`, or the table whose command runs
/// `staunton mdbook` under another name.
fn find_table(context: &Value) -> (String, Option<&Value>) {
    let tables = context
        .pointer("/config/preprocessor")
        .and_then(Value::as_object);
    let Some(tables) = tables else {
        return ("staunton".into(), None);
    };
    if let Some(table) = tables.get("staunton") {
        return ("staunton".into(), Some(table));
    }
    let runs_us = |table: &Value| {
        let command = table.get("command").and_then(Value::as_str).unwrap_or("");
        let words: Vec<&str> = command.split_whitespace().collect();
        words.len() >= 2 && words[0].ends_with("staunton") && words[1] == "mdbook"
    };
    match tables.iter().find(|(_, t)| runs_us(t)) {
        Some((name, table)) => (name.clone(), Some(table)),
        None => ("staunton".into(), None),
    }
}

/// Read `[preprocessor.NAME]`; the error is one sentence naming the key and its value.
fn read_config(name: &str, table: Option<&Value>) -> Result<Config, String> {
    let at = format!("[preprocessor.{name}]");
    let empty = Map::new();
    let table = match table {
        None => &empty,
        Some(Value::Object(table)) => table,
        Some(other) => return Err(format!("{at} is {other}, not a table")),
    };
    if let Some(key) = table
        .keys()
        .find(|k| !KEYS.contains(&k.as_str()) && !MDBOOK_KEYS.contains(&k.as_str()))
    {
        let keys = KEYS.join(", ");
        return Err(format!("{at} has no key {key:?}: its keys are {keys}"));
    }
    let text = |key: &str| match table.get(key) {
        None => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(other) => Err(format!("{at} {key} = {other} is not a string")),
    };
    let mode = text("mode")?.unwrap_or_else(|| "images".into());
    let output = match mode.as_str() {
        "images" => Output::Images(images_folder(&at, text("images")?)?),
        "inline" => Output::Inline,
        "url" => Output::Url(service_url(&at, text("url")?)?),
        other => {
            return Err(format!(
                "{at} mode = {other:?} is not a mode: use \"images\", \"inline\" or \"url\""
            ));
        }
    };
    let format = match text("format")?.as_deref() {
        None | Some("svg") => Format::Svg,
        Some("png") => Format::Png,
        Some(other) => {
            return Err(format!(
                "{at} format = {other:?} is not an image format for a book: use \"svg\" or \"png\""
            ));
        }
    };
    let keep_going = match table.get("keep-going") {
        None => false,
        Some(Value::Bool(b)) => *b,
        Some(other) => return Err(format!("{at} keep-going = {other} is not true or false")),
    };
    Ok(Config {
        output,
        format,
        lang: text("lang")?,
        keep_going,
        pieces_dir: text("pieces-dir")?.map(PathBuf::from),
        defaults: read_defaults(name, table.get("defaults"))?,
    })
}

/// `lang` and the defaults checked once, on a fence of their own: a bad one would
/// otherwise be reported at the first fence of the book, as that fence's fault.
fn check_defaults(name: &str, config: &Config) -> Result<(), String> {
    if let Some(lang) = &config.lang {
        crate::request::parse_lang(lang).map_err(|e| format!("[preprocessor.{name}] {e}"))?;
    }
    markdown::fence::read("fen", "start\n", &config.defaults, config.format)
        .map(drop)
        .map_err(|e| format!("[preprocessor.{name}.defaults] {e}"))
}

/// The `images` folder's parts: relative, inside src (mdBook copies only src's files).
fn images_folder(at: &str, folder: Option<String>) -> Result<Vec<String>, String> {
    let given = folder.unwrap_or_else(|| "diagrams".into());
    let parts: Vec<String> = given
        .split(['/', '\\'])
        .filter(|c| !c.is_empty() && *c != ".")
        .map(str::to_string)
        .collect();
    let absolute = given.starts_with(['/', '\\']) || Path::new(&given).is_absolute();
    if absolute || parts.is_empty() || parts.iter().any(|p| p == "..") {
        return Err(format!(
            "{at} images = {given:?} is not a folder inside the book's src folder"
        ));
    }
    Ok(parts)
}

/// The service's address for `mode = "url"`.
fn service_url(at: &str, url: Option<String>) -> Result<String, String> {
    match url {
        None => Err(format!(
            "{at} mode = \"url\" needs url = \"https://…\", the address of a Staunton service"
        )),
        Some(url) if url.trim().is_empty() || url.contains(char::is_whitespace) => {
            Err(format!("{at} url = {url:?} is not an address"))
        }
        Some(url) => Ok(url.trim_end_matches('/').to_string()),
    }
}

/// `[preprocessor.NAME.defaults]`: option names to strings, numbers or booleans.
fn read_defaults(name: &str, table: Option<&Value>) -> Result<Vec<(String, String)>, String> {
    let at = format!("[preprocessor.{name}.defaults]");
    let table = match table {
        None => return Ok(Vec::new()),
        Some(Value::Object(table)) => table,
        Some(other) => {
            return Err(format!(
                "[preprocessor.{name}] defaults = {other} is not a table"
            ));
        }
    };
    table
        .iter()
        .map(|(key, value)| {
            let value = match value {
                Value::String(s) => s.clone(),
                Value::Number(n) => n.to_string(),
                Value::Bool(b) => b.to_string(),
                other => {
                    return Err(format!(
                        "{at} {key} = {other} is not a string, a number or true/false"
                    ));
                }
            };
            Ok((key.clone(), value))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn config(table: Value) -> Result<Config, String> {
        read_config("staunton", Some(&table))
    }

    #[test]
    fn an_empty_table_means_svg_images_in_diagrams() {
        let config = read_config("staunton", None).unwrap();
        assert_eq!(config.output, Output::Images(vec!["diagrams".into()]));
        assert_eq!(config.format, Format::Svg);
        assert!(!config.keep_going);
        assert_eq!(config.lang, None);
        assert!(config.defaults.is_empty());
    }

    #[test]
    fn every_key_is_read() {
        let config = config(json!({
            "command": "staunton mdbook", "renderers": ["html"], "before": ["links"],
            "mode": "images", "images": "./img/boards/", "format": "png", "lang": "de",
            "keep-going": true, "pieces-dir": "pieces",
            "defaults": {"size": 320, "coordinates": false, "theme": "green", "x": 1.5},
        }))
        .unwrap();
        assert_eq!(
            config.output,
            Output::Images(vec!["img".into(), "boards".into()])
        );
        assert_eq!(config.format, Format::Png);
        assert_eq!(config.lang.as_deref(), Some("de"));
        assert!(config.keep_going);
        assert_eq!(config.pieces_dir, Some(PathBuf::from("pieces")));
        let defaults: Vec<(&str, &str)> = config
            .defaults
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        assert!(defaults.contains(&("size", "320")));
        assert!(defaults.contains(&("coordinates", "false")));
        assert!(defaults.contains(&("theme", "green")));
        assert!(defaults.contains(&("x", "1.5")));
    }

    #[test]
    fn inline_and_url_modes() {
        let inline = config(json!({"mode": "inline"})).unwrap();
        assert_eq!(inline.output, Output::Inline);
        let url = config(json!({"mode": "url", "url": "https://d.example.org/"})).unwrap();
        assert_eq!(url.output, Output::Url("https://d.example.org".into()));
    }

    #[test]
    fn a_bad_value_is_one_sentence_naming_key_and_value() {
        let cases = [
            (json!({"mode": "pictures"}), "mode = \"pictures\""),
            (json!({"mode": 3}), "mode = 3"),
            (json!({"mode": "url"}), "mode = \"url\" needs url"),
            (json!({"mode": "url", "url": "a b"}), "url = \"a b\""),
            (json!({"format": "pdf"}), "format = \"pdf\""),
            (json!({"keep-going": "yes"}), "keep-going = \"yes\""),
            (json!({"images": "../out"}), "images = \"../out\""),
            (json!({"images": "/tmp/x"}), "images = \"/tmp/x\""),
            (json!({"images": "."}), "images = \".\""),
            (json!({"keep_going": true}), "no key \"keep_going\""),
            (json!({"defaults": 3}), "defaults = 3"),
            (
                json!({"defaults": {"arrows": ["e2e4"]}}),
                "arrows = [\"e2e4\"]",
            ),
        ];
        for (table, expected) in cases {
            let error = config(table.clone()).unwrap_err();
            assert!(error.starts_with("[preprocessor.staunton"), "{error}");
            assert!(error.contains(expected), "{table}: {error}");
            assert!(!error.contains('\n'), "{error}");
        }
    }

    #[test]
    fn a_bad_default_or_language_is_refused_before_any_fence() {
        let check = |table: Value| check_defaults("staunton", &config(table).unwrap());
        assert_eq!(
            check(json!({"lang": "de", "defaults": {"size": 200}})),
            Ok(())
        );
        let error = check(json!({"defaults": {"size": "huge"}})).unwrap_err();
        assert!(
            error.starts_with("[preprocessor.staunton.defaults] "),
            "{error}"
        );
        assert!(error.contains("huge"), "{error}");
        let error = check(json!({"defaults": {"colour": "red"}})).unwrap_err();
        assert!(error.contains("colour"), "{error}");
        let error = check(json!({"lang": "xx"})).unwrap_err();
        assert!(error.starts_with("[preprocessor.staunton] "), "{error}");
        assert!(error.contains("\"xx\""), "{error}");
    }

    #[test]
    fn the_table_is_found_under_another_name_by_its_command() {
        let context = json!({"config": {"preprocessor": {
            "links": {}, "chess": {"command": "/usr/bin/staunton mdbook", "mode": "inline"}
        }}});
        let (name, table) = find_table(&context);
        assert_eq!(name, "chess");
        assert_eq!(read_config(&name, table).unwrap().output, Output::Inline);
        let error = read_config(&name, Some(&json!({"mode": "x"}))).unwrap_err();
        assert!(error.starts_with("[preprocessor.chess] mode"), "{error}");
        let none = json!({"config": {"book": {}}});
        assert_eq!(find_table(&none), ("staunton".to_string(), None));
    }

    #[test]
    fn links_climb_out_of_the_chapter_s_folder() {
        let folder = ["diagrams".to_string()];
        assert_eq!(link_for("intro.md", &folder), "diagrams");
        assert_eq!(link_for("./intro.md", &folder), "diagrams");
        assert_eq!(link_for("guide/openings.md", &folder), "../diagrams");
        assert_eq!(link_for("a/b/c.md", &folder), "../../diagrams");
        assert_eq!(link_for("a\\b.md", &folder), "../diagrams");
        let nested = ["img".to_string(), "boards".to_string()];
        assert_eq!(link_for("a/b.md", &nested), "../img/boards");
    }

    /// Collect every chapter's path, marking each visited chapter's content.
    fn visit_all(book: &mut Value) -> Vec<String> {
        let mut seen = Vec::new();
        walk(book, &mut |chapter| {
            let path = chapter["source_path"].as_str().unwrap_or("").to_string();
            chapter.insert("content".into(), Value::String(format!("seen {path}")));
            seen.push(path);
            Ok(())
        })
        .unwrap();
        seen
    }

    fn chapter(name: &str, path: &str, sub_items: Value) -> Value {
        json!({"Chapter": {"name": name, "content": "# x\n", "number": [1], "sub_items": sub_items,
                           "path": path, "source_path": path, "parent_names": []}})
    }

    #[test]
    fn the_walk_finds_chapters_in_mdbook_0_5_s_layout() {
        let b = chapter("B", "sub/b.md", json!([]));
        let mut book = json!({"items": [
            chapter("A", "a.md", json!([b])), "Separator", {"PartTitle": "Part"},
            chapter("C", "c.md", json!([])),
            {"Chapter": {"name": "Draft", "content": "", "sub_items": [], "path": null,
                         "source_path": null, "parent_names": []}},
        ]});
        assert_eq!(visit_all(&mut book), ["a.md", "sub/b.md", "c.md", ""]);
        assert_eq!(book["items"][0]["Chapter"]["content"], "seen a.md");
        assert_eq!(
            book["items"][0]["Chapter"]["sub_items"][0]["Chapter"]["content"],
            "seen sub/b.md"
        );
        assert_eq!(book["items"][1], "Separator");
        assert_eq!(book["items"][2]["PartTitle"], "Part");
    }

    #[test]
    fn the_walk_finds_chapters_in_mdbook_0_4_s_layout() {
        let b = chapter("B", "sub/b.md", json!([]));
        let mut book = json!({"sections": [chapter("A", "a.md", json!([b])), "Separator"],
                              "__non_exhaustive": null});
        assert_eq!(visit_all(&mut book), ["a.md", "sub/b.md"]);
        assert_eq!(book["__non_exhaustive"], Value::Null);
    }

    #[test]
    fn the_protocol_answers_with_the_book_alone() {
        let input = json!([
            {"root": "/nonexistent", "config": {"book": {"language": "en"},
              "preprocessor": {"staunton": {"command": "staunton mdbook", "mode": "inline"}}},
             "renderer": "html", "mdbook_version": "0.5.3"},
            {"items": [chapter("A", "a.md", json!([])), "Separator"]}
        ]);
        let out: Value = serde_json::from_str(&preprocess(&input.to_string()).unwrap()).unwrap();
        assert_eq!(out["items"][1], "Separator");
        assert_eq!(out["items"][0]["Chapter"]["name"], "A");
        assert_eq!(out["items"][0]["Chapter"]["number"], json!([1]));
        assert!(out["items"][0]["Chapter"]["content"].is_string());
    }

    /// A book of two chapters, `a.md` and `sub/b.md`, with `content`, its src `text`.
    fn two_chapters(root: &Path, content: &str, table: Value) -> String {
        let b = chapter("B", "sub/b.md", json!([]));
        let mut book = json!({"items": [chapter("A", "a.md", json!([b]))]});
        walk(&mut book, &mut |c| {
            c.insert("content".into(), content.into());
            Ok(())
        })
        .unwrap();
        let context = json!({"root": root, "renderer": "html",
            "config": {"book": {"src": "text"}, "preprocessor": {"staunton": table}}});
        json!([context, book]).to_string()
    }

    #[test]
    fn chapters_link_their_images_from_their_own_folder() {
        let root = std::env::temp_dir().join(format!("staunton-mdbook-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let input = two_chapters(&root, "# X\n\n```fen\nstart\n```\n", json!({}));
        let out: Value = serde_json::from_str(&preprocess(&input).unwrap()).unwrap();
        let a = out["items"][0]["Chapter"]["content"].as_str().unwrap();
        let b = out["items"][0]["Chapter"]["sub_items"][0]["Chapter"]["content"]
            .as_str()
            .unwrap();
        assert!(a.starts_with("# X\n\n<img src=\"diagrams/"), "{a}");
        assert!(b.contains("<img src=\"../diagrams/"), "{b}");
        let name = a
            .split("<img src=\"diagrams/")
            .nth(1)
            .and_then(|rest| rest.split('"').next())
            .unwrap();
        assert!(root.join("text/diagrams").join(name).is_file(), "{name}");
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn a_bad_fence_names_the_chapter_file_and_line() {
        let root = Path::new("/nonexistent");
        let bad = "# X\n\n```fen\nnot a position\n```\n";
        let input = two_chapters(root, bad, json!({"mode": "inline"}));
        let error = preprocess(&input).unwrap_err().to_string();
        // The fence opens on line 3; the position stands on line 4.
        assert!(error.starts_with("text/a.md:4: "), "{error}");
        assert!(!error.contains('\n'), "{error}");
        let input = two_chapters(root, bad, json!({"mode": "inline", "keep-going": true}));
        assert!(preprocess(&input).is_ok());
    }

    #[test]
    fn a_book_that_fails_in_a_later_chapter_leaves_no_images() {
        let root =
            std::env::temp_dir().join(format!("staunton-mdbook-failed-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let input = two_chapters(&root, "```fen\nstart\n```\n", json!({}));
        // The first chapter renders, the second (sub/b.md) does not.
        let input = input.replacen("```fen\\nstart", "```fen\\nnot a position", 2);
        let input = input.replacen("```fen\\nnot a position", "```fen\\nstart", 1);
        let error = preprocess(&input).unwrap_err().to_string();
        assert!(error.starts_with("text/sub/b.md:2: "), "{error}");
        assert!(
            !root.join("text/diagrams").exists(),
            "the first chapter's image is gone"
        );
        let _ = std::fs::remove_dir_all(&root);
    }

    #[test]
    fn bad_input_and_bad_config_are_errors() {
        assert!(preprocess("not json").is_err());
        assert!(preprocess("[1, 2, 3]").is_err());
        let input = json!([{"root": "/", "config": {"preprocessor": {"staunton": {"mode": "x"}}}},
                           {"items": []}]);
        let error = preprocess(&input.to_string()).unwrap_err().to_string();
        assert!(
            error.starts_with("[preprocessor.staunton] mode = \"x\""),
            "{error}"
        );
    }
}
