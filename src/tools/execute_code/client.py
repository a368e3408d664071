"""hermes_tools: call the agent's tools from an execute_code script.

Every call goes to the agent that started this script, over a socket the script inherited
(descriptor HERMES_RPC_FD), and passes the same permission checks as the model's own calls (a
write may ask the user first).
"""
import json
import os
import shlex
import socket
import threading
import time

__all__ = [
    "read_file", "write_file", "search_files", "patch", "terminal",
    "json_parse", "shell_quote", "retry",
]

_lock = threading.Lock()
_conn = None
_reader = None


def _channel():
    # One connection per script, opened on the first call and shared by every thread.
    global _conn, _reader
    if _conn is None:
        _conn = socket.socket(fileno=int(os.environ["HERMES_RPC_FD"]))
        _reader = _conn.makefile("rb")
    return _conn, _reader


def _call(tool, args):
    request = {
        "token": os.environ.get("HERMES_RPC_TOKEN", ""),
        "tool": tool,
        # Unset optional arguments are left out, so the tool applies its own defaults.
        "args": {k: v for k, v in args.items() if v is not None},
    }
    line = (json.dumps(request) + "\n").encode("utf-8")
    with _lock:
        conn, reader = _channel()
        conn.sendall(line)
        answer = reader.readline()
    if not answer:
        raise RuntimeError("the agent closed the tool channel")
    result = json.loads(answer)
    if isinstance(result, str):
        try:
            return json.loads(result)
        except ValueError:
            return result
    return result


def read_file(path: str, offset: int = 1, limit: int = 500):
    """Read a file (1-indexed lines). Returns dict with "content" and "total_lines"."""
    return _call("read_file", {"path": path, "offset": offset, "limit": limit})


def write_file(path: str, content: str, cross_profile: bool = False):
    """Write content to a file (always overwrites). Returns dict with status."""
    args = {"path": path, "content": content}
    if cross_profile:
        args["cross_profile"] = True
    return _call("write_file", args)


def search_files(pattern: str, target: str = "content", path: str = ".", file_glob: str = None,
                 limit: int = 50, offset: int = 0, output_mode: str = "content", context: int = 0):
    """Search file contents (target="content") or find files by name (target="files").
    Returns dict with "matches"."""
    return _call("search_files", {
        "pattern": pattern, "target": target, "path": path, "file_glob": file_glob,
        "limit": limit, "offset": offset, "output_mode": output_mode, "context": context,
    })


def patch(path: str = None, old_string: str = None, new_string: str = None,
          replace_all: bool = False, mode: str = "replace", patch: str = None,
          cross_profile: bool = False):
    """Targeted find-and-replace (mode="replace") or V4A multi-file patches (mode="patch").
    Returns dict with status."""
    args = {"path": path, "old_string": old_string, "new_string": new_string,
            "replace_all": replace_all, "mode": mode, "patch": patch}
    if cross_profile:
        args["cross_profile"] = True
    return _call("patch", args)


def terminal(command: str, timeout: int = None, workdir: str = None):
    """Run a shell command (foreground only). Returns dict with "output" and "exit_code"."""
    return _call("terminal", {"command": command, "timeout": timeout, "workdir": workdir})


def json_parse(text: str):
    """json.loads with strict=False: tolerates raw control characters (tabs, newlines) inside
    strings, as in terminal() output."""
    return json.loads(text, strict=False)


def shell_quote(s: str) -> str:
    """Quote a string for a shell command: terminal(f"cat {shell_quote(name)}")."""
    return shlex.quote(s)


def retry(fn, max_attempts=3, delay=2):
    """Call fn() until it returns without raising, at most max_attempts times, waiting
    delay, 2*delay, 4*delay… seconds between attempts; re-raises the last error."""
    for attempt in range(max_attempts):
        try:
            return fn()
        except Exception:
            if attempt + 1 >= max_attempts:
                raise
            time.sleep(delay * (2 ** attempt))
