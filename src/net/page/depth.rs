//! A bound on element nesting before the tree is walked. `htmd` converts recursively, a few
//! stack frames per level, and a page of a few thousand nested `<div>`s (tens of kilobytes)
//! would overflow the thread's stack and abort the whole agent. Real pages nest well under a
//! hundred levels; below `MAX_DEPTH` an element's subtree is replaced by its text, so the words
//! survive and only their markup is lost. Walked with an explicit stack, never recursively.

use std::cell::RefCell;
use std::rc::Rc;

use markup5ever_rcdom::{Node, NodeData};

/// Levels of elements kept as structure (stack use in a debug build stays under 1 MB).
pub(super) const MAX_DEPTH: usize = 200;

/// Replaces the children of every node at `MAX_DEPTH` by one text node holding their text
/// (text inside `dropped` elements left out, as the converter would).
pub(super) fn flatten_deep(root: &Rc<Node>, dropped: &[&str]) {
    let mut stack = vec![(Rc::clone(root), 0usize)];
    while let Some((node, depth)) = stack.pop() {
        if depth < MAX_DEPTH {
            stack.extend(node.children.borrow().iter().map(|child| (Rc::clone(child), depth + 1)));
            continue;
        }
        if node.children.borrow().is_empty() {
            continue;
        }
        let text = text_of(&node, dropped);
        let leaf = Node::new(NodeData::Text {
            contents: RefCell::new(text.into()),
        });
        leaf.parent.set(Some(Rc::downgrade(&node)));
        // The old subtree is dropped here; rcdom's `Drop` for nodes is iterative.
        *node.children.borrow_mut() = vec![leaf];
    }
}

/// The text under `node` in document order, words separated by a space.
fn text_of(node: &Rc<Node>, dropped: &[&str]) -> String {
    let mut out = String::new();
    let mut stack: Vec<Rc<Node>> = node.children.borrow().iter().rev().cloned().collect();
    while let Some(next) = stack.pop() {
        match &next.data {
            NodeData::Text { contents } => {
                out.push_str(&contents.borrow());
                out.push(' ');
            }
            NodeData::Element { name, .. } if dropped.contains(&&*name.local) => {}
            _ => stack.extend(next.children.borrow().iter().rev().cloned()),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::markdown::html_to_markdown;
    use super::*;

    #[test]
    fn a_deeply_nested_page_converts_on_a_small_stack_and_keeps_its_words() {
        let deep = "<div>".repeat(5_000) + "<p>deep <b>words</b></p><script>no</script>";
        let shallow = "<div>".repeat(MAX_DEPTH - 10) + "<h2>kept heading</h2>";
        let html = format!("<h1>Top</h1>{shallow}{deep}");
        // 2 MiB is the stack of tokio's blocking threads, where `extract` converts.
        let markdown = std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(move || html_to_markdown(&html))
            .unwrap()
            .join()
            .unwrap();
        assert!(markdown.starts_with("# Top"), "{markdown}");
        assert!(markdown.contains("## kept heading"), "{markdown}");
        assert!(markdown.contains("deep words"), "{markdown}");
        assert!(!markdown.contains("no"), "{markdown}");
    }
}
