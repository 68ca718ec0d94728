//! Each tool's argument JSON Schema as text, kept in `src/args/schemas/<tool>.json` and built
//! into the binary (spec 00 "Schemas").
//!
//! Generating a schema with schemars took about 0.2 ms of every command-line call (issue 18,
//! §7 start-up row); parsing the same schema from text takes a few microseconds. The files are
//! what [`super::schema_for`] generates, written by a test (`AGTOOL_BLESS_SCHEMAS=1 cargo test
//! --lib built_in_schemas`), and the same test fails when one differs from what the argument
//! types now generate, so a file cannot go stale unnoticed. A tool without a file has its schema
//! generated, as before.

/// The schema text of the tool named `tool` (snake_case), as `schemas/<tool>.json` holds it;
/// None for a name without a file.
pub fn schema_text(tool: &str) -> Option<&'static str> {
    Some(match tool {
        "read_file" => include_str!("schemas/read_file.json"),
        "list_dir" => include_str!("schemas/list_dir.json"),
        "glob" => include_str!("schemas/glob.json"),
        "grep" => include_str!("schemas/grep.json"),
        "diagnostics" => include_str!("schemas/diagnostics.json"),
        "write_file" => include_str!("schemas/write_file.json"),
        "edit_file" => include_str!("schemas/edit_file.json"),
        "edit_lines" => include_str!("schemas/edit_lines.json"),
        "apply_patch" => include_str!("schemas/apply_patch.json"),
        "notebook_edit" => include_str!("schemas/notebook_edit.json"),
        "move_path" => include_str!("schemas/move_path.json"),
        "copy_path" => include_str!("schemas/copy_path.json"),
        "make_dir" => include_str!("schemas/make_dir.json"),
        "delete_path" => include_str!("schemas/delete_path.json"),
        "exec" => include_str!("schemas/exec.json"),
        "exec_command" => include_str!("schemas/exec_command.json"),
        "write_stdin" => include_str!("schemas/write_stdin.json"),
        "web_fetch" => include_str!("schemas/web_fetch.json"),
        "skill" => include_str!("schemas/skill.json"),
        "notes_list" => include_str!("schemas/notes_list.json"),
        "notes_read" => include_str!("schemas/notes_read.json"),
        "notes_write" => include_str!("schemas/notes_write.json"),
        "notes_delete" => include_str!("schemas/notes_delete.json"),
        _ => return None,
    })
}
