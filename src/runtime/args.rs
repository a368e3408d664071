//! Lenient argument readers shared by every tool: models often send `"30"` for 30, `"true"` for
//! true, or a number for an id, and Hermes (Python) accepted those.

use serde_json::Value;

/// An integer argument; numeric strings and whole floats count, anything else is absent.
pub(crate) fn int(args: &Value, key: &str) -> Option<i64> {
    match args.get(key)? {
        Value::Number(n) => n
            .as_i64()
            .or_else(|| n.as_f64().filter(|f| f.is_finite()).map(|f| f.round() as i64)),
        Value::String(s) => s
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|f| f.is_finite())
            .map(|f| f.round() as i64),
        _ => None,
    }
}

/// An integer argument the way Hermes' `int(value)` reads it, else `default`: a number (a
/// float truncated toward zero) or a string of a whole number. Unlike [`int`], floats are not
/// rounded and `"2.5"` is not a number: the paging arguments of `read_file` and
/// `search_files` keep Hermes' exact reading.
pub(crate) fn int_or(args: &Value, key: &str, default: i64) -> i64 {
    match args.get(key) {
        Some(Value::Number(n)) => n.as_i64().or_else(|| n.as_f64().map(|f| f as i64)).unwrap_or(default),
        Some(Value::String(s)) => s.trim().parse().unwrap_or(default),
        _ => default,
    }
}

/// A boolean argument, the one reader every tool uses: a JSON bool; a number (non-zero is
/// true); a string `true`/`1`/`yes`/`on` or `false`/`0`/`no`/`off`/empty (any case, trimmed).
/// Absent, `null`, any other string, a list or an object gives `default`.
pub(crate) fn boolean(args: &Value, key: &str, default: bool) -> bool {
    match args.get(key) {
        Some(Value::Bool(b)) => *b,
        Some(Value::String(s)) => match s.trim().to_ascii_lowercase().as_str() {
            "true" | "1" | "yes" | "on" => true,
            "false" | "0" | "no" | "off" | "" => false,
            _ => default,
        },
        Some(Value::Number(n)) => n.as_f64().is_some_and(|f| f != 0.0),
        _ => default,
    }
}

/// A string argument; numbers are turned into their text (ids sent as integers).
pub(crate) fn string(args: &Value, key: &str) -> Option<String> {
    match args.get(key)? {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// A list of strings (non-strings are skipped); a single string counts as a one-item list.
pub(crate) fn strings(args: &Value, key: &str) -> Option<Vec<String>> {
    match args.get(key)? {
        Value::Array(items) => Some(items.iter().filter_map(|v| v.as_str().map(str::to_string)).collect()),
        Value::String(s) => Some(vec![s.clone()]),
        _ => None,
    }
}

/// The Python type name Hermes reports for a JSON value (`got int`, `got NoneType`…).
pub(crate) fn python_type_name(value: Option<&Value>) -> &'static str {
    match value {
        None | Some(Value::Null) => "NoneType",
        Some(Value::Bool(_)) => "bool",
        Some(Value::Number(n)) if n.is_f64() => "float",
        Some(Value::Number(_)) => "int",
        Some(Value::String(_)) => "str",
        Some(Value::Array(_)) => "list",
        Some(Value::Object(_)) => "dict",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn readers_accept_what_models_actually_send() {
        let args = json!({"a": 5, "b": "7", "c": 2.6, "d": "x", "t": "true", "n": 0, "id": 42, "l": ["p", 1]});
        assert_eq!(int(&args, "a"), Some(5));
        assert_eq!(int(&args, "b"), Some(7));
        assert_eq!(int(&args, "c"), Some(3));
        assert_eq!(int(&args, "d"), None);
        assert_eq!(int(&args, "missing"), None);
        let paging = json!({"a": 2.9, "b": " 7 ", "c": "2.5", "d": -1.5, "e": [1]});
        assert_eq!(int_or(&paging, "a", 0), 2);
        assert_eq!(int_or(&paging, "b", 0), 7);
        assert_eq!(int_or(&paging, "c", 9), 9);
        assert_eq!(int_or(&paging, "d", 0), -1);
        assert_eq!(int_or(&paging, "e", 4), 4);
        assert_eq!(int_or(&paging, "missing", 5), 5);
        assert!(boolean(&args, "t", false));
        assert!(!boolean(&args, "n", true));
        assert!(boolean(&args, "missing", true));
        let odd = json!({"on": " ON ", "off": "off", "word": "maybe", "list": [1], "null": null});
        assert!(boolean(&odd, "on", false));
        assert!(!boolean(&odd, "off", true));
        assert!(boolean(&odd, "word", true) && !boolean(&odd, "word", false));
        assert!(!boolean(&odd, "list", false));
        assert!(boolean(&odd, "null", true));
        assert_eq!(string(&args, "id").as_deref(), Some("42"));
        assert_eq!(strings(&args, "l"), Some(vec!["p".to_string()]));
        assert_eq!(python_type_name(args.get("a")), "int");
        assert_eq!(python_type_name(args.get("c")), "float");
        assert_eq!(python_type_name(None), "NoneType");
        assert_eq!(python_type_name(args.get("l")), "list");
    }
}
