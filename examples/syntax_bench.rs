//! Rough timing of the syntax gate (run by bench/syntax.sh; prints numbers, asserts nothing).
//!
//! Measures, on a generated 10,000-line Rust file: one `check`, one `gate` of a one-line edit
//! that adds an error (two parses plus matching), and the per-call set-up cost (`check` of an
//! empty text, which creates a parser and sets its language).

use agtool::text::syntax::{GateOutcome, Verdict, check, gate};
use std::path::Path;
use std::time::{Duration, Instant};

/// A block of ordinary Rust, 20 lines; `n` keeps names distinct.
fn block(n: usize) -> String {
    format!(
        "/// Item {n}.\n\
         #[derive(Debug, Clone)]\n\
         pub struct Item{n} {{\n    name: String,\n    values: Vec<u32>,\n}}\n\
         \n\
         impl Item{n} {{\n\
         \x20   pub fn total(&self) -> u64 {{\n\
         \x20       self.values.iter().map(|v| u64::from(*v)).sum()\n\
         \x20   }}\n\
         \n\
         \x20   pub fn describe(&self) -> String {{\n\
         \x20       match self.values.len() {{\n\
         \x20           0 => format!(\"{{}}: empty\", self.name),\n\
         \x20           n => format!(\"{{}}: {{n}} values\", self.name),\n\
         \x20       }}\n\
         \x20   }}\n\
         }}\n\
         \n"
    )
}

fn best_of<T>(runs: usize, mut f: impl FnMut() -> T) -> (Duration, T) {
    let mut best = Duration::MAX;
    let mut last = None;
    for _ in 0..runs {
        let start = Instant::now();
        let value = f();
        best = best.min(start.elapsed());
        last = Some(value);
    }
    (best, last.expect("runs > 0"))
}

fn main() {
    let lines_wanted = 10_000;
    let mut text = String::new();
    let mut n = 0;
    while text.lines().count() < lines_wanted {
        text.push_str(&block(n));
        n += 1;
    }
    let path = Path::new("big.rs");
    let line_count = text.lines().count();
    println!("input: {line_count} lines, {} bytes of Rust", text.len());

    let (elapsed, verdict) = best_of(5, || check(path, &text));
    let Verdict::Checked { problems, .. } = verdict else {
        panic!("10,000 lines of Rust could not be checked");
    };
    println!(
        "check (1 parse):            {elapsed:>10.2?}  problems: {}",
        problems.len()
    );

    // A one-line edit in the middle that drops a semicolon-free expression into a struct.
    let middle = text.len() / 2;
    let cut = middle + text[middle..].find('\n').expect("a newline") + 1;
    let edited = format!("{}let broken = ;\n{}", &text[..cut], &text[cut..]);
    let (elapsed, outcome) = best_of(5, || gate(path, Some(&text), &edited));
    assert!(
        matches!(outcome, GateOutcome::Refused { .. }),
        "{outcome:?}"
    );
    println!("gate (2 parses + matching): {elapsed:>10.2?}  refused as expected");

    let calls = 1_000;
    let start = Instant::now();
    for _ in 0..calls {
        std::hint::black_box(check(path, ""));
    }
    let per_call = start.elapsed() / calls;
    println!("set-up per call (empty text): {per_call:>8.2?}");
}
