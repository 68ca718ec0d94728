//! Checker tests: language detection, each checker on a valid and a broken sample, positions,
//! "cannot tell". The gate's arithmetic and texts are in `gate_tests.rs`.

use super::*;

fn problems_of(path: &str, text: &str) -> Vec<Problem> {
    match check(Path::new(path), text) {
        Verdict::Checked { problems, .. } => problems,
        Verdict::CannotTell => panic!("{path}: expected a checked verdict, got CannotTell"),
    }
}

fn language_of(path: &str, text: &str) -> Option<&'static str> {
    match check(Path::new(path), text) {
        Verdict::Checked { language, .. } => Some(language),
        Verdict::CannotTell => None,
    }
}

/// One test per language: the valid sample has no problem, the broken one has exactly one,
/// at the given position, whose message contains the given text.
macro_rules! language_case {
    ($test:ident, $path:expr, $language:expr, valid: $valid:expr, broken: $broken:expr,
     at: ($line:expr, $column:expr), says: $says:expr) => {
        #[test]
        fn $test() {
            assert_eq!(
                check(Path::new($path), $valid),
                Verdict::Checked {
                    language: $language,
                    problems: vec![]
                }
            );
            let problems = problems_of($path, $broken);
            assert_eq!(problems.len(), 1, "{problems:?}");
            assert_eq!((problems[0].line, problems[0].column), ($line, $column));
            assert!(
                problems[0].message.contains($says),
                "{:?} does not contain {:?}",
                problems[0].message,
                $says
            );
            assert_eq!(language_of($path, $broken), Some($language));
        }
    };
}

language_case!(rust_valid_and_broken, "src/main.rs", "rust",
    valid: "fn main() {\n    let x = 1;\n    println!(\"{x}\");\n}\n",
    broken: "fn main() {\n    let x = 1\n}\n",
    at: (2, 14), says: "missing \";\"");
language_case!(python_valid_and_broken, "app.py", "python",
    valid: "def f(a, b=2):\n    return [x for x in range(a)]\n",
    broken: "def f(:\n    pass\n",
    at: (1, 7), says: "missing \")\"");
language_case!(javascript_valid_and_broken, "app.mjs", "javascript",
    valid: "export const f = (a) => { return a?.b ?? 1; };\n",
    broken: "const x = ;\n",
    at: (1, 9), says: "syntax error");
language_case!(jsx_is_javascript, "App.jsx", "javascript",
    valid: "const a = <div className=\"x\">{items.map(i => <b key={i}>{i}</b>)}</div>;\n",
    broken: "const a = <div>{</div>;\n",
    at: (1, 1), says: "syntax error");
language_case!(typescript_valid_and_broken, "lib.ts", "typescript",
    valid: "interface A { x: number }\nexport function f<T extends A>(a: T): number { return a.x; }\n",
    broken: "let x: = 3;\n",
    at: (1, 6), says: "syntax error at `:`");
language_case!(tsx_valid_and_broken, "View.tsx", "tsx",
    valid: "export function A(p: { x: number }) { return <div className=\"a\">{p.x}</div>; }\n",
    broken: "const a = (<div>;\n",
    at: (1, 1), says: "syntax error");
language_case!(go_valid_and_broken, "main.go", "go",
    valid: "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(1)\n}\n",
    broken: "package main\nfunc main() {\n  x := \n}\n",
    at: (3, 7), says: "missing identifier");
language_case!(c_valid_and_broken, "x.h", "c",
    valid: "#include <stdio.h>\nint main(void) { printf(\"%d\\n\", 1); return 0; }\n",
    broken: "int main() { return 0 }\n",
    at: (1, 22), says: "missing \";\"");
language_case!(cpp_valid_and_broken, "x.cpp", "cpp",
    valid: "#include <vector>\nclass A { public: int x; };\nint main() { std::vector<int> v{1}; return v[0]; }\n",
    broken: "class A { int x }\n",
    at: (1, 1), says: "syntax error");
language_case!(java_valid_and_broken, "A.java", "java",
    valid: "class A { int f(int x) { return x + 1; } }\n",
    broken: "class A { void f() { int x = } }\n",
    at: (1, 22), says: "syntax error at `int x =`");
language_case!(bash_valid_and_broken, "run.sh", "bash",
    valid: "#!/bin/bash\nset -e\nfor f in *; do echo \"$f\"; done\ncase x in a) ;; esac\n",
    broken: "if [ -f x ]; then\n  echo hi\n",
    at: (3, 1), says: "missing \"fi\"");
language_case!(html_valid_and_broken, "index.html", "html",
    valid: "<!DOCTYPE html>\n<html><head><title>x</title></head><body><p>hi<br></body></html>\n",
    broken: "<div class=\"a>hi</div>\n",
    at: (1, 1), says: "syntax error");
language_case!(css_valid_and_broken, "site.css", "css",
    valid: "a:hover > b { color: red; margin: 0 auto; }\n@media (max-width: 10px) { p { x: y } }\n",
    broken: "a { color: red; } }\n",
    at: (1, 19), says: "syntax error at `}`");
language_case!(yaml_valid_and_broken, "ci.yml", "yaml",
    valid: "---\na: 1\nlist:\n  - x\n  - y\n---\nb: [1, 2]\nc: |\n  text\n",
    broken: "a: b\n c: d\n",
    at: (1, 1), says: "syntax error");
language_case!(json_valid_and_broken, "package.json", "json",
    valid: "{\"a\": [1, 2.5, null, true], \"b\": {\"c\": \"d\"}}\n",
    broken: "{\n  \"a\": 1,\n}\n",
    at: (3, 1), says: "key must be a string");
language_case!(toml_valid_and_broken, "pyproject.toml", "toml",
    valid: "[project]\nname = \"x\"\nversion = \"1.0\"\n[[tool.items]]\na = [1, 2]\n",
    broken: "[project]\nname = \"x\"\nname = \"y\"\n",
    at: (3, 1), says: "duplicate key");
language_case!(xml_valid_and_broken, "pom.xml", "xml",
    valid: "<?xml version=\"1.0\"?>\n<!DOCTYPE note SYSTEM \"note.dtd\">\n<note a=\"&lt;\">x &amp; &#x41;<![CDATA[<]]></note>\n",
    broken: "<a>\n  <b></a>\n",
    at: (2, 6), says: "expected `</b>`");

#[test]
fn every_javascript_and_typescript_extension_is_recognised() {
    for path in ["a.js", "a.mjs", "a.cjs", "a.jsx"] {
        assert_eq!(language_of(path, "x;"), Some("javascript"), "{path}");
    }
    for path in ["a.ts", "a.mts", "a.cts"] {
        assert_eq!(language_of(path, "x;"), Some("typescript"), "{path}");
    }
    for path in ["a.cc", "a.cpp", "a.cxx", "a.hpp", "a.hh", "a.hxx"] {
        assert_eq!(language_of(path, "int x;"), Some("cpp"), "{path}");
    }
    assert_eq!(language_of("a.htm", ""), Some("html"));
    assert_eq!(language_of("a.bash", ""), Some("bash"));
    assert_eq!(language_of("DATA.JSON", "{}"), Some("json"));
}

#[test]
fn file_names_decide_before_extensions() {
    assert_eq!(language_of("Cargo.lock", "version = 3\n"), Some("toml"));
    assert_eq!(language_of("sub/Pipfile", "[packages]\n"), Some("toml"));
    assert_eq!(language_of("/home/u/.bashrc", "alias l=ls\n"), Some("bash"));
    assert_eq!(language_of(".bash_profile", "export A=1\n"), Some("bash"));
    assert_eq!(language_of("tsconfig.json", "{}"), Some("jsonc"));
    assert_eq!(language_of("tsconfig.build.json", "{}"), Some("jsonc"));
    assert_eq!(language_of(".vscode/settings.json", "{}"), Some("jsonc"));
    assert_eq!(language_of("settings.json", "{}"), Some("json"));
}

#[test]
fn shebang_decides_when_the_name_does_not() {
    let broken_shell = "if true; then\n";
    for shebang in [
        "#!/bin/bash",
        "#!/bin/sh",
        "#!/usr/bin/env bash",
        "#!/usr/bin/env sh",
        "#!/usr/bin/env -S bash -e",
    ] {
        let text = format!("{shebang}\n{broken_shell}");
        assert_eq!(language_of("deploy", &text), Some("bash"), "{shebang}");
        assert_eq!(problems_of("deploy", &text).len(), 1, "{shebang}");
    }
    for shebang in [
        "#!/usr/bin/env python3",
        "#!/usr/bin/python3.12",
        "#!/usr/bin/python",
    ] {
        let text = format!("{shebang}\ndef f(:\n");
        assert_eq!(language_of("tool", &text), Some("python"), "{shebang}");
    }
    assert_eq!(
        language_of("cli", "#!/usr/bin/env node\nx;\n"),
        Some("javascript")
    );
    // The extension wins over the shebang.
    assert_eq!(language_of("x.py", "#!/bin/bash\nx = 1\n"), Some("python"));
}

#[test]
fn unknown_types_cannot_tell() {
    for (path, text) in [
        ("README.md", "# x\n"),
        ("notes.txt", "{ not json"),
        ("Makefile", "all:\n\tcc x.c\n"),
        ("script", "#!/usr/bin/env perl\nprint 1;\n"),
        ("script", "#!/usr/bin/env pythonista\n"),
        ("no_extension", "fn main() {"),
        ("image.json5", "{a: 1}"),
    ] {
        assert_eq!(check(Path::new(path), text), Verdict::CannotTell, "{path}");
    }
}

#[test]
fn oversize_input_cannot_tell() {
    let line = "{\"a\": 1}\n";
    let text = line.repeat(MAX_CHECK_BYTES / line.len() + 1);
    assert!(text.len() > MAX_CHECK_BYTES);
    assert_eq!(check(Path::new("big.jsonl"), &text), Verdict::CannotTell);
    let rust = format!("fn main() {{}}\n{}", " ".repeat(MAX_CHECK_BYTES));
    assert_eq!(check(Path::new("big.rs"), &rust), Verdict::CannotTell);
}

#[test]
fn a_parse_over_the_time_limit_cannot_tell() {
    let text = "fn f() { let x = [1, 2, 3]; }\n".repeat(20_000);
    assert_eq!(
        check_with_limit(Lang::Rust, &text, Duration::ZERO),
        Verdict::CannotTell
    );
    // The same text with the normal limit is fine: the zero limit is what failed.
    assert!(matches!(
        check_with_limit(Lang::Rust, &text, treesit::PARSE_TIME_LIMIT),
        Verdict::Checked { ref problems, .. } if problems.is_empty()
    ));
}

#[test]
fn each_error_and_missing_node_is_one_problem() {
    let text = "fn a() { let x = 1 }\nfn b() { let y = 2 }\nfn c() { let z = ; }\n";
    let problems = problems_of("a.rs", text);
    let summary: Vec<String> = problems.iter().map(Problem::to_string).collect();
    assert_eq!(
        summary,
        [
            "1:19 missing \";\"",
            "2:19 missing \";\"",
            "3:16 syntax error at `=`"
        ]
    );
}

#[test]
fn long_error_snippets_are_cut_to_thirty_chars() {
    let problems = problems_of(
        "a.js",
        "function f( { return aVeryLongIdentifierName + 1 }\n",
    );
    assert_eq!(problems.len(), 1);
    assert_eq!(
        problems[0].message,
        "syntax error at `function f( { return aVeryLong…`"
    );
}

#[test]
fn columns_count_chars_and_lines_end_at_lf_crlf_or_cr() {
    // CRLF, and a multi-byte char before the error on the same line.
    let crlf = "fn main() {\r\n    let s = \"é\"; let x = ;\r\n}\r\n";
    assert_eq!(
        problems_of("a.rs", crlf)[0].to_string(),
        "2:24 syntax error at `=`"
    );
    // CR-only line ends: serde_json counts only LF, agtool counts CR too.
    let cr = "[1,\r2,\r]";
    let problems = problems_of("a.json", cr);
    assert_eq!((problems[0].line, problems[0].column), (3, 1));
    // A BOM is not a char of the first line.
    let bom = "\u{feff}{\"a\" 1}";
    assert_eq!((problems_of("a.json", bom)[0].column), 6);
}

#[test]
fn json_messages_drop_serde_positions() {
    let problems = problems_of("a.json", "{\"a\": tru}");
    assert_eq!(problems.len(), 1);
    assert_eq!(problems[0].message, "expected ident");
    assert_eq!(
        problems_of("a.json", "")[0].message,
        "EOF while parsing a value"
    );
}

#[test]
fn jsonc_allows_comments_and_trailing_commas_but_not_other_errors() {
    let valid = "{\n  // a \"comment\", with a comma,\n  \"a\": [1, 2,], /* block, */\n  \"u\": \"http://x/*y*/\",\n}\n";
    assert_eq!(problems_of("tsconfig.json", valid), vec![]);
    let broken = "{\n  // fine\n  \"a\": 1 \"b\": 2\n}\n";
    let problems = problems_of("tsconfig.json", broken);
    assert_eq!(
        (problems.len(), problems[0].line, problems[0].column),
        (1, 3, 10)
    );
    // An unterminated block comment blanks the rest, which then ends early.
    assert_eq!(problems_of("a.jsonc", "{\"a\": 1 /* never closed").len(), 1);
    // The same trailing comma is an error in plain JSON.
    assert_eq!(problems_of("a.json", "[1, 2,]").len(), 1);
}

#[test]
fn json_lines_counts_each_bad_line() {
    let text = "{\"a\":1}\n{bad}\n\n[1,\n\"ok\"\n";
    let problems = problems_of("events.jsonl", text);
    let summary: Vec<String> = problems.iter().map(Problem::to_string).collect();
    assert_eq!(
        summary,
        ["2:2 key must be a string", "4:3 EOF while parsing a value"]
    );
}

#[test]
fn toml_recovers_and_counts_several_problems() {
    let problems = problems_of("a.toml", "a = \nb = 2\n[x\n");
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert_eq!((problems[0].line, problems[1].line), (1, 3));
    assert!(problems.iter().all(|p| !p.message.contains('\n')));
}

#[test]
fn xml_refuses_dtds_without_expanding_entities() {
    let levels: String = (1..10)
        .map(|n| {
            let previous = format!("&lol{};", n - 1);
            format!("<!ENTITY lol{n} \"{}\">\n", previous.repeat(10))
        })
        .collect();
    let billion_laughs = format!(
        "<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n<!ENTITY lol0 \"lol\">\n{levels}]>\n<lolz>&lol9;</lolz>\n"
    );
    let problems = problems_of("bomb.xml", &billion_laughs);
    assert_eq!(problems.len(), 1);
    assert_eq!((problems[0].line, problems[0].column), (2, 1));
    assert!(
        problems[0].message.starts_with("DTDs are refused"),
        "{problems:?}"
    );
    // An internal subset without entities is refused too; an external DTD is never fetched
    // and is allowed.
    let subset = "<!DOCTYPE a [<!ELEMENT a ANY>]><a/>";
    assert!(
        problems_of("a.xml", subset)[0]
            .message
            .starts_with("DTDs are refused")
    );
    assert_eq!(
        problems_of("a.xml", "<!DOCTYPE a SYSTEM \"a.dtd\"><a/>"),
        vec![]
    );
}

#[test]
fn xml_well_formedness_problems() {
    let cases = [
        ("<a><b>", "1:4 <b> is never closed"),
        (
            "<a></b>",
            "1:4 ill-formed document: expected `</a>`, but `</b>` was found",
        ),
        (
            "<a>&foo;</a>",
            "1:4 undefined entity &foo; (no DTD is read)",
        ),
        ("<a x='1' x='2'/>", "1:10 duplicate attribute"),
        ("<a x=1/>", "1:6 attribute value not quoted"),
        (
            "<a b=\"&foo;\"/>",
            "1:1 undefined entity &foo; in an attribute value (no DTD is read)",
        ),
        (
            "<a>x</a><b/>",
            "1:9 a second root element <b>: only one is allowed",
        ),
        ("<a>x</a>\n trailing", "1:9 text outside the root element"),
        ("", "1:1 no root element"),
        (
            "<a>&#0;</a>",
            "1:4 invalid character reference: 0x0 character is not permitted in XML",
        ),
    ];
    for (text, expected) in cases {
        let problems = problems_of("a.xml", text);
        let summary: Vec<String> = problems.iter().map(Problem::to_string).collect();
        assert_eq!(summary, [expected], "{text:?}");
    }
}

#[test]
fn empty_sources_are_fine_but_empty_data_files_are_not() {
    for path in [
        "a.rs", "a.py", "a.yaml", "a.html", "a.css", "a.sh", "a.toml", "a.go",
    ] {
        let verdict = check(Path::new(path), "");
        assert!(
            matches!(verdict, Verdict::Checked { ref problems, .. } if problems.is_empty()),
            "{path}: {verdict:?}"
        );
    }
    assert_eq!(problems_of("a.json", "").len(), 1);
    assert_eq!(problems_of("a.xml", "").len(), 1);
}

#[test]
fn the_extern_c_guard_of_c_headers_is_not_a_problem() {
    let header = "#ifndef A_H\n#define A_H\n\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n\
                  int f(void);\n\n#ifdef __cplusplus\n} /* extern \"C\" */\n#endif\n\n#endif\n";
    assert_eq!(problems_of("a.h", header), vec![]);
    assert_eq!(problems_of("a.hpp", header), vec![]);
    let spelled = "#if defined(__cplusplus)\r\nextern \"C\" {\r\n#endif\r\nint f(void);\r\n\
                   #if defined __cplusplus\r\n}\r\n# endif // __cplusplus\r\n";
    assert_eq!(problems_of("b.h", spelled), vec![]);
    // Errors elsewhere are still found, at their own positions.
    let broken = header.replace("int f(void);", "int f(void)");
    let problems = problems_of("a.h", &broken);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(
        (problems[0].line, problems[0].message.as_str()),
        (8, "missing \";\"")
    );
    // A brace alone in some other conditional is left alone.
    let other = "#ifdef DEBUG\n}\n#endif\n";
    assert_eq!(problems_of("c.h", other).len(), 1);
}

#[test]
/// Grammar versions lag the languages: these constructs parse cleanly with the pinned grammars
/// (known gaps: Rust 2024 `safe fn` in `unsafe extern` blocks, C++23 `if consteval`).
fn recent_syntax_is_not_a_problem() {
    let samples: &[(&str, &str)] = &[
        (
            "a.rs",
            "fn f(a: Option<u8>, b: bool) { if let Some(x) = a && b && let Some(y) = a { let _ = (x, y); } }\n",
        ),
        (
            "a.rs",
            "fn f() -> impl Sized + use<> {}\nasync fn g() { let c = async || 1; let p = &raw const X; let s = c\"hi\"; }\n",
        ),
        ("a.rs", "fn f() { let x = gen { yield 1; }; }\n"),
        (
            "a.py",
            "type Point = tuple[float, float]\ndef f[T](x: T) -> T:\n    match x:\n        case {'a': 1, **rest}:\n            pass\n        case [1, *_] | Point():\n            pass\n    return x\n",
        ),
        (
            "a.py",
            "x = f\"{'a' + f\"{1}\"}\"\nasync def g():\n    async with a as b, c as d:\n        pass\n    print(f\"{x=!r:>10}\")\n",
        ),
        ("a.py", "def f(a, /, b, *, c):\n    return (y := a)\n"),
        (
            "a.ts",
            "const c = {a: 1} satisfies Record<string, number>;\nclass A { accessor x = 1; #p = 2; @dec m() {} }\nfunction f(this: A, ...r: [a: string, b?: number]) {}\n",
        ),
        (
            "a.ts",
            "type T<const X extends readonly unknown[]> = X extends [infer H, ...infer R] ? H : never;\nexport type { T as U };\nusing r = getResource();\nawait using q = g();\n",
        ),
        (
            "a.js",
            "class A { #x = 1; static { this.y = 2; } get #z() { return 1; } }\nconst v = a?.b?.[c] ?? d; a ||= 1; b &&= 2; c ??= 3;\nconst re = /[\\p{L}--\\p{N}]/v;\nawait import('x');\nconst n = 1_000n;\n",
        ),
        (
            "a.java",
            "record P(int x, int y) {}\nsealed interface S permits A, B {}\nclass C { Object f(Object o) { return switch (o) { case Integer i when i > 0 -> i; case P(int x, int y) -> x; default -> \"\"\"\n  text\n  \"\"\"; }; } }\n",
        ),
        (
            "a.java",
            "class C { void f() { var x = new java.util.ArrayList<String>(); for (var s : x) {} } }\n",
        ),
        (
            "a.go",
            "package main\ntype Num interface { ~int | ~float64 }\nfunc Sum[T Num](xs ...T) (s T) { for _, x := range xs { s += x }; for i := range 10 { _ = i }; return }\n",
        ),
        (
            "a.cpp",
            "template <typename T> concept C = requires(T a) { a + a; };\nauto f(C auto x) -> decltype(x) { return x <=> x, x; }\nstruct S { auto operator<=>(const S&) const = default; };\n[[nodiscard]] constexpr int g() { return 1; }\n",
        ),
        (
            "a.cpp",
            "#include <coroutine>\ntask<int> h() { co_await x; co_return 1; }\nint main() { auto [a, b] = std::pair{1, 2}; std::vector v{1,2}; for (auto& e : v) {} }\n",
        ),
        (
            "a.c",
            "_Static_assert(1, \"x\");\nstatic inline int f(int n, int a[static n]) { return _Generic(n, int: 1, default: 0); }\nstruct s { int x; } v = { .x = 1 };\n",
        ),
        (
            "a.sh",
            "#!/bin/bash\narr=(a b c)\nif [[ ${arr[0]} =~ ^a ]]; then echo \"${#arr[@]}\"; fi\ncat <<'EOF2'\n$x\nEOF2\nf() { local -n r=$1; (( r++ )); }\nwhile read -r l; do :; done < <(ls)\n",
        ),
        (
            "a.css",
            ".a { color: oklch(0.5 0.1 20); & .b { margin: 0; } &:hover { x: y } }\n@layer base { p { margin: 0 } }\n@container (min-width: 400px) { .c { d: e } }\n:root { --x: calc(1px + 2px); }\n",
        ),
        (
            "a.yaml",
            "base: &b\n  x: 1\nderived:\n  <<: *b\n  y: !!str 2\nmulti: >-\n  folded\n  text\nempty:\nlist: [a, {b: c}]\n",
        ),
        (
            "a.html",
            "<!DOCTYPE html><html><body><script>if (a < b && c) { x(); }</script><style>p > a { x: y }</style><input disabled><template><slot></slot></template></body></html>\n",
        ),
        (
            "a.tsx",
            "export default function A<T,>({ items }: { items: T[] }) { return <>{items.map((i) => <Item key={String(i)} {...props} />)}</>; }\n",
        ),
    ];
    for (name, text) in samples {
        assert_eq!(problems_of(name, text), vec![], "{name}: {text}");
    }
}

#[test]
fn a_header_counts_as_c_or_cpp_whichever_has_fewer_problems() {
    let cpp_header = "#pragma once\nnamespace n {\ntemplate <typename T>\nclass Box {\n public:\n  \
                      explicit Box(T v) : v_(v) {}\n  const T& get() const { return v_; }\n\n \
                      private:\n  T v_;\n};\n}  // namespace n\n";
    assert_eq!(problems_of("box.hpp", cpp_header), vec![]);
    assert!(!problems_of_as(Lang::C, cpp_header).is_empty());
    assert_eq!(
        check(Path::new("box.h"), cpp_header),
        Verdict::Checked {
            language: "cpp",
            problems: vec![]
        }
    );
    let c_header = "#include <stddef.h>\nstruct s { int x; };\nint f(int n, int a[static n]);\n";
    assert_eq!(
        check(Path::new("s.h"), c_header),
        Verdict::Checked {
            language: "c",
            problems: vec![]
        }
    );
    let broken = "struct s { int x; }\nint f(void);\n";
    assert_eq!(problems_of("s.h", broken).len(), 1);
}

fn problems_of_as(lang: Lang, text: &str) -> Vec<Problem> {
    match check_as(lang, text) {
        Verdict::Checked { problems, .. } => problems,
        Verdict::CannotTell => panic!("expected a checked verdict"),
    }
}
