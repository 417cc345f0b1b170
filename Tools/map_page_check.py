"""Opens a navgraph map page in Debian's headless chromium through the DevTools protocol and reports what happened.

    python3 Tools/map_page_check.py URL [--screenshot out.png] [--timeout 90] [--click X,Y ...] [--drag-last DX,DY]

Chromium runs with `--remote-debugging-pipe` (no port opened) and resolves no host name but 127.0.0.1. The
script waits in real time (MapLibre's workers stall under --virtual-time-budget) until <body data-status> is
`routed`, `error` or `idle` (fewer than two points) and the map is idle (or reports it has no map). Then it performs
the actions in order, each a real mouse gesture followed by the same wait for the page's next routing request:
`--click X,Y` clicks the page at X,Y; `--drag-last DX,DY` drags the last route point's circle by DX,DY pixels.
It prints one JSON object:
  attributes  the <body> data attributes (status, routes, error, map, map errors, ...)
  alert       the text of the page's error box
  requests    every URL the page requested (from Network.requestWillBeSent)
  exceptions  uncaught JavaScript exceptions and console errors
  timed_out   whether a wait ran out
  url         the page's address at the end (the share URL)
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
          alert: box && !box.hidden ? box.textContent : '', url: location.href};
})()"""

# Page coordinates of the last route point's circle, drawn where the point snapped (the map canvas is offset by
# the side panel).
LAST_POINT = """(() => {
  const circles = (lastGeoJSON ? lastGeoJSON.features : []).filter(f => f.properties.featureType === 'waypoint');
  const last = state.points[state.points.length - 1];
  const at = map.project(circles.length ? circles[circles.length - 1].geometry.coordinates : [last.lon, last.lat]);
  const box = map.getContainer().getBoundingClientRect();
  return [box.left + at.x, box.top + at.y];
})()"""


def wait_settled(tools: DevTools, session: str, deadline: float, after_request: int) -> tuple[dict | None, bool]:
    """Waits until the page has finished a routing request numbered above `after_request` (idle: fewer than two
    points) and the map is idle; returns the page state and whether the wait ran out."""
    state = None
    while time.time() < deadline:
        tools.pump(0.25)
        state = evaluate(tools, session, STATE)
        attributes = (state or {}).get("attributes", {})
        status = attributes.get("data-status")
        requests = int(attributes.get("data-requests") or 0)
        settled = requests > after_request and status in ("routed", "error", "idle")
        map_done = attributes.get("data-map") == "missing" or attributes.get("data-map-idle") == "true"
        if settled and map_done:
            tools.pump(0.5)   # let the last frame reach the screen
            return evaluate(tools, session, STATE), False
    return state, True


def evaluate(tools: DevTools, session: str, expression: str):
    return tools.call("Runtime.evaluate", {"expression": expression, "returnByValue": True},
                      session=session).get("result", {}).get("value")


def mouse(tools: DevTools, session: str, kind: str, x: float, y: float) -> None:
    tools.call("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left",
                                            "buttons": 1 if kind != "mouseReleased" else 0, "clickCount": 1},
               session=session)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("url")
    parser.add_argument("--screenshot")
    parser.add_argument("--timeout", type=float, default=90)
    parser.add_argument("--size", default="1280x800")
    parser.add_argument("--click", action="append", default=[], help="X,Y in page pixels")
    parser.add_argument("--drag-last", help="DX,DY: drag the last route point by this many pixels")
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
        state, result["timed_out"] = wait_settled(tools, session, deadline, -1)
        actions = [("click", c) for c in args.click] + ([("drag", args.drag_last)] if args.drag_last else [])
        for kind, value in actions:
            if result["timed_out"]:
                break
            before = int((state or {}).get("attributes", {}).get("data-requests") or 0)
            a, b = (float(v) for v in value.split(","))
            if kind == "click":
                mouse(tools, session, "mousePressed", a, b)
                mouse(tools, session, "mouseReleased", a, b)
            else:
                x, y = evaluate(tools, session, LAST_POINT)
                mouse(tools, session, "mouseMoved", x, y)
                mouse(tools, session, "mousePressed", x, y)
                for step in range(1, 11):
                    mouse(tools, session, "mouseMoved", x + a * step / 10, y + b * step / 10)
                mouse(tools, session, "mouseReleased", x + a, y + b)
            state, result["timed_out"] = wait_settled(tools, session, deadline, before)
        result.update(state or {"attributes": {}, "alert": "", "url": ""})
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
