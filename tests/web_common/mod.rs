//! Helpers for the web-fetch tests: real HTTP(S) servers on loopback (port 0) that count the
//! connections they accept, the agtool binary run with a clean environment (no proxy, no user
//! configuration), peak memory of that run, a gzip bomb, and re-running a test inside a fresh
//! network namespace so that a test naming a non-loopback address can never send a packet
//! off the machine.

#![allow(dead_code, unused_imports)] // each test binary uses its own subset

mod gzip;
mod netns;
mod run;
mod server;

pub use gzip::gzip_of_as;
pub use netns::{NETNS_ADDRS, in_netns, run_in_netns, skip};
pub use run::{Run, Ws, clean_env, measure_helper_main, run_measured};
pub use server::{BodyWriter, Reply, Request, Server, write_chunked};
