# SPDX-License-Identifier: BSD-3-Clause
"""The command line's bad-input table: every usage error exits 2 before EAL
starts (no "EAL:" line, no hugepages, no device), names the option or the
token, and creates nothing (--logfile).  Plus invocations that parse."""
import json
import os
import shutil
import subprocess
import tempfile
import time
import unittest

import nbe2e

MAC = "02:00:00:00:00:02"
MAC2 = "02:00:00:00:00:01"


def run(argv, timeout=15):
    t0 = time.monotonic()
    p = subprocess.run([nbe2e.BIN] + argv, capture_output=True, text=True,
                       timeout=timeout)
    p.elapsed = time.monotonic() - t0
    return p


def eal():
    """EAL arguments that make a run fail at once if EAL ever started (no
    such hugepage directory), in a prefix of its own, touching no NIC."""
    return ["--no-pci", "--file-prefix", nbe2e.unique("cli"),
            "--huge-dir", "/nonexistent/nbcli-hugepages"]


class Cli(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        if not nbe2e.BIN or not os.access(nbe2e.BIN, os.X_OK):
            raise AssertionError("NBENCH_BIN is not set to the built "
                                 "dpdk-nbench")
        cls.tmp = tempfile.mkdtemp(prefix="nbcli")
        cls.files = {}

        def put(name, data, mode=0o600):
            path = os.path.join(cls.tmp, name)
            with open(path, "wb") as f:
                f.write(data)
            os.chmod(path, mode)
            cls.files[name] = path
            return path

        put("key", b"0123456789abcdef0123456789abcdef\n")
        put("short.key", b"0123456789abcdef0123456789abcde\n")
        put("empty.key", b"")
        put("big.key", b"k" * 1025)
        put("bogus.ini", b"[x]\nbogus = 1\n")
        put("help.ini", b"help = true\n")
        put("badrate.ini", b"tx-port = 0\nrx-port = 1\nrate = fast\n")
        put("resprate.ini", b"; a responder's file with a test option\n"
            b"rate = 1G\n")
        put("allow.ini", b"[policy]\nallow = 10.0.0.1/8\n")
        put("twice.ini", b"max-time = 1\nmax-time = 2\n")
        put("json.ini", b"json = maybe\n")
        put("syntax.ini", b"rate = 1G\n--rate 2G\n")
        put("authdir.ini", b"auth-key = %s\n" % cls.tmp.encode())

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def cases(self):
        f, d = self.files, self.tmp
        many = ",".join("10.0.0.%d" % i for i in range(1, 33))
        return [
            # values
            (["--rate", "10X"], "'10X'"),
            (["--rate", "0"], "above 0"),
            (["--rate", "101%"], "at most 100"),
            (["--rate", "1e99"], "10 Tbit/s"),
            (["--rate", "11Gpps"], "10 Gpps"),
            (["--size", "63"], "'63'"),
            (["--size", "9001"], "'9001'"),
            (["--proto", "sctp"], "'sctp'"),
            (["--streams", "0"], "--streams"),
            (["--vlan", "4095"], "'4095'"),
            (["--time"], "--time"),
            (["--time", "1e-9"], "0.1 s"),
            (["-t0.01"], "0.1 s"),
            (["--time", "2592001"], "--time"),
            (["--omit", "0.01"], "--omit"),
            (["--packets", "0"], "--packets"),
            (["--packets", "18446744073709551615"], "--packets"),
            (["--bytes", "18446744073709551615"], "--bytes"),
            (["--bytes", "1T"], "'1T'"),
            (["--queues", "17"], "--queues"),
            (["--rxd", "63"], "--rxd"),
            (["--link-timeout", "601"], "--link-timeout"),
            (["--interval", "0.05"], "--interval"),
            (["--format", "x"], "--format"),
            (["--peer", "02:00:00:00:00"], "--peer"),
            (["--port", "32"], "--port"),
            (["--latency-rate", "2M"], "--latency-rate"),
            (["--peer-timeout", "0.05"], "--peer-timeout"),
            (["--max-time", "0"], "--max-time"),
            (["--max-time", "2592001"], "--max-time"),
            (["--max-rate", "max"], "absolute"),
            (["--max-rate", "50%"], "absolute"),
            (["--max-rate", "0"], "--max-rate"),
            # syntax
            (["--bogus"], "--bogus"),
            (["positional"], "positional"),
            (["--list-ports="], "'--list-ports' takes no value"),
            (["--json=1"], "'--json' takes no value"),
            (["-RJ"], "'-R' takes no value"),
            (["-z5"], "-z5"),
            (["--rate", "1G", "--rate", "2G"], "given twice"),
            (["-b1G", "--rate", "2G"], "--rate' given twice"),
            (["--json", "--csv"], "--csv"),
            (["--quiet", "--json"], "--quiet"),
            # modes
            (["--rate", "10G"], "--rate is a test option"),
            (["-b1G"], "--rate is a test option"),
            (["--time", "5"], "--time is a test option"),
            (["--interval", "2"], "--interval is a test option"),
            (["--tx-port", "0", "--rx-port", "1", "--max-streams", "4"],
             "--max-streams is for the responder"),
            (["--tx-port", "0", "--rx-port", "1", "--one-off"],
             "--one-off is for the responder"),
            (["--peer", MAC, "--src-mac", MAC2], "--src-mac"),
            (["--peer", MAC, "--max-rate", "1G"], "--max-rate"),
            (["--peer", MAC, "--allow", "10.0.0.1"], "--allow"),
            (["--peer", MAC, "--allow-quit"], "--allow-quit"),
            (["--peer", MAC, "--reflector", "--reverse"], "--reverse"),
            (["--peer", MAC, "--reflector", "--auth-key", f["key"]],
             "--auth-key"),
            (["--peer", "198.19.0.1", "--reflector"], "--reflector"),
            (["--reflector"], "--reflector"),
            (["--list-ports", "--rate", "1G"], "--rate"),
            (["--list-ports", "--tx-port", "0"], "--list-ports"),
            (["--tx-port", "0"], "--rx-port"),
            (["--tx-port", "0", "--rx-port", "0"], "port 0"),
            (["--reverse"], "--peer"),
            (["--peer", MAC, "--reverse", "--bidir"], "--bidir"),
            (["--tx-port", "0", "--rx-port", "1", "--auth-key", f["key"]],
             "--auth-key"),
            (["--tx-port", "0", "--rx-port", "1", "--allow-quit"],
             "--allow-quit"),
            # --auth-key
            (["--auth-key", "/nonexistent/nb.key"], "/nonexistent/nb.key"),
            (["--auth-key", d], "not a regular file"),
            (["--auth-key", f["key"], "--no-auth"],
             "--no-auth and --auth-key exclude each other"),
            (["--auth-key", f["short.key"]],
             "holds 31 bytes; a key is at least 32 random bytes"),
            (["--auth-key", f["empty.key"]], "holds 0 bytes"),
            (["--auth-key", f["big.key"]], "more than 1024 bytes"),
            (["--auth-key", ""], "--auth-key"),
            (["--auth-key", f["key"], "--auth-key", f["key"]],
             "given twice"),
            # --allow
            (["--allow", "10.0.0.1/8"], "did you mean 10.0.0.0/8"),
            (["--allow", "ff:ff:ff:ff:ff:ff"], "broadcast"),
            (["--allow", "01:00:5e:00:00:01"], "multicast"),
            (["--allow", "00:00:00:00:00:00"], "zero"),
            (["--allow", "10.0.0.0/33"], "0..32"),
            (["--allow", "host.example"], "host.example"),
            (["--allow", "10.0.0.1,,10.0.0.2"], "--allow"),
            (["--allow", many, "--allow", "10.0.1.1"], "more than 32"),
            # config files
            (["--config", d], "directory"),
            (["--config", "/nonexistent/nb.ini"], "/nonexistent/nb.ini"),
            (["--config", f["bogus.ini"]], "unknown key 'bogus'"),
            (["--config", f["help.ini"]], "command line only"),
            (["--config", f["badrate.ini"]], "key 'rate'"),
            (["--config", f["resprate.ini"]], "--rate is a test option"),
            (["--config", f["allow.ini"]], "did you mean 10.0.0.0/8"),
            (["--config", f["twice.ini"]], "key 'max-time' given twice"),
            (["--config", f["json.ini"]], "key 'json'"),
            (["--config", f["syntax.ini"]], "syntax error"),
            (["--config", f["authdir.ini"]], "key 'auth-key'"),
        ]

    def check_usage_error(self, argv, frag):
        p = run(argv)
        msg = "%s -> rc %s\n%s" % (" ".join(argv), p.returncode, p.stderr)
        self.assertEqual(p.returncode, 2, msg)
        self.assertIn(frag, p.stderr, msg)
        self.assertTrue(p.stderr.startswith("dpdk-nbench: "), msg)
        # before EAL: no EAL line, no hugepages needed, and at once
        self.assertNotIn("EAL:", p.stderr, msg)
        self.assertLess(p.elapsed, 5, msg)

    def test_bad_invocations(self):
        cases = self.cases()
        self.assertGreaterEqual(len(cases), 60)
        for args, frag in cases:
            with self.subTest(args=args):
                self.check_usage_error(eal() + ["--"] + args, frag)

    def test_missing_dashdash(self):
        """A tool option among EAL's: named before EAL starts."""
        cases = [
            (["--no-pci", "--rate", "1G"], "did you forget '--'"),
            (["--vdev", "net_null0", "--tx-port", "0", "--rx-port", "1"],
             "'--tx-port' is a dpdk-nbench option"),
            (["--json", "--vdev", "net_null0"], "'--json'"),
            (["--no-pci", "--list-ports"], "did you forget '--'"),
            (["--no-pci", "--peer=" + MAC], "'--peer=" + MAC + "'"),
            (["--no-pci", "--rate", "1G", "--", "--tx-port", "0",
              "--rx-port", "1"], "put it after '--'"),
        ]
        for args, frag in cases:
            with self.subTest(args=args):
                self.check_usage_error(eal() + args, frag)

    def test_logfile_not_created_on_usage_error(self):
        log = os.path.join(self.tmp, "never.log")
        for args in (["--tx-port", "0", "--rx-port", "0"],
                     ["--rate", "10G"],
                     ["--peer", MAC, "--max-rate", "1G"]):
            with self.subTest(args=args):
                self.check_usage_error(
                    eal() + ["--"] + args + ["--logfile", log], "")
                self.assertFalse(os.path.exists(log))

    def test_json_error_document(self):
        p = run(eal() + ["--", "--json", "--rate", "10G"])
        self.assertEqual(p.returncode, 2, p.stderr)
        doc = nbe2e.loads(p.stdout)
        self.assertIn("--rate is a test option", doc["error"])

    def test_auth_key_open_to_others_is_refused(self):
        """A key file any group or other bit is set on: a usage error that
        says how to fix it (as ssh refuses such a private key); the same
        key at mode 0600 parses."""
        for mode in (0o644, 0o640, 0o604, 0o620, 0o602, 0o610):
            with self.subTest(mode=oct(mode)):
                path = os.path.join(self.tmp, "loose%o.key" % mode)
                with open(path, "w") as f:
                    f.write("0123456789abcdef0123456789abcdef\n")
                os.chmod(path, mode)
                # --help ends the run after the options parsed (no EAL)
                p = run(["--", "--auth-key", path, "--help"])
                self.assertEqual(p.returncode, 2, p.stderr)
                self.assertIn("key file %s is open to group or others "
                              "(mode %03o): chmod 600 %s"
                              % (path, mode, path), p.stderr)
        p = run(["--", "--auth-key", self.files["key"], "--help"])
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertNotIn("warning", p.stderr)

    def test_good_invocations_parse(self):
        """These parse (checked by --help, which stops before EAL)."""
        k = self.files["key"]
        for args in (["-b1G", "-t5", "-P4", "-l1518"],
                     ["--allow", "10.0.0.0/8", "--allow",
                      "02:00:00:00:00:07,198.18.0.1"],
                     ["--max-rate", "14.88Mpps", "--max-time", "60",
                      "--allow-quit", "--auth-key", k],
                     ["--rate", "10000G", "--bytes", "1048576G"]):
            with self.subTest(args=args):
                p = run(["--"] + args + ["--help"])
                self.assertEqual(p.returncode, 0, p.stderr)
                self.assertIn("Responder policy:", p.stdout)

    def test_version_first_or_after_dashdash(self):
        for argv in (["-V"], ["--version"], ["--", "-V"],
                     ["--", "--version"], eal() + ["--", "-V"]):
            with self.subTest(argv=argv):
                p = run(argv)
                self.assertEqual(p.returncode, 0, p.stderr)
                self.assertTrue(p.stdout.startswith("dpdk-nbench "))
                self.assertIn("DPDK", p.stdout)


if __name__ == "__main__":
    nbe2e.main()
