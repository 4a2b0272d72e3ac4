//! One version: `Cargo.toml`'s is the version of every artifact `scripts/dist.sh` makes (the
//! Python package's manifest, the npm package's manifest and lock file, the wasm crate, the
//! Typst package's manifest, plugin and documents, the LaTeX package and its manual, the
//! container image's label), of `staunton --version`, and of the newest release section of
//! `CHANGELOG.md`. A release changes them together, or this test says which one was left.

use std::process::Command;

fn read(path: &str) -> String {
    let full = format!("{}/{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"))
}

/// The `version = "…"` of a TOML file's `[section]` (the first one under its header).
fn toml_version(path: &str, section: &str) -> String {
    let text = read(path);
    let header = format!("[{section}]");
    let mut inside = false;
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            inside = line == header;
        } else if inside && let Some(rest) = line.strip_prefix("version = \"") {
            return rest.trim_end_matches('"').to_string();
        }
    }
    panic!("{path}: no version in {header}")
}

/// The string value of every `"version": "…"` line of a JSON file indented `indent` spaces
/// (package.json's own, and in package-lock.json the lock's and the root package's).
fn json_versions(path: &str, indent: usize) -> Vec<String> {
    let key = format!("{}\"version\": \"", " ".repeat(indent));
    read(path)
        .lines()
        .filter_map(|line| line.strip_prefix(&key))
        .map(|rest| rest.trim_end_matches(',').trim_end_matches('"').to_string())
        .collect()
}

#[test]
fn every_artifact_has_the_crates_version() {
    let version = env!("CARGO_PKG_VERSION");
    assert_eq!(toml_version("Cargo.toml", "package"), version);
    let mut found = vec![
        (
            "python/Cargo.toml",
            toml_version("python/Cargo.toml", "package"),
        ),
        ("js/Cargo.toml", toml_version("js/Cargo.toml", "package")),
        (
            "typst/typst.toml",
            toml_version("typst/typst.toml", "package"),
        ),
        (
            "typst/plugin/Cargo.toml",
            toml_version("typst/plugin/Cargo.toml", "package"),
        ),
    ];
    // The Typst documents that import the package name its version.
    for path in [
        "typst/examples/basic.typ",
        "typst/test/every.typ",
        "typst/test/same.typ",
        "typst/test/pages.typ",
    ] {
        for import in read(path).split("@preview/fenster:").skip(1) {
            let v = import.split('"').next().unwrap_or("");
            found.push((path, v.to_string()));
        }
    }
    // The LaTeX package: `\ProvidesExplPackage{staunton}{DATE}{VERSION}`, and its manual.
    let sty = read("latex/staunton.sty");
    let provides = sty
        .split("\\ProvidesExplPackage{staunton}{")
        .nth(1)
        .and_then(|rest| rest.split('{').nth(1))
        .and_then(|rest| rest.split('}').next())
        .expect("latex/staunton.sty's \\ProvidesExplPackage");
    found.push(("latex/staunton.sty", provides.to_string()));
    let manual = read("latex/staunton-doc.tex");
    let dated = manual
        .split("\\date{Version ")
        .nth(1)
        .and_then(|rest| rest.split(',').next())
        .expect("latex/staunton-doc.tex's \\date{Version …}");
    found.push(("latex/staunton-doc.tex", dated.to_string()));
    for v in json_versions("js/package.json", 2) {
        found.push(("js/package.json", v));
    }
    let lock = json_versions("js/package-lock.json", 2);
    assert!(!lock.is_empty(), "js/package-lock.json: no version");
    for v in lock {
        found.push(("js/package-lock.json", v));
    }
    // The lock's root package ("packages": { "": { … } }), six spaces in.
    let root = read("js/package-lock.json");
    let root_package = root
        .split("\"\": {")
        .nth(1)
        .expect("the lock's root package");
    let v = root_package
        .split("\"version\": \"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("the root package's version");
    found.push(("js/package-lock.json (packages \"\")", v.to_string()));
    let pyproject = read("python/pyproject.toml");
    assert!(
        pyproject.contains("dynamic = [\"version\"]"),
        "python/pyproject.toml must take its version from python/Cargo.toml (dynamic)"
    );
    let docker = read("Dockerfile");
    let arg = docker
        .lines()
        .find_map(|l| l.strip_prefix("ARG VERSION="))
        .expect("the Dockerfile's `ARG VERSION=…` line (the image's label)");
    found.push(("Dockerfile", arg.trim().to_string()));
    let wrong: Vec<_> = found.iter().filter(|(_, v)| v != version).collect();
    assert!(
        wrong.is_empty(),
        "Cargo.toml says {version}; these disagree: {wrong:?}"
    );
}

#[test]
fn the_binary_and_the_changelog_name_it() {
    let version = env!("CARGO_PKG_VERSION");
    let out = Command::new(env!("CARGO_BIN_EXE_staunton"))
        .arg("--version")
        .output()
        .expect("runs");
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        format!("staunton {version}")
    );
    // Keep a Changelog: "## [Unreleased]", then the newest release "## [X.Y.Z] - YYYY-MM-DD".
    let changelog = read("CHANGELOG.md");
    let newest = changelog
        .lines()
        .find(|l| l.starts_with("## [") && !l.starts_with("## [Unreleased]"))
        .expect("CHANGELOG.md: a release section, \"## [X.Y.Z] - date\"");
    let date = newest
        .strip_prefix(&format!("## [{version}] - "))
        .unwrap_or_else(|| panic!("CHANGELOG.md's newest release is \"{newest}\", not {version}"));
    assert!(
        date.len() == 10 && date.as_bytes()[4] == b'-' && date.as_bytes()[7] == b'-',
        "CHANGELOG.md: \"{newest}\" has no YYYY-MM-DD date"
    );
}
