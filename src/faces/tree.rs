//! The command tree: the root with its global flags (spec 00 "Global flags"), one subcommand
//! per registered tool with its flags and `--args`, and the meta commands given by the caller.

use clap::{Arg, ArgAction, Command};
use serde_json::Value;

use crate::tools::{self, ToolSpec};

const ABOUT: &str = "Tools for coding agents: read, search, edit, patch and run, with byte-exact writes \
and a workspace that paths cannot leave.";

/// The global flags (spec 00, "Global flags"); usable before or after the subcommand.
pub fn global_args(cmd: Command) -> Command {
    cmd.arg(
        Arg::new("root")
            .long("root")
            .value_name("DIR")
            .global(true)
            .help("Workspace root [env: AGTOOL_ROOT] (default: nearest .agent-state/, then .git, then the current directory)"),
    )
    .arg(
        Arg::new("agent")
            .long("agent")
            .value_name("ID")
            .global(true)
            .help("Agent identity keying the freshness table [env: AGTOOL_AGENT] [default: default]"),
    )
    .arg(
        Arg::new("config")
            .long("config")
            .value_name("FILE")
            .global(true)
            .help("Extra configuration file layered over the others [env: AGTOOL_CONFIG]"),
    )
    .arg(
        Arg::new("json")
            .long("json")
            .action(ArgAction::SetTrue)
            .global(true)
            .help("Print one JSON object {ok, output, error, ...} instead of text"),
    )
    .arg(
        Arg::new("no_freshness")
            .long("no-freshness")
            .action(ArgAction::SetTrue)
            .global(true)
            .help("Turn the freshness gate off [env: AGTOOL_FRESHNESS=off]"),
    )
    .arg(
        Arg::new("no_syntax_check")
            .long("no-syntax-check")
            .action(ArgAction::SetTrue)
            .global(true)
            .help("Turn the syntax gate off [env: AGTOOL_SYNTAX_CHECK=off]"),
    )
    .arg(
        Arg::new("groups")
            .long("groups")
            .value_name("LIST")
            .global(true)
            .help("Tool groups enabled for call, schema and mcp, e.g. files,edit or all [env: AGTOOL_GROUPS]"),
    )
    .arg(
        Arg::new("color")
            .long("color")
            .value_name("WHEN")
            .value_parser(clap::value_parser!(crate::faces::colour::When))
            .global(true)
            .help("Colour for people (dry-run diffs, sessions list): auto, always or never; auto \
                   is off with NO_COLOR, on with CLICOLOR_FORCE; call and --json never colour"),
    )
    .arg(
        Arg::new("timeout_ms")
            .long("timeout-ms")
            .value_name("MS")
            .value_parser(clap::value_parser!(u64).range(1..))
            .global(true)
            .help("Override every tool's default timeout, in milliseconds"),
    )
    .arg(
        Arg::new("notes_dir")
            .long("notes-dir")
            .value_name("DIR")
            .global(true)
            .help("The notes store [default: .agent-state/notes, or config notes.dir]"),
    )
    .arg(
        Arg::new("approved")
            .long("approved")
            .action(ArgAction::SetTrue)
            .global(true)
            .help("The host's user approved this call: an ask rule lets it run (after exit status 3, Approval needed)"),
    )
    .arg(
        Arg::new("skills_dir")
            .long("skills-dir")
            .value_name("DIR")
            .action(ArgAction::Append)
            .global(true)
            .help("A folder of skills, one subfolder with a SKILL.md each; repeatable, searched in order [env: AGTOOL_SKILLS, colon-separated]"),
    )
}

/// The subcommand for one tool: its own flags plus `--args`.
pub fn tool_command(spec: &ToolSpec) -> Command {
    let summary = spec.meta.description.lines().next().unwrap_or_default();
    let cmd =
        Command::new(spec.command_name()).after_help(format!("Examples:\n{}", spec.meta.examples));
    // The argument struct's own doc comment would replace the tool's summary: set it after.
    let cmd = (spec.augment)(cmd)
        .about(summary.to_owned())
        .long_about(spec.meta.description)
        .arg(
            Arg::new("args")
                .long("args")
                .value_name("JSON|-|@FILE")
                .help(
                    "All arguments as one JSON object (- reads it from stdin, @FILE from a file)",
                ),
        );
    let schema = (spec.schema)();
    cmd.mut_args(|a| {
        let a = if a.is_required_set() && a.get_id() != "args" {
            a.required(false).required_unless_present("args")
        } else {
            a
        };
        cli_value_rules(a, schema)
    })
}

/// Two rules for every value a tool flag or positional takes, so that the characters the
/// caller passes are the characters used (spec 01):
/// - a value may start with `-` (`--old '- item'`, `--content --x`, `grep '-> Result'`):
///   tool values are text, never flags in disguise; the cost is that a flag given right after
///   a flag that still waits for its value is taken as that value (and then named by
///   validation when it has the wrong type). Lists of values are the exception: each of
///   their values would take the flags after it (`diagnostics a.py --json`);
/// - a boolean flag given bare (`--dry-run`) means `true`; `--dry-run false` still works, and a
///   bare boolean flag never swallows the flag after it.
pub fn cli_value_rules(a: Arg, schema: &Value) -> Arg {
    if !a.get_action().takes_values() || a.get_id() == "args" {
        return a;
    }
    let is_bool = schema
        .pointer(&format!("/properties/{}/type", a.get_id()))
        .and_then(Value::as_str)
        == Some("boolean");
    let many = a
        .get_num_args()
        .is_some_and(|r| r.max_values() > 1 && !a.is_trailing_var_arg_set());
    if is_bool {
        // No hyphen values here: `--recursive --dry-run` must stay two flags.
        a.num_args(0..=1).default_missing_value("true")
    } else if many {
        // A list (`diagnostics a.py b.py`, `--paths a b`) would swallow every flag after it
        // (`--json`, `--timeout-ms`): its values may not start with `-` (`./-x` may).
        a
    } else {
        a.allow_hyphen_values(true)
    }
}

/// The exit statuses (spec 00 "Output and exit status"), for `--help` and the man page:
/// scripts start there, not in the README.
const EXIT_STATUS: &str = "Exit status: 0 done; 1 refused or failed (`Error: ...` on stdout); \
2 usage or argument error (on stderr); 3 approval needed (a rule asks; see `agtool rules`); \
124 the tool's own timeout (a command that exec runs and that times out is a result: exit 0, \
`Exit code: 124` in the text; `exec --exit-code` passes the command's code through). A grep \
with no match is done: exit 0, `No matches found.`";

/// The top-level command with its global flags and no subcommands.
pub fn root_command() -> Command {
    let cmd = Command::new("agtool")
        .version(env!("CARGO_PKG_VERSION"))
        .about(ABOUT)
        .subcommand_required(true)
        .arg_required_else_help(true)
        .after_help(EXIT_STATUS);
    global_args(cmd)
}

/// The root, every tool (registry order; the verbs of a parent command under it, at the
/// place of the first), then `metas`.
pub fn whole_tree(metas: Vec<Command>) -> Command {
    let mut cmd = root_command();
    let registry = tools::registry();
    let mut parents_done: Vec<&str> = Vec::new();
    for spec in &registry {
        match spec.parent {
            None => cmd = cmd.subcommand(tool_command(spec)),
            Some(parent) if !parents_done.contains(&parent) => {
                parents_done.push(parent);
                cmd = cmd.subcommand(parent_command(parent, &registry));
            }
            Some(_) => {}
        }
    }
    metas.into_iter().fold(cmd, Command::subcommand)
}

/// A command whose subcommands are tools (`notes` with `list`, `read`, `write`, `delete`:
/// see [`tools::Tool::CLI_PARENT`]), with the first example of each.
pub fn parent_command(parent: &'static str, registry: &[ToolSpec]) -> Command {
    let verbs = || registry.iter().filter(move |t| t.parent == Some(parent));
    let examples: Vec<&str> = verbs()
        .filter_map(|t| t.meta.examples.lines().next())
        .collect();
    verbs().fold(
        Command::new(parent)
            .about(tools::parent_about(parent))
            .subcommand_required(true)
            .after_help(format!("Examples:\n{}", examples.join("\n"))),
        |cmd, spec| cmd.subcommand(tool_command(spec)),
    )
}
