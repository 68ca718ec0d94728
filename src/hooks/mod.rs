//! Hosts in control (spec 10, first four sections): pre- and post-tool hooks, allow/ask/deny
//! rules and the call trace, around every call of every tool in every face.
//!
//! The one entry is [`around`], called by the registry's JSON entry point
//! (`tools::run_json`), which every face goes through (a tool subcommand, `call`, `call
//! --batch`, `mcp`): so each call fires exactly one pre event and, when it ran, one post
//! event. With no hooks, no rules and no trace configured ([`active`] is false) the call runs
//! as before and nothing of this module is loaded.
//!
//! Order of one call: pre hooks (in order; the first block wins; `updatedInput` replaces the
//! arguments for the next hook and the tool) → validation of the arguments against the tool's
//! schema → rules over what the call touches ([`Touches`]; strictest wins; `ask` asks) → the
//! tool → post hooks → one trace line.

pub mod command;
pub mod rules;
pub mod trace;

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use serde_json::{Map, Value, json};

use crate::error::{ErrorKind, ToolError, ToolResult};
use crate::workspace::config::HookConfig;
use crate::workspace::context::{Ctx, RuleHidden};
use command::{HookOutcome, HookRun};
use rules::{Decision, Ruleset};

/// What a call touches, as its tool declares it (`Tool::touches`): the rules match these
/// (spec 10 "Rules"). Paths are spelled as in the arguments (relative to the current
/// directory, or absolute).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Touches {
    /// Paths only read (matched by `deny` rules only).
    pub reads: Vec<String>,
    /// Paths created, changed, moved (both ends) or deleted.
    pub writes: Vec<String>,
    /// The command's argv (exec), or exec_command's command split into shell words.
    pub argv: Option<Vec<String>>,
    /// The URL fetched (web_fetch).
    pub url: Option<String>,
}

/// The tool a call is for, as [`around`] needs it.
#[derive(Debug, Clone, Copy)]
pub struct Site {
    /// snake_case name.
    pub name: &'static str,
    /// Its group's name (`edit`).
    pub group: &'static str,
}

/// Whether anything of spec 10 applies in `ctx`: hooks, rules or a trace configured (or
/// `AGTOOL_TRACE` set). False: [`around`] is not needed (the no-hook path costs one look).
pub fn active(ctx: &Ctx) -> bool {
    let c = &ctx.config;
    let hooks = c.hooks.as_ref().is_some_and(|h| {
        h.pre_tool_use.as_ref().is_some_and(|v| !v.is_empty())
            || h.post_tool_use.as_ref().is_some_and(|v| !v.is_empty())
    });
    hooks || c.rules.as_ref().is_some_and(|r| !r.is_empty()) || trace::file(ctx).is_some()
}

/// The [`RuleHidden`] of `ctx`'s rules: which walked entries a folder search by a tool (of
/// `sites`, every tool with its group) leaves out because a `deny` rule for it matches their
/// path ([`Ruleset::hides`]). None when no deny rule has `paths`, or when the rules do not
/// compile (the call then fails in [`around`] with the configuration error).
pub fn rule_hidden(ctx: &Ctx, known: &dyn Fn(&str) -> bool, sites: &[Site]) -> Option<RuleHidden> {
    let rules = ctx.config.rules.as_ref()?;
    if !rules
        .iter()
        .any(|r| r.action == "deny" && r.paths.is_some())
    {
        return None;
    }
    let ruleset = Ruleset::from_config(ctx, known).ok()?;
    let root = ctx.root.clone();
    let groups: HashMap<&'static str, &'static str> =
        sites.iter().map(|s| (s.name, s.group)).collect();
    Some(Arc::new(move |tool: &str, abs: &Path, is_dir: bool| {
        let Some((&name, &group)) = groups.get_key_value(tool) else {
            return false;
        };
        ruleset.hides(&root, Site { name, group }, abs, is_dir)
    }))
}

/// What a tool needs for [`around`]: its JSON arguments validated and parsed (`prepare`), what
/// the parsed arguments touch (`touches`), and the tool itself (`run`).
pub struct Steps<'a, A> {
    /// Normalises, validates against the schema and parses (a usage error otherwise).
    pub prepare: &'a dyn Fn(Value) -> Result<A, ToolError>,
    /// What the parsed arguments touch.
    pub touches: &'a dyn Fn(&A) -> Touches,
    /// Runs the tool.
    pub run: &'a dyn Fn(A) -> ToolResult,
}

/// Runs one call with its hooks, rules and trace (see the module doc). `known` says whether
/// a name is a tool or a group, for checking rules' `tools` lists. A configuration error (a
/// bad matcher regex, glob, host, action, or an unknown tool or group in a rule) is a usage
/// error and nothing runs.
pub fn around<A>(
    ctx: &Ctx,
    site: Site,
    value: Value,
    known: &dyn Fn(&str) -> bool,
    steps: Steps<'_, A>,
) -> ToolResult {
    let started = Instant::now();
    let ruleset = Ruleset::from_config(ctx, known).map_err(ToolError::usage)?;
    let pre = matching(ctx, site.name, |h| h.pre_tool_use.as_deref())?;
    let post = matching(ctx, site.name, |h| h.post_tool_use.as_deref())?;
    let mut record = trace::Record::new(ctx, site.name);
    let mut input = value;
    let mut hook_allowed = false;
    let mut ask_reason: Option<String> = None;
    let mut updated_by: Option<String> = None;
    // Pre hooks, in order; the first block wins.
    for hook in &pre {
        let event = event(ctx, "PreToolUse", site.name, &input, None);
        match hook.run(&event) {
            HookOutcome::Block(reason) => {
                record.blocked_by = Some(format!("hook {}", hook.label));
                let result = Err(blocked(&hook.label, &reason));
                return record.finish(ctx, started, result, &[]);
            }
            HookOutcome::Failed(note) => ctx.notice(note),
            HookOutcome::Done(out) => {
                let Some(out) = out else { continue };
                let specific = out.get("hookSpecificOutput").unwrap_or(&Value::Null);
                let reason = specific
                    .get("permissionDecisionReason")
                    .and_then(Value::as_str)
                    .map(str::to_owned);
                match specific.get("permissionDecision").and_then(Value::as_str) {
                    Some("deny") => {
                        record.blocked_by = Some(format!("hook {}", hook.label));
                        let reason = reason.unwrap_or_else(|| "denied".into());
                        let result = Err(blocked(&hook.label, &reason));
                        return record.finish(ctx, started, result, &[]);
                    }
                    Some("ask") => {
                        ask_reason.get_or_insert_with(|| {
                            reason
                                .clone()
                                .unwrap_or_else(|| format!("hook {}", hook.label))
                        });
                    }
                    Some("allow") => hook_allowed = true,
                    Some(other) => ctx.notice(format!(
                        "Note: hook {} gave an unknown permissionDecision {other:?}; ignored",
                        hook.label
                    )),
                    None => {}
                }
                if let Some(updated) = specific.get("updatedInput") {
                    if updated.is_object() {
                        input = updated.clone();
                        updated_by = Some(hook.label.clone());
                    } else {
                        ctx.notice(format!(
                            "Note: hook {} gave an updatedInput that is not an object; ignored",
                            hook.label
                        ));
                    }
                }
            }
        }
    }
    record.digest(&input);
    let touches_of = steps.touches;
    let result = match (steps.prepare)(input.clone()) {
        Err(mut e) => {
            if let Some(label) = &updated_by {
                e.message = format!("{} (in the updatedInput of hook {label})", e.message);
            }
            Err(e)
        }
        Ok(args) => {
            let mut touches = touches_of(&args);
            record.changed = touches.writes.clone();
            let mut decision = match folder_entries(ctx, site, &mut touches) {
                Ok(()) => ruleset.decide(ctx, site, &touches),
                Err(folder) if ruleset.has_path_rules(site) => Decision {
                    action: rules::Action::Deny,
                    source: Some("the rules".into()),
                    what: format!("the folder {folder}"),
                    reason: format!(
                        "it holds more than {MAX_FOLDER_ENTRIES} entries, too many to check                          each against the path rules; work on smaller folders"
                    ),
                },
                Err(_) => ruleset.decide(ctx, site, &touches),
            };
            if let Some(reason) = ask_reason.take()
                && decision.action < rules::Action::Ask
            {
                decision = Decision::ask_from_hook(reason);
            }
            match gate(ctx, site, &decision, hook_allowed) {
                Err(e) => {
                    record.blocked_by = decision.source.clone();
                    record.changed.clear();
                    return record.finish(ctx, started, Err(e), &[]);
                }
                Ok(()) => (steps.run)(args),
            }
        }
    };
    if result.is_err() {
        record.changed.clear();
    }
    // Post hooks, in order: each sees the tool's response; their reasons and context are
    // added for the model.
    let mut additions = Vec::new();
    // The tags of the files the call wrote, to tell the model when a post hook (a formatter)
    // changes one after the tool reported it: its next edit would fail freshness otherwise.
    let written: Vec<(String, Content)> = if post.is_empty() || result.is_err() {
        Vec::new()
    } else {
        record
            .changed
            .iter()
            .filter_map(|p| Some((p.clone(), content_now(ctx, p)?)))
            .collect()
    };
    for hook in &post {
        let response = response_of(&result);
        let event = event(ctx, "PostToolUse", site.name, &input, Some(response));
        match hook.run(&event) {
            HookOutcome::Block(reason) => additions.push(format!("[hook {}] {reason}", hook.label)),
            HookOutcome::Failed(note) => ctx.notice(note),
            HookOutcome::Done(Some(out)) => {
                if out.get("decision").and_then(Value::as_str) == Some("block") {
                    let reason = out
                        .get("reason")
                        .and_then(Value::as_str)
                        .unwrap_or("blocked");
                    additions.push(format!("[hook {}] {reason}", hook.label));
                }
                let context = out
                    .get("hookSpecificOutput")
                    .and_then(|s| s.get("additionalContext"))
                    .or_else(|| out.get("additionalContext"))
                    .and_then(Value::as_str);
                if let Some(c) = context.filter(|c| !c.is_empty()) {
                    additions.push(c.to_owned());
                }
            }
            HookOutcome::Done(None) => {}
        }
    }
    let mut result = result;
    let single = written.len() == 1;
    for (path, before) in &written {
        let after = content_now(ctx, path);
        if after.as_ref().map(|a| &a.tag) == Some(&before.tag) {
            continue;
        }
        // The `--json` tag of a one-file result is the file's tag now, not the one the tool
        // reported before the hook ran.
        if single
            && let (Ok(out), Some(a)) = (&mut result, &after)
            && out.fields.contains_key("tag")
        {
            out.fields
                .insert("tag".into(), Value::String(a.tag.clone()));
        }
        // Anchors printed for lines the hook changed no longer match them.
        let anchors = if site.name == "edit_lines" {
            " Anchors shown above for the lines it changed no longer match; read_file with \
             anchors: true gives the new ones."
        } else {
            ""
        };
        // A formatter's change, shown whole and small: the model has seen it, so the new
        // content counts as read (the next edit passed freshness only after a read).
        let shown = after
            .as_ref()
            .and_then(|a| hook_change(path, before, a).map(|d| (a, d)));
        match shown {
            Some((a, diff)) if ctx.register_tag(&a.real, &a.tag).is_none() => {
                additions.push(format!(
                    "Note: a hook changed {path} after the tool wrote it; its change is below, \
                     and {} is what you have read now.{anchors}\n{diff}",
                    crate::text::tag::tag_ref(path, &a.tag)
                ));
            }
            _ => additions.push(format!(
                "Note: a hook changed {path} after the tool wrote it; read it again before \
                 editing."
            )),
        }
    }
    record.finish(ctx, started, result, &additions)
}

/// Most bytes of a written file whose content tag [`around`] compares across the post hooks.
const MAX_TAGGED_BYTES: u64 = 64 << 20;

/// A written file as it is at one moment: its real path, content tag and, when it is UTF-8
/// text of at most [`MAX_SHOWN_CHANGE_BYTES`], its text (to show a hook's change).
struct Content {
    real: std::path::PathBuf,
    tag: String,
    text: Option<String>,
}

/// Most bytes of a file whose change by a post hook is shown as a diff.
const MAX_SHOWN_CHANGE_BYTES: usize = 1 << 20;
/// Most lines of a hook's change shown; a bigger change asks for a new read.
const MAX_SHOWN_CHANGE_LINES: usize = 200;

/// The file `spelled` (as the call spelled it) now; `None` when it is not a readable regular
/// file of at most [`MAX_TAGGED_BYTES`].
fn content_now(ctx: &Ctx, spelled: &str) -> Option<Content> {
    use std::io::Read as _;
    let checked = ctx
        .check_path(spelled, crate::workspace::policy::Access::Read)
        .ok()?;
    let file = ctx.fs.open_read(&checked).ok()?;
    let meta = file.metadata().ok()?;
    if !meta.is_file() || meta.len() > MAX_TAGGED_BYTES {
        return None;
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(MAX_TAGGED_BYTES + 1)
        .read_to_end(&mut bytes)
        .ok()?;
    if bytes.len() as u64 > MAX_TAGGED_BYTES {
        return None;
    }
    let tag = crate::text::tag::content_tag(&bytes);
    let text = (bytes.len() <= MAX_SHOWN_CHANGE_BYTES)
        .then(|| String::from_utf8(bytes).ok())
        .flatten();
    Some(Content {
        real: checked.real,
        tag,
        text,
    })
}

/// The unified diff of a post hook's change to `path`, when both sides are text small enough
/// and the diff has at most [`MAX_SHOWN_CHANGE_LINES`] lines.
fn hook_change(path: &str, before: &Content, after: &Content) -> Option<String> {
    let (old, new) = (before.text.as_deref()?, after.text.as_deref()?);
    if before.real != after.real {
        return None;
    }
    let mut diff = crate::text::diff::unified(path, Some(old), Some(new));
    // Lines that differ only in a CR look alike in a diff: say what changed.
    let strip = |t: &str| t.replace('\r', "");
    if !diff.is_empty() && strip(old) == strip(new) {
        diff.push_str("(only line endings changed: CRLF and LF differ between the sides)\n");
    }
    (!diff.is_empty() && diff.lines().count() <= MAX_SHOWN_CHANGE_LINES).then_some(diff)
}

/// Most entries [`folder_entries`] looks at in the folders of one call.
pub const MAX_FOLDER_ENTRIES: usize = 10_000;

/// For the tools that carry or delete a whole folder (copy_path, move_path, delete_path):
/// adds every entry inside a folder they touch to `t`, so a rule on `*.lock` sees
/// `d1/x.lock` (tester finding 5). A copy's or move's entries are added both where they are
/// (read for a copy, written for a move) and where they will be under the destination
/// (written). Symlinks are listed, never entered. `Err(folder)`: a folder holds more than
/// [`MAX_FOLDER_ENTRIES`] entries (not all were added).
fn folder_entries(ctx: &Ctx, site: Site, t: &mut Touches) -> Result<(), String> {
    let (source, destination, source_written) = match site.name {
        "copy_path" => (t.reads.first(), t.writes.first(), false),
        "move_path" => (t.writes.first(), t.writes.get(1), true),
        "delete_path" => (t.writes.first(), None, true),
        _ => return Ok(()),
    };
    let Some(source) = source.cloned() else {
        return Ok(());
    };
    let destination = destination.cloned();
    let top = ctx.cwd.join(&source);
    if !std::fs::symlink_metadata(&top).is_ok_and(|m| m.is_dir()) {
        return Ok(());
    }
    // Where the destination folder's copy lands: in it when it is an existing folder.
    let landing = destination.map(|d| {
        let into = std::fs::symlink_metadata(ctx.cwd.join(&d)).is_ok_and(|m| m.is_dir());
        match (into, Path::new(&source).file_name()) {
            (true, Some(name)) => Path::new(&d).join(name),
            _ => Path::new(&d).to_path_buf(),
        }
    });
    let mut stack = vec![std::path::PathBuf::new()];
    let mut seen = 0usize;
    while let Some(rel) = stack.pop() {
        let Ok(list) = std::fs::read_dir(top.join(&rel)) else {
            continue;
        };
        for entry in list.flatten() {
            seen += 1;
            if seen > MAX_FOLDER_ENTRIES {
                return Err(source);
            }
            let rel = rel.join(entry.file_name());
            let spelled = Path::new(&source).join(&rel).to_string_lossy().into_owned();
            if source_written {
                t.writes.push(spelled);
            } else {
                t.reads.push(spelled);
            }
            if let Some(d) = &landing {
                t.writes.push(d.join(&rel).to_string_lossy().into_owned());
            }
            if entry.file_type().is_ok_and(|f| f.is_dir()) {
                stack.push(rel);
            }
        }
    }
    Ok(())
}

/// The error of a call a hook blocked: `blocked by hook <command>: <reason>` (exit 1).
fn blocked(label: &str, reason: &str) -> ToolError {
    let reason = reason.trim();
    let reason = if reason.is_empty() {
        "(the hook gave no reason)"
    } else {
        reason
    };
    ToolError::refused(format!("blocked by hook {label}: {reason}"))
}

/// The hooks of one event whose matcher names `tool`. A matcher that is not a valid regex is
/// a configuration error (usage).
fn matching(
    ctx: &Ctx,
    tool: &str,
    list: impl Fn(&crate::workspace::config::HooksConfig) -> Option<&[HookConfig]>,
) -> Result<Vec<HookRun>, ToolError> {
    let Some(hooks) = ctx.config.hooks.as_ref().and_then(list) else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for h in hooks {
        let run = HookRun::from_config(h).map_err(ToolError::usage)?;
        if run.matches(tool) {
            out.push(run);
        }
    }
    Ok(out)
}

/// The JSON a hook reads on stdin (Claude Code's shape, agtool's names; spec 10).
pub fn event(ctx: &Ctx, name: &str, tool: &str, input: &Value, response: Option<Value>) -> Value {
    let mut e = json!({
        "hook_event_name": name,
        "tool_name": tool,
        "tool_input": input,
        "cwd": ctx.cwd,
        "session_id": ctx.agent,
        "workspace": ctx.root,
        "face": ctx.face,
    });
    if let (Some(r), Some(map)) = (response, e.as_object_mut()) {
        map.insert("tool_response".into(), r);
    }
    e
}

/// `{"ok", "output", "exit_code"}` of a result, as post hooks read it.
fn response_of(result: &ToolResult) -> Value {
    match result {
        Ok(out) => json!({"ok": true, "output": out.text, "exit_code": 0}),
        Err(e) => json!({"ok": false, "output": e.model_text(), "exit_code": e.exit_code()}),
    }
}

/// Applies the rules' decision: `deny` refuses, `ask` runs only when approved (in advance
/// with `--approved`, by a hook's `allow`, by the person at the terminal, or by the MCP
/// client's elicitation), otherwise it is `Approval needed` (exit 3).
fn gate(ctx: &Ctx, site: Site, d: &Decision, hook_allowed: bool) -> Result<(), ToolError> {
    match d.action {
        rules::Action::Allow => Ok(()),
        rules::Action::Deny => Err(ToolError::refused(format!(
            "denied by {}: {} {}: {}",
            d.source.as_deref().unwrap_or("a rule"),
            site.name,
            d.what,
            d.reason
        ))),
        rules::Action::Ask => {
            if ctx.approved || hook_allowed {
                return Ok(());
            }
            let question = format!("{} {}: {}", site.name, d.what, d.reason);
            let answer = match &ctx.asker {
                Some(ask) => ask(&question),
                None if ctx.face == "cli" => rules::ask_terminal(&question),
                None => None,
            };
            match answer {
                Some(true) => Ok(()),
                Some(false) => Err(ToolError::refused(format!(
                    "not approved: {question} (the user declined)"
                ))),
                None => Err(ToolError {
                    kind: ErrorKind::ApprovalNeeded,
                    message: format!(
                        "Approval needed: {question}\n(after asking the user, re-run the same \
                         call with --approved, or \"approved\": true in the call envelope)"
                    ),
                    fields: Map::new(),
                }),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn content(text: &str) -> Content {
        Content {
            real: "/w/a.txt".into(),
            tag: crate::text::tag::content_tag(text.as_bytes()),
            text: Some(text.to_owned()),
        }
    }

    #[test]
    fn a_change_of_line_endings_alone_is_said() {
        let diff = hook_change("a.txt", &content("a\r\nb\r\n"), &content("a\nb\n")).unwrap();
        assert!(
            diff.ends_with("(only line endings changed: CRLF and LF differ between the sides)\n"),
            "{diff}"
        );
        let diff = hook_change("a.txt", &content("a\n"), &content("b\n")).unwrap();
        assert!(!diff.contains("line endings"), "{diff}");
        // Too big to show: none.
        let big: String = (0..300).map(|i| format!("{i}\n")).collect();
        assert!(hook_change("a.txt", &content(""), &content(&big)).is_none());
    }
}
