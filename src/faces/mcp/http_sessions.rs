//! MCP sessions over HTTP, bounded (issue 22, "Bad input": 1,000 sessions opened and never
//! closed are bounded, the oldest idle ones closed): rmcp's in-memory session manager, wrapped
//! to count sessions, note when each was last used and whether a request of it is under way,
//! and to close the least recently used idle session when a new one would pass the bound.
//! Sessions idle for [`IDLE_CLOSE`] are closed by rmcp itself.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures::{Stream, StreamExt};
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::streamable_http_server::SessionId;
use rmcp::transport::streamable_http_server::session::local::{
    LocalSessionManager, LocalSessionManagerError,
};
use rmcp::transport::streamable_http_server::session::{ServerSseMessage, SessionManager};

/// Sessions open at once, at most.
pub const MAX_SESSIONS: usize = 128;

/// A session unused this long is closed (a host idle over lunch keeps its session).
pub const IDLE_CLOSE: Duration = Duration::from_secs(4 * 3600);

/// Why a session could not be made or used.
#[derive(Debug, thiserror::Error)]
pub enum SessionsError {
    /// rmcp's own.
    #[error(transparent)]
    Local(#[from] LocalSessionManagerError),
    /// Every session is busy and the bound is reached.
    #[error(
        "too many MCP sessions: {0} are open and each has a request under way; close one \
         (HTTP DELETE with its Mcp-Session-Id) or try again later"
    )]
    Full(usize),
}

struct Use {
    last: Instant,
    busy: Arc<AtomicUsize>,
}

/// The bounded session manager (see the module doc).
pub struct BoundedSessions {
    inner: LocalSessionManager,
    uses: Mutex<HashMap<SessionId, Use>>,
    max: usize,
}

impl BoundedSessions {
    /// At most `max` sessions, each closed after `idle` unused.
    pub fn new(max: usize, idle: Duration) -> BoundedSessions {
        let mut inner = LocalSessionManager::default();
        inner.session_config.keep_alive = Some(idle);
        BoundedSessions {
            inner,
            uses: Mutex::new(HashMap::new()),
            max,
        }
    }

    /// How many sessions are open.
    pub fn open(&self) -> usize {
        self.uses.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    /// Notes a use of `id` and returns its busy counter.
    fn touch(&self, id: &SessionId) -> Arc<AtomicUsize> {
        let mut uses = self.uses.lock().unwrap_or_else(|e| e.into_inner());
        let entry = uses.entry(id.clone()).or_insert_with(|| Use {
            last: Instant::now(),
            busy: Arc::new(AtomicUsize::new(0)),
        });
        entry.last = Instant::now();
        entry.busy.clone()
    }

    /// `stream`, counted as a request under way of its session until it is dropped.
    fn counted<S: Stream<Item = ServerSseMessage> + Send + Sync + 'static>(
        &self,
        id: &SessionId,
        stream: S,
    ) -> impl Stream<Item = ServerSseMessage> + Send + Sync + 'static {
        let busy = self.touch(id);
        busy.fetch_add(1, Ordering::SeqCst);
        let guard = BusyGuard(busy);
        stream.map(move |m| {
            let _held = &guard;
            m
        })
    }

    /// The least recently used session with no request under way.
    fn oldest_idle(&self) -> Option<SessionId> {
        let uses = self.uses.lock().unwrap_or_else(|e| e.into_inner());
        uses.iter()
            .filter(|(_, u)| u.busy.load(Ordering::SeqCst) == 0)
            .min_by_key(|(_, u)| u.last)
            .map(|(id, _)| id.clone())
    }
}

struct BusyGuard(Arc<AtomicUsize>);

impl Drop for BusyGuard {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl SessionManager for BoundedSessions {
    type Error = SessionsError;
    type Transport = <LocalSessionManager as SessionManager>::Transport;

    async fn create_session(&self) -> Result<(SessionId, Self::Transport), Self::Error> {
        while self.open() >= self.max {
            let Some(oldest) = self.oldest_idle() else {
                return Err(SessionsError::Full(self.open()));
            };
            tracing::info!("mcp: closing the least recently used session {oldest}");
            self.close_session(&oldest).await?;
        }
        let (id, transport) = self.inner.create_session().await?;
        self.touch(&id);
        Ok((id, transport))
    }

    async fn initialize_session(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<ServerJsonRpcMessage, Self::Error> {
        let reply = self.inner.initialize_session(id, message).await?;
        self.touch(id);
        Ok(reply)
    }

    async fn has_session(&self, id: &SessionId) -> Result<bool, Self::Error> {
        Ok(self.inner.has_session(id).await?)
    }

    async fn close_session(&self, id: &SessionId) -> Result<(), Self::Error> {
        self.uses
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(id);
        Ok(self.inner.close_session(id).await?)
    }

    async fn create_stream(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        let stream = self.inner.create_stream(id, message).await?;
        Ok(self.counted(id, stream))
    }

    async fn accept_message(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<(), Self::Error> {
        self.inner.accept_message(id, message).await?;
        self.touch(id);
        Ok(())
    }

    async fn create_standalone_stream(
        &self,
        id: &SessionId,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        // The standalone stream stays open for the session's life: it does not make the
        // session busy, or a client holding one could never be closed.
        let stream = self.inner.create_standalone_stream(id).await?;
        self.touch(id);
        Ok(stream)
    }

    async fn resume(
        &self,
        id: &SessionId,
        last_event_id: String,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        let stream = self.inner.resume(id, last_event_id).await?;
        self.touch(id);
        Ok(stream)
    }
}
