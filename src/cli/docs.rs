//! docs/cli.md, made from the command line's own definition (clap): every command's about,
//! usage and arguments as its long help prints them, so the page cannot drift from `--help`.

use clap::{Command, CommandFactory};

/// The whole command line as Markdown: the top command, then each subcommand, depth first.
pub fn markdown() -> String {
    let mut cmd = super::Cli::command();
    cmd.build();
    let mut out = String::from(
        "# The command line\n\n<!-- Generated from src/cli/ (clap): `MEEPLE_BLESS=1 cargo test --test docs`. Do not edit. -->\n",
    );
    section(&mut out, &cmd, "meeple");
    out
}

fn section(out: &mut String, cmd: &Command, name: &str) {
    let help = cmd.clone().render_long_help().to_string();
    out.push_str(&format!(
        "\n## {name}\n\n```text\n{}\n```\n",
        help.trim_end()
    ));
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        if sub.get_name() != "help" {
            section(out, sub, &format!("{name} {}", sub.get_name()));
        }
    }
}
