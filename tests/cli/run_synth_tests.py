#!/usr/bin/env python3
"""End-to-end tests of `ksynth --spec SPEC.smt --prove` (the synthesis loop) as a user runs
it: the bundled offline replay of authored fixtures, exit codes, the run directory, --json,
--quiet, replay that runs out or diverges, the missing-key error, and --resume after the
process was killed between rounds while talking to a scripted model over real HTTP on
loopback (Anthropic Messages wire format). Every model reply here is written by hand."""
import argparse, http.server, json, os, re, shutil, signal, subprocess, sys, tempfile, threading, time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from ksynth_testing import ROOT, Checks, send_json  # noqa: E402
SPECS = os.path.join(ROOT, "specs")
FIXTURES = os.path.join(ROOT, "synth", "fixtures")
CHECKS = Checks(detail_limit=3000)
check = CHECKS.check




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
        send_json(self, {"id": "msg_test", "type": "message", "role": "assistant", "model": "scripted-test-model",
                         "content": [{"type": "text", "text": text}], "stop_reason": "end_turn",
                         "usage": {"input_tokens": 100, "output_tokens": 50}})

    def log_message(self, *a):
        pass


GOOD2 = kernel("  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i >= N)\n    return;\n  C[i] = B[i] + A[i];\n")
# Proven too, with one obligation more than GOOD (the bounds of its local array).
# (A local array indexed at run time stays an array, whose bounds are one more obligation; at a
# constant index it would be a scalar.)
GOOD3 = kernel("  float t[2];\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < N) {\n    t[i & 1] = A[i] + B[i];\n"
               "    C[i] = t[i & 1];\n  }\n")


def text_of(msg):
    c = msg["content"]
    return c if isinstance(c, str) else "".join(part.get("text", "") for part in c)


class Sampled(Model):
    """A scripted Anthropic Messages server for --samples: answers by (round, attempt), the
    round from the number of messages, the attempt from the "Attempt M of K" line ksynth adds
    to the last user turn of each sample's request (1 when there is none). None holds the
    request until the test lets it go (or kills the client)."""
    table, got = {}, []

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
        msgs = body["messages"]
        m = re.search(r"Attempt (\d+) of (\d+)", text_of(msgs[-1]))
        key = ((len(msgs) + 1) // 2, int(m.group(1)) if m else 1)
        with Model.lock:
            Sampled.got.append((key, body))
            text = Sampled.table.get(key, "no scripted reply for round %d attempt %d" % key)
        if text is None:
            Model.release.wait(30)
            return
        if isinstance(text, tuple): # ("hold", reply): answered once the test lets it go
            Model.release.wait(30)
            text = text[1]
        if isinstance(text, int): # an HTTP error the client does not retry
            send_json(self, {"type": "error", "error": {"type": "invalid_request_error", "message": "scripted"}}, text)
            return
        cut = text.startswith("MAXTOK:") # a reply cut at the token limit
        send_json(self, {"id": "msg_test", "type": "message", "role": "assistant", "model": "scripted-test-model",
                         "content": [{"type": "text", "text": text[len("MAXTOK:"):] if cut else text}],
                         "stop_reason": "max_tokens" if cut else "end_turn",
                         "usage": {"input_tokens": 100, "output_tokens": 50}})


def interrupt_when_asked(cmd, n, env):
    """Runs cmd against the Sampled server and sends it Ctrl-C once it has made n requests
    (the last one held by the script), then lets the held reply go: (exit, stdout, stderr)."""
    Model.release.clear()
    Sampled.got[:] = []
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, text=True)
    t0 = time.time()
    while time.time() - t0 < 120 and proc.poll() is None and len(Sampled.got) < n:
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    time.sleep(0.5)
    Model.release.set()
    try:
        out, err = proc.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
    return proc.returncode, out, err


def samples_and_optimize(ks, tmp):
    """--samples K and --optimize R against scripted models on loopback."""
    vec = os.path.join(SPECS, "vec_add.smt")
    for args, what in ((["--samples", "0"], "--samples 0"), (["--optimize", "-1"], "--optimize -1"),
                       (["--samples=two"], "--samples=two"), (["--optimize", "1.5"], "--optimize 1.5")):
        rc, _, err, _ = run(ks, "--spec", vec, "--prove", "--provider", "replay", *args)
        check(f"{what} is a usage error (exit 64)", rc == 64 and args[0].split("=")[0] in err, f"rc={rc} {err}")

    # The authored fixture for samples and optimize rounds, replayed offline.
    fx = os.path.join(FIXTURES, "more", "vec_add_samples.jsonl")
    d = os.path.join(tmp, "fixture-samples")
    rc, out, err, _ = run(ks, "--spec", vec, "--prove", "--replay", fx, "--samples", "3", "--optimize", "2", "--out", d)
    rep = json.load(open(os.path.join(d, "report.json")))
    o = rep.get("optimize", {})
    check("samples fixture: exit 0, sample 2 of round 1 kept", rc == 0 and rep.get("proven_sample") == 2, f"rc={rc}\n{out}\n{err}")
    check("samples fixture: optimize 1 refuted, optimize 2 proven",
          [(x.get("verdict"), x.get("proven")) for x in o.get("rounds", [])] == [("refuted", False), ("proven", True)], o.get("rounds"))
    check("samples fixture: the replies are said to be written by hand", "written by hand" in out and
          json.loads(open(fx).readline()).get("authored") is True)
    lines = [json.loads(l) for l in open(fx)]
    check("samples fixture: stores no verdict", not any("verdict" in k or "status" in k for r in lines for k in keys(r)))

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Sampled)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    env = clean_env(ANTHROPIC_API_KEY="sk-test-not-a-real-key", ANTHROPIC_BASE_URL=f"http://127.0.0.1:{server.server_port}")
    live = ["--spec", vec, "--prove", "--provider", "anthropic", "--model", "scripted-test-model", "--no-compile"]

    # --samples 3: sample 2 of round 1 is correct, samples 1 and 3 are racy.
    d = os.path.join(tmp, "samples3")
    Sampled.table, Sampled.got[:] = {(1, 1): RACY, (1, 2): GOOD, (1, 3): RACY}, []
    rc, out, err, _ = run(ks, *live, "--samples", "3", "--out", d, env=env)
    check("samples 3: exit 0, proven in round 1", rc == 0, f"rc={rc}\n{out}\n{err}")
    check("samples 3: the server saw 3 requests, attempts 1, 2, 3 of round 1",
          sorted(k for k, _ in Sampled.got) == [(1, 1), (1, 2), (1, 3)], [k for k, _ in Sampled.got])
    rep = json.load(open(os.path.join(d, "report.json")))
    check("samples 3: report: proven in round 1 by sample 2", rep.get("proven_round") == 1 and
          rep.get("proven_sample") == 2 and rep["rounds"][0].get("best_sample") == 2, {k: rep.get(k) for k in ("proven_round", "proven_sample")})
    check("samples 3: per-sample verdicts refuted, proven, refuted",
          [x.get("verdict") for x in rep["rounds"][0].get("samples", [])] == ["refuted", "proven", "refuted"], rep["rounds"][0])
    r1 = os.path.join(d, "round-1")
    check("samples 3: kernel.cu is sample 2's candidate, proof/ is its proof",
          open(os.path.join(d, "kernel.cu")).read() == open(os.path.join(r1, "sample-2", "candidate.cu")).read()
          == open(os.path.join(d, "proof", "kernel.cu")).read() and "if (i < N)" in open(os.path.join(d, "kernel.cu")).read())
    missing = [f"sample-{m}/{f}" for m in (1, 2, 3) for f in ("reply.md", "candidate.cu", "report.json", "verify.txt")
               if not os.path.isfile(os.path.join(r1, f"sample-{m}", f))]
    missing += [f for f in ("sample-1/feedback.txt", "sample-3/feedback.txt", "sample-2/proof/proof.json")
                if not os.path.isfile(os.path.join(r1, f))]
    missing += [f for f in ("run.json", "transcript.jsonl", "kernel.cu", "proof/proof.json", "proof/report.json")
                if not os.path.isfile(os.path.join(d, f))]
    check("samples 3: the run directory is complete", not missing and not os.path.exists(os.path.join(r1, "sample-2", "feedback.txt"))
          and not os.path.exists(os.path.join(r1, "candidate.cu")), missing)
    ex = exchanges(os.path.join(d, "transcript.jsonl"))
    check("samples 3: the transcript records each exchange with its sample (0, 1, 2)",
          sorted(e.get("sample") for e in ex) == [0, 1, 2], [e.get("sample") for e in ex])
    check("samples 3: progress names each candidate and the kept sample",
          "round 1  candidate 1.2  compile skipped (no nvcc)  all 11 obligations proven" in out and
          "round 1  candidate 1.1  compile skipped (no nvcc)  race \u2717" in out and
          "candidate 1.2 is proven (the lowest-numbered proven sample)" in out, out)

    # Feedback comes from the round's best (most obligations proven: the racy kernel beats the
    # out-of-bounds one); every sample of round 2 continues from it; of two proven samples the
    # lowest-numbered is kept.
    d = os.path.join(tmp, "samples-best")
    Sampled.table, Sampled.got[:] = {(1, 1): OOB, (1, 2): RACY, (2, 1): GOOD, (2, 2): GOOD3}, []
    rc, out, err, _ = run(ks, *live, "--samples", "2", "--rounds", "2", "--out", d, env=env)
    rep = json.load(open(os.path.join(d, "report.json")))
    p = [x["obligations"]["proven"] for x in rep["rounds"][0]["samples"]] if rep["rounds"] else []
    check("samples best: round 1's racy sample proves more obligations than the out-of-bounds one", len(p) == 2 and p[1] > p[0], p)
    check("samples best: round 1's best is sample 2", rep["rounds"][0].get("best_sample") == 2, rep["rounds"][0].get("best_sample"))
    r2 = [b for k, b in Sampled.got if k[0] == 2]
    check("samples best: both round-2 requests continue from sample 2's reply and its race",
          len(r2) == 2 and all(text_of(b["messages"][1]) == RACY and "data race on global array 'C'" in text_of(b["messages"][2])
                               for b in r2), [len(b["messages"]) for b in r2])
    p2 = [x.get("obligations", {}).get("proven") for x in rep["rounds"][1]["samples"]] if len(rep["rounds"]) > 1 else []
    check("samples best: round 2's sample 2 proves more obligations than sample 1 (both proven)",
          len(p2) == 2 and p2[1] > p2[0], p2)
    check("samples best: two proven samples in round 2, the lowest-numbered (1) is kept",
          rc == 0 and rep.get("proven_round") == 2 and rep.get("proven_sample") == 1 and
          open(os.path.join(d, "kernel.cu")).read() == open(os.path.join(d, "round-2", "sample-1", "candidate.cu")).read(),
          f"rc={rc} {rep.get('proven_sample')}")
    check("samples best: round-1/feedback.txt is what round 2 was sent",
          r2 and open(os.path.join(d, "round-1", "feedback.txt")).read() in text_of(r2[0]["messages"][2]))

    # A resumed run that ends without a proof leaves no kernel.cu, proof/ or kernel-run.json of
    # the earlier invocation; a resumed run keeps its samples per round.
    d2 = os.path.join(tmp, "samples-best-again")
    shutil.copytree(d, d2)
    rc, out, err, _ = run(ks, "--resume", d2, "--samples", "3", env=env)
    check("resume with another --samples: usage error (exit 64)", rc == 64 and "--samples" in err, f"rc={rc} {err}")
    Sampled.got[:] = []
    rc, out, err, _ = run(ks, "--resume", d2, "--rounds", "1", env=env)
    rep = json.load(open(os.path.join(d2, "report.json")))
    check("resume ending unproven: exit 1, nothing requested, no kernel.cu, proof/ or kernel-run.json left",
          rc == 1 and not Sampled.got and "kernel" not in rep and
          not any(os.path.exists(os.path.join(d2, f)) for f in ("kernel.cu", "proof", "kernel-run.json")),
          f"rc={rc} {Sampled.got}\n{out}\n{err}")

    # A failed request and a reply without code in one round: the round goes on (the reply
    # ranks above the failure), and round 2 proves.
    d = os.path.join(tmp, "samples-failed")
    Sampled.table, Sampled.got[:] = {(1, 1): 400, (1, 2): "Here is my plan, code to follow.", (2, 1): GOOD, (2, 2): GOOD}, []
    rc, out, err, _ = run(ks, *live, "--samples", "2", "--rounds", "2", "--out", d, env=env)
    check("samples failed + no code: the run goes on and proves in round 2 (exit 0)", rc == 0 and
          json.load(open(os.path.join(d, "report.json"))).get("proven_round") == 2, f"rc={rc}\n{out}\n{err}")

    # A reply cut at the token limit was a candidate: --resume answers it from the transcript.
    d = os.path.join(tmp, "maxtokens")
    Sampled.table, Sampled.got[:] = {(1, 1): "MAXTOK:" + RACY}, []
    rc, out, err, _ = run(ks, *live, "--rounds", "1", "--out", d, env=env)
    check("token limit: the cut reply is checked (refuted), exit 1", rc == 1, f"rc={rc}\n{out}\n{err}")
    Sampled.table, Sampled.got[:] = {(1, 1): GOOD, (2, 1): GOOD}, []
    rc, out, err, _ = run(ks, "--resume", d, "--rounds", "2", env=env)
    check("token limit: --resume does not ask for round 1 again, round 2 proves",
          rc == 0 and [k for k, _ in Sampled.got] == [(2, 1)], f"rc={rc} {[k for k, _ in Sampled.got]}\n{out}\n{err}")

    # Killed mid-round (samples 1 and 2 answered, 3 in flight): --resume sends only sample 3.
    d = os.path.join(tmp, "samples-killed")
    Model.release.clear()
    Sampled.table, Sampled.got[:] = {(1, 1): RACY, (1, 2): RACY, (1, 3): None}, []
    proc = subprocess.Popen([ks, *live, "--samples", "3", "--out", d], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    tx = os.path.join(d, "transcript.jsonl")
    t0 = time.time()
    while time.time() - t0 < 60 and proc.poll() is None and not (
            len(Sampled.got) == 3 and os.path.exists(tx) and len(exchanges(tx)) == 2):
        time.sleep(0.05)
    check("samples killed: 3 requests out, 2 answered and recorded", len(Sampled.got) == 3 and len(exchanges(tx)) == 2,
          (len(Sampled.got), os.path.exists(tx) and len(exchanges(tx))))
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    Model.release.set()
    Sampled.table, Sampled.got[:] = {(1, 3): GOOD}, []
    rc, out, err, _ = run(ks, "--resume", d, env=env)
    check("samples resume: exit 0, proven by sample 3", rc == 0 and json.load(open(os.path.join(d, "report.json"))).get("proven_sample") == 3,
          f"rc={rc}\n{out}\n{err}")
    check("samples resume: only sample 3 of round 1 was sent again", [k for k, _ in Sampled.got] == [(1, 3)],
          [k for k, _ in Sampled.got])
    check("samples resume: 2 requests answered from the transcript", "2 request(s) answered from the transcript" in out, out)
    ex = exchanges(tx)
    check("samples resume: the transcript holds each (round, sample) once", sorted(e.get("sample") for e in ex) == [0, 1, 2],
          [e.get("sample") for e in ex])

    # --optimize 1, the variant is refuted: the first proven kernel is kept, the report says so.
    d = os.path.join(tmp, "optimize-refuted")
    Sampled.table, Sampled.got[:] = {(1, 1): GOOD, (2, 1): RACY}, []
    rc, out, err, _ = run(ks, *live, "--optimize", "1", "--out", d, env=env)
    rep = json.load(open(os.path.join(d, "report.json")))
    o = rep.get("optimize", {})
    o1 = (o.get("rounds") or [{}])[0]
    check("optimize refuted: exit 0, 2 requests (the kernel, one variant)", rc == 0 and len(Sampled.got) == 2, f"rc={rc} {len(Sampled.got)}\n{out}\n{err}")
    req = text_of(Sampled.got[-1][1]["messages"][-1]) if Sampled.got else ""
    check("optimize refuted: the request asks for a faster variant of the proven kernel, and says it was not timed",
          "faster variant" in req and "if (i < N)" in req and "not timed" in req, req[:600])
    check("optimize refuted: report: variant refuted, not proven, not a replacement; round-1 kept",
          o1.get("verdict") == "refuted" and o1.get("proven") is False and o1.get("replaced") is False and
          o.get("kept") == "round-1" and o.get("replaced") is False and rep.get("verdict") == "proven", o)
    check("optimize refuted: kernel.cu and proof/ are round 1's",
          open(os.path.join(d, "kernel.cu")).read() == open(os.path.join(d, "round-1", "candidate.cu")).read()
          == open(os.path.join(d, "proof", "kernel.cu")).read())
    check("optimize refuted: optimize-1/ holds the variant and its report",
          os.path.isfile(os.path.join(d, "optimize-1", "candidate.cu")) and os.path.isfile(os.path.join(d, "optimize-1", "report.json")))
    check("optimize refuted: progress says so", "optimize 1  not proven: candidate 1 stays" in out, out)

    # --optimize 1, the variant is proven. Without a GPU nothing is timed: the report says
    # not compared, and the first proven kernel is kept. With a GPU the times decide.
    d = os.path.join(tmp, "optimize-proven")
    Sampled.table, Sampled.got[:] = {(1, 1): GOOD, (2, 1): GOOD2}, []
    rc, out, err, _ = run(ks, *live, "--optimize", "1", "--out", d, env=env)
    rep = json.load(open(os.path.join(d, "report.json")))
    o = rep.get("optimize", {})
    o1 = (o.get("rounds") or [{}])[0]
    timed = "median_ms" in rep.get("run", {}) and "median_ms" in o1.get("run", {})
    check("optimize proven: exit 0, the variant proven and run", rc == 0 and o1.get("proven") is True and
          o1.get("run", {}).get("result") == "PASS", f"rc={rc} {o1}\n{out}\n{err}")
    if not timed:
        print("     (no GPU: the variant cannot be timed)")
        check("optimize proven, no GPU: not compared, not replaced, listed; round-1 kept",
              o1.get("compared") is False and "no GPU" in o1.get("not_timed", "") and o1.get("replaced") is False and
              o.get("proven_not_compared") == ["optimize-1"] and o.get("kept") == "round-1" and "not compared" in o.get("note", ""), o)
        check("optimize proven, no GPU: kernel.cu is round 1's, not the variant",
              open(os.path.join(d, "kernel.cu")).read() == open(os.path.join(d, "round-1", "candidate.cu")).read() and
              "return;" not in open(os.path.join(d, "kernel.cu")).read())
        check("optimize proven, no GPU: progress says proven but not compared",
              "proven, not compared (no GPU" in out and "1 variant(s) proven but not compared (no timing): optimize-1; kept round-1" in out, out)
    else:
        check("optimize proven, GPU: compared by time, kept kernel consistent",
              o1.get("compared") is True and (o.get("kept") == "optimize-1") == o1.get("replaced"), o)
    # Ctrl-C while a sample's request is in flight: its reply is recorded, exit 130; --resume
    # answers the round from the transcript and keeps the proven sample.
    d = os.path.join(tmp, "samples-interrupted")
    Sampled.table = {(1, 1): RACY, (1, 2): ("hold", GOOD)}
    rc, out, err = interrupt_when_asked([ks, *live, "--samples", "2", "--out", d], 2, env)
    rep = json.load(open(os.path.join(d, "report.json")))
    check("samples interrupted: exit 130, status interrupted, both replies in the transcript",
          rc == 130 and rep.get("status") == "interrupted" and
          len(exchanges(os.path.join(d, "transcript.jsonl"))) == 2, f"rc={rc}\n{out}\n{err}")
    Sampled.table, Sampled.got[:] = {}, []
    rc, out, err, _ = run(ks, "--resume", d, env=env)
    rep = json.load(open(os.path.join(d, "report.json")))
    check("samples interrupted: --resume asks for nothing; sample 2 proven and kept",
          rc == 0 and not Sampled.got and rep.get("proven_sample") == 2, f"rc={rc} {Sampled.got}\n{out}\n{err}")

    # Ctrl-C while an optimize request is in flight: the reply is recorded, nothing more is
    # checked or run, exit 130; --resume finishes the round from the transcript.
    d = os.path.join(tmp, "optimize-interrupted")
    Sampled.table = {(1, 1): GOOD, (2, 1): ("hold", GOOD2)}
    rc, out, err = interrupt_when_asked([ks, *live, "--optimize", "1", "--out", d], 2, env)
    rep = json.load(open(os.path.join(d, "report.json")))
    check("optimize interrupted: exit 130, status interrupted, the variant's reply kept but not checked",
          rc == 130 and rep.get("status") == "interrupted" and
          os.path.isfile(os.path.join(d, "optimize-1", "reply.md")) and
          not os.path.exists(os.path.join(d, "optimize-1", "candidate.cu")), f"rc={rc}\n{out}\n{err}")
    check("optimize interrupted: kernel.cu and proof/ are round 1's",
          open(os.path.join(d, "kernel.cu")).read() == open(os.path.join(d, "round-1", "candidate.cu")).read()
          == open(os.path.join(d, "proof", "kernel.cu")).read())
    Sampled.table, Sampled.got[:] = {}, []
    rc, out, err, _ = run(ks, "--resume", d, env=env)
    rep = json.load(open(os.path.join(d, "report.json")))
    check("optimize interrupted: --resume asks for nothing and finishes the optimize round (variant proven)",
          rc == 0 and not Sampled.got and [x.get("proven") for x in rep.get("optimize", {}).get("rounds", [])] == [True],
          f"rc={rc} {Sampled.got}\n{out}\n{err}")
    server.shutdown()


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

    # A verifier that crashes on a candidate costs that candidate, not the run: each one is
    # verified in a child process (KSYNTH_DEBUG_VERIFY_ABORT makes every child abort).
    d = os.path.join(tmp, "crashing-verifier")
    rc, out, err, _ = run(ks, "--spec", os.path.join(SPECS, "vec_add.smt"), "--prove", "--provider", "replay",
                          "--rounds", "3", "--out", d, env=clean_env(KSYNTH_DEBUG_VERIFY_ABORT="1"))
    rep = json.load(open(os.path.join(d, "report.json"))) if os.path.exists(os.path.join(d, "report.json")) else {}
    check("crashing verifier: the run ends normally (not proven, no signal), every round recorded",
          rc in (1, 2) and len(rep.get("rounds", [])) == 3, f"rc={rc}\n{out}\n{err}")
    vtxt = os.path.join(d, "round-1", "verify.txt")
    check("crashing verifier: the candidate's error names the signal, never a verdict",
          os.path.exists(vtxt) and "killed by signal 6" in open(vtxt).read()
          and all(r.get("verdict") not in ("proven", "refuted") for r in rep.get("rounds", [])), rep.get("rounds"))

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

    samples_and_optimize(ks, tmp)

    shutil.rmtree(tmp, ignore_errors=True)
    return CHECKS.summary()


if __name__ == "__main__":
    sys.exit(main())
