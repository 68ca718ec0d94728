//! Which problems of the new text are new: each old problem may excuse one new problem with
//! the same message. Best effort, but one-to-one, so when the new text has more problems at
//! least (after − before) are always left to list.

use super::Problem;
use super::lines::LineMap;
use std::collections::HashMap;
use std::hash::Hash;

/// The problems of `new` (found in `new_text`) that no problem of `old` (found in `old_text`)
/// accounts for, in text order. Matched in three passes, strictest first:
/// 1. same message at the same position, once old lines are carried over the edit;
/// 2. same message on the same carried-over line;
/// 3. same message anywhere, new problems outside the edited lines taking old ones first, so
///    that the ones inside the edit stay listed.
pub(crate) fn unmatched(
    old_text: &str,
    old: &[Problem],
    new_text: &str,
    new: &[Problem],
) -> Vec<Problem> {
    let map = LineMap::new(old_text, new_text);
    let mut old_left: Vec<bool> = vec![true; old.len()];
    let mut new_left: Vec<bool> = vec![true; new.len()];

    let by_position = |p: &Problem, line: usize| (p.message.clone(), line, p.column);
    match_pass(
        old,
        new,
        &mut old_left,
        &mut new_left,
        &map,
        by_position,
        None,
    );
    let by_line = |p: &Problem, line: usize| (p.message.clone(), line);
    match_pass(old, new, &mut old_left, &mut new_left, &map, by_line, None);
    let by_message = |p: &Problem, _: usize| p.message.clone();
    match_pass(
        old,
        new,
        &mut old_left,
        &mut new_left,
        &map,
        by_message,
        Some(false),
    );
    match_pass(
        old,
        new,
        &mut old_left,
        &mut new_left,
        &map,
        by_message,
        Some(true),
    );

    new.iter()
        .zip(new_left)
        .filter(|(_, left)| *left)
        .map(|(problem, _)| problem.clone())
        .collect()
}

/// One pass: every unmatched new problem whose key equals that of an unmatched old problem
/// takes it. Old problems are keyed at their carried-over line (those in the edited region,
/// having none, only match in message-only passes). `only_changed` restricts the new problems
/// considered to those inside (`Some(true)`) or outside (`Some(false)`) the edited lines.
fn match_pass<K: Hash + Eq>(
    old: &[Problem],
    new: &[Problem],
    old_left: &mut [bool],
    new_left: &mut [bool],
    map: &LineMap,
    key: impl Fn(&Problem, usize) -> K,
    only_changed: Option<bool>,
) {
    let position_free = only_changed.is_some();
    let mut available: HashMap<K, Vec<usize>> = HashMap::new();
    for (index, problem) in old.iter().enumerate().rev() {
        if !old_left[index] {
            continue;
        }
        let line = match map.map(problem.line) {
            Some(line) => line,
            None if position_free => 0,
            None => continue,
        };
        available.entry(key(problem, line)).or_default().push(index);
    }
    for (index, problem) in new.iter().enumerate() {
        if !new_left[index] {
            continue;
        }
        if let Some(changed) = only_changed
            && map.is_changed_in_new(problem.line) != changed
        {
            continue;
        }
        let line = if position_free { 0 } else { problem.line };
        if let Some(old_index) = available.get_mut(&key(problem, line)).and_then(Vec::pop) {
            old_left[old_index] = false;
            new_left[index] = false;
        }
    }
}
