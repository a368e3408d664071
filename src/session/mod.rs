//! Sessions: the `SessionManager` (create, get, restore, fork, list, close, delete, update cwd)
//! over live `Session`s and the store. It knows nothing about ACP; the protocol layer calls it.

pub mod catalog;
pub mod checkpoints;
mod live;
mod manager;
pub mod modes;
mod turns;

pub use catalog::ModelCatalog;
pub use live::{Session, SessionSettings};
pub use manager::{
    CheckpointInfo, EffortChoice, SessionError, SessionManager, SessionSetup, SessionSummary, TurnSeams, UndoReport,
};
pub use turns::{TurnTicket, Turns};
