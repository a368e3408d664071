//! Fetching what a model names on the network, safely: the SSRF guard (no private, loopback,
//! link-local or cloud-metadata targets unless the user allowed private addresses), checked at
//! connection time for every address a name resolves to and again on every redirect, with
//! bounded time and size. Web tools and `vision_analyze` fetch through it; provider traffic
//! does not (the user chose those endpoints).

pub mod address;
pub mod fetch;
pub mod lazy_client;
pub mod page;

pub use address::{blocked_reason, is_always_blocked_host};
pub use fetch::{FetchError, FetchLimits, Fetched, GuardedHttp};
pub use lazy_client::LazyClient;
