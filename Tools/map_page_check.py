"""Opens a navgraph map page in Debian's headless chromium through the DevTools protocol and reports what happened.

    python3 Tools/map_page_check.py URL [--screenshot out.png] [--timeout 90]

Chromium runs with `--remote-debugging-pipe` (no port opened) and resolves no host name but 127.0.0.1. The
script waits in real time (MapLibre's workers stall under --virtual-time-budget) until <body data-status> is
`routed` or `error` and the map is idle (or reports it has no map), then prints one JSON object:
  attributes  the <body> data attributes (status, routes, error, map, map errors, ...)
  alert       the text of the page's error box
  requests    every URL the page requested (from Network.requestWillBeSent)
  exceptions  uncaught JavaScript exceptions and console errors
  timed_out   whether the wait ran out
Used by the Swift browser tests (Tests/NavGraphTests/MapPageBrowserTests.swift); exits 2 when chromium fails.
"""
from __future__ import annotations

import argparse
import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time


class DevTools:
    """A CDP session over chromium's pipe: fd 3 carries commands to it, fd 4 events and replies back."""

    def __init__(self, chromium: str, profile: str, width: int, height: int):
        to_child_read, self._write = os.pipe()
        self._read, from_child_write = os.pipe()

        def wire():
            # Copies first, so neither pipe end is overwritten by the other's dup2.
            commands, replies = os.dup(to_child_read), os.dup(from_child_write)
            os.dup2(commands, 3)
            os.dup2(replies, 4)

        self.process = subprocess.Popen(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu-sandbox", "--hide-scrollbars", "--no-first-run",
             "--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--ignore-gpu-blocklist",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
             f"--user-data-dir={profile}", f"--window-size={width},{height}", "--remote-debugging-pipe", "about:blank"],
            pass_fds=(3, 4, to_child_read, from_child_write), preexec_fn=wire,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_child_read)
        os.close(from_child_write)
        self._buffer = b""
        self._next_id = 0
        self.events: list[dict] = []

    def _receive(self, deadline: float) -> dict | None:
        while b"\0" not in self._buffer:
            remaining = deadline - time.time()
            if remaining <= 0:
                return None
            import select
            ready, _, _ = select.select([self._read], [], [], min(remaining, 0.5))
            if ready:
                chunk = os.read(self._read, 1 << 20)
                if not chunk:
                    raise RuntimeError("chromium closed the DevTools pipe")
                self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)

    def call(self, method: str, params: dict | None = None, session: str | None = None, timeout: float = 30) -> dict:
        self._next_id += 1
        message = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self._write, json.dumps(message).encode() + b"\0")
        deadline = time.time() + timeout
        while True:
            reply = self._receive(deadline)
            if reply is None:
                raise RuntimeError(f"no reply to {method} within {timeout} s")
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def pump(self, seconds: float) -> None:
        deadline = time.time() + seconds
        while True:
            event = self._receive(deadline)
            if event is None:
                return
            self.events.append(event)

    def close(self) -> None:
        try:
            self.call("Browser.close", timeout=5)
        except Exception:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


STATE = """(() => {
  const b = document.body;
  if (!b) return null;
  const box = document.getElementById('error');
  return {attributes: Object.fromEntries([...b.attributes].map(a => [a.name, a.value])),
          alert: box && !box.hidden ? box.textContent : ''};
})()"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("url")
    parser.add_argument("--screenshot")
    parser.add_argument("--timeout", type=float, default=90)
    parser.add_argument("--size", default="1280x800")
    args = parser.parse_args()
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        print("map_page_check: no chromium", file=sys.stderr)
        return 2
    width, height = (int(v) for v in args.size.split("x"))
    profile = tempfile.mkdtemp(prefix="navgraph-map-page-")
    tools = DevTools(chromium, profile, width, height)
    result: dict = {"timed_out": False}
    try:
        target = tools.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = tools.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Network", "Runtime"):
            tools.call(f"{domain}.enable", session=session)
        tools.call("Emulation.setDeviceMetricsOverride",
                   {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False}, session=session)
        tools.call("Page.navigate", {"url": args.url}, session=session)
        deadline = time.time() + args.timeout
        state = None
        while time.time() < deadline:
            tools.pump(0.25)
            value = tools.call("Runtime.evaluate", {"expression": STATE, "returnByValue": True}, session=session)
            state = value.get("result", {}).get("value")
            attributes = (state or {}).get("attributes", {})
            settled = attributes.get("data-status") in ("routed", "error")
            map_done = attributes.get("data-map") == "missing" or attributes.get("data-map-idle") == "true"
            if settled and map_done:
                tools.pump(0.5)   # let the last frame reach the screen
                state = tools.call("Runtime.evaluate", {"expression": STATE, "returnByValue": True},
                                   session=session).get("result", {}).get("value")
                break
        else:
            result["timed_out"] = True
        result.update(state or {"attributes": {}, "alert": ""})
        if args.screenshot:
            shot = tools.call("Page.captureScreenshot", {"format": "png"}, session=session)
            with open(args.screenshot, "wb") as out:
                out.write(base64.b64decode(shot["data"]))
        result["requests"] = [e["params"]["request"]["url"] for e in tools.events
                              if e.get("method") == "Network.requestWillBeSent"]
        exceptions = []
        for e in tools.events:
            if e.get("method") == "Runtime.exceptionThrown":
                details = e["params"]["exceptionDetails"]
                exceptions.append((details.get("exception") or {}).get("description") or details.get("text"))
            elif e.get("method") == "Runtime.consoleAPICalled" and e["params"].get("type") == "error":
                exceptions.append(" ".join(str(a.get("value", a.get("description", ""))) for a in e["params"]["args"]))
        result["exceptions"] = exceptions
    finally:
        tools.close()
        shutil.rmtree(profile, ignore_errors=True)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
