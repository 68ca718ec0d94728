//! Process trees: finding and killing everything a command started (spec 05, "Common to all").
//!
//! Every command runs as the leader of a new session, so its process group id is its pid.
//! Killing a tree means: SIGTERM to the group, up to 200 ms grace, SIGKILL to the group, then
//! SIGKILL to any remaining descendant. Descendants that left the group (`setsid`, double fork)
//! are found because agtool is a child subreaper: orphans are reparented to us, not to init.
//!
//! Attribution: a process may run several trees at once (the session server, or a host calling
//! exec from many threads), so an orphan reparented to us is matched to its tree by the
//! [`TAG_VAR`] environment variable that every spawned command inherits. The orphan's session id
//! tells apart trees from other children of this process: our trees never share our session.
//! A descendant that also cleared its environment carries no tag: while this process answers
//! for a single tree (`TreeLease`) every orphan is that tree's; otherwise such an orphan is
//! only found by [`kill_orphans`] (the session server, on exit).

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard, Once};
use std::thread::sleep;
use std::time::{Duration, Instant};

use rustix::process::{
    Pid, Signal, WaitOptions, getpid, kill_process, kill_process_group, test_kill_process_group,
    waitpid,
};

/// Environment variable naming the tree a process belongs to; set on every spawned command.
pub const TAG_VAR: &str = "AGTOOL_EXEC_TAG";

/// Grace between SIGTERM and SIGKILL (spec 05: "up to 200 ms").
pub const KILL_GRACE: Duration = Duration::from_millis(200);

/// Pids of the commands this process spawned itself (tree leaders). Their exit status belongs
/// to whoever holds their `Child`, so the zombie sweep must never reap them. Spawning holds this
/// lock from fork to registration so a sweep cannot see an unregistered new leader.
static LEADERS: Mutex<Option<HashSet<i32>>> = Mutex::new(None);

/// Guard over the leader registry; see [`LEADERS`].
pub(crate) struct Leaders(MutexGuard<'static, Option<HashSet<i32>>>);

impl Leaders {
    pub(crate) fn lock() -> Leaders {
        Leaders(LEADERS.lock().unwrap_or_else(|e| e.into_inner()))
    }
    pub(crate) fn insert(&mut self, pid: i32) {
        self.0.get_or_insert_with(HashSet::new).insert(pid);
    }
    pub(crate) fn remove(&mut self, pid: i32) {
        if let Some(set) = self.0.as_mut() {
            set.remove(&pid);
        }
    }
    fn contains(&self, pid: i32) -> bool {
        self.0.as_ref().is_some_and(|s| s.contains(&pid))
    }
}

/// How many trees this process currently answers for (see [`TreeLease`]).
static OPEN_TREES: AtomicUsize = AtomicUsize::new(0);

/// How many trees' leases are held now (one-shot calls and sessions running).
pub(crate) fn open_trees() -> usize {
    OPEN_TREES.load(Ordering::SeqCst)
}

/// The tags of the trees whose lease is held: [`kill_orphans`] spares their orphans, which
/// belong to an owner that will kill them itself.
static OPEN_TAGS: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// Held by the owner of a tree (a one-shot exec call, a session) from spawn until the tree has
/// been killed. While exactly one lease is held, every orphan reparented to this process
/// belongs to that tree, tag or not: a descendant that double-forks with a cleared
/// environment (`env -i setsid ...`) is still found.
#[derive(Debug)]
pub(crate) struct TreeLease(String);

impl TreeLease {
    /// The lease of the tree tagged `tag` (its [`TAG_VAR`] value).
    pub(crate) fn new(tag: &str) -> TreeLease {
        OPEN_TREES.fetch_add(1, Ordering::SeqCst);
        OPEN_TAGS
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(tag.to_owned());
        TreeLease(tag.to_owned())
    }
}

impl Drop for TreeLease {
    fn drop(&mut self) {
        let mut tags = OPEN_TAGS.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(i) = tags.iter().position(|t| *t == self.0) {
            tags.swap_remove(i);
        }
        drop(tags);
        OPEN_TREES.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Whether `pid`'s environment carries the tag of a tree whose lease is held.
fn has_open_tag(pid: i32) -> bool {
    let tags = OPEN_TAGS.lock().unwrap_or_else(|e| e.into_inner()).clone();
    !tags.is_empty()
        && environ_any(pid, |e| {
            tags.iter().any(|t| {
                e.strip_prefix(TAG_VAR.as_bytes())
                    .and_then(|rest| rest.strip_prefix(b"="))
                    == Some(t.as_bytes())
            })
        })
}

/// Whether `p` is an orphan of some tree of ours: reparented to this process (the subreaper),
/// outside our own session (children we start without `setsid` share it), not a process whose
/// `Child` someone holds, and alive.
fn is_orphan_of_ours(p: &ProcStat, me: i32, my_sid: i32, leaders: &Leaders) -> bool {
    p.ppid == me && p.sid != my_sid && !p.zombie && !leaders.contains(p.pid)
}

/// Marks this process a child subreaper (Linux), once. Failure is not fatal: descendants that
/// double-fork then escape to init, which is what happens without the feature.
pub fn become_subreaper() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        #[cfg(target_os = "linux")]
        if let Err(e) = rustix::process::set_child_subreaper(Some(getpid())) {
            eprintln!("agtool: cannot become a child subreaper: {e}");
        }
    });
}

/// One command's process tree: its process group (= the leader's pid) and its tag.
#[derive(Debug, Clone)]
pub struct Tree {
    /// Process group id, equal to the leader's pid (the leader called `setsid`).
    pub pgid: i32,
    /// Value of [`TAG_VAR`] in the tree's environment.
    pub tag: String,
}

/// One line of `/proc/<pid>/stat`, the fields we use.
#[derive(Debug, Clone, Copy)]
struct ProcStat {
    pid: i32,
    ppid: i32,
    pgrp: i32,
    sid: i32,
    zombie: bool,
}

fn read_stat(pid: i32) -> Option<ProcStat> {
    let raw = std::fs::read(format!("/proc/{pid}/stat")).ok()?;
    parse_stat(pid, &raw)
}

/// Parses `pid (comm) state ppid pgrp session ...`; `comm` may hold spaces and parentheses,
/// so fields are read after the last `)`.
fn parse_stat(pid: i32, raw: &[u8]) -> Option<ProcStat> {
    let close = raw.iter().rposition(|&b| b == b')')?;
    let rest = std::str::from_utf8(&raw[close + 1..]).ok()?;
    let mut f = rest.split_ascii_whitespace();
    let state = f.next()?;
    let ppid = f.next()?.parse().ok()?;
    let pgrp = f.next()?.parse().ok()?;
    let sid = f.next()?.parse().ok()?;
    Some(ProcStat {
        pid,
        ppid,
        pgrp,
        sid,
        zombie: state == "Z" || state == "X",
    })
}

fn all_procs() -> Vec<ProcStat> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.filter_map(|e| e.ok()?.file_name().to_str()?.parse::<i32>().ok())
        .filter_map(read_stat)
        .collect()
}

/// Whether an entry (`NAME=value`) of `/proc/<pid>/environ` satisfies `pred`. Zombies and
/// other users' processes have no readable environment: false.
fn environ_any(pid: i32, pred: impl Fn(&[u8]) -> bool) -> bool {
    std::fs::read(format!("/proc/{pid}/environ"))
        .map(|env| env.split(|&b| b == 0).any(pred))
        .unwrap_or(false)
}

/// Our pid and session id, both as `/proc` shows them, since they are compared with
/// `/proc/<pid>/stat` fields. The session id is read from `/proc/self/stat` rather than from
/// getsid(2): when our session leader lives outside our pid namespace (a CI container started
/// without a new session) the kernel reports the session as 0, which rustix's `getsid` cannot
/// represent (it asserts a positive pid and panics).
fn own_ids() -> (i32, i32) {
    let me = getpid().as_raw_nonzero().get();
    let sid = read_stat(me).map_or(0, |s| s.sid);
    (me, sid)
}

/// Reaps zombie children of ours that no `Child` owns: orphans of our trees that died after
/// being reparented to us. Our trees never share our session id; other children of this
/// process (spawned without `setsid`) do, and are left to their owners.
fn reap_orphan_zombies(procs: &[ProcStat]) {
    let (me, my_sid) = own_ids();
    let leaders = Leaders::lock();
    for p in procs {
        if p.ppid == me
            && p.zombie
            && p.sid != my_sid
            && !leaders.contains(p.pid)
            && let Some(pid) = Pid::from_raw(p.pid)
        {
            let _ = waitpid(Some(pid), WaitOptions::NOHANG);
        }
    }
}

/// Live members of `tree`: its group and session, orphans reparented to us carrying its tag,
/// and every descendant of those.
fn members(tree: &Tree, procs: &[ProcStat]) -> Vec<i32> {
    let (me, my_sid) = own_ids();
    let entry = format!("{TAG_VAR}={}", tree.tag).into_bytes();
    let sole = OPEN_TREES.load(Ordering::SeqCst) <= 1;
    let leaders = Leaders::lock();
    let mut set: HashSet<i32> = procs
        .iter()
        .filter(|p| {
            p.pgrp == tree.pgid
                || p.sid == tree.pgid
                || (is_orphan_of_ours(p, me, my_sid, &leaders)
                    && (sole || environ_any(p.pid, |e| e == entry.as_slice())))
        })
        .map(|p| p.pid)
        .collect();
    drop(leaders);
    let mut children: HashMap<i32, Vec<i32>> = HashMap::new();
    for p in procs {
        children.entry(p.ppid).or_default().push(p.pid);
    }
    let mut stack: Vec<i32> = set.iter().copied().collect();
    while let Some(pid) = stack.pop() {
        for &c in children.get(&pid).map(Vec::as_slice).unwrap_or(&[]) {
            if c != me && set.insert(c) {
                stack.push(c);
            }
        }
    }
    let zombies: HashSet<i32> = procs.iter().filter(|p| p.zombie).map(|p| p.pid).collect();
    let mut out: Vec<i32> = set.into_iter().filter(|p| !zombies.contains(p)).collect();
    out.sort_unstable();
    out
}

/// Live (not zombie) descendants of `root`, from `/proc`, as (pid, process group): children,
/// their children, and so on. For a subreaper (the session guard) this is everything its
/// command started that is still running, whatever left the group or cleared its environment.
pub(crate) fn live_descendants(root: i32) -> Vec<(i32, i32)> {
    let procs = all_procs();
    let mut children: HashMap<i32, Vec<&ProcStat>> = HashMap::new();
    for p in &procs {
        children.entry(p.ppid).or_default().push(p);
    }
    let mut out = Vec::new();
    let mut stack = vec![root];
    let mut seen = HashSet::new();
    while let Some(pid) = stack.pop() {
        for c in children.get(&pid).map(Vec::as_slice).unwrap_or(&[]) {
            if c.pid != root && seen.insert(c.pid) {
                stack.push(c.pid);
                if !c.zombie {
                    out.push((c.pid, c.pgrp));
                }
            }
        }
    }
    out
}

fn group_exists(pgid: i32) -> bool {
    Pid::from_raw(pgid).is_some_and(|p| test_kill_process_group(p).is_ok())
}

/// Sends `sig` to the tree's process group; a group already gone is not an error.
pub fn signal_group(pgid: i32, sig: Signal) {
    if let Some(p) = Pid::from_raw(pgid) {
        let _ = kill_process_group(p, sig);
    }
}

/// Whether anything of `tree` may still be alive: the group, or a child of ours that is not
/// a registered leader (possibly a tagged orphan). Cheap when the answer is no, which is the
/// common case after a command exits on its own.
pub fn may_have_survivors(tree: &Tree) -> bool {
    if group_exists(tree.pgid) {
        return true;
    }
    let leaders = Leaders::lock();
    own_children().into_iter().any(|pid| !leaders.contains(pid))
}

/// Children of this process, from `/proc/self/task/*/children` (orphans are reparented to one
/// of our threads). Falls back to a full scan when the kernel lacks that file.
fn own_children() -> Vec<i32> {
    let mut out = Vec::new();
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return out;
    };
    for task in tasks.flatten() {
        match std::fs::read_to_string(task.path().join("children")) {
            Ok(s) => out.extend(
                s.split_ascii_whitespace()
                    .filter_map(|p| p.parse::<i32>().ok()),
            ),
            // A thread that ended between the listing and the read: it has no children.
            Err(_) if !task.path().exists() => {}
            Err(_) => {
                let (me, _) = own_ids();
                return all_procs()
                    .into_iter()
                    .filter(|p| p.ppid == me)
                    .map(|p| p.pid)
                    .collect();
            }
        }
    }
    out
}

/// Kills `tree` (spec 05: SIGTERM to the group, up to 200 ms grace, SIGKILL, then any remaining
/// descendants) and reaps the orphans that die. `reap_leader` is called while waiting so the
/// owner of the leader's `Child` can collect its status (a group with a zombie leader still
/// exists); pass a no-op when another thread does that.
pub fn kill_tree(tree: &Tree, reap_leader: &mut dyn FnMut()) {
    signal_group(tree.pgid, Signal::TERM);
    let grace_end = Instant::now() + KILL_GRACE;
    loop {
        reap_leader();
        reap_orphan_zombies(&all_procs());
        if !group_exists(tree.pgid) || Instant::now() >= grace_end {
            break;
        }
        sleep(Duration::from_millis(5));
    }
    signal_group(tree.pgid, Signal::KILL);
    // Killing a process reparents its children to us; a few rounds catch each generation.
    let end = Instant::now() + Duration::from_secs(2);
    loop {
        reap_leader();
        let procs = all_procs();
        reap_orphan_zombies(&procs);
        let alive = members(tree, &procs);
        if alive.is_empty() || Instant::now() >= end {
            break;
        }
        for pid in alive {
            if let Some(p) = Pid::from_raw(pid) {
                let _ = kill_process(p, Signal::KILL);
            }
        }
        sleep(Duration::from_millis(2));
    }
    reap_leader();
    reap_orphan_zombies(&all_procs());
}

/// Kills every orphan reparented to this process (see `is_orphan_of_ours`), except those
/// tagged with a tree whose lease is still held, and everything they started: the session server calls it on exit, after its sessions were killed, so that
/// descendants whose tree could not be told (a cleared environment while several sessions
/// ran) do not outlive it. Returns how many were killed.
pub fn kill_orphans() -> usize {
    let mut killed = HashSet::new();
    for _ in 0..20 {
        let procs = all_procs();
        reap_orphan_zombies(&procs);
        let (me, my_sid) = own_ids();
        let leaders = Leaders::lock();
        let mut targets: Vec<i32> = procs
            .iter()
            .filter(|p| is_orphan_of_ours(p, me, my_sid, &leaders))
            .map(|p| p.pid)
            .collect();
        drop(leaders);
        // Orphans of a tree whose owner still holds its lease are that owner's to kill.
        targets.retain(|&pid| !has_open_tag(pid));
        // Their groups too, so children they started die in the same round.
        for &pid in &targets {
            signal_group(pid, Signal::KILL);
        }
        targets.retain(|&pid| {
            Pid::from_raw(pid).is_some_and(|p| kill_process(p, Signal::KILL).is_ok())
        });
        if targets.is_empty() {
            break;
        }
        killed.extend(targets);
        sleep(Duration::from_millis(5));
    }
    reap_orphan_zombies(&all_procs());
    killed.len()
}

/// Kills every process (but this one) whose environment carries a tag starting with
/// `tag_prefix`: a new session server calls it before spawning anything, to end the sessions
/// of a dead server, which nobody can reach any more. Returns how many were killed.
pub fn kill_tagged(tag_prefix: &str) -> usize {
    let prefix = format!("{TAG_VAR}={tag_prefix}").into_bytes();
    let (me, _) = own_ids();
    let mut killed = HashSet::new();
    for _ in 0..20 {
        let procs = all_procs();
        reap_orphan_zombies(&procs);
        let targets: Vec<i32> = procs
            .iter()
            .filter(|p| !p.zombie && p.pid != me)
            .filter(|p| environ_any(p.pid, |e| e.starts_with(&prefix)))
            .map(|p| p.pid)
            .collect();
        if targets.is_empty() {
            break;
        }
        for pid in targets {
            if let Some(p) = Pid::from_raw(pid) {
                let _ = kill_process(p, Signal::KILL);
                killed.insert(pid);
            }
        }
        sleep(Duration::from_millis(5));
    }
    killed.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_parsing_survives_odd_command_names() {
        let s = parse_stat(42, b"42 (a) b (c)) S 7 42 41 0 -1").unwrap();
        assert_eq!((s.ppid, s.pgrp, s.sid, s.zombie), (7, 42, 41, false));
        let z = parse_stat(9, b"9 (x) Z 1 9 9 0").unwrap();
        assert!(z.zombie);
        assert!(parse_stat(1, b"garbage").is_none());
    }

    #[test]
    fn own_stat_matches_the_system_calls() {
        let (me, sid) = own_ids();
        let s = read_stat(me).unwrap();
        assert_eq!(s.sid, sid);
        assert_eq!(s.pid, me);
    }
}

/// Helpers for tests that must prove no process was left behind.
#[cfg(test)]
pub(crate) mod test_support {
    use std::sync::atomic::{AtomicU64, Ordering};

    /// A `sleep` duration unique to this test process and call, usable as a marker in a
    /// command line: `sleep 300.<pid><n>` runs 300 s and is found by its argument.
    pub fn unique_sleep() -> String {
        static N: AtomicU64 = AtomicU64::new(0);
        format!(
            "300.{}{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed) + 1000
        )
    }

    /// Pids of live processes whose command line contains `marker`.
    pub fn processes_with(marker: &str) -> Vec<i32> {
        let mut out = Vec::new();
        for e in std::fs::read_dir("/proc").unwrap().flatten() {
            let Ok(pid) = e.file_name().to_string_lossy().parse::<i32>() else {
                continue;
            };
            let Ok(cmd) = std::fs::read(format!("/proc/{pid}/cmdline")) else {
                continue;
            };
            let cmd = String::from_utf8_lossy(&cmd).replace('\0', " ");
            let zombie = super::read_stat(pid).is_none_or(|s| s.zombie);
            if cmd.contains(marker) && !zombie && pid != std::process::id() as i32 {
                out.push(pid);
            }
        }
        out
    }

    /// Pids of live processes whose [`TAG_VAR`](super::TAG_VAR) starts with `tag_prefix`.
    pub fn tagged_processes(tag_prefix: &str) -> Vec<i32> {
        let prefix = format!("{}={tag_prefix}", super::TAG_VAR).into_bytes();
        super::all_procs()
            .into_iter()
            .filter(|p| !p.zombie && super::environ_any(p.pid, |e| e.starts_with(&prefix)))
            .map(|p| p.pid)
            .collect()
    }

    /// Fails when a process with `marker` in its command line is alive (after a short grace
    /// for the kernel to finish reparenting and reaping).
    pub fn assert_none_left(marker: &str) {
        for _ in 0..50 {
            if processes_with(marker).is_empty() {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        let left = processes_with(marker);
        for pid in &left {
            let _ = rustix::process::kill_process(
                rustix::process::Pid::from_raw(*pid).unwrap(),
                rustix::process::Signal::KILL,
            );
        }
        panic!("processes left behind with {marker:?}: {left:?}");
    }
}
