//! The approval policy: one pure function from (mode, effect, remembered rules) to a decision.
