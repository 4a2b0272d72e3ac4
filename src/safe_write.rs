//! Files written safely: every file the command line, the Markdown rewriter and the
//! snapshot helpers write goes through here.
//!
//! What is at the target decides how it is written:
//!
//! - nothing, or a regular file: the bytes go to a temporary file created exclusively
//!   (`create_new`, so a link or file planted under its name is never followed or reused;
//!   the name is random, `.NAME.<16 hex digits>.tmp`) in the target's own folder, which is
//!   renamed over the target once everything is written. A reader never sees half a file,
//!   and a failed run leaves the old file (or none) and no temporary. The new file keeps
//!   the replaced one's permissions and, where the writer may give it (root), its owner
//!   and group;
//! - a character device, a FIFO or a socket (`/dev/null`, `/dev/stdout`, a named pipe),
//!   directly or through a link: the bytes are written straight to it, which stays what
//!   it was;
//! - anything else is refused: a block device (a disk) or a folder, directly or through a
//!   link, a link to a regular file, a link to nothing. A link planted where a file is
//!   written would otherwise have what it points to overwritten.
//!
//! [`write_if_changed`] writes files named by a hash of what they hold: whatever is at
//! the name is replaced (not followed) unless it is a regular file holding exactly the
//! bytes.
//!
//! Owns no paths and no messages beyond the I/O error: callers name the file.

use std::fs::{self, File, OpenOptions, Permissions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Names tried for a temporary before giving up (each taken name is a fresh random one).
const ATTEMPTS: usize = 16;

/// Longest part of the target's name kept in a temporary's name, in bytes, so that the
/// temporary's name stays within the 255 bytes a file name may have.
const NAME_BYTES: usize = 100;

/// Write `bytes` to `path` (see the module documentation for how).
pub fn write(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_with(path, |out| out.write_all(bytes))
}

/// Write `path` with what `fill` writes; the file is in place only when `fill` succeeds
/// (a device or FIFO gets the bytes as they are written).
pub fn write_with<T, E: From<io::Error>>(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> Result<T, E>,
) -> Result<T, E> {
    match target(path)? {
        Target::Through => {
            let mut out = BufWriter::new(open_through(path)?);
            let value = fill(&mut out)?;
            out.flush()?;
            Ok(value)
        }
        Target::Replace { old } => {
            let (temporary, handle) = Temporary::create(path)?;
            if let Some(old) = &old {
                old.pass_on(&handle)?;
            }
            let mut out = BufWriter::new(handle);
            let value = fill(&mut out)?;
            out.into_inner().map_err(io::IntoInnerError::into_error)?;
            temporary.rename_to(path)?;
            Ok(value)
        }
    }
}

/// Write `bytes` to `path`, a file named by a hash of what it holds: `Ok(false)` when a
/// regular file holding exactly these bytes is there already (it is left alone),
/// `Ok(true)` when written. Anything else at the name (a link, a device, a file with
/// other bytes) is replaced by a temporary renamed over it, never followed or kept; a
/// folder is refused.
pub fn write_if_changed(path: &Path, bytes: &[u8]) -> io::Result<bool> {
    match fs::symlink_metadata(path) {
        Ok(here) if here.is_dir() => return Err(folder()),
        Ok(here) if here.is_file() && holds(path, &here, bytes)? => return Ok(false),
        Ok(_) => {}
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => return Err(e),
    }
    let (temporary, mut handle) = Temporary::create(path)?;
    handle.write_all(bytes)?;
    drop(handle);
    temporary.rename_to(path)?;
    Ok(true)
}

/// Whether the regular file at `path` (`here`, as found without following a link) holds
/// exactly `bytes`. What is opened must be that same file, else it is taken as different.
fn holds(path: &Path, here: &fs::Metadata, bytes: &[u8]) -> io::Result<bool> {
    use std::io::Read;
    if here.len() != bytes.len() as u64 {
        return Ok(false);
    }
    let mut file = match File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(false),
        Err(e) => return Err(e),
    };
    let opened = file.metadata()?;
    if !opened.is_file() || !same_file(here, &opened) {
        return Ok(false);
    }
    let mut there = Vec::with_capacity(bytes.len());
    Read::take(&mut file, bytes.len() as u64 + 1).read_to_end(&mut there)?;
    Ok(there == bytes)
}

/// Write every file of `files`, or none: all are written to temporaries first and renamed
/// into place only when every one is written (devices get their bytes last).
#[cfg_attr(not(feature = "cli"), allow(dead_code))] // the command line's worksheets
pub fn write_all(files: &[(PathBuf, Vec<u8>)]) -> io::Result<()> {
    let mut ready = Vec::with_capacity(files.len());
    for (path, bytes) in files {
        let prepared = match target(path)? {
            Target::Through => Prepared::Through(path),
            Target::Replace { old } => {
                let (temporary, mut handle) = Temporary::create(path)?;
                if let Some(old) = &old {
                    old.pass_on(&handle)?;
                }
                handle.write_all(bytes)?;
                Prepared::Replace(temporary, path)
            }
        };
        ready.push((prepared, bytes));
    }
    for (prepared, bytes) in ready {
        match prepared {
            Prepared::Through(path) => open_through(path)?.write_all(bytes)?,
            Prepared::Replace(temporary, path) => temporary.rename_to(path)?,
        }
    }
    Ok(())
}

/// A file of [`write_all`] ready to be put in place.
#[cfg_attr(not(feature = "cli"), allow(dead_code))]
enum Prepared<'a> {
    Through(&'a Path),
    Replace(Temporary, &'a Path),
}

/// How a target is written.
#[derive(Debug)]
enum Target {
    /// Through a temporary renamed over the target (none, or a regular file whose
    /// permissions and owner the new one gets).
    Replace { old: Option<Old> },
    /// Straight to the target: a character device, FIFO or socket, or a link to one.
    Through,
}

/// What a replaced file passes on to the file that replaces it.
#[derive(Debug)]
struct Old {
    permissions: Permissions,
    /// The owner and group (Unix).
    #[cfg(unix)]
    owner: (u32, u32),
}

impl Old {
    fn of(metadata: &fs::Metadata) -> Self {
        #[cfg(unix)]
        use std::os::unix::fs::MetadataExt as _;
        Self {
            permissions: metadata.permissions(),
            #[cfg(unix)]
            owner: (metadata.uid(), metadata.gid()),
        }
    }

    /// Give `new` (the temporary) the owner, group and permissions of the old file: the
    /// owner first, since changing it clears the set-id bits the permissions may have.
    fn pass_on(&self, new: &File) -> io::Result<()> {
        #[cfg(unix)]
        keep_owner(new, self.owner)?;
        new.set_permissions(self.permissions.clone())
    }
}

/// Give `file` the owner and group `(uid, gid)` when it has others. Only root may give a
/// file away; anyone may give it a group they are in. What the writer may not do is left
/// as it is: the new file is theirs, as an editor's would be.
#[cfg(unix)]
fn keep_owner(file: &File, (uid, gid): (u32, u32)) -> io::Result<()> {
    use std::os::unix::fs::{MetadataExt as _, fchown};
    let now = file.metadata()?;
    if (now.uid(), now.gid()) == (uid, gid) {
        return Ok(());
    }
    let not_allowed = |e: &io::Error| e.kind() == io::ErrorKind::PermissionDenied;
    match fchown(file, Some(uid), Some(gid)) {
        Err(e) if not_allowed(&e) => match fchown(file, None, Some(gid)) {
            Err(e) if not_allowed(&e) => Ok(()),
            other => other,
        },
        other => other,
    }
}

/// What is at `path`, and so how it is written.
fn target(path: &Path) -> io::Result<Target> {
    let here = match fs::symlink_metadata(path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            return Ok(Target::Replace { old: None });
        }
        other => other?,
    };
    if here.is_file() {
        return Ok(Target::Replace {
            old: Some(Old::of(&here)),
        });
    }
    let link = here.file_type().is_symlink();
    let metadata = match link {
        false => here,
        true => match fs::metadata(path) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return Err(refused("it is a link to nothing"));
            }
            Err(e) => return Err(e),
            Ok(m) => m,
        },
    };
    let kind = metadata.file_type();
    match (link, kind) {
        (_, kind) if streams(kind) => Ok(Target::Through),
        (_, kind) if kind.is_dir() => Err(folder()),
        (true, kind) if kind.is_file() => Err(refused(
            "it is a link to a file, which is not written through",
        )),
        (true, kind) => Err(refused(&format!("it is a link to {}", not_written(kind)))),
        (false, kind) => Err(io::Error::new(
            io::ErrorKind::AlreadyExists,
            format!(
                "it is {} (name a file, a pipe or a character device such as /dev/stdout)",
                not_written(kind)
            ),
        )),
    }
}

/// Whether a file of this kind is written straight through: a character device, a FIFO
/// or a socket.
#[cfg(unix)]
fn streams(kind: fs::FileType) -> bool {
    use std::os::unix::fs::FileTypeExt as _;
    kind.is_char_device() || kind.is_fifo() || kind.is_socket()
}

/// Whether a file of this kind is written straight through: anything not a file, folder
/// or link (the system's devices).
#[cfg(not(unix))]
fn streams(kind: fs::FileType) -> bool {
    !kind.is_file() && !kind.is_dir() && !kind.is_symlink()
}

/// A kind of file that is never written, in words: a block device, or another kind.
fn not_written(kind: fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt as _;
        if kind.is_block_device() {
            return "a block device (a disk), which is never written";
        }
    }
    let _ = kind;
    "neither a file nor a character device, FIFO or socket, so it is not written"
}

/// Whether `a` and `b` describe one file (on Unix, its device and inode).
fn same_file(a: &fs::Metadata, b: &fs::Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt as _;
        (a.dev(), a.ino()) == (b.dev(), b.ino())
    }
    #[cfg(not(unix))]
    {
        a.len() == b.len() && a.modified().ok() == b.modified().ok()
    }
}

/// A folder where a file is written.
fn folder() -> io::Error {
    io::Error::new(io::ErrorKind::IsADirectory, "it is a folder, not a file")
}

/// A target refused, with what to do instead.
fn refused(what: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::AlreadyExists,
        format!("{what} (remove the link, or name the file itself)"),
    )
}

/// `path` (a character device, FIFO or socket) opened for writing as it is: never
/// created, never truncated; refused, before a byte is written, if it became something
/// else meanwhile.
fn open_through(path: &Path) -> io::Result<File> {
    let file = OpenOptions::new().write(true).open(path)?;
    let kind = file.metadata()?.file_type();
    if !streams(kind) {
        return Err(io::Error::new(
            io::ErrorKind::AlreadyExists,
            "it was replaced by something other than a device, FIFO or socket while being written",
        ));
    }
    Ok(file)
}

/// A temporary file beside its target, removed when dropped unless renamed into place.
struct Temporary {
    path: PathBuf,
    renamed: bool,
}

impl Temporary {
    /// A new temporary file in `target`'s folder, created exclusively.
    fn create(target: &Path) -> io::Result<(Temporary, File)> {
        create_first(target, (0..ATTEMPTS).map(|_| random_hex()))
    }

    fn rename_to(mut self, target: &Path) -> io::Result<()> {
        fs::rename(&self.path, target)?;
        self.renamed = true;
        Ok(())
    }
}

impl Drop for Temporary {
    fn drop(&mut self) {
        if !self.renamed {
            let _ = fs::remove_file(&self.path);
        }
    }
}

/// The first temporary for `target` that can be created exclusively, with the `suffixes`
/// in turn; a name already taken (by a file, or a link planted there) is skipped.
fn create_first(
    target: &Path,
    suffixes: impl Iterator<Item = String>,
) -> io::Result<(Temporary, File)> {
    let folder = match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut end = name.len().min(NAME_BYTES);
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    for suffix in suffixes {
        let path = folder.join(format!(".{}.{suffix}.tmp", &name[..end]));
        match OpenOptions::new().write(true).create_new(true).open(&path) {
            Ok(file) => {
                let temporary = Temporary {
                    path,
                    renamed: false,
                };
                return Ok((temporary, file));
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::new(
        io::ErrorKind::AlreadyExists,
        format!("{ATTEMPTS} temporary names beside it were all taken"),
    ))
}

/// 16 hex digits no other process can guess: the standard library's randomly keyed
/// hasher over a counter, the process id and the time.
fn random_hex() -> String {
    use std::hash::{BuildHasher, Hasher};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
    hasher.write_u32(std::process::id());
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
    hasher.write_u128(now.map_or(0, |d| d.as_nanos()));
    format!("{:016x}", hasher.finish())
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::{FileTypeExt as _, PermissionsExt as _, symlink};

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "staunton-safe-write-{}-{name}",
            std::process::id()
        ));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// A scratch folder holding `out.txt`, which says "old"; the folder and the file.
    fn old_file(name: &str) -> (PathBuf, PathBuf) {
        let dir = scratch(name);
        let path = dir.join("out.txt");
        fs::write(&path, "old").unwrap();
        (dir, path)
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_link_planted_at_a_temporary_name_is_skipped_not_followed() {
        let dir = scratch("planted");
        fs::write(dir.join("victim"), "precious").unwrap();
        symlink(dir.join("victim"), dir.join(".out.md.planted.tmp")).unwrap();
        let suffixes = ["planted", "free"].map(String::from).into_iter();
        let (temporary, mut file) = create_first(&dir.join("out.md"), suffixes).unwrap();
        assert_eq!(temporary.path, dir.join(".out.md.free.tmp"));
        file.write_all(b"new").unwrap();
        temporary.rename_to(&dir.join("out.md")).unwrap();
        assert_eq!(fs::read_to_string(dir.join("victim")).unwrap(), "precious");
        assert_eq!(fs::read_to_string(dir.join("out.md")).unwrap(), "new");
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_failed_write_leaves_the_old_file_and_no_temporary() {
        let (dir, path) = old_file("failed");
        let result: io::Result<()> = write_with(&path, |out| {
            out.write_all(b"half")?;
            Err(io::Error::other("the document is bad"))
        });
        assert!(result.is_err());
        assert_eq!(fs::read_to_string(&path).unwrap(), "old");
        assert_eq!(names(&dir), ["out.txt"]);
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_regular_file_is_replaced_keeping_its_permissions() {
        let (dir, path) = old_file("replace");
        fs::set_permissions(&path, Permissions::from_mode(0o640)).unwrap();
        write(&path, b"new").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "new");
        let mode = fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o640);
        assert_eq!(names(&dir), ["out.txt"]);
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_device_is_written_through_and_stays_a_device() {
        let dir = scratch("device");
        symlink("/dev/null", dir.join("null.png")).unwrap();
        write(&dir.join("null.png"), b"bytes").unwrap();
        write(Path::new("/dev/null"), b"bytes").unwrap();
        assert!(
            fs::metadata("/dev/null")
                .unwrap()
                .file_type()
                .is_char_device()
        );
        assert_eq!(names(&dir), ["null.png"]);
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn folders_and_links_to_files_or_nothing_are_refused() {
        let dir = scratch("refused");
        fs::create_dir(dir.join("folder")).unwrap();
        symlink(dir.join("missing"), dir.join("dangling")).unwrap();
        fs::write(dir.join("victim"), "precious").unwrap();
        symlink(dir.join("victim"), dir.join("link.png")).unwrap();
        let link = write(&dir.join("link.png"), b"x").unwrap_err();
        assert!(link.to_string().contains("link to a file"), "{link}");
        assert_eq!(fs::read_to_string(dir.join("victim")).unwrap(), "precious");
        let folder = write(&dir.join("folder"), b"x").unwrap_err();
        assert!(folder.to_string().contains("folder"), "{folder}");
        let dangling = write(&dir.join("dangling"), b"x").unwrap_err();
        assert!(dangling.to_string().contains("link to nothing"), "{dangling}");
        assert!(!dir.join("missing").exists());
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn write_all_writes_every_file_or_none() {
        let dir = scratch("all");
        fs::create_dir(dir.join("b.png")).unwrap();
        let files = vec![
            (dir.join("a.png"), b"a".to_vec()),
            (dir.join("b.png"), b"b".to_vec()),
        ];
        assert!(write_all(&files).is_err());
        assert_eq!(names(&dir), ["b.png"]);
        fs::remove_dir(dir.join("b.png")).unwrap();
        write_all(&files).unwrap();
        assert_eq!(names(&dir), ["a.png", "b.png"]);
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn write_if_changed_keeps_only_a_file_with_the_same_bytes() {
        use std::os::unix::fs::MetadataExt as _;
        let dir = scratch("changed");
        fs::write(dir.join("victim"), "precious").unwrap();
        symlink(dir.join("victim"), dir.join("link.svg")).unwrap();
        fs::write(dir.join("script.svg"), "<svg><script/></svg>").unwrap();
        fs::write(dir.join("same.svg"), "svg").unwrap();
        fs::create_dir(dir.join("folder.svg")).unwrap();
        let inode = |name: &str| fs::symlink_metadata(dir.join(name)).unwrap().ino();
        let same = inode("same.svg");
        assert!(write_if_changed(&dir.join("link.svg"), b"svg").unwrap());
        assert!(write_if_changed(&dir.join("script.svg"), b"svg").unwrap());
        assert!(!write_if_changed(&dir.join("same.svg"), b"svg").unwrap());
        assert!(write_if_changed(&dir.join("new.svg"), b"svg").unwrap());
        let folder = write_if_changed(&dir.join("folder.svg"), b"svg").unwrap_err();
        assert!(folder.to_string().contains("folder"), "{folder}");
        assert_eq!(fs::read_to_string(dir.join("victim")).unwrap(), "precious");
        for name in ["link.svg", "script.svg", "same.svg", "new.svg"] {
            assert!(fs::symlink_metadata(dir.join(name)).unwrap().is_file(), "{name}");
            assert_eq!(fs::read_to_string(dir.join(name)).unwrap(), "svg", "{name}");
        }
        assert_eq!(inode("same.svg"), same, "left alone");
        let all = ["folder.svg", "link.svg", "new.svg", "same.svg", "script.svg", "victim"];
        assert_eq!(names(&dir), all);
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_replaced_file_keeps_its_owner_and_group_where_the_writer_may_give_them() {
        use std::os::unix::fs::{MetadataExt as _, chown};
        let (dir, path) = old_file("owner");
        if fs::metadata(&path).unwrap().uid() != 0 {
            eprintln!("skipped: only root may give a file to another user");
            let _ = fs::remove_dir_all(&dir);
            return;
        }
        chown(&path, Some(1234), Some(1235)).unwrap();
        fs::set_permissions(&path, Permissions::from_mode(0o604)).unwrap();
        write(&path, b"new").unwrap();
        let files = [(dir.join("out.txt"), b"all".to_vec())];
        let after_write = fs::metadata(&path).unwrap();
        write_all(&files).unwrap();
        for m in [after_write, fs::metadata(&path).unwrap()] {
            assert_eq!((m.uid(), m.gid(), m.mode() & 0o7777), (1234, 1235, 0o604));
        }
        assert_eq!(fs::read_to_string(&path).unwrap(), "all");
        assert_eq!(names(&dir), ["out.txt"]);
        let _ = fs::remove_dir_all(&dir);
    }
}
