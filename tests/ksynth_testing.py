"""What the Python test runners share: the source root, running a command under a time
limit, named checks that print as they go and end in a summary and an exit status, and the
reply of a scripted HTTP server."""
import json
import os
import subprocess
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(cmd, timeout=600, env=None):
    """Runs cmd: (exit status, stdout, stderr, seconds)."""
    t0 = time.time()
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
    return p.returncode, p.stdout, p.stderr, time.time() - t0


def send_json(handler, obj, status=200):
    """A scripted server's reply (an http.server request handler): `obj` as a JSON body."""
    out = json.dumps(obj).encode()
    handler.send_response(status)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Content-Length", str(len(out)))
    handler.end_headers()
    handler.wfile.write(out)


class Checks:
    """check(name, cond, detail) records and prints one check; summary() prints the failures
    and returns the exit status (0 when every check held)."""

    def __init__(self, detail_limit=3000):
        self.failures = []
        self.count = 0
        self.detail_limit = detail_limit

    def check(self, name, cond, detail=""):
        self.count += 1
        if not cond:
            self.failures.append(f"{name}: {str(detail)[:self.detail_limit]}")
        print(("ok   " if cond else "FAIL ") + name, flush=True)
        return bool(cond)

    def summary(self):
        if self.failures:
            print(f"\n{len(self.failures)} failure(s) of {self.count} check(s):")
            for f in self.failures:
                print("  " + f)
            return 1
        print(f"\nall {self.count} check(s) passed")
        return 0
