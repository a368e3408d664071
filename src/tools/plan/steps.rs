//! The steps of a plan for the editor's plan view: the model's own `steps` when it gave them,
//! else the plan's Markdown list items (bulleted or numbered, the outermost level only), else
//! its headings, else its first line. Pure.

/// The longest step shown (the plan's full text is on the card and in the question).
const STEP_MAX_CHARS: usize = 200;
/// The most steps shown.
const MAX_STEPS: usize = 50;

/// The steps the model gave, trimmed, empty ones dropped, capped.
pub fn given(steps: &[String]) -> Vec<String> {
    steps
        .iter()
        .map(|s| clip(s.trim()))
        .filter(|s| !s.is_empty())
        .take(MAX_STEPS)
        .collect()
}

/// The steps read from the plan's Markdown.
pub fn from_markdown(plan: &str) -> Vec<String> {
    let items = list_items(plan);
    if !items.is_empty() {
        return items;
    }
    let headings: Vec<String> = lines_outside_code(plan)
        .filter_map(|l| l.trim_start().strip_prefix('#'))
        .map(|h| clip(h.trim_start_matches('#').trim()))
        .filter(|h| !h.is_empty())
        .take(MAX_STEPS)
        .collect();
    if !headings.is_empty() {
        return headings;
    }
    lines_outside_code(plan)
        .map(|l| clip(l.trim()))
        .find(|l| !l.is_empty())
        .into_iter()
        .collect()
}

/// The list items of the outermost list level (the smallest indentation any item has).
fn list_items(plan: &str) -> Vec<String> {
    let items: Vec<(usize, String)> = lines_outside_code(plan)
        .filter_map(|line| {
            let indent = line.len() - line.trim_start().len();
            item_text(line.trim_start()).map(|text| (indent, clip(text)))
        })
        .filter(|(_, text)| !text.is_empty())
        .collect();
    let Some(outer) = items.iter().map(|(indent, _)| *indent).min() else {
        return Vec::new();
    };
    items
        .into_iter()
        .filter(|(indent, _)| *indent == outer)
        .map(|(_, text)| text)
        .take(MAX_STEPS)
        .collect()
}

/// The text of a list item line (`- x`, `* x`, `+ x`, `1. x`, `1) x`; a task box `[ ]` dropped).
fn item_text(line: &str) -> Option<&str> {
    let rest = match line.strip_prefix(['-', '*', '+']) {
        Some(rest) => rest,
        None => {
            let digits = line.len() - line.trim_start_matches(|c: char| c.is_ascii_digit()).len();
            if digits == 0 || digits > 3 {
                return None;
            }
            line[digits..].strip_prefix(['.', ')'])?
        }
    };
    if !rest.starts_with([' ', '\t']) {
        return None;
    }
    let rest = rest.trim_start();
    let rest = ["[ ] ", "[x] ", "[X] "]
        .iter()
        .find_map(|b| rest.strip_prefix(b))
        .unwrap_or(rest);
    Some(rest.trim())
}

/// The lines of `text` that are not inside a fenced code block.
fn lines_outside_code(text: &str) -> impl Iterator<Item = &str> {
    let mut fenced = false;
    text.lines().filter(move |line| {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            fenced = !fenced;
            return false;
        }
        !fenced
    })
}

fn clip(text: &str) -> String {
    crate::text::clip(text, STEP_MAX_CHARS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_come_from_the_outer_list_then_headings_then_the_first_line() {
        let plan = "# Fix the parser\n\n1. Read `src/parse.rs`\n   - note the edge cases\n2) Add a test\n\n```\n- not a step\n```\n- [ ] Run the suite\n";
        assert_eq!(
            from_markdown(plan),
            ["Read `src/parse.rs`", "Add a test", "Run the suite"]
        );
        assert_eq!(from_markdown("## One\ntext\n## Two\n"), ["One", "Two"]);
        assert_eq!(from_markdown("\n  Just do it.\nThen stop."), ["Just do it."]);
        assert!(from_markdown("   \n").is_empty());
        // Emphasis and rules are not list items.
        assert_eq!(from_markdown("*bold* start\n---\nmore"), ["*bold* start"]);
        assert_eq!(given(&["  a ".into(), String::new(), "b".into()]), ["a", "b"]);
    }
}
