//! Command analysis on a real shell parse (filled in by the analyser work).
