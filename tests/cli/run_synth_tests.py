#!/usr/bin/env python3
"""End-to-end tests of `ksynth --spec SPEC.smt --prove` (the synthesis loop) as a user runs
it: the bundled offline replay of authored fixtures, exit codes, the run directory, --json,
--quiet, replay that runs out or diverges, the missing-key error, and --resume after the
process was killed between rounds while talking to a scripted model over real HTTP on
loopback (Anthropic Messages wire format). Every model reply here is written by hand."""
import argparse, http.server, json, os, shutil, signal, subprocess, sys, tempfile, threading, time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SPECS = os.path.join(ROOT, "specs")
FIXTURES = os.path.join(ROOT, "synth", "fixtures")
failures = []


def check(name, cond, detail=""):
    if not cond:
        failures.append(f"{name}: {detail}")
    print(("ok   " if cond else "FAIL ") + name)


def clean_env(**extra):
    env = {k: v for k, v in os.environ.items()
           if k not in ("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "ANTHROPIC_BASE_URL", "OPENAI_BASE_URL")}
    env.update(extra)
    return env


def run(ks, *args, env=None, timeout=300):
    t0 = time.time()
    p = subprocess.run([ks, *args], capture_output=True, text=True, timeout=timeout, env=env or clean_env())
    return p.returncode, p.stdout, p.stderr, time.time() - t0


def keys(j):
    """Every key of a JSON value, at any depth (the fixture must hold no verdict field)."""
    if isinstance(j, dict):
        for k, v in j.items():
            yield k
            yield from keys(v)
    elif isinstance(j, list):
        for v in j:
            yield from keys(v)


def exchanges(path):
    recs = [json.loads(l) for l in open(path) if l.strip()]
    return [r for r in recs if r.get("type") == "exchange"]


def kernel(body, launch="grid=((N + 255) / 256) block=(256)"):
    return ("```cuda\n// ksynth:launch " + launch + "\n"
            "__global__ void vec_add(const float *A, const float *B, float *C, int N) {\n" + body + "}\n```\n")


RACY = kernel("  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += blockDim.x)\n    C[i] = A[i] + B[i];\n")
OOB = kernel("  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  C[i] = A[i] + B[i];\n")
GOOD = kernel("  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < N)\n    C[i] = A[i] + B[i];\n")


class Model(http.server.BaseHTTPRequestHandler):
    """A scripted Anthropic Messages server: answers each request with the next reply of
    `script`; the reply None holds the request until the test lets it go (or kills the client)."""
    script, received, lock = [], [], threading.Lock()
    release = threading.Event()

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        with Model.lock:
            Model.received.append(json.loads(body))
            text = Model.script.pop(0) if Model.script else "no more scripted replies"
        if text is None:
            Model.release.wait(30)
            return
        if isinstance(text, tuple):  # (seconds, text): answer late
            time.sleep(text[0])
            text = text[1]
        out = json.dumps({"id": "msg_test", "type": "message", "role": "assistant", "model": "scripted-test-model",
                          "content": [{"type": "text", "text": text}], "stop_reason": "end_turn",
                          "usage": {"input_tokens": 100, "output_tokens": 50}}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(out)))
        self.end_headers()
        self.wfile.write(out)

    def log_message(self, *a):
        pass


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ksynth", required=True)
    ks = ap.parse_args().ksynth
    tmp = tempfile.mkdtemp()

    # No key and no provider: the error names the variables and the offline option.
    rc, out, err, _ = run(ks, "--spec", os.path.join(SPECS, "vec_add.smt"), "--prove", "--out", os.path.join(tmp, "nokey"))
    check("no key, no provider: exit 64", rc == 64, f"rc={rc} {err}")
    check("no key: names ANTHROPIC_API_KEY, OPENAI_API_KEY and --provider replay",
          "ANTHROPIC_API_KEY" in err and "OPENAI_API_KEY" in err and "--provider replay" in err, err)
    rc, _, err, _ = run(ks, "--spec", os.path.join(SPECS, "vec_add.smt"), "--prove", "--provider", "anthropic",
                        "--out", os.path.join(tmp, "nokey2"))
    check("--provider anthropic without a key: exit 64 naming the variable", rc == 64 and "ANTHROPIC_API_KEY" in err, err)
    rc, _, err, _ = run(ks, "--spec", os.path.join(SPECS, "vec_add.smt"))
    check("--spec without --prove is a usage error", rc == 64 and "--prove" in err, err)
    rc, _, err, _ = run(ks, "--spec", os.path.join(SPECS, "vec_add.smt"), "--prove", "--rounds", "0")
    check("--rounds 0 is a usage error", rc == 64, err)
    bad = os.path.join(tmp, "bad.smt")
    open(bad, "w").write("(spec broken (dims N)\n")
    rc, _, err, _ = run(ks, "--spec", bad, "--prove", "--provider", "replay")
    check("malformed spec: exit 65 with file:line:col", rc == 65 and "bad.smt:" in err, err)

    # The bundled offline default: three specs, race -> edge bug -> proven, verdicts computed.
    for spec, edge in (("vec_add", "bounds"), ("row_sum", "bounds"), ("matmul_tiled", "bounds")):
        d = os.path.join(tmp, "demo-" + spec)
        rc, out, err, secs = run(ks, "--spec", os.path.join(SPECS, spec + ".smt"), "--prove", "--provider", "replay",
                                 "--out", d)
        print(f"     {spec}: {secs:.1f} s wall")
        check(f"{spec} replay: exit 0 (proven)", rc == 0, f"rc={rc}\n{out}\n{err}")
        rep = json.load(open(os.path.join(d, "report.json")))
        verdicts = [r.get("verdict") for r in rep["rounds"]]
        check(f"{spec} replay: refuted, refuted, proven", verdicts == ["refuted", "refuted", "proven"], verdicts)
        r1 = json.load(open(os.path.join(d, "round-1", "report.json")))
        r2 = json.load(open(os.path.join(d, "round-2", "report.json")))
        st = lambda rep, kind: {o["status"] for o in rep["kernels"][0]["obligations"] if o["kind"] == kind}
        check(f"{spec} round 1: a race is refuted (computed by the verifier)", "refuted" in st(r1, "race"), st(r1, "race"))
        check(f"{spec} round 2: race-free, {edge} refuted", st(r2, "race") == {"proven"} and "refuted" in st(r2, edge),
              (st(r2, "race"), st(r2, edge)))
        check(f"{spec} replay: progress lines", "round 1  candidate 1" in out and "round 3  candidate 3" in out
              and "proven kernel: " in out and "written by hand" in out, out)
        check(f"{spec} replay: kernel.cu is round 3's candidate",
              open(os.path.join(d, "kernel.cu")).read() == open(os.path.join(d, "round-3", "candidate.cu")).read())
        ex = exchanges(os.path.join(d, "transcript.jsonl"))
        check(f"{spec} replay: 3 replayed exchanges in the run's transcript",
              len(ex) == 3 and all(e.get("provider") == "replay" for e in ex), len(ex))
        check(f"{spec} replay: no tokens claimed", rep["tokens"] is None, rep.get("tokens"))
        run_json = os.path.join(d, "kernel-run.json")
        check(f"{spec} replay: the proven kernel was run and agrees (kernel-run.json)", rep.get("run", {}).get("result") == "PASS"
              and os.path.exists(run_json) and json.load(open(run_json)).get("result") == "PASS" and
              "run: PASS on the " in out, (rep.get("run"), out))
        fx = [json.loads(l) for l in open(os.path.join(FIXTURES, spec + ".jsonl"))]
        check(f"{spec} fixture: header says authored, stores no verdict",
              fx[0].get("authored") is True and "written by hand" in fx[0]["source"]
              and not any("verdict" in k or "status" in k for r in fx for k in keys(r)), fx[0])

    rc, _, err, _ = run(ks, "--spec", os.path.join(SPECS, "vec_add.smt"), "--prove", "--provider", "replay",
                        "--no-compile", "--out", os.path.join(tmp, "demo-vec_add"))
    check("--out of an existing run is refused (use --resume)", rc == 64 and "--resume" in err, err)

    # --json and --quiet.
    rc, out, _, _ = run(ks, "--spec", os.path.join(SPECS, "vec_add.smt"), "--prove", "--provider", "replay",
                        "--no-compile", "--json", "--out", os.path.join(tmp, "json"))
    try:
        j = json.loads(out)
    except ValueError:
        j = {}
    check("--json: one JSON object with the verdict", rc == 0 and j.get("verdict") == "proven" and j.get("proven_round") == 3, out[:300])
    check("--json: the run of the proven kernel is in the report", j.get("run", {}).get("result") == "PASS", j.get("run"))
    rc, out, _, _ = run(ks, "--spec", os.path.join(SPECS, "vec_add.smt"), "--prove", "--provider", "replay",
                        "--no-compile", "--no-run", "--out", os.path.join(tmp, "norun"))
    rep = json.load(open(os.path.join(tmp, "norun", "report.json")))
    check("--no-run: proven, not run", rc == 0 and "run" not in rep and "run:" not in out and
          not os.path.exists(os.path.join(tmp, "norun", "kernel-run.json")), out)
    rc, out, _, _ = run(ks, "--spec", os.path.join(SPECS, "vec_add.smt"), "--prove", "--provider", "replay",
                        "--no-compile", "--quiet", "--out", os.path.join(tmp, "quiet"))
    check("--quiet: one line", rc == 0 and out.count("\n") == 1 and out.startswith("proven kernel: "), out)

    # The budget runs out: exit 1, the best candidate and its failing obligations.
    rc, out, _, _ = run(ks, "--spec", os.path.join(SPECS, "vec_add.smt"), "--prove", "--provider", "replay",
                        "--no-compile", "--rounds", "2", "--out", os.path.join(tmp, "budget"))
    check("budget of 2 rounds: exit 1", rc == 1, out)
    check("budget: best candidate and failing obligations shown",
          "no proven kernel after 2 round(s); best candidate: round" in out and ": refuted" in out, out)

    # A transcript that runs out, and one whose model side diverges.
    short = os.path.join(tmp, "short.jsonl")
    lines = open(os.path.join(FIXTURES, "vec_add.jsonl")).read().splitlines()
    open(short, "w").write("\n".join(lines[:3]) + "\n")
    rc, _, err, _ = run(ks, "--spec", os.path.join(SPECS, "vec_add.smt"), "--prove", "--replay", short,
                        "--no-compile", "--out", os.path.join(tmp, "short"))
    check("replay runs out: exit 69, says so", rc == 69 and "has no reply for round 3" in err, f"rc={rc} {err}")
    div = os.path.join(tmp, "diverged.jsonl")
    recs = [json.loads(l) for l in lines]
    recs[2]["conversation"]["turns"][1]["text"] = "a reply the run never received"
    open(div, "w").write("\n".join(json.dumps(r) for r in recs) + "\n")
    rc, _, err, _ = run(ks, "--spec", os.path.join(SPECS, "vec_add.smt"), "--prove", "--replay", div,
                        "--no-compile", "--out", os.path.join(tmp, "div"))
    check("replay diverges: exit 69, names the turn", rc == 69 and "turn 2 (the model's reply) differs" in err, f"rc={rc} {err}")
    rc, _, err, _ = run(ks, "--spec", os.path.join(SPECS, "row_sum.smt"), "--prove", "--replay",
                        os.path.join(FIXTURES, "vec_add.jsonl"), "--out", os.path.join(tmp, "wrongspec"))
    check("an authored transcript of another spec is refused", rc == 64 and "written for spec 'vec_add'" in err, err)
    rc, _, err, _ = run(ks, "--spec", os.path.join(SPECS, "matmul.smt"), "--prove", "--provider", "replay")
    check("replay of a spec without a bundled transcript: exit 64 listing the bundled ones",
          rc == 64 and "vec_add" in err and "matmul_tiled" in err, err)

    # --resume after the process was killed between rounds: nothing recorded is sent again.
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Model)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    env = clean_env(ANTHROPIC_API_KEY="sk-test-not-a-real-key", ANTHROPIC_BASE_URL=f"http://127.0.0.1:{server.server_port}")
    d = os.path.join(tmp, "killed")
    Model.script[:] = [RACY, None]  # round 2's request hangs until the client is killed
    p = subprocess.Popen([ks, "--spec", os.path.join(SPECS, "vec_add.smt"), "--prove", "--provider", "anthropic",
                          "--model", "scripted-test-model", "--no-compile", "--out", d],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    t0 = time.time()
    while len(Model.received) < 2 and time.time() - t0 < 60 and p.poll() is None:
        time.sleep(0.05)
    check("killed run: round 2's request reached the server", len(Model.received) == 2, len(Model.received))
    p.send_signal(signal.SIGKILL)
    p.wait()
    Model.release.set()
    rep = json.load(open(os.path.join(d, "report.json")))
    check("killed run: report.json is whole and says running after round 1",
          rep["status"] == "running" and len(rep["rounds"]) == 1, rep.get("status"))
    check("killed run: round 1 is on disk", os.path.exists(os.path.join(d, "round-1", "feedback.txt")))
    before = len(Model.received)
    Model.script[:] = [OOB, GOOD]
    rc, out, err, _ = run(ks, "--resume", d, env=env)
    after = Model.received[before:]
    check("resume: exit 0 (proven)", rc == 0, f"rc={rc}\n{out}\n{err}")
    check("resume: only rounds 2 and 3 were sent", [len(r["messages"]) for r in after] == [3, 5],
          [len(r["messages"]) for r in after])
    check("resume: round 1's request was not sent again", all(len(r["messages"]) != 1 for r in after))
    check("resume: round 2's request carries round 1's race",
          after and "data race on global array 'C'" in after[0]["messages"][-1]["content"][0]["text"]
          if after and isinstance(after[0]["messages"][-1]["content"], list)
          else after and "data race on global array 'C'" in after[0]["messages"][-1]["content"], after[:1])
    check("resume: says what came from the transcript", "1 request(s) answered from the transcript" in out, out)
    ex = exchanges(os.path.join(d, "transcript.jsonl"))
    check("resume: the transcript holds each exchange once", len(ex) == 3, len(ex))
    rep = json.load(open(os.path.join(d, "report.json")))
    check("resume: report.json proven in round 3", rep["status"] == "proven" and rep["proven_round"] == 3, rep.get("status"))

    # Ctrl-C while a request is in flight: its reply is kept, the run stops before verifying
    # it (exit 130, report.json "interrupted"), and --resume does not ask for it again.
    d = os.path.join(tmp, "interrupted")
    Model.script[:] = [RACY, (1.5, OOB)]
    before = len(Model.received)
    p = subprocess.Popen([ks, "--spec", os.path.join(SPECS, "vec_add.smt"), "--prove", "--provider", "anthropic",
                          "--model", "scripted-test-model", "--no-compile", "--out", d],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, text=True)
    t0 = time.time()
    while len(Model.received) < before + 2 and time.time() - t0 < 60 and p.poll() is None:
        time.sleep(0.05)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=60)
    check("Ctrl-C: exit 130 after the reply in flight arrived", p.returncode == 130, f"rc={p.returncode}\n{out}\n{err}")
    check("Ctrl-C: says how to continue", "--resume" in err, err)
    rep = json.load(open(os.path.join(d, "report.json")))
    check("Ctrl-C: report.json says interrupted", rep["status"] == "interrupted", rep.get("status"))
    check("Ctrl-C: round 2's reply is on disk", os.path.exists(os.path.join(d, "round-2", "reply.md")))
    before = len(Model.received)
    Model.script[:] = [GOOD]
    rc, out, err, _ = run(ks, "--resume", d, env=env)
    after = Model.received[before:]
    check("resume after Ctrl-C: proven, only round 3 sent", rc == 0 and [len(r["messages"]) for r in after] == [5],
          f"rc={rc} {[len(r['messages']) for r in after]}\n{out}\n{err}")
    server.shutdown()

    shutil.rmtree(tmp, ignore_errors=True)
    if failures:
        print(f"\n{len(failures)} failure(s):")
        for f in failures:
            print("  " + f[:2000])
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
