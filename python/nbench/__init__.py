# SPDX-License-Identifier: BSD-3-Clause
"""Client of dpdk-nbench --serve's API: JSON-RPC 2.0, one object a line,
over a Unix socket or TCP (with the key proof).  Standard library only.

    with Client("unix:/run/dpdk-nbench/gen.sock") as c:
        doc = c.run(time=1, rate="1G")   # the CLI's --json document

Options are the CLI's long names; in Python keywords '_' stands for '-'
(tx_checksum= is --tx-checksum).  Errors raise NbenchError (or a subclass)
with the server's message.
"""
import hashlib
import hmac
import json
import socket

API_VERSION = "1.0"

__all__ = ["Client", "NbenchError", "VersionMismatch", "Busy",
           "BadParams", "AuthError", "API_VERSION"]


class NbenchError(Exception):
    """The server's error: .code (JSON-RPC) and .message."""

    def __init__(self, code, message):
        super().__init__("%s (code %d)" % (message, code))
        self.code = code
        self.message = message


class VersionMismatch(NbenchError):
    """The server speaks another API major version."""


class Busy(NbenchError):
    """A test runs already (one at a time)."""


class BadParams(NbenchError):
    """A bad option: the CLI's own message."""


class AuthError(NbenchError):
    """No key, or a wrong one."""


_ERRORS = {-32001: VersionMismatch, -32002: Busy, -32602: BadParams,
           -32005: AuthError}


def _raise(err):
    """The server's error as its exception."""
    raise _ERRORS.get(err["code"], NbenchError)(err["code"], err["message"])


def _options(kw):
    return {k.replace("_", "-"): v for k, v in kw.items()}


def _read_key(key):
    if key is None or isinstance(key, (bytes, bytearray)):
        return key
    with open(key, "rb") as f:
        data = f.read()
    return data[:-1] if data.endswith(b"\n") else data


class Client:
    """address: "unix:PATH", a path, "tcp:HOST:PORT" or (host, port).
    key: the server's --auth-key, as bytes or the key file's path."""

    def __init__(self, address, key=None, timeout=None):
        if isinstance(address, tuple):
            fam, addr = socket.AF_INET, address
        elif address.startswith("tcp:"):
            host, port = address[4:].rsplit(":", 1)
            fam, addr = socket.AF_INET, (host, int(port))
        else:
            fam = socket.AF_UNIX
            addr = address[5:] if address.startswith("unix:") else address
        self.sock = socket.socket(fam, socket.SOCK_STREAM)
        self.sock.settimeout(timeout)
        self.sock.connect(addr)
        self._f = self.sock.makefile("rb")
        self._id = 0
        hello = self._read()
        p = hello.get("params", {})
        self.server_api = p.get("api_version", "?")
        if self.server_api.split(".")[0] != API_VERSION.split(".")[0]:
            self.close()
            raise VersionMismatch(
                -32001, "API version mismatch: this client speaks %s, the "
                "server %s" % (API_VERSION, self.server_api))
        if p.get("auth") == "hmac-sha256":
            k = _read_key(key)
            if k is None:
                self.close()
                raise AuthError(-32005, "the server asks for its key: "
                                "give key=")
            proof = hmac.new(k, b"nbench-api" + bytes.fromhex(p["nonce"]),
                             hashlib.sha256).hexdigest()
            try:
                self.call("auth", proof=proof)
            except NbenchError:
                self.close()
                raise

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        try:
            self._f.close()
            self.sock.close()
        except OSError:
            pass

    def _read(self):
        line = self._f.readline()
        if not line:
            raise ConnectionError("the server closed the connection")
        return json.loads(line)

    def _send(self, method, params):
        self._id += 1
        req = {"jsonrpc": "2.0", "id": self._id, "method": method,
               "nbench_api": API_VERSION}
        if params:
            req["params"] = params
        self.sock.sendall((json.dumps(req) + "\n").encode())
        return self._id

    def _answer(self, rid, on_event=None):
        while True:
            m = self._read()
            if "id" not in m:   # a notification (an event)
                if on_event is not None:
                    on_event(m.get("params"))
                continue
            if m["id"] != rid:
                continue
            if "error" in m:
                _raise(m["error"])
            return m["result"]

    def call(self, method, **params):
        """Any method; its result, or NbenchError."""
        return self._answer(self._send(method, params))

    def version(self):
        return self.call("version")

    def ports(self):
        return self.call("ports")["ports"]

    def run(self, **options):
        """A test to its end: the --json document (an "error" key in it
        when the test failed)."""
        return self._answer(self._send("run", _options(options)))

    def suite(self, **options):
        """A suite (test= names it: throughput, latency, ...) to its end:
        its document (suite.results, suite.trials)."""
        return self._answer(self._send("suite", _options(options)))

    def start(self, **options):
        """A test started: its run id."""
        return self._answer(self._send("start", _options(options)))["run"]

    def status(self):
        return self.call("status")

    def stop(self):
        """Stops the running test: its document (end.interrupted true)."""
        return self.call("stop")

    def result(self, wait=False):
        return self.call("result", wait=wait)

    def intervals(self, start=0):
        """The running (or last) test's JSON-lines events, from index
        start, as they come: dicts with run, index, event, data."""
        rid = self._send("intervals", {"from": start})
        while True:
            m = self._read()
            if "id" not in m:
                yield m["params"]
                continue
            if m["id"] != rid:
                continue
            if "error" in m:
                _raise(m["error"])
            return

    def shutdown(self):
        return self.call("shutdown")
