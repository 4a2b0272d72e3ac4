//! Flags made from the parameter tables. Each parameter a subcommand takes becomes a flag,
//! `--` and its name in kebab case (`lastMove` is `--last-move`), with the table's sentence
//! as its help, so the command line says what the service, the Python and npm packages say
//! and cannot drift from them (ripgrep makes its flags from one definition the same way).
//!
//! A value is handed to the request parser as it was typed: the crate's sentence, not
//! clap's, names a bad one. A list (`arrows`, `marks`…) may be given whole, its items
//! joined by the table's separator, or one item a flag (`--arrows Ge2e4 --arrows Rd7d5`).
//! A yes/no parameter is a switch: `--turn` turns it on, `--turn=0` off.

use crate::request::{Known, Param, ParamKind};
use clap::{Arg, ArgAction, ArgMatches, Args, Command, FromArgMatches};
use std::marker::PhantomData;

/// Which parameters a subcommand takes as flags.
pub(super) trait FlagSet {
    /// The parameters, in the order `--help` lists them, each with the flag it needs
    /// (`pgn` for an animation's, `card` for a share card's), if any.
    fn flags() -> Vec<(&'static Param, Option<&'static str>)>;
}

/// The flags of the set `S` that were given, as query pairs under their canonical names.
#[derive(Debug, Clone)]
pub(super) struct TableFlags<S> {
    pairs: Vec<(&'static str, String)>,
    set: PhantomData<S>,
}

impl<S> TableFlags<S> {
    /// The flags given, as `(name, value)` query pairs.
    pub(super) fn pairs(&self) -> &[(&'static str, String)] {
        &self.pairs
    }

    /// The value given for parameter `name`, if any.
    pub(super) fn get(&self, name: &str) -> Option<&str> {
        let found = self.pairs.iter().find(|(n, _)| *n == name);
        found.map(|(_, v)| v.as_str())
    }
}

/// The flag's long name: the parameter's in kebab case (`lastMove` → `last-move`).
pub(super) fn flag_name(param: &Param) -> String {
    let mut name = String::with_capacity(param.name.len() + 2);
    for c in param.name.chars() {
        if c.is_ascii_uppercase() {
            name.push('-');
        }
        name.push(c.to_ascii_lowercase());
    }
    name
}

/// The flag of `param`, needing `needs` when it is given.
fn arg(param: &'static Param, needs: Option<&'static str>) -> Arg {
    let long = flag_name(param);
    let arg = Arg::new(param.name)
        .long(long.clone())
        .help(help(param))
        .value_name(long.replace('-', "_").to_ascii_uppercase());
    let arg = match (param.kind, param.separator) {
        (ParamKind::Flag, _) => arg
            .num_args(0..=1)
            .require_equals(true)
            .default_missing_value("1")
            .value_name("BOOL"),
        (_, Some(_)) => arg.action(ArgAction::Append),
        (_, None) => arg.action(ArgAction::Set),
    };
    match needs {
        Some(other) => arg.requires(other),
        None => arg,
    }
}

/// A flag's help: the table's sentence, and for a choice its words and default.
fn help(param: &Param) -> String {
    match param.kind {
        ParamKind::Choice(words) if !param.doc.contains("default") => format!(
            "{} [possible values: {}] [default: {}]",
            param.doc,
            words.join(", "),
            words[0]
        ),
        ParamKind::Choice(words) => {
            format!("{} [possible values: {}]", param.doc, words.join(", "))
        }
        ParamKind::Size => format!(
            "{} [default: {}]",
            param.doc,
            crate::render::options::DEFAULT_SIZE
        ),
        _ => param.doc.to_string(),
    }
}

impl<S: FlagSet> Args for TableFlags<S> {
    fn augment_args(mut cmd: Command) -> Command {
        for (param, needs) in S::flags() {
            cmd = cmd.arg(arg(param, needs));
        }
        cmd
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        Self::augment_args(cmd)
    }
}

impl<S: FlagSet> FromArgMatches for TableFlags<S> {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let mut pairs = Vec::new();
        for (param, _) in S::flags() {
            let Some(values) = matches.get_many::<String>(param.name) else {
                continue;
            };
            let values: Vec<&str> = values.map(String::as_str).collect();
            pairs.push((param.name, values.join(param.separator.unwrap_or(""))));
        }
        Ok(TableFlags {
            pairs,
            set: PhantomData,
        })
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

/// The flag of `S` nearest the unknown flag `typed` (`--sise`), if it is near enough to be
/// a slip: the parameter the service would suggest for the same slip (one did-you-mean for
/// every door), written as a flag (`--size`).
pub(super) fn nearest_flag<S: FlagSet>(typed: &str) -> Option<String> {
    let flags = S::flags();
    let name = typed.trim_start_matches('-').replace('-', "_");
    let near = Known::new(flags.iter().map(|(p, _)| *p)).nearest(&name)?;
    let (param, _) = flags.iter().find(|(p, _)| p.name == near)?;
    Some(format!("--{}", flag_name(param)))
}

/// The parameters of `table` named in `names`, in the table's order, each needing `needs`.
pub(super) fn of(
    table: &'static [Param],
    names: &'static [&'static str],
    needs: Option<&'static str>,
) -> impl Iterator<Item = (&'static Param, Option<&'static str>)> {
    chosen(table, move |name| names.contains(&name), needs)
}

/// The parameters of `table` except those named in `names`, each needing `needs`.
pub(super) fn all_but(
    table: &'static [Param],
    names: &'static [&'static str],
    needs: Option<&'static str>,
) -> impl Iterator<Item = (&'static Param, Option<&'static str>)> {
    chosen(table, move |name| !names.contains(&name), needs)
}

/// The parameters of `table` whose names `keep`, each needing `needs`.
fn chosen(
    table: &'static [Param],
    keep: impl Fn(&str) -> bool,
    needs: Option<&'static str>,
) -> impl Iterator<Item = (&'static Param, Option<&'static str>)> {
    table
        .iter()
        .filter(move |p| keep(p.name))
        .map(move |p| (p, needs))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::request::PARAMS;

    #[derive(Debug, Clone)]
    struct Some3;
    impl FlagSet for Some3 {
        fn flags() -> Vec<(&'static Param, Option<&'static str>)> {
            of(PARAMS, &["size", "lastMove", "arrows", "turn"], None).collect()
        }
    }

    fn parse(args: &[&str]) -> Result<TableFlags<Some3>, clap::Error> {
        let cmd = TableFlags::<Some3>::augment_args(Command::new("t").no_binary_name(true));
        TableFlags::from_arg_matches(&cmd.try_get_matches_from(args)?)
    }

    #[test]
    fn flags_are_the_parameters_in_kebab_case_and_give_their_canonical_names() {
        let flags = parse(&["--size", "300", "--last-move", "e2e4"]).expect("parses");
        assert_eq!(
            flags.pairs(),
            [
                ("size", "300".to_string()),
                ("lastMove", "e2e4".to_string())
            ]
        );
        assert_eq!(flags.get("lastMove"), Some("e2e4"));
        assert!(parse(&["--lastMove", "e2e4"]).is_err());
    }

    #[test]
    fn a_list_joins_its_items_by_the_tables_separator() {
        let flags = parse(&["--arrows", "Ge2e4", "--arrows", "Rd7d5,Yd4"]).expect("parses");
        assert_eq!(flags.get("arrows"), Some("Ge2e4,Rd7d5,Yd4"));
        assert!(parse(&["--size", "1", "--size", "2"]).is_err(), "one size");
    }

    #[test]
    fn a_yes_no_parameter_is_a_switch_that_takes_a_value_only_after_equals() {
        assert_eq!(parse(&["--turn"]).expect("on").get("turn"), Some("1"));
        assert_eq!(parse(&["--turn=0"]).expect("off").get("turn"), Some("0"));
        assert!(parse(&["--turn", "0"]).is_err(), "0 is no flag of the set");
        assert_eq!(parse(&[]).expect("none").get("turn"), None);
    }

    #[test]
    fn a_slip_is_answered_with_the_flag_the_service_would_suggest() {
        assert_eq!(nearest_flag::<Some3>("--sise").as_deref(), Some("--size"));
        assert_eq!(
            nearest_flag::<Some3>("--last-mvoe").as_deref(),
            Some("--last-move")
        );
        assert_eq!(nearest_flag::<Some3>("--xyzzy"), None);
    }
}
