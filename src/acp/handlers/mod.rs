//! One function per ACP method, grouped by topic. Each validates, calls the session manager and
//! builds the response; none awaits the editor on the dispatch loop.

pub mod lifecycle;
pub mod options;
pub mod prompt;
pub mod sessions;
pub mod settings;
pub mod steering;
