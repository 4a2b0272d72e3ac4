//! `staunton latex JOB` and `staunton latex --requests FILE`: the renderer of the LaTeX
//! package. TeX writes the diagrams a document wants as a request file (`JOB.stn`, or a
//! one-off file in shell-escape mode), one line a diagram: its name (TeX's MD5 of the
//! query) and the service's query. Each diagram is drawn as `NAME.pdf` in the folder the
//! file names, beside its sidecar `NAME.txt`, four lines TeX reads: the query, `ok` or
//! `error PARAM`, the alternative text or the error's sentence, and the version. A diagram
//! whose sidecar is this version's answer to the same query is not drawn again. For a
//! job, `JOB.sto` (TeX comments only) lists every diagram's state, so that latexmk runs
//! LaTeX again when it changes.
//!
//! The query is read as every door reads one: `Query::decode` (UTF-8, strictly), the
//! names also in kebab-case (`last-move`), then `embed`, whose sentences are the
//! service's. A refused diagram is no failure of the run: its sidecar says why, and the
//! next LaTeX run reports it where the document asked for it.

use super::shared::command_renderer;
use crate::echo::{Echo, Escaped, not_utf8};
use crate::embed::{self, Failure, kebab_suggestion, service_spelling};
use crate::render::Renderer;
use crate::render::options::Format;
use crate::request::{MAX_BODY_BYTES, Query};
use anyhow::{Context, anyhow, bail};
use clap::Args;
use std::collections::HashSet;
use std::io::{self, BufRead, BufReader, Read as _};
use std::path::{Path, PathBuf};

#[derive(Debug, Args)]
pub(super) struct LatexArgs {
    /// The document's job, as `JOB`, `JOB.tex` or `JOB.stn`: the diagrams of `JOB.stn`
    /// (which the LaTeX run writes) are drawn, and `JOB.sto` (which the next run reads) is
    /// written.
    #[arg(required_unless_present = "requests", conflicts_with = "requests")]
    job: Option<PathBuf>,
    /// A one-off request file (what the package writes in shell-escape mode): its diagrams
    /// are drawn and the file is deleted; no `.sto` is written.
    #[arg(long, value_name = "FILE")]
    requests: Option<PathBuf>,
    /// A folder whose subfolders are piece sets (see `serve --pieces-dir`).
    #[arg(long, env = "STAUNTON_PIECES_DIR")]
    pieces_dir: Option<PathBuf>,
}

/// The first line of a request file: its format and the format's version.
const HEADER: &str = "staunton-latex 1";

/// Most names in the folder's path (`a/b/c` has three).
const MAX_FOLDER_PARTS: usize = 8;

/// Longest line of a request file read, in bytes: room for a game as long as a door
/// takes ([`MAX_BODY_BYTES`]), each of its bytes percent-encoded (3 bytes, or 4 with a
/// margin), and the name. A longer line is its diagram's error, and is read past.
const MAX_LINE_BYTES: usize = 4 * MAX_BODY_BYTES + 100;

/// The hex digits of a diagram's name (an MD5).
const NAME_DIGITS: usize = 32;

/// A request file read: where its diagrams go, and each diagram once, in order.
struct Requests {
    /// The folder as the file names it (relative to the file's own folder).
    shown: String,
    /// The folder, as a path from here.
    folder: PathBuf,
    diagrams: Vec<Diagram>,
}

/// One diagram asked for: its name (32 lowercase hex digits) and its query.
struct Diagram {
    name: String,
    asked: Asked,
}

/// A diagram's query as its line has it, or how long a line too long to read was.
enum Asked {
    Query(Vec<u8>),
    TooLong(usize),
}

impl Diagram {
    /// The first line of its sidecar: the query as the request line had it (nothing for
    /// a line too long to read, so that it never counts as drawn).
    fn query(&self) -> &[u8] {
        match &self.asked {
            Asked::Query(query) => query,
            Asked::TooLong(_) => b"",
        }
    }

    fn pdf(&self, folder: &Path) -> PathBuf {
        folder.join(format!("{}.pdf", self.name))
    }

    fn sidecar(&self, folder: &Path) -> PathBuf {
        folder.join(format!("{}.txt", self.name))
    }
}

/// What became of a diagram: drawn (or refused) by this run or found current, and the
/// sentence when its sidecar says it is refused.
struct Done {
    fresh: bool,
    error: Option<String>,
}

/// `staunton latex`: draw the diagrams of the request file that are not drawn yet, write
/// `JOB.sto` for a job or delete the one-off file, and say on stderr what was done (for a
/// one-off file, only when a diagram was refused).
pub(super) fn latex(args: LatexArgs) -> anyhow::Result<()> {
    let (file, sto) = match (&args.requests, &args.job) {
        (Some(file), _) => (file.clone(), None),
        (None, Some(job)) => {
            let (stn, sto) = job_files(job);
            if !stn.exists() {
                bail!(
                    "{} does not exist: the LaTeX run of a document that loads the staunton package writes it, so run LaTeX on the document first, then staunton latex",
                    stn.display()
                );
            }
            (stn, Some(sto))
        }
        (None, None) => {
            bail!("give the document's job (JOB, JOB.tex or JOB.stn) or --requests FILE")
        }
    };
    let requests = read_requests(&file)?;
    let done = draw_missing(&requests, args.pieces_dir.as_deref())?;
    if let Some(sto) = &sto {
        crate::safe_write::write(sto, sto_text(&requests, &done).as_bytes())
            .with_context(|| format!("cannot write {}", sto.display()))?;
    }
    if sto.is_none()
        && let Err(e) = std::fs::remove_file(&file)
        && e.kind() != io::ErrorKind::NotFound
    {
        eprintln!("staunton: warning: cannot remove {}: {e}", file.display());
    }
    // A one-off file is LaTeX's call in the middle of a run: quiet unless refused (the
    // run reports it too, on the diagram's line).
    if sto.is_some() || done.iter().any(|d| d.error.is_some()) {
        report(&requests, &done);
    }
    Ok(())
}

/// The request file and the `.sto` of the job `job` (`JOB`, `JOB.tex` or `JOB.stn`).
fn job_files(job: &Path) -> (PathBuf, PathBuf) {
    let stem = match job.extension().and_then(|e| e.to_str()) {
        Some("tex" | "stn") => job.with_extension(""),
        _ => job.to_path_buf(),
    };
    let with = |extension: &str| {
        let mut name = stem.clone().into_os_string();
        name.push(extension);
        PathBuf::from(name)
    };
    (with(".stn"), with(".sto"))
}

/// The diagrams of the request file `file`, each name once; an error names the file, and
/// the line for a line that is not what the format says.
fn read_requests(file: &Path) -> anyhow::Result<Requests> {
    let opened =
        std::fs::File::open(file).with_context(|| format!("cannot read {}", file.display()))?;
    let mut reader = BufReader::new(opened);
    let mut next =
        || next_line(&mut reader).with_context(|| format!("cannot read {}", file.display()));
    let at = |line: usize| format!("{}:{line}", file.display());
    match next()? {
        Some(Line::Text(first)) if first == HEADER.as_bytes() => {}
        Some(line) => bail!(
            "{}: not a staunton request file: its first line should be {HEADER:?}, not {}",
            at(1),
            line.shown()
        ),
        None => bail!(
            "{}: not a staunton request file: it is empty (its first line should be {HEADER:?})",
            file.display()
        ),
    }
    let shown = match next()? {
        // `folder` alone (its end trimmed) names the empty folder, which is refused below.
        Some(Line::Text(second))
            if matches!(second.strip_prefix(b"folder"), Some([] | [b' ', ..])) =>
        {
            String::from_utf8_lossy(second.get(7..).unwrap_or_default()).into_owned()
        }
        line => bail!(
            "{}: the second line of a request file names the folder of the diagrams (\"folder staunton-diagrams\"), not {}",
            at(2),
            line.map_or("nothing".to_string(), |l| l.shown())
        ),
    };
    if let Err(why) = folder_ok(&shown) {
        bail!(
            "{}: the folder {} is refused: {why}; it is a relative path of at most {MAX_FOLDER_PARTS} names of letters, digits, '.', '_' and '-', separated by '/' (none '.' or '..')",
            at(2),
            Echo(&shown)
        );
    }
    let folder = file.parent().unwrap_or(Path::new("")).join(&shown);
    let (mut diagrams, mut names, mut number) = (Vec::new(), HashSet::new(), 2);
    while let Some(line) = next()? {
        number += 1;
        let diagram = line
            .diagram()
            .ok_or_else(|| anyhow!("{}: a diagram's line is its name (32 digits 0-9 and a-f), one space and its query, not {}", at(number), line.shown()))?;
        if let Some(diagram) = diagram.filter(|d| names.insert(d.name.clone())) {
            diagrams.push(diagram);
        }
    }
    Ok(Requests {
        shown,
        folder,
        diagrams,
    })
}

/// `Ok` when `folder` is a relative path of at most [`MAX_FOLDER_PARTS`] names, each of
/// ASCII letters, digits, `.`, `_` and `-` and none `.` or `..`; else why not.
fn folder_ok(folder: &str) -> Result<(), String> {
    if folder.is_empty() {
        return Err("it is empty".to_string());
    }
    if folder.starts_with('/') {
        return Err("it is an absolute path".to_string());
    }
    let parts: Vec<&str> = folder.split('/').collect();
    if parts.len() > MAX_FOLDER_PARTS {
        return Err(format!("it has {} names", parts.len()));
    }
    let fit = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-');
    for part in parts {
        match part {
            "" => return Err("it has an empty name (two '/' together, or one at the end)".into()),
            ".." => return Err("'..' would leave the request file's folder".into()),
            "." => return Err("'.' is no folder's name".into()),
            _ if !part.bytes().all(fit) => {
                return Err(format!(
                    "{} has a character that is not allowed",
                    Echo(part)
                ));
            }
            _ => {}
        }
    }
    Ok(())
}

/// A line of a request file, without its end (`\n` or `\r\n`, and trailing spaces and
/// tabs), or the first bytes and the length of a line longer than [`MAX_LINE_BYTES`].
enum Line {
    Text(Vec<u8>),
    Long { head: Vec<u8>, length: usize },
}

impl Line {
    /// The diagram this line asks for; `Some(None)` for an empty line, `None` when it does
    /// not start with a name and a space.
    fn diagram(&self) -> Option<Option<Diagram>> {
        let (bytes, asked) = match self {
            Line::Text(bytes) if bytes.is_empty() => return Some(None),
            Line::Text(bytes) => (bytes, None),
            Line::Long { head, length } => (head, Some(Asked::TooLong(*length))),
        };
        let (name, rest) = bytes.split_at_checked(NAME_DIGITS)?;
        let digit = |b: &u8| b.is_ascii_digit() || (b'a'..=b'f').contains(b);
        if !name.iter().all(digit) {
            return None;
        }
        let query = match rest {
            [] => &[][..],
            [b' ', query @ ..] => query,
            _ => return None,
        };
        let name = String::from_utf8_lossy(name).into_owned();
        let asked = asked.unwrap_or_else(|| Asked::Query(query.to_vec()));
        Some(Some(Diagram { name, asked }))
    }

    /// The line as an error shows it: quoted, shortened.
    fn shown(&self) -> String {
        let (Line::Text(bytes) | Line::Long { head: bytes, .. }) = self;
        Echo(&String::from_utf8_lossy(bytes)).to_string()
    }
}

/// The next line of `reader`, or `None` at its end. At most [`MAX_LINE_BYTES`] are kept
/// of a line; the rest of a longer one is read past, counted.
fn next_line(reader: &mut impl BufRead) -> io::Result<Option<Line>> {
    let mut bytes = Vec::new();
    let limit = MAX_LINE_BYTES as u64 + 1;
    if reader.by_ref().take(limit).read_until(b'\n', &mut bytes)? == 0 {
        return Ok(None);
    }
    if bytes.len() > MAX_LINE_BYTES && bytes.last() != Some(&b'\n') {
        let mut length = bytes.len();
        loop {
            let chunk = reader.fill_buf()?;
            let (used, end) = match chunk.iter().position(|&b| b == b'\n') {
                Some(at) => (at + 1, true),
                None => (chunk.len(), chunk.is_empty()),
            };
            length += used - usize::from(end && used > 0);
            reader.consume(used);
            if end {
                break;
            }
        }
        bytes.truncate(NAME_DIGITS + 1);
        return Ok(Some(Line::Long {
            head: bytes,
            length,
        }));
    }
    let kept = bytes.trim_ascii_end().len();
    bytes.truncate(kept);
    Ok(Some(Line::Text(bytes)))
}

/// Draw every diagram whose sidecar is not current, in parallel over the cores when
/// there are several: what became of each diagram, in the request file's order.
fn draw_missing(requests: &Requests, pieces: Option<&Path>) -> anyhow::Result<Vec<Done>> {
    let folder = &requests.folder;
    let mut done: Vec<Option<Done>> = requests
        .diagrams
        .iter()
        .map(|d| cached(folder, d))
        .collect();
    let missing: Vec<(usize, &Diagram)> = requests
        .diagrams
        .iter()
        .enumerate()
        .filter(|(i, _)| done[*i].is_none())
        .collect();
    if !missing.is_empty() {
        std::fs::create_dir_all(folder)
            .with_context(|| format!("cannot create the folder {}", folder.display()))?;
        let renderer = command_renderer(pieces);
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
        let chunk = missing.len().div_ceil(cores.min(missing.len()));
        let drawn: Vec<anyhow::Result<(usize, Done)>> = std::thread::scope(|scope| {
            let renderer = &renderer;
            let draw_chunk = move |chunk: &[(usize, &Diagram)]| -> Vec<_> {
                let draw_one = |&(i, d): &(usize, &Diagram)| -> anyhow::Result<(usize, Done)> {
                    Ok((i, draw(renderer, folder, d)?))
                };
                chunk.iter().map(draw_one).collect()
            };
            let mut chunks = missing.chunks(chunk);
            let first = chunks.next().unwrap_or_default();
            let others: Vec<_> = chunks.map(|c| scope.spawn(move || draw_chunk(c))).collect();
            let mut drawn = draw_chunk(first);
            for thread in others {
                let chunk = thread
                    .join()
                    .unwrap_or_else(|p| std::panic::resume_unwind(p));
                drawn.extend(chunk);
            }
            drawn
        });
        for result in drawn {
            let (i, fresh) = result?;
            done[i] = Some(fresh);
        }
    }
    Ok(done
        .into_iter()
        .map(|d| d.expect("every diagram done"))
        .collect())
}

/// What `diagram`'s sidecar says, when it is current: written by this version for the
/// same query, and saying `ok` beside its PDF, or `error`.
fn cached(folder: &Path, diagram: &Diagram) -> Option<Done> {
    if matches!(diagram.asked, Asked::TooLong(_)) {
        return None;
    }
    let file = std::fs::File::open(diagram.sidecar(folder)).ok()?;
    let mut text = Vec::new();
    let most = 2 * MAX_LINE_BYTES as u64;
    file.take(most).read_to_end(&mut text).ok()?;
    let mut lines = text.split(|&b| b == b'\n');
    let (query, state, said, version) =
        (lines.next()?, lines.next()?, lines.next()?, lines.next()?);
    if query != diagram.query() || version != version_line().as_bytes() {
        return None;
    }
    let error = match state {
        b"ok" if diagram.pdf(folder).is_file() => None,
        _ if state.starts_with(b"error") => Some(String::from_utf8_lossy(said).into_owned()),
        _ => return None,
    };
    Some(Done {
        fresh: false,
        error,
    })
}

/// Draw `diagram` into `folder`: its PDF, then its sidecar; or, refused, the sidecar of
/// its error, and no PDF (a stale one is removed). `Err` only when a file cannot be
/// written or removed.
fn draw(renderer: &Renderer, folder: &Path, diagram: &Diagram) -> anyhow::Result<Done> {
    let write = |path: &Path, bytes: &[u8]| {
        crate::safe_write::write(path, bytes)
            .with_context(|| format!("cannot write {}", path.display()))
    };
    let (state, said, error) = match diagram_pdf(renderer, &diagram.asked) {
        Ok((pdf, alt)) => {
            write(&diagram.pdf(folder), &pdf)?;
            ("ok".to_string(), alt, None)
        }
        Err(failure) => {
            let pdf = diagram.pdf(folder);
            match std::fs::remove_file(&pdf) {
                Err(e) if e.kind() != io::ErrorKind::NotFound => {
                    return Err(e).with_context(|| format!("cannot remove {}", pdf.display()));
                }
                _ => {}
            }
            let param = if failure.param.is_empty() {
                "query"
            } else {
                failure.param
            };
            let sentence = one_line(&failure.sentence);
            (format!("error {param}"), sentence.clone(), Some(sentence))
        }
    };
    let mut sidecar = diagram.query().to_vec();
    for line in [state, one_line(&said), version_line()] {
        sidecar.push(b'\n');
        sidecar.extend_from_slice(line.as_bytes());
    }
    sidecar.push(b'\n');
    write(&diagram.sidecar(folder), &sidecar)?;
    Ok(Done { fresh: true, error })
}

/// The PDF of a diagram's query and its alternative text, or why it is refused: the
/// query read strictly (`Query::decode`), its names in any of the service's spellings or
/// in kebab-case, a misspelt one's suggestion in kebab-case.
fn diagram_pdf(renderer: &Renderer, asked: &Asked) -> Result<(Vec<u8>, String), Failure> {
    let query = match asked {
        Asked::Query(query) => query,
        Asked::TooLong(length) => {
            let sentence = format!(
                "the request's line is {length} bytes long: at most {MAX_LINE_BYTES} bytes are read"
            );
            return Err(Failure::input("query", sentence));
        }
    };
    let text = std::str::from_utf8(query).map_err(|_| {
        let (at, bad) = not_utf8(query).unwrap_or((0, query));
        Failure::input(
            "query",
            format!(
                "the request's line is not UTF-8 text: the bytes {} at byte {} of its query are not UTF-8; a query's text is UTF-8, percent-encoded (é is %C3%A9)",
                Escaped(bad),
                at + 1
            ),
        )
    })?;
    let pairs: Vec<(String, String)> = Query::decode(text)?
        .into_pairs()
        .into_iter()
        .map(|(name, value)| (service_spelling(name), value))
        .collect();
    let pdf = embed::render_with(renderer, pairs.clone(), Format::Pdf).map_err(kebab_suggestion)?;
    let (alt, _) = embed::describe(pairs).map_err(kebab_suggestion)?;
    Ok((pdf, alt))
}

/// `text` on one line: every control character (`\n`, `\r`, a tab, a form feed, which
/// TeX would read as a paragraph's end) a space.
fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// The last line of a sidecar: the program and the version that wrote it.
fn version_line() -> String {
    format!("staunton {}", env!("CARGO_PKG_VERSION"))
}

/// `count` and `noun`, plural unless one.
fn counted(count: usize, noun: &str) -> String {
    match count {
        1 => format!("1 {noun}"),
        _ => format!("{count} {noun}s"),
    }
}

/// The `.sto` of a job: TeX comments only, a line for the folder and one for each
/// diagram, `ok` or `error`.
fn sto_text(requests: &Requests, done: &[Done]) -> String {
    let diagrams = counted(requests.diagrams.len(), "diagram");
    let mut text = format!("% staunton latex: {diagrams} in {}\n", requests.shown);
    for (diagram, done) in requests.diagrams.iter().zip(done) {
        let state = if done.error.is_some() { "error" } else { "ok" };
        text.push_str(&format!("% {} {state}\n", diagram.name));
    }
    text
}

/// The summary on stderr: how many diagrams were drawn, found drawn and refused, and a
/// line for each refused one (refused now or before) with its sentence.
fn report(requests: &Requests, done: &[Done]) {
    let drawn = done.iter().filter(|d| d.fresh && d.error.is_none()).count();
    let already = done.iter().filter(|d| !d.fresh).count();
    let refused = done.iter().filter(|d| d.error.is_some()).count();
    eprintln!(
        "staunton latex: {}: {drawn} drawn, {already} already in {}, {refused} refused",
        counted(done.len(), "diagram"),
        requests.shown
    );
    for (diagram, done) in requests.diagrams.iter().zip(done) {
        if let Some(sentence) = &done.error {
            eprintln!("staunton latex: {}: {sentence}", diagram.name);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &[u8]) -> Vec<Line> {
        let mut reader = BufReader::with_capacity(64, text);
        std::iter::from_fn(|| next_line(&mut reader).expect("in memory")).collect()
    }

    #[test]
    fn lines_lose_their_ends_and_a_long_one_is_read_past() {
        let long = "a".repeat(MAX_LINE_BYTES + 10);
        let exact = "b".repeat(MAX_LINE_BYTES);
        let text = format!("one  \r\ntwo\n\n{long}\r\n{exact}\nlast");
        let read = lines(text.as_bytes());
        let shapes: Vec<(usize, bool)> = read
            .iter()
            .map(|l| match l {
                Line::Text(bytes) => (bytes.len(), false),
                Line::Long { length, head } => {
                    assert_eq!(head.len(), NAME_DIGITS + 1);
                    (*length, true)
                }
            })
            .collect();
        let expected = [
            (3, false),
            (3, false),
            (0, false),
            (MAX_LINE_BYTES + 11, true),
            (MAX_LINE_BYTES, false),
            (4, false),
        ];
        assert_eq!(shapes, expected);
        let unended = lines(long.as_bytes());
        assert!(matches!(unended[..], [Line::Long { length, .. }] if length == long.len()));
    }

    #[test]
    fn a_line_is_a_name_a_space_and_a_query() {
        let name = "0123456789abcdef0123456789abcdef";
        let diagram = |line: &str| Line::Text(line.as_bytes().to_vec()).diagram();
        let read = diagram(&format!("{name} fen=start"))
            .expect("a line")
            .expect("a diagram");
        assert_eq!(
            (read.name.as_str(), read.query()),
            (name, &b"fen=start"[..])
        );
        assert!(diagram(name).expect("a line").is_some());
        assert!(diagram("").expect("a line").is_none());
        for bad in [
            format!("{} fen=start", name.to_uppercase()),
            format!("{name}fen=start"),
            format!("{name}0 fen=start"),
            "fen=start".to_string(),
        ] {
            assert!(diagram(&bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn a_folder_is_a_short_relative_path_of_plain_names() {
        for good in ["staunton-diagrams", "build/fig_1.v2", "a/b/c/d/e/f/g/h"] {
            assert_eq!(folder_ok(good), Ok(()), "{good}");
        }
        for bad in [
            "",
            "/tmp/x",
            "../x",
            "a/../b",
            "./a",
            "a b",
            "a//b",
            "a/",
            "é",
            "a/b/c/d/e/f/g/h/i",
            "a\\b",
        ] {
            assert!(folder_ok(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_job_is_named_with_or_without_its_extension() {
        for job in ["book", "book.tex", "book.stn"] {
            let (stn, sto) = job_files(Path::new(job));
            assert_eq!(
                (stn.to_str(), sto.to_str()),
                (Some("book.stn"), Some("book.sto"))
            );
        }
        let (stn, _) = job_files(Path::new("dir/book.v2"));
        assert_eq!(stn, Path::new("dir/book.v2.stn"));
    }
}
