//! `skill [NAME]` (skill): the host's skills: the catalogue, or one skill's instructions
//! (spec 06, "skill").

use std::fmt::Write as _;

use clap::Args;
use schemars::JsonSchema;
use serde::Deserialize;

use crate::error::{Output, ToolError, ToolResult};
use crate::skills::{self, Catalogue, MAX_BODY_CHARS};
use crate::tools::{Group, Tool, ToolMeta, ToolView};
use crate::workspace::context::Ctx;

/// Arguments of skill.
#[derive(Debug, Clone, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct SkillArgs {
    /// The skill's exact name from the list (never a path). Without it: the whole list.
    #[schemars(length(max = crate::args::MAX_NAME_CHARS))]
    pub name: Option<String>,
}

/// The skill tool.
pub struct Skill;

/// Most names an unknown-name error lists.
const MAX_SUGGESTED: usize = 20;

impl Tool for Skill {
    type Args = SkillArgs;
    const NAME: &'static str = "skill";
    const META: ToolMeta = ToolMeta {
        description: "Load a skill: instructions for one kind of task, given by the host.\n\
When a task matches a skill below, call skill with its name before starting: the result is \
the skill's instructions, its folder and the files beside it (read those with read_file when \
the instructions point to them). Without a name: the whole list.",
        examples: "  agtool --skills-dir ~/skills skill\n  agtool --skills-dir ~/skills skill pdf\n  AGTOOL_SKILLS=/opt/skills:./skills agtool skill pdf",
        group: Group::Skill,
        sensitive: false,
        serial: false,
        read_only: true,
        destructive: false,
        idempotent: true,
        open_world: false,
        timeout_ms: Some(30_000),
        body: None,
        tags: &["skills", "read"],
    };

    /// The catalogue goes into the description, scanned when the schema is built; with no
    /// skill at all the tool is left out.
    fn view(ctx: &Ctx) -> Result<ToolView, String> {
        if ctx.skill_dirs.is_empty() {
            return Err(no_dirs_message());
        }
        let cat = skills::scan(&ctx.skill_dirs, &|n| ctx.policy.is_denied_name(n));
        if cat.skills.is_empty() {
            return Err(format!("no skills in {}", dir_list(ctx)));
        }
        Ok(ToolView {
            description: cat.description(Self::META.description).into(),
            meta: Self::META,
        })
    }

    fn run(ctx: &Ctx, args: SkillArgs) -> ToolResult {
        if ctx.skill_dirs.is_empty() {
            return Err(ToolError::refused(no_dirs_message()));
        }
        let cat = skills::scan(&ctx.skill_dirs, &|n| ctx.policy.is_denied_name(n));
        let show = |p: &std::path::Path| ctx.display(p);
        let Some(name) = args.name else {
            if cat.skills.is_empty() {
                if cat.issues.is_empty() {
                    return Ok(Output::text(format!("No skills in {}.\n", dir_list(ctx)))
                        .with("skills", 0));
                }
                return Err(ToolError::refused(format!(
                    "no usable skill in {}:\n{}",
                    dir_list(ctx),
                    cat.text(&show).trim_end()
                )));
            }
            return Ok(Output::text(cat.text(&show)).with("skills", cat.skills.len()));
        };
        if name.is_empty() {
            return Err(ToolError::usage(
                "the skill name is empty; call skill with no name for the list",
            ));
        }
        let Some(skill) = cat.find(&name) else {
            return Err(unknown(&cat, &name, ctx));
        };
        let parsed = skills::read_skill_file(&skill.file).map_err(|reason| {
            ToolError::refused(format!(
                "skill {} cannot be loaded: {}: {reason}",
                skill.name,
                ctx.display(&skill.file)
            ))
        })?;
        let mut text = format!("Skill: {}\nPath: {}\n", skill.name, ctx.display(&skill.dir));
        let (files, more, capped) = skills::other_files(skill);
        if files.is_empty() {
            text.push_str("Files: none besides its SKILL.md\n");
        } else {
            text.push_str("Files:\n");
            for f in &files {
                let _ = writeln!(text, "  {f}");
            }
            if more > 0 || capped {
                let plus = if capped { " or more" } else { "" };
                // "1 or more more files" stays plural.
                let files =
                    crate::text::plural::noun(if capped { more.max(2) } else { more }, "file");
                let _ = writeln!(
                    text,
                    "  (and {more}{plus} more {files}; list_dir shows them)"
                );
            }
        }
        text.push('\n');
        let (body, rest_line) = skills::body_within_cap(&parsed);
        text.push_str(body);
        if let Some(line) = rest_line {
            if !text.ends_with('\n') {
                text.push('\n');
            }
            let _ = writeln!(
                text,
                "(the skill is cut at {MAX_BODY_CHARS} characters; read the rest with read_file \
                 path={} offset={line})",
                ctx.display(&skill.file)
            );
        }
        Ok(Output::text(text)
            .with("name", skill.name.as_str())
            .with("path", ctx.display(&skill.dir))
            .with("cut", rest_line.is_some()))
    }
}

fn no_dirs_message() -> String {
    "no skill folders are given; the host passes them with --skills-dir DIR (repeatable), \
     AGTOOL_SKILLS=DIR:DIR or config skills.dirs"
        .to_owned()
}

fn dir_list(ctx: &Ctx) -> String {
    ctx.skill_dirs
        .iter()
        .map(|d| ctx.display(&d.path))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `no skill named <name>` with the available names, closest first.
fn unknown(cat: &Catalogue, name: &str, ctx: &Ctx) -> ToolError {
    let hint = if name.contains('/') || name.starts_with('.') {
        " (skill takes a name from the list, never a path)"
    } else {
        ""
    };
    if cat.skills.is_empty() {
        return ToolError::refused(format!(
            "no skill named {name:?}{hint}; there are no usable skills in {}:\n{}",
            dir_list(ctx),
            cat.text(&|p| ctx.display(p)).trim_end()
        ));
    }
    let names = cat.closest_names(name);
    let mut list = names
        .iter()
        .take(MAX_SUGGESTED)
        .copied()
        .collect::<Vec<_>>()
        .join(", ");
    if names.len() > MAX_SUGGESTED {
        let _ = write!(list, ", … and {} more", names.len() - MAX_SUGGESTED);
    }
    ToolError::refused(format!("no skill named {name:?}{hint}; available: {list}"))
}
