//! The command-line chapter of the book (`docs/src/cli.md`) against the program's own
//! `--help`: the subcommands it counts and names, every flag of every subcommand, and the
//! `serve` table's environment variables and defaults.

use std::collections::BTreeMap;
use std::process::Command;

fn chapter() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/src/cli.md");
    std::fs::read_to_string(path).expect("docs/src/cli.md")
}

fn help(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_staunton"))
        .args(args)
        .arg("--help")
        .env("COLUMNS", "400")
        .output()
        .expect("runs");
    assert!(out.status.success(), "{args:?} --help: {out:?}");
    String::from_utf8(out.stdout).expect("UTF-8 help")
}

/// The subcommands `staunton --help` lists (without `help`).
fn subcommands() -> Vec<String> {
    let top = help(&[]);
    let list = top
        .split("Commands:\n")
        .nth(1)
        .and_then(|rest| rest.split("\n\n").next())
        .expect("a list of commands");
    list.lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_string)
        .collect()
}

/// A help text's flags: each long name with its description (the rest of the entry).
fn flags(help: &str) -> BTreeMap<String, String> {
    let mut flags = BTreeMap::new();
    let mut current: Option<String> = None;
    for line in help.lines() {
        let trimmed = line.trim_start();
        let starts_flag = trimmed.starts_with('-') && line.starts_with("  ");
        if starts_flag && let Some(at) = trimmed.find("--") {
            let name: String = trimmed[at..]
                .chars()
                .take_while(|c| !c.is_whitespace() && !matches!(c, '<' | '['))
                .collect();
            flags.insert(name.clone(), trimmed.to_string());
            current = Some(name);
        } else if let Some(name) = &current {
            if trimmed.is_empty() {
                current = None;
            } else if let Some(text) = flags.get_mut(name) {
                text.push(' ');
                text.push_str(trimmed);
            }
        }
    }
    flags.remove("--help");
    flags.remove("--version");
    flags
}

/// The text of `[key: value]` in a flag's help (`env`, `default`).
fn bracket(text: &str, key: &str) -> Option<String> {
    let start = text.find(&format!("[{key}: "))? + key.len() + 3;
    let end = start + text[start..].find(']')?;
    Some(text[start..end].trim_end_matches('=').to_string())
}

#[test]
fn the_chapter_counts_and_names_every_subcommand() {
    let words = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
        "eleven", "twelve",
    ];
    let commands = subcommands();
    let doc = chapter();
    let intro = doc.split("\n\n").nth(1).expect("the first paragraph");
    let count = words[commands.len()];
    assert!(
        intro.contains(&format!("with {count} subcommands")),
        "the chapter should count {count} subcommands: {intro}"
    );
    for name in &commands {
        assert!(
            intro.contains(&format!("`{name}`")),
            "the first paragraph names `{name}`: {intro}"
        );
    }
}

#[test]
fn every_flag_of_every_subcommand_is_in_the_chapter() {
    let doc = chapter();
    let mut missing = Vec::new();
    for command in subcommands() {
        for flag in flags(&help(&[&command])).keys() {
            // `-o` stands for `--output` in the chapter's examples.
            let shown = doc.contains(&format!("`{flag}"))
                || doc.contains(&format!(" {flag}"))
                || (flag == "--output" && doc.contains("`-o"));
            if !shown {
                missing.push(format!("{command} {flag}"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "flags the chapter never names: {missing:?}"
    );
}

#[test]
fn the_serve_table_gives_each_flag_its_environment_variable_and_default() {
    let doc = chapter();
    let serve = flags(&help(&["serve"]));
    let mut rows = 0;
    for row in doc.lines().filter(|l| l.starts_with("| `")) {
        let cells: Vec<&str> = row.split(" | ").collect();
        let [first, env, default, ..] = cells.as_slice() else {
            continue;
        };
        let Some(flag) = first
            .split('`')
            .nth(1)
            .and_then(|f| f.split_whitespace().find(|w| w.starts_with("--")))
        else {
            continue;
        };
        rows += 1;
        let text = serve
            .get(flag)
            .unwrap_or_else(|| panic!("the table's {flag} is not a flag of serve: {row}"));
        assert_eq!(
            bracket(text, "env").as_deref(),
            Some(env.trim_matches('`')),
            "{flag}'s environment variable"
        );
        let documented = default.split('`').nth(1);
        assert_eq!(
            bracket(text, "default").as_deref(),
            documented,
            "{flag}'s default: the table says {default}"
        );
    }
    let table: Vec<&String> = serve
        .keys()
        .filter(|f| !doc.contains(&format!("`serve {f}")) && !doc.contains(&format!("| `{f}")))
        .collect();
    assert!(
        table.is_empty(),
        "serve flags missing from the table: {table:?}"
    );
    assert!(rows >= serve.len(), "{rows} rows for {} flags", serve.len());
}
