"""A headless Chromium driven over the DevTools protocol on a pipe: no driver, no websocket.

Chromium started with ``--remote-debugging-pipe`` reads protocol messages (JSON, each ended by
a NUL byte) on file descriptor 3 and writes its answers and events on descriptor 4. That is all
a test needs to load a page at a given viewport, run a script in it and take a screenshot.
"""

import base64
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time

FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--disable-dev-shm-usage",
    "--hide-scrollbars",
    "--mute-audio",
]


def find_chromium():
    """The Chromium executable (Debian's ``chromium`` package), or None."""
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


class BrowserError(RuntimeError):
    pass


class Chromium:
    """One headless Chromium with a fresh profile; use as a context manager."""

    def __init__(self, executable, *, timeout=60.0):
        self.executable = executable
        self.timeout = timeout
        self._id = 0
        self._buffer = b""
        self._events = []

    def __enter__(self):
        self._profile = tempfile.mkdtemp(prefix="sklearn-fair-chromium-")
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()
        # Chromium wants the pipe on descriptors 3 and 4: a Python trampoline puts it there
        # and execs the browser (Debian's launcher, a shell script, passes them on).
        trampoline = (
            "import os, sys; os.dup2(int(sys.argv[1]), 3); os.dup2(int(sys.argv[2]), 4); "
            "os.execv(sys.argv[3], sys.argv[3:])"
        )
        command = [
            sys.executable,
            "-c",
            trampoline,
            str(to_browser_r),
            str(from_browser_w),
            self.executable,
            *FLAGS,
            "--remote-debugging-pipe",
            f"--user-data-dir={self._profile}",
            "about:blank",
        ]
        self._process = subprocess.Popen(
            command,
            pass_fds=(to_browser_r, from_browser_w),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        os.close(to_browser_r)
        os.close(from_browser_w)
        try:
            targets = self.call("Target.getTargets")["targetInfos"]
            page = next(t for t in targets if t["type"] == "page")
            self._session = self.call(
                "Target.attachToTarget", targetId=page["targetId"], flatten=True
            )["sessionId"]
            self.call("Page.enable", session=True)
            self.call("Runtime.enable", session=True)
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def __exit__(self, *exc):
        try:
            self.call("Browser.close")
        except Exception:
            pass
        try:
            self._process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        for fd in (self._to_browser, self._from_browser):
            try:
                os.close(fd)
            except OSError:
                pass
        if self._process.stderr is not None:
            self._process.stderr.close()
        shutil.rmtree(self._profile, ignore_errors=True)

    # -- the protocol --------------------------------------------------------------------

    def _send(self, message):
        data = json.dumps(message).encode() + b"\0"
        while data:
            data = data[os.write(self._to_browser, data) :]

    def _receive(self, deadline):
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise BrowserError("Chromium did not answer in time")
            ready, _, _ = select.select([self._from_browser], [], [], left)
            if not ready:
                continue
            chunk = os.read(self._from_browser, 1 << 20)
            if not chunk:
                error = self._process.stderr.read().decode(errors="replace")[-2000:]
                raise BrowserError(f"Chromium closed the pipe:\n{error}")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)

    def call(self, method, *, session=False, **params):
        """Send one command and return its result (events that arrive meanwhile are kept)."""
        self._id += 1
        message = {"id": self._id, "method": method, "params": params}
        if session:
            message["sessionId"] = self._session
        self._send(message)
        deadline = time.monotonic() + self.timeout
        while True:
            answer = self._receive(deadline)
            if answer.get("id") == self._id:
                if "error" in answer:
                    raise BrowserError(f"{method}: {answer['error']}")
                return answer.get("result", {})
            self._events.append(answer)

    def wait_for(self, event):
        deadline = time.monotonic() + self.timeout
        while True:
            for index, message in enumerate(self._events):
                if message.get("method") == event:
                    return self._events.pop(index)
            self._events.append(self._receive(deadline))

    # -- what a test does ----------------------------------------------------------------

    def open(self, url, *, width, height, mobile=False, scale=1):
        """Load ``url`` at a ``width`` x ``height`` viewport and wait for its load event."""
        self.call(
            "Emulation.setDeviceMetricsOverride",
            session=True,
            width=width,
            height=height,
            deviceScaleFactor=scale,
            mobile=mobile,
        )
        self._events.clear()
        self.call("Page.navigate", session=True, url=url)
        self.wait_for("Page.loadEventFired")

    def evaluate(self, expression):
        """The value of a JavaScript expression (a promise is awaited)."""
        result = self.call(
            "Runtime.evaluate",
            session=True,
            expression=expression,
            returnByValue=True,
            awaitPromise=True,
        )
        if "exceptionDetails" in result:
            raise BrowserError(json.dumps(result["exceptionDetails"])[:2000])
        return result["result"].get("value")

    def screenshot(self, path, *, full_page=True):
        """Save a PNG of the page (the whole page by default) to ``path``."""
        params = {"format": "png"}
        if full_page:
            metrics = self.call("Page.getLayoutMetrics", session=True)
            size = metrics["cssContentSize"]
            params["clip"] = {
                "x": 0,
                "y": 0,
                "width": size["width"],
                "height": size["height"],
                "scale": 1,
            }
            params["captureBeyondViewport"] = True
        data = self.call("Page.captureScreenshot", session=True, **params)["data"]
        with open(path, "wb") as file:
            file.write(base64.b64decode(data))
        return path
