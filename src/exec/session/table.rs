//! The session table's rules (spec 05, "Limits"): which session to prune when a new one would
//! exceed the limit, and what an unknown id means.

use super::{FIRST_SESSION_ID, PROTECTED_RECENT, SessionError};

/// What pruning needs to know about a session.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PruneEntry {
    pub id: u64,
    /// Larger = used more recently (a counter bumped on every call that touches the session).
    pub last_used: u64,
    /// The process has exited (its exit not yet reported).
    pub exited: bool,
}

/// The session to drop to make room: the [`PROTECTED_RECENT`] most recently used are safe;
/// among the rest, the least recently used that has exited, else the least recently used.
/// None when every session is protected.
pub(crate) fn prune_victim(entries: &[PruneEntry]) -> Option<u64> {
    let mut by_recency: Vec<&PruneEntry> = entries.iter().collect();
    by_recency.sort_by_key(|e| std::cmp::Reverse(e.last_used));
    let candidates = by_recency.get(PROTECTED_RECENT..).unwrap_or(&[]);
    let lru = |exited_only: bool| {
        candidates
            .iter()
            .filter(|e| !exited_only || e.exited)
            .min_by_key(|e| e.last_used)
            .map(|e| e.id)
    };
    lru(true).or_else(|| lru(false))
}

/// The error for an id this server does not hold: ids below the first one it issued belonged
/// to an earlier server (gone); any other is simply unknown.
pub(crate) fn missing_session(id: u64, first_id_of_this_server: u64) -> SessionError {
    if (FIRST_SESSION_ID..first_id_of_this_server).contains(&id) {
        SessionError::Gone(id)
    } else {
        SessionError::NoSession(id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries(n: u64, exited: &[u64]) -> Vec<PruneEntry> {
        // Session 1000 + i was last used at time i.
        (0..n)
            .map(|i| PruneEntry {
                id: 1000 + i,
                last_used: i,
                exited: exited.contains(&(1000 + i)),
            })
            .collect()
    }

    #[test]
    fn least_recently_used_goes_when_none_exited() {
        assert_eq!(prune_victim(&entries(64, &[])), Some(1000));
    }

    #[test]
    fn an_exited_session_goes_before_a_running_one() {
        assert_eq!(prune_victim(&entries(64, &[1030, 1020])), Some(1020));
    }

    #[test]
    fn the_eight_most_recent_are_protected_even_when_exited() {
        // 1063..1056 are the 8 most recent; an exited one among them is kept.
        assert_eq!(prune_victim(&entries(64, &[1060])), Some(1000));
        assert_eq!(prune_victim(&entries(64, &[1060, 1055])), Some(1055));
        assert_eq!(prune_victim(&entries(8, &[1000])), None);
        assert_eq!(prune_victim(&entries(9, &[])), Some(1000));
    }

    #[test]
    fn recency_not_id_decides() {
        let mut e = entries(64, &[]);
        e[0].last_used = 1_000; // 1000 was just used
        assert_eq!(prune_victim(&e), Some(1001));
    }

    #[test]
    fn ids_of_an_earlier_server_are_gone() {
        assert_eq!(missing_session(1004, 1010), SessionError::Gone(1004));
        assert_eq!(missing_session(1010, 1010), SessionError::NoSession(1010));
        assert_eq!(missing_session(5, 1010), SessionError::NoSession(5));
        assert_eq!(missing_session(1004, 1000), SessionError::NoSession(1004));
    }
}
