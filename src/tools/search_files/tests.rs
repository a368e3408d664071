//! Tests for `search_files`.
