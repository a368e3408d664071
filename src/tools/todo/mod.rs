//! The session's task list and the `todo` tool: the model writes the whole list (replace) or
//! updates items by id (merge), and every call returns the full list with status counts. The
//! editor bridge turns the list into an ACP `plan` update.

mod present;
#[cfg(test)]
mod tests;

use futures::future::BoxFuture;
use serde::Serialize;
use serde_json::{Value, json};

use crate::runtime::args::python_type_name;
use crate::runtime::describe::{self, PlanItem, Presentation, ToolEffect};
use crate::runtime::{Tool, ToolContext, ToolOutput};

/// Longest item text kept; a planning aid needs no more, and it keeps the list bounded.
const MAX_CONTENT_CHARS: usize = 4000;

/// Most items kept (list order is priority, so the head is kept).
const MAX_ITEMS: usize = 256;

const TRUNCATION_MARKER: &str = "… [truncated]";

/// Where a task stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TodoStatus {
    Pending,
    InProgress,
    Completed,
    Cancelled,
}

impl TodoStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            TodoStatus::Pending => "pending",
            TodoStatus::InProgress => "in_progress",
            TodoStatus::Completed => "completed",
            TodoStatus::Cancelled => "cancelled",
        }
    }

    /// Parses a status leniently (case and surrounding spaces ignored).
    pub fn parse(raw: &str) -> Option<TodoStatus> {
        match raw.trim().to_lowercase().as_str() {
            "pending" => Some(TodoStatus::Pending),
            "in_progress" => Some(TodoStatus::InProgress),
            "completed" => Some(TodoStatus::Completed),
            "cancelled" => Some(TodoStatus::Cancelled),
            _ => None,
        }
    }
}

/// One task.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TodoItem {
    pub id: String,
    pub content: String,
    pub status: TodoStatus,
}

/// The session's task list, in priority order.
#[derive(Debug, Default, Clone)]
pub struct TodoList {
    items: Vec<TodoItem>,
}

impl TodoList {
    pub fn items(&self) -> &[TodoItem] {
        &self.items
    }

    /// Replaces the whole list. Items with the same id collapse to the last one, at its
    /// position; missing fields get placeholders (`?`, `(no description)`, `pending`).
    pub fn replace(&mut self, todos: &[Value]) {
        self.items = dedupe_by_id(todos).into_iter().map(validate).collect();
        self.items.truncate(MAX_ITEMS);
    }

    /// Updates existing items by id (only the fields given) and appends new ones; items
    /// without an id are skipped.
    pub fn merge(&mut self, todos: &[Value]) {
        for todo in dedupe_by_id(todos) {
            let id = id_of(todo);
            if id.is_empty() {
                continue;
            }
            let Some(existing) = self.items.iter_mut().find(|item| item.id == id) else {
                self.items.push(validate(todo));
                continue;
            };
            if let Some(content) = todo.get("content").map(text_of).filter(|c| !c.trim().is_empty()) {
                existing.content = cap_content(content.trim());
            }
            if let Some(status) = todo.get("status").map(text_of).as_deref().and_then(TodoStatus::parse) {
                existing.status = status;
            }
        }
        self.items.truncate(MAX_ITEMS);
    }

    /// The tool result: `{"todos": […], "summary": {total, pending, in_progress, completed, cancelled}}`.
    pub fn to_json(&self) -> Value {
        let count = |status: TodoStatus| self.items.iter().filter(|i| i.status == status).count();
        json!({
            "todos": self.items,
            "summary": {
                "total": self.items.len(),
                "pending": count(TodoStatus::Pending),
                "in_progress": count(TodoStatus::InProgress),
                "completed": count(TodoStatus::Completed),
                "cancelled": count(TodoStatus::Cancelled),
            },
        })
    }
}

/// The `todo` tool.
#[derive(Debug, Default, Clone, Copy)]
pub struct TodoTool;

const DESCRIPTION: &str = "Manage your task list for the current session. Use for complex tasks \
with 3+ steps or when the user provides multiple tasks. Call with no parameters to read the \
current list.\n\n\
Writing:\n\
- Provide 'todos' array to create/update items\n\
- merge=false (default): replace the entire list with a fresh plan\n\
- merge=true: update existing items by id, add any new ones\n\n\
Each item: {id: string, content: string, status: pending|in_progress|completed|cancelled}\n\
List order is priority. Only ONE item in_progress at a time.\n\
Mark items completed immediately when done. If something fails, cancel it and add a revised \
item.\n\n\
Always returns the full current list.";

impl Tool for TodoTool {
    fn name(&self) -> &'static str {
        "todo"
    }

    fn description(&self) -> String {
        DESCRIPTION.to_string()
    }

    fn parameters(&self) -> Value {
        json!({
            "type": "object",
            "properties": {
                "todos": {
                    "type": "array",
                    "description": "Task items to write. Omit to read current list.",
                    "items": {
                        "type": "object",
                        "properties": {
                            "id": {"type": "string", "description": "Unique item identifier"},
                            "content": {"type": "string", "description": "Task description"},
                            "status": {
                                "type": "string",
                                "enum": ["pending", "in_progress", "completed", "cancelled"],
                                "description": "Current status"
                            }
                        },
                        "required": ["id", "content", "status"]
                    }
                },
                "merge": {
                    "type": "boolean",
                    "description": "true: update existing items by id, add new ones. false (default): replace the entire list.",
                    "default": false
                }
            },
            "required": []
        })
    }

    fn run<'a>(&'a self, ctx: &'a ToolContext, args: Value) -> BoxFuture<'a, ToolOutput> {
        Box::pin(async move { run(ctx, &args) })
    }

    fn effect(&self, _args: &Value) -> ToolEffect {
        ToolEffect::ReadOnly
    }

    fn present(&self, args: &Value, cwd: &std::path::Path) -> Presentation {
        Presentation {
            title: present::title(args),
            start_text: Some(present::start_text(args)),
            ..describe::generic_presentation(self.name(), args, cwd)
        }
    }

    fn summarise(&self, _args: &Value, result: &Value) -> String {
        present::summarise(result)
    }

    fn plan(&self, result: &Value) -> Option<Vec<PlanItem>> {
        present::plan(result)
    }
}

fn run(ctx: &ToolContext, args: &Value) -> ToolOutput {
    let merge = match args.get("merge") {
        Some(Value::Bool(merge)) => *merge,
        Some(Value::String(s)) => s.trim().eq_ignore_ascii_case("true"),
        _ => false,
    };
    let todos = match args.get("todos") {
        None | Some(Value::Null) => None,
        Some(Value::Array(items)) => Some(items.clone()),
        // Models sometimes send the list as a JSON string.
        Some(Value::String(text)) => match serde_json::from_str::<Value>(text) {
            Ok(Value::Array(items)) => Some(items),
            Ok(other) => {
                return ToolOutput::error(format!("todos must be a list, got {}", python_type_name(Some(&other))));
            }
            Err(_) => {
                return ToolOutput::error("todos must be a list of objects, got unparseable string");
            }
        },
        Some(other) => {
            return ToolOutput::error(format!("todos must be a list, got {}", python_type_name(Some(other))));
        }
    };
    let list = ctx.session.state.with_slot(|list: &mut TodoList| {
        match todos {
            Some(todos) if merge => list.merge(&todos),
            Some(todos) => list.replace(&todos),
            None => {}
        }
        list.to_json()
    });
    ToolOutput::json(list)
}

/// Keeps the last item of each id, at that item's position. Items without an id (and
/// non-objects) never collide.
fn dedupe_by_id(todos: &[Value]) -> Vec<&Value> {
    todos
        .iter()
        .enumerate()
        .filter(|(index, todo)| {
            let id = id_of(todo);
            id.is_empty() || !todos[index + 1..].iter().any(|later| id_of(later) == id)
        })
        .map(|(_, todo)| todo)
        .collect()
}

fn validate(todo: &Value) -> TodoItem {
    if !todo.is_object() {
        return TodoItem {
            id: "?".into(),
            content: "(invalid item)".into(),
            status: TodoStatus::Pending,
        };
    }
    let id = id_of(todo);
    let content = todo.get("content").map(text_of).unwrap_or_default();
    let content = content.trim();
    TodoItem {
        id: if id.is_empty() { "?".into() } else { id },
        content: if content.is_empty() {
            "(no description)".into()
        } else {
            cap_content(content)
        },
        status: todo
            .get("status")
            .map(text_of)
            .as_deref()
            .and_then(TodoStatus::parse)
            .unwrap_or(TodoStatus::Pending),
    }
}

/// The trimmed id of an item (empty when missing or not an object).
fn id_of(todo: &Value) -> String {
    todo.get("id").map(text_of).unwrap_or_default().trim().to_string()
}

/// Text of a field: strings as is, numbers and booleans as written, anything else empty.
fn text_of(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        Value::Bool(b) => b.to_string(),
        _ => String::new(),
    }
}

fn cap_content(content: &str) -> String {
    if content.chars().count() <= MAX_CONTENT_CHARS {
        return content.to_string();
    }
    let keep = MAX_CONTENT_CHARS - TRUNCATION_MARKER.chars().count();
    content.chars().take(keep).chain(TRUNCATION_MARKER.chars()).collect()
}
