//! Which checker a file gets: by extension, then by a few well-known file names, then by the
//! `#!` line (spec 01, "Syntax gate").

use std::path::Path;

/// A language the syntax gate has a checker for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Lang {
    Json,
    /// JSON with comments and trailing commas (tsconfig.json, VS Code settings).
    Jsonc,
    /// One JSON value per line (.jsonl, .ndjson).
    JsonLines,
    Toml,
    Yaml,
    Xml,
    Rust,
    Python,
    JavaScript,
    TypeScript,
    Tsx,
    Go,
    C,
    /// `.h`: C or C++, whichever parses with fewer problems.
    CHeader,
    Cpp,
    Java,
    Bash,
    Html,
    Css,
}

impl Lang {
    /// The name shown to the model, e.g. `syntax: ok (rust)`.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Lang::Json => "json",
            Lang::Jsonc => "jsonc",
            Lang::JsonLines => "jsonl",
            Lang::Toml => "toml",
            Lang::Yaml => "yaml",
            Lang::Xml => "xml",
            Lang::Rust => "rust",
            Lang::Python => "python",
            Lang::JavaScript => "javascript",
            Lang::TypeScript => "typescript",
            Lang::Tsx => "tsx",
            Lang::Go => "go",
            Lang::C | Lang::CHeader => "c",
            Lang::Cpp => "cpp",
            Lang::Java => "java",
            Lang::Bash => "bash",
            Lang::Html => "html",
            Lang::Css => "css",
        }
    }

    /// The checker for `path`, whose content is `text` (only its first line is looked at, for a
    /// `#!` interpreter line when neither extension nor file name decides). `None`: no checker.
    pub(crate) fn detect(path: &Path, text: &str) -> Option<Lang> {
        let file_name = path.file_name()?.to_str()?.to_ascii_lowercase();
        if let Some(lang) = by_file_name(path, &file_name) {
            return Some(lang);
        }
        let extension = path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        if let Some(lang) = extension.as_deref().and_then(by_extension) {
            return Some(lang);
        }
        by_shebang(text)
    }
}

/// Names whose extension is missing or misleading. Checked before the extension, so that
/// `tsconfig.json` gets the lenient JSON-with-comments checker.
fn by_file_name(path: &Path, name: &str) -> Option<Lang> {
    let lang = match name {
        "cargo.lock" | "poetry.lock" | "uv.lock" | "pipfile" => Lang::Toml,
        "pipfile.lock" | "composer.lock" | "flake.lock" => Lang::Json,
        ".bashrc" | ".bash_profile" | ".bash_login" | ".bash_logout" | ".profile" | "pkgbuild" => {
            Lang::Bash
        }
        ".clang-format" | ".clang-tidy" => Lang::Yaml,
        "tsconfig.json" | "jsconfig.json" | ".eslintrc.json" | "devcontainer.json"
        | ".devcontainer.json" => Lang::Jsonc,
        _ if name.ends_with(".json")
            && (name.starts_with("tsconfig.") || name.starts_with("jsconfig.")) =>
        {
            Lang::Jsonc
        }
        // VS Code reads every JSON file in .vscode/ as JSON with comments.
        _ if name.ends_with(".json") && parent_is(path, ".vscode") => Lang::Jsonc,
        _ => return None,
    };
    Some(lang)
}

fn parent_is(path: &Path, dir: &str) -> bool {
    path.parent()
        .and_then(Path::file_name)
        .is_some_and(|name| name == dir)
}

fn by_extension(extension: &str) -> Option<Lang> {
    let lang = match extension {
        "json" | "geojson" | "webmanifest" => Lang::Json,
        "jsonc" | "code-workspace" => Lang::Jsonc,
        "jsonl" | "ndjson" => Lang::JsonLines,
        "toml" => Lang::Toml,
        "yaml" | "yml" => Lang::Yaml,
        "xml" | "xsd" | "xsl" | "xslt" | "svg" | "plist" | "csproj" | "fsproj" | "vbproj"
        | "props" | "targets" | "resx" | "xaml" | "xhtml" | "wsdl" | "rss" | "atom" => Lang::Xml,
        "rs" => Lang::Rust,
        "py" | "pyi" | "pyw" => Lang::Python,
        "js" | "mjs" | "cjs" | "jsx" => Lang::JavaScript,
        "ts" | "mts" | "cts" => Lang::TypeScript,
        "tsx" => Lang::Tsx,
        "go" => Lang::Go,
        "c" => Lang::C,
        "h" => Lang::CHeader,
        "cc" | "cpp" | "cxx" | "c++" | "hpp" | "hh" | "hxx" | "h++" => Lang::Cpp,
        "java" => Lang::Java,
        "sh" | "bash" => Lang::Bash,
        "html" | "htm" => Lang::Html,
        "css" => Lang::Css,
        _ => return None,
    };
    Some(lang)
}

/// `#!/bin/bash`, `#!/usr/bin/env -S bash -e`, `#!/usr/bin/python3.12`, `#!/usr/bin/env node`.
fn by_shebang(text: &str) -> Option<Lang> {
    let first_line = text
        .strip_prefix('\u{feff}')
        .unwrap_or(text)
        .lines()
        .next()?;
    let mut words = first_line.strip_prefix("#!")?.split_whitespace();
    let mut interpreter = basename(words.next()?);
    if interpreter == "env" {
        // Skip env's own options (`-S`, `-i`, `-u NAME` is rare enough to ignore).
        interpreter = basename(words.find(|w| !w.starts_with('-'))?);
    }
    match interpreter {
        "bash" | "sh" | "dash" | "ash" => Some(Lang::Bash),
        "node" | "nodejs" => Some(Lang::JavaScript),
        _ if is_python(interpreter) => Some(Lang::Python),
        _ => None,
    }
}

fn basename(program: &str) -> &str {
    program.rsplit('/').next().unwrap_or(program)
}

/// `python`, `python3`, `python3.12`, but not `pythonista`.
fn is_python(interpreter: &str) -> bool {
    interpreter
        .strip_prefix("python")
        .is_some_and(|version| version.chars().all(|c| c.is_ascii_digit() || c == '.'))
}
