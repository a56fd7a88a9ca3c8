#!/usr/bin/env python3
"""End-to-end tests of `ksynth bench` against a scripted model over real HTTP on loopback
(OpenAI Chat Completions wire format). The scripted model is not a language model: it hands
out hand-written kernels whose verdicts are known (good, racy, a missing tail, out of bounds,
a stale output buffer, one that does not parse, a reply with no code), so every stage count,
pass@k, repair curve and the correctness-illusion rate are checked against numbers worked out
here. Also: local shards (--jobs), a run killed mid-way and resumed (no request asked twice,
the same metrics), a replay of the recorded run (the same metrics, nothing asked), the HTML
report in headless Chromium, a Slurm job array on a one-node cluster started on loopback, and
the usage errors.

Slurm and Chromium come from Debian (.ci/run installs them); where they are missing the parts
that need them are skipped and say so, unless KSYNTH_REQUIRE_SLURM=1 / KSYNTH_REQUIRE_CHROMIUM=1
(set by .ci/run), which makes a missing one a failure."""
import argparse, http.server, json, math, os, pwd, re, shutil, signal, socket, subprocess, sys, tempfile, threading, time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from ksynth_testing import ROOT, Checks, send_json  # noqa: E402
CHECKS = Checks(detail_limit=3000)
check = CHECKS.check


def kernel(variant, name, params, launch, body):
    return ("Here is the kernel.\n\n```cuda\n// variant: %s\n// ksynth:launch %s\n__global__ void %s(%s) {\n%s}\n```\n"
            % (variant, launch, name, params, body))


VA = "const float *A, const float *B, float *C, int N"
RL = "const float *X, float *Y, int N"
L256 = "grid=((N + 255) / 256) block=(256)"
IDX = "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
KERNELS = {
    ("vec_add", "good"): kernel("good", "vec_add", VA, L256, IDX + "  if (i < N)\n    C[i] = A[i] + B[i];\n"),
    # Every thread also stores C[0]: the same value, but a race; the plain test passes.
    ("vec_add", "racy"): kernel("racy", "vec_add", VA, L256, IDX + "  if (i < N)\n    C[i] = A[i] + B[i];\n  C[0] = A[0] + B[0];\n"),
    # Right only when N is a multiple of 8 (the plain test's N is 8): the tail is never written.
    ("vec_add", "tail"): kernel("tail", "vec_add", VA, "grid=(N / 8) block=(8)", IDX + "  C[i] = A[i] + B[i];\n"),
    ("vec_add", "oob"): kernel("oob", "vec_add", VA, L256, IDX + "  if (i <= N)\n    C[i] = A[i] + B[i];\n"),
    ("relu", "good"): kernel("good", "relu", RL, L256, IDX + "  if (i < N)\n    Y[i] = fmaxf(X[i], 0.0f);\n"),
    # Adds to whatever the output buffer held: right only on a zeroed (or stale, right) buffer.
    ("relu", "stale"): kernel("stale", "relu", RL, L256, IDX + "  if (i < N)\n    Y[i] += fmaxf(X[i], 0.0f);\n"),
    ("relu", "noparse"): kernel("noparse", "relu", RL, L256, IDX + "  if (i < N)\n    Y[i] = fmaxf(X[i], 0.0f)\n"),
    ("relu", "nocode"): "I would rather explain the idea: take the maximum of each element and zero. (variant: nocode)\n",
}
# First replies, handed out per spec in the order the requests arrive; the reply to a request
# that continues a conversation depends only on the variant it continues from.
FIRST = {"vec_add": ["good", "racy", "tail", "oob", "good"], "relu": ["stale", "noparse", "nocode", "good", "good"]}
REPAIR = {"racy": "good", "tail": "good", "oob": "oob", "stale": "good", "noparse": "noparse", "nocode": "nocode"}
# The stage and verdict each variant's candidate reaches, and whether it passes the plain test.
EXPECT = {"good": ("ran", "proven", True), "racy": ("parses", "refuted", True), "tail": ("safe", "refuted", True),
          "oob": ("parses", "refuted", False), "stale": ("safe", "refuted", False),
          "noparse": ("extracted", "malformed", False), "nocode": ("none", None, None)}
STAGES = ["extracted", "parses", "safe", "equivalent", "ran", "faster"]
SAMPLES, ROUNDS = 5, 2


class Model(http.server.BaseHTTPRequestHandler):
    """The scripted OpenAI-compatible server. `hold_after`: once that many requests have been
    answered, the next ones are held until the test lets them go (so a client can be killed or
    interrupted with a request in flight); then answered if `answer_held`, else dropped."""
    lock = threading.Lock()
    counters, answered, hold_after, held, answer_held = {}, [], None, 0, False
    release = threading.Event()

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
        msgs = [m for m in body["messages"] if m["role"] != "system"]
        spec = re.search(r"\(spec (\w+)", msgs[0]["content"]).group(1)
        with Model.lock:
            hold = Model.hold_after is not None and len(Model.answered) >= Model.hold_after
            if hold:
                Model.held += 1
        if hold:
            Model.release.wait(60)
            if not Model.answer_held:
                return
        with Model.lock:
            if len(msgs) == 1:
                n = Model.counters.get(spec, 0)
                Model.counters[spec] = n + 1
                variant = FIRST[spec][n % len(FIRST[spec])]
            else:
                prev = re.search(r"variant: (\w+)", msgs[-2]["content"]).group(1)
                variant = REPAIR[prev]
            Model.answered.append((spec, len(msgs), variant))
        text = KERNELS[(spec, variant)]
        send_json(self, {"id": "chatcmpl-test", "object": "chat.completion", "model": body.get("model"),
                         "choices": [{"index": 0, "message": {"role": "assistant", "content": text},
                                      "finish_reason": "stop"}],
                         "usage": {"prompt_tokens": 100, "completion_tokens": 50, "total_tokens": 150}})

    def log_message(self, *a):
        pass


def reset_model(hold_after=None, answer_held=False):
    with Model.lock:
        Model.counters, Model.answered, Model.hold_after = {}, [], hold_after
        Model.held, Model.answer_held = 0, answer_held
        Model.release.clear()


def env_for(port):
    env = {k: v for k, v in os.environ.items()
           if k not in ("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "ANTHROPIC_BASE_URL", "OPENAI_BASE_URL")}
    env["OPENAI_BASE_URL"] = "http://127.0.0.1:%d/v1" % port
    return env


def run(ks, *args, env=None, timeout=900):
    p = subprocess.run([ks, *args], capture_output=True, text=True, timeout=timeout, env=env)
    return p.returncode, p.stdout, p.stderr


def rows_of(run_dir):
    return [json.loads(l) for l in open(os.path.join(run_dir, "results.jsonl")) if l.strip()]


def variant_of(run_dir, row):
    d = os.path.join(run_dir, "tasks", row["spec"], "sample-%d" % row["sample"], "round-%d" % row["round"])
    text = open(os.path.join(d, "reply.md")).read()
    return re.search(r"variant: (\w+)", text).group(1)


def pass_at_k(n, c, k):
    return 1.0 - math.comb(n - c, k) / math.comb(n, k)


def expected_summary():
    """The metrics the script implies, worked out from FIRST, REPAIR and EXPECT alone."""
    out = {"pass": {}, "repair_equivalent": [], "plain_passed": 0, "refuted": 0}
    best = {}
    first_proof = {}
    plain_round = {}
    for spec, firsts in FIRST.items():
        for s, v in enumerate(firsts[:SAMPLES]):
            chain = [v]
            while len(chain) < ROUNDS and EXPECT[chain[-1]][1] != "proven":
                chain.append(REPAIR[chain[-1]])
            stages = [STAGES.index(EXPECT[x][0]) if EXPECT[x][0] != "none" else -1 for x in chain]
            best[(spec, s)] = max(stages)
            first_proof[(spec, s)] = next((r + 1 for r, x in enumerate(chain) if EXPECT[x][1] == "proven"), None)
            plain_round[(spec, s)] = next((r + 1 for r, x in enumerate(chain) if EXPECT[x][2]), None)
            for x in chain:
                if EXPECT[x][2]:
                    out["plain_passed"] += 1
                    out["refuted"] += EXPECT[x][1] == "refuted"
    for i, st in enumerate(STAGES[:5]):
        out["pass"][st] = sum(pass_at_k(SAMPLES, sum(best[(sp, s)] >= i for s in range(SAMPLES)), 1) for sp in FIRST) / len(FIRST)
    out["pass"]["allclose"] = sum(sum(plain_round[(sp, s)] is not None for s in range(SAMPLES)) / SAMPLES for sp in FIRST) / len(FIRST)
    out["pass5"] = {st: sum(pass_at_k(SAMPLES, sum(best[(sp, s)] >= i for s in range(SAMPLES)), 5) for sp in FIRST) / len(FIRST)
                    for i, st in enumerate(STAGES[:5])}
    for r in range(1, ROUNDS + 1):
        out["repair_equivalent"].append(sum(sum(first_proof[(sp, s)] is not None and first_proof[(sp, s)] <= r
                                                for s in range(SAMPLES)) / SAMPLES for sp in FIRST) / len(FIRST))
    n = 0
    for spec, firsts in FIRST.items():
        for v in firsts[:SAMPLES]:
            chain = [v]
            while len(chain) < ROUNDS and EXPECT[chain[-1]][1] != "proven":
                chain.append(REPAIR[chain[-1]])
            n += len(chain)
    out["requests"] = n
    return out


def check_metrics(name, summary, want):
    pk = summary["pass_at_k"]
    for st, v in want["pass"].items():
        check("%s: pass@1 of %s is %.3f" % (name, st, v), abs((pk[st]["1"] or -1) - v) < 1e-9, json.dumps(pk[st]))
    for st, v in want["pass5"].items():
        check("%s: pass@5 of %s is %.3f" % (name, st, v), abs((pk[st]["5"] or -1) - v) < 1e-9, json.dumps(pk[st]))
    check(name + ": faster is not measured without a GPU (null, not 0)", pk["faster"]["1"] is None, json.dumps(pk["faster"]))
    check(name + ": repair curve of equivalent", all(abs(a - b) < 1e-9 for a, b in
                                                      zip(summary["repair"]["equivalent"], want["repair_equivalent"])),
          "%s vs %s" % (summary["repair"]["equivalent"], want["repair_equivalent"]))
    il = summary["illusion"]
    check(name + ": %d candidates passed the plain test, %d of them refuted" % (want["plain_passed"], want["refuted"]),
          il["plain_passed"] == want["plain_passed"] and il["refuted"] == want["refuted"], json.dumps(il))
    check(name + ": the illusion kinds are the race and the missing tail",
          il["by_kind"] == {"race": 1, "coverage": 1}, json.dumps(il["by_kind"]))


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


def start_slurm(tmp):
    """A one-node Slurm cluster on loopback (munged, slurmctld, slurmd) in `tmp`; the
    environment that points the Slurm commands at it, or (None, why)."""
    need = ["munged", "slurmctld", "slurmd", "sbatch", "squeue", "scancel", "mungekey"]
    paths = {n: shutil.which(n) or next((p for p in ("/usr/sbin/" + n,) if os.path.exists(p)), None) for n in need}
    missing = [n for n, p in paths.items() if not p]
    if missing:
        return None, "not installed: " + ", ".join(missing), []
    d = os.path.join(tmp, "slurm")
    for sub in ("state", "spool", "munge", "log"):
        os.makedirs(os.path.join(d, sub), exist_ok=True)
    os.chmod(os.path.join(d, "munge"), 0o700)
    key = os.path.join(d, "munge", "munge.key")
    sock = os.path.join(d, "munge", "munge.socket")
    subprocess.run([paths["mungekey"], "--create", "--keyfile", key, "--force"], check=True, capture_output=True)
    os.chmod(key, 0o600)
    procs = []
    procs.append(subprocess.Popen([paths["munged"], "--foreground", "--force", "--key-file", key, "--socket", sock,
                                   "--pid-file", os.path.join(d, "munge", "munged.pid"),
                                   "--log-file", os.path.join(d, "log", "munged.log"),
                                   "--seed-file", os.path.join(d, "munge", "munged.seed")],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
    for _ in range(50):
        if os.path.exists(sock):
            break
        time.sleep(0.1)
    host = socket.gethostname().split(".")[0]
    ctl, slurmd_port = free_port(), free_port()
    conf = os.path.join(d, "slurm.conf")
    cpus = os.cpu_count() or 2
    with open(conf, "w") as f:
        f.write("""ClusterName=ksynthtest
SlurmctldHost={host}(127.0.0.1)
SlurmctldPort={ctl}
SlurmdPort={sd}
AuthType=auth/munge
AuthInfo=socket={sock}
CredType=cred/munge
SlurmUser={user}
SlurmdUser={user}
StateSaveLocation={d}/state
SlurmdSpoolDir={d}/spool
SlurmctldPidFile={d}/slurmctld.pid
SlurmdPidFile={d}/slurmd.pid
SlurmctldLogFile={d}/log/slurmctld.log
SlurmdLogFile={d}/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
ReturnToService=2
MpiDefault=none
SwitchType=switch/none
MaxArraySize=1001
NodeName={host} NodeAddr=127.0.0.1 CPUs={cpus} State=UNKNOWN
PartitionName=debug Nodes={host} Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES
""".format(user=pwd.getpwuid(os.geteuid()).pw_name, host=host, ctl=ctl, sd=slurmd_port, sock=sock, d=d, cpus=cpus))
    env = dict(os.environ, SLURM_CONF=conf)
    procs.append(subprocess.Popen([paths["slurmctld"], "-D", "-i", "-f", conf], env=env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
    procs.append(subprocess.Popen([paths["slurmd"], "-D", "-f", conf, "-N", host], env=env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
    sinfo = shutil.which("sinfo")
    for _ in range(100):
        p = subprocess.run([sinfo, "-h", "-o", "%T"], env=env, capture_output=True, text=True)
        if p.returncode == 0 and p.stdout.strip() in ("idle", "mixed"):
            return env, "", procs
        time.sleep(0.2)
    logs = ""
    for n in ("slurmctld.log", "slurmd.log"):
        try:
            logs += open(os.path.join(d, "log", n)).read()[-1500:]
        except OSError:
            pass
    return None, "the cluster did not come up: " + logs, procs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ksynth", default=os.path.join(ROOT, "build", "ksynth"))
    a = ap.parse_args()
    ks = os.path.abspath(a.ksynth)
    tmp = tempfile.mkdtemp(prefix="ksynth-bench-")
    suite = os.path.join(tmp, "suite")
    os.makedirs(suite)
    for s in ("vec_add", "relu"):
        shutil.copy(os.path.join(ROOT, "specs", s + ".smt"), suite)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Model)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    env = env_for(server.server_address[1])
    want = expected_summary()
    common = ["--specs", suite, "--provider", "openai-compatible", "--model", "scripted-test-model",
              "--samples", str(SAMPLES), "--rounds", str(ROUNDS), "--nvcc", "none",
              "--note", "a scripted test server, not a language model"]

    # 1. Two local shards.
    reset_model()
    runA = os.path.join(tmp, "runA")
    t0 = time.time()
    code, out, err = run(ks, "bench", *common, "--out", runA, "--jobs", "2", env=env)
    check("bench --jobs 2 exits 0", code == 0, out + err)
    print("  (bench --jobs 2: %.1f s)" % (time.time() - t0))
    rows = rows_of(runA)
    check("one row per candidate: %d" % want["requests"], len(rows) == want["requests"], str(len(rows)))
    check("the scripted model was asked %d times" % want["requests"], len(Model.answered) == want["requests"],
          str(Model.answered))
    for r in rows:
        v = variant_of(runA, r)
        st, verdict, plain = EXPECT[v]
        check("%s sample %d round %d (%s): stage %s, verdict %s, plain test %s" % (r["spec"], r["sample"], r["round"], v, st, verdict, plain),
              r["stage"] == st and r["verdict"] == verdict and r["allclose"]["passed"] == plain, json.dumps(r))
    check("every row says which model, tokens and seconds",
          all(r["model"] == "scripted-test-model" and r["tokens"] == {"input": 100, "output": 50}
              and r["seconds"]["model"] > 0 for r in rows), json.dumps(rows[0]))
    check("a refuted row names its counterexample kind",
          all(r["counterexample_kind"] for r in rows if r["verdict"] == "refuted"))
    summary = json.load(open(os.path.join(runA, "summary.json")))
    check_metrics("jobs 2", summary, want)
    check("two shard logs", sorted(os.listdir(os.path.join(runA, "shards"))) == ["shard-0.log", "shard-1.log"],
          str(os.listdir(os.path.join(runA, "shards"))))
    code, out2, err2 = run(ks, "bench", "--resume", runA, "--json", env=env)
    check("resuming a finished run asks nothing and gives the same metrics",
          code == 0 and len(Model.answered) == want["requests"] and json.loads(out2)["pass_at_k"] == summary["pass_at_k"],
          out2[-2000:] + err2)

    # 2. Killed with a request in flight, then resumed: nothing asked twice, the same metrics.
    reset_model(hold_after=6)
    runB = os.path.join(tmp, "runB")
    p = subprocess.Popen([ks, "bench", *common, "--out", runB, "--quiet"], env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    deadline = time.time() + 300
    while time.time() < deadline and len(Model.answered) < 6:
        time.sleep(0.2)
    time.sleep(1.0)
    os.killpg(p.pid, signal.SIGKILL)
    p.wait()
    answered_before = list(Model.answered)
    Model.hold_after = None
    Model.release.set()
    check("the first run was killed after 6 answers", len(answered_before) == 6, str(answered_before))
    code, out, err = run(ks, "bench", "--resume", runB, env=env)
    check("bench --resume finishes the killed run", code == 0, out + err)
    recorded = 0
    for dp, _, names in os.walk(os.path.join(runB, "tasks")):
        if "transcript.jsonl" in names:
            recorded += sum(1 for l in open(os.path.join(dp, "transcript.jsonl"))
                            if l.strip() and json.loads(l).get("type") == "exchange")
    check("every answer was asked for once: %d answers, %d recorded exchanges" % (len(Model.answered), recorded),
          len(Model.answered) == recorded == want["requests"], "%d answered, %d recorded" % (len(Model.answered), recorded))
    check_metrics("killed and resumed", json.load(open(os.path.join(runB, "summary.json"))), want)

    # 2b. Ctrl-C with a request in flight: the reply is recorded, the run stops with 130, and
    # --resume finishes it asking nothing twice.
    reset_model(hold_after=3, answer_held=True)
    runE = os.path.join(tmp, "runE")
    p = subprocess.Popen([ks, "bench", *common, "--out", runE], env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    deadline = time.time() + 300
    while time.time() < deadline and Model.held < 1:
        time.sleep(0.2)
    code, out2, err2 = run(ks, "bench", "--resume", runE, env=env)
    check("a second bench on a run directory in use is refused (exit 64), asking nothing",
          code == 64 and "another 'ksynth bench'" in err2 and len(Model.answered) == 3, err2)
    os.killpg(p.pid, signal.SIGINT)
    time.sleep(0.5)
    Model.hold_after = None
    Model.release.set()
    out, err = p.communicate(timeout=300)
    check("Ctrl-C: bench exits 130 and says how to continue",
          p.returncode == 130 and "--resume " + runE in err, "exit %s\n%s" % (p.returncode, err[-2000:]))
    check("Ctrl-C: the reply in flight was answered and recorded (4 answers)", len(Model.answered) == 4, str(Model.answered))
    code, out, err = run(ks, "bench", "--resume", runE, env=env)
    recorded = sum(1 for dp, _, names in os.walk(os.path.join(runE, "tasks")) if "transcript.jsonl" in names
                   for l in open(os.path.join(dp, "transcript.jsonl")) if l.strip() and json.loads(l).get("type") == "exchange")
    check("Ctrl-C then --resume: exit 0, %d answers, each recorded once" % want["requests"],
          code == 0 and len(Model.answered) == recorded == want["requests"], "%d answered, %d recorded\n%s" % (len(Model.answered), recorded, err[-1500:]))
    check_metrics("interrupted and resumed", json.load(open(os.path.join(runE, "summary.json"))), want)

    # 3. A replay of run A: nothing asked, the same rows' verdicts and metrics.
    reset_model()
    runC = os.path.join(tmp, "runC")
    code, out, err = run(ks, "bench", suite, "--replay-run", runA, "--samples", str(SAMPLES),
                         "--rounds", str(ROUNDS), "--nvcc", "none", "--out", runC, env=env)
    check("bench --replay-run exits 0 and asks the server nothing", code == 0 and not Model.answered, out + err)
    key = lambda r: (r["spec"], r["sample"], r["round"], r["stage"], r["verdict"], r["allclose"]["passed"], r["counterexample_kind"])
    check("the replayed run's rows equal the recorded run's", [key(r) for r in rows_of(runC)] == [key(r) for r in rows],
          "")
    sc = json.load(open(os.path.join(runC, "summary.json")))
    check("the replay's metrics equal the recorded run's",
          sc["pass_at_k"] == summary["pass_at_k"] and sc["illusion"] == summary["illusion"] and sc["repair"] == summary["repair"])
    check("the replay says it is one", sc["source"] == "replay" and sc["replayed_from"].endswith("runA"), json.dumps(sc)[:500])

    # 4. The report, also in headless Chromium.
    rep = os.path.join(tmp, "report")
    code, out, err = run(ks, "bench", "report", runA, runC, "--out", rep, env=env)
    check("bench report exits 0", code == 0, out + err)
    md = open(os.path.join(rep, "report.md")).read()
    html = open(os.path.join(rep, "report.html")).read()
    check("the report says the replay's replies were replayed, and the note of the scripted run",
          "no model was asked anything" in md and "a scripted test server, not a language model" in md, md[:1500])
    check("the report's illusion table has 2 of %d refuted" % want["plain_passed"],
          re.search(r"\| scripted-test-model \| %d \| 2 \|" % want["plain_passed"], md) is not None, md)
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        check("chromium is installed (KSYNTH_REQUIRE_CHROMIUM)", os.environ.get("KSYNTH_REQUIRE_CHROMIUM") != "1")
        print("  skipped: the report in headless Chromium (chromium not installed)")
    else:
        prof = os.path.join(tmp, "chromium-profile")
        base = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=" + prof]
        p = subprocess.run(base + ["--dump-dom", "file://" + os.path.join(rep, "report.html")],
                           capture_output=True, text=True, timeout=120)
        dom = p.stdout
        check("Chromium renders the report: 2 pass@k charts, the repair and illusion charts, the tables",
              dom.count('class="chart pass"') == 2 and 'class="chart repair"' in dom and 'class="chart illusion"' in dom
              and dom.count("<table>") >= 6, p.stderr[-1500:])
        shot = os.path.join(tmp, "report.png")
        p = subprocess.run(base + ["--screenshot=" + shot, "--window-size=1280,2400",
                                   "file://" + os.path.join(rep, "report.html")],
                           capture_output=True, text=True, timeout=120)
        check("Chromium takes a screenshot of the report", os.path.exists(shot) and os.path.getsize(shot) > 20000,
              p.stderr[-1500:])

    # 5. A Slurm job array on a one-node cluster on loopback.
    slurm_env, why, procs = start_slurm(tmp)
    try:
        if slurm_env is None:
            check("Slurm is available (KSYNTH_REQUIRE_SLURM): " + why, os.environ.get("KSYNTH_REQUIRE_SLURM") != "1", why)
            print("  skipped: the Slurm job array (%s)" % why[:300])
        else:
            reset_model()
            runD = os.path.join(tmp, "runD")
            senv = dict(env, SLURM_CONF=slurm_env["SLURM_CONF"])
            code, out, err = run(ks, "bench", *common, "--out", runD, "--slurm", "--jobs", "3", env=senv)
            check("bench --slurm --jobs 3 exits 0", code == 0, out + err)
            check("three array tasks wrote their shard logs",
                  sorted(os.listdir(os.path.join(runD, "shards"))) == ["shard-0.log", "shard-1.log", "shard-2.log"],
                  str(os.listdir(os.path.join(runD, "shards"))) + open(os.path.join(runD, "slurm", "sbatch.out")).read())
            check("the sbatch script is an array of 3", "#SBATCH --array=0-2" in open(os.path.join(runD, "slurm", "bench.sbatch")).read())
            check_metrics("slurm", json.load(open(os.path.join(runD, "summary.json"))), want)
    finally:
        for p in reversed(procs):
            p.terminate()
        for p in procs:
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                p.kill()

    # 6. Usage errors.
    code, out, err = run(ks, "bench", "--resume", runA, suite, env=env)
    check("--resume refuses a suite (exit 64)", code == 64 and "leave out the suite" in err, err)
    code, out, err = run(ks, "bench", "--resume", runA, "--samples", "3", env=env)
    check("--resume refuses a different --samples (exit 64)", code == 64 and "leave out --samples" in err, err)
    code, out, err = run(ks, "bench", *common, "--out", runA, env=env)
    check("--out of an existing run is refused (exit 64)", code == 64 and "--resume" in err, err)
    code, out, err = run(ks, "bench", "--specs", suite, "--provider", "replay", "--out", os.path.join(tmp, "r"), env=env)
    check("--provider replay on specs without a bundled transcript is refused, naming them",
          code == 64 and "relu" in err and "vec_add" not in err.split("none:")[1].split("(")[0], err)
    bad = os.path.join(tmp, "bad")
    os.makedirs(bad)
    open(os.path.join(bad, "broken.smt"), "w").write("(spec broken (dims N)\n")
    code, out, err = run(ks, "bench", "--specs", bad, "--provider", "replay", "--out", os.path.join(tmp, "b"), env=env)
    check("a malformed spec in the suite: exit 65", code == 65, err)
    code, out, err = run(ks, "bench", *common, "--out", os.path.join(tmp, "s"), "--slurm",
                         env=dict(env, PATH="/nonexistent"))
    check("--slurm without sbatch on PATH: exit 64 naming sbatch", code == 64 and "sbatch" in err, err)
    code, out, err = run(ks, "bench", "report", tmp, env=env)
    check("bench report on a folder that is no run: exit 64", code == 64, err)

    shutil.rmtree(tmp, ignore_errors=True)
    server.shutdown()
    return CHECKS.summary()


if __name__ == "__main__":
    sys.exit(main())
