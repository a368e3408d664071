//! The seams a tool reaches the world above through, each a trait the upper layers implement:
//! questions for the user (`clarify`, an editor form), children run by the agent (`delegate`),
//! and the session's mode switched on the user's behalf (`modes`). Tools never see ACP or the
//! turn loop; tests and benches use the local implementations here.

pub mod clarify;
pub mod delegate;
pub mod modes;
