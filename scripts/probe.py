#!/usr/bin/env python3
"""Starts a hermes-acp binary the way an editor does and checks two things end to end:

1. the ACP registry's probe: an empty HOME, `initialize`, and the first stdout line is the reply,
   offering an auth method of type agent or terminal;
2. a prompt: with a provider pointing at a mock OpenAI-compatible server on 127.0.0.1 (started
   here), `session/new` then `session/prompt`, and the streamed answer is the mock's text.

    scripts/probe.py [--runner CMD] [--windows-paths] BINARY

`--runner` runs the binary through an emulator (`qemu-aarch64-static`, `wine`); `--windows-paths`
hands the binary Windows spellings (Z:\\…) of the temp folders, as Wine maps / to Z:. Prints one
line per step; exits 1 at the first failure.
"""

import argparse
import http.server
import json
import os
import queue
import shlex
import subprocess
import sys
import tempfile
import threading
import time

ANSWER = "Hello from the mock provider."
TIMEOUT = 120  # seconds per reply: the first Wine start builds its prefix


class MockProvider(http.server.BaseHTTPRequestHandler):
    """`GET /v1/models` and a streamed `POST /v1/chat/completions` answering ANSWER."""

    def log_message(self, *_):
        pass

    def do_GET(self):
        body = json.dumps({"object": "list", "data": [{"id": "mock-model", "object": "model"}]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        words = ANSWER.split(" ")
        for i, word in enumerate(words):
            text = word if i == 0 else " " + word
            chunk = {"id": "c1", "object": "chat.completion.chunk", "model": "mock-model",
                     "choices": [{"index": 0, "delta": {"content": text}, "finish_reason": None}]}
            self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
        done = {"id": "c1", "object": "chat.completion.chunk", "model": "mock-model",
                "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}],
                "usage": {"prompt_tokens": 10, "completion_tokens": 6, "total_tokens": 16}}
        self.wfile.write(f"data: {json.dumps(done)}\n\ndata: [DONE]\n\n".encode())


class Agent:
    def __init__(self, command, env):
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, env=env)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.next_id = 0

    def _read(self):
        for line in self.process.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def send(self, method, params):
        self.next_id += 1
        frame = {"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}
        self.process.stdin.write((json.dumps(frame) + "\n").encode())
        self.process.stdin.flush()
        return self.next_id

    def line(self):
        line = self.lines.get(timeout=TIMEOUT)
        if line is None:
            raise RuntimeError(f"the agent closed stdout (exit {self.process.wait()})")
        return json.loads(line)

    def reply(self, request_id, seen=None):
        while True:
            message = self.line()
            if message.get("id") == request_id and "method" not in message:
                if "error" in message:
                    raise RuntimeError(f"error reply: {message['error']}")
                return message["result"]
            if seen is not None:
                seen.append(message)

    def close(self):
        self.process.stdin.close()
        try:
            return self.process.wait(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise RuntimeError("the agent did not exit after stdin closed")


def initialize(agent):
    params = {"protocolVersion": 1, "clientCapabilities": {
        "fs": {"readTextFile": True, "writeTextFile": True}, "terminal": True,
        "_meta": {"terminal_output": True, "terminal-auth": True}}}
    request = agent.send("initialize", params)
    first = agent.line()  # the registry reads exactly the first stdout line
    if first.get("id") != request or "result" not in first:
        raise RuntimeError(f"first stdout line is not the initialize reply: {first}")
    return first["result"]


def auth_kinds(result):
    kinds = []
    for method in result.get("authMethods", []):
        meta = method.get("_meta") or {}
        kinds.append(method.get("type") or ("terminal" if "terminal-auth" in meta else "agent"))
    return kinds


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runner", default="")
    parser.add_argument("--windows-paths", action="store_true")
    parser.add_argument("binary")
    args = parser.parse_args()
    command = shlex.split(args.runner) + [args.binary]
    spelled = (lambda p: "Z:" + p.replace("/", "\\")) if args.windows_paths else (lambda p: p)
    base_env = {k: v for k, v in os.environ.items() if k in ("PATH", "LANG", "WINEPREFIX", "WINEDEBUG", "TMPDIR")}

    with tempfile.TemporaryDirectory() as empty_home:
        env = dict(base_env, HOME=empty_home, USERPROFILE=spelled(empty_home))
        started = time.monotonic()
        agent = Agent(command, env)
        result = initialize(agent)
        kinds = auth_kinds(result)
        if not {"agent", "terminal"} & set(kinds):
            raise RuntimeError(f"no agent/terminal auth method: {result.get('authMethods')}")
        info = result.get("agentInfo", {})
        status = agent.close()
        print(f"    registry probe: initialize answered on the first stdout line in "
              f"{(time.monotonic() - started) * 1000:.0f} ms ({info.get('name')} {info.get('version')}, "
              f"auth {', '.join(kinds)}); exit {status}")

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), MockProvider)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    with tempfile.TemporaryDirectory() as home, tempfile.TemporaryDirectory() as project:
        hermes = os.path.join(home, ".hermes")
        os.makedirs(hermes)
        with open(os.path.join(hermes, "config.yaml"), "w") as f:
            f.write(f"model:\n  provider: custom\n  base_url: {url}\n  default: mock-model\n")
        env = dict(base_env, HOME=home, USERPROFILE=spelled(home), HERMES_HOME=spelled(hermes))
        agent = Agent(command, env)
        initialize(agent)
        session = agent.reply(agent.send("session/new", {"cwd": spelled(project), "mcpServers": []}))["sessionId"]
        updates = []
        outcome = agent.reply(agent.send("session/prompt", {
            "sessionId": session, "prompt": [{"type": "text", "text": "Say hello."}]}), updates)
        text = "".join(
            u["params"]["update"]["content"].get("text", "")
            for u in updates
            if u.get("method") == "session/update"
            and u["params"]["update"].get("sessionUpdate") == "agent_message_chunk")
        status = agent.close()
        server.shutdown()
        if text != ANSWER or outcome.get("stopReason") != "end_turn":
            raise RuntimeError(f"prompt answered {text!r}, stop reason {outcome.get('stopReason')}")
        print(f"    prompt: session/new + session/prompt against the mock streamed {text!r} "
              f"(stopReason end_turn); exit {status}")


if __name__ == "__main__":
    try:
        main()
    except (RuntimeError, queue.Empty, json.JSONDecodeError, OSError) as e:
        print(f"    FAILED: {e or 'no reply within the timeout'}", file=sys.stderr)
        sys.exit(1)
