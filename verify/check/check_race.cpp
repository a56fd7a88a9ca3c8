// Safety checker: data races (replayRace, checkRaces).

#include "verify/check/checker_internal.h"

#include <algorithm>
#include <map>
#include <set>

namespace ksynth::check::checker_detail {

// ---- race -------------------------------------------------------------------------------

bool Checker::sameInterval(const interp::Event &a, const interp::Event &b, bool sameBlk, bool sameWrp) {
  if (!sameBlk)
    return a.gridBarriers == b.gridBarriers;
  if (a.blockBarriers != b.blockBarriers)
    return false;
  return !sameWrp || a.warpBarriers == b.warpBarriers;
}

// Replays the solver's model of a race between accesses `a` (thread 1) and `b` (thread 2)
// on the concrete interpreter; true (the obligation refuted, with its witness) only if the
// two threads really reach them at one address in one barrier interval, not depending on
// values loaded from memory. Otherwise `why` says what stopped it.
bool Checker::replayRace(RaceAccess a, RaceAccess b, bool shared, const smt::Assignment &m, Obligation &ob, std::string &why) {
  const ir::Stmt *sa = a.stmt, *sb = b.stmt;
  bool wa = a.write, wb = b.write, aa = a.atomic, ab = b.atomic;
  interp::Env env = envFrom(m);
  interp::ThreadId i1 = threadFrom(t1_, m), i2 = threadFrom(t2_, m);
  const std::set<const ir::Stmt *> pair{sa, sb};
  interp::Env only = env;
  only.recordOnly = &pair;
  auto lin = [&](const interp::ThreadId &t) {
    return t.thread.x + env.block.x * (t.thread.y + env.block.y * t.thread.z);
  };
  // Each run counts the warp barriers that order it with the other thread (a partial mask
  // must name the other's lane).
  only.peerLane = static_cast<int>(lin(i2) % 32);
  interp::Trace tr1 = interp::runThread(k_, only, i1);
  only.peerLane = static_cast<int>(lin(i1) % 32);
  interp::Trace tr2 = interp::runThread(k_, only, i2);
  bool sameBlk = i1.block.x == i2.block.x && i1.block.y == i2.block.y && i1.block.z == i2.block.z;
  bool sameWrp = sameBlk && lin(i1) / 32 == lin(i2) / 32;
  auto report = [&](const interp::Event &e1, const interp::Event &e2, const std::string &how) {
    std::string arrName = k_.arrays[e1.array].name;
    ob.reason = std::string("data race on ") + (shared ? "shared" : "global") + " array '" +
                arrName + "'";
    ob.loc = sa->loc;
    auto acc = [&](const interp::Event &e, const interp::ThreadId &t, bool w, bool at,
                   const ir::Stmt *s) {
      std::string verb = at ? "atomically updates" : w ? "writes" : "reads";
      return threadText(t, env) + " " + verb + " " + arrName + "[" +
             std::to_string(e.flat) + "] (as " + s->text + ")" + iterText(e, s->text);
    };
    ob.notes.push_back({sa->loc, acc(e1, i1, wa, aa, sa)});
    ob.notes.push_back({sb->loc, acc(e2, i2, wb, ab, sb)});
    ob.notes.push_back({{}, std::string(sameBlk ? "no barrier separates them"
                                                : "the threads are in different blocks, which never synchronise") +
                                how + "; " + sizesText(env)});
    if (sa->warpCollective || sb->warpCollective)
      ob.notes.push_back({{}, "a WMMA load or store is the whole warp's: CUDA does not say which lane accesses "
                              "which element, so another lane of the warp may make it (__syncwarp() orders them)"});
    ob.witness = witnessJson(env, {i1, i2});
    ob.witness["address"] = e1.flat;
    ob.witness["accesses"] = {{{"line", sa->loc.line}, {"col", sa->loc.col}, {"write", wa}},
                              {{"line", sb->loc.line}, {"col", sb->loc.col}, {"write", wb}}};
    for (auto [n, l] : {std::pair{0, &sa->loc}, std::pair{1, &sb->loc}})
      if (!l->file.empty())
        ob.witness["accesses"][n]["file"] = l->file;
    return true;
  };
  // Thread 2's accesses at sb by cell, so long traces (big trip
  // counts) cost linear time, not quadratic.
  auto byCell = [](const interp::Trace &t, const ir::Stmt *st) {
    std::multimap<std::pair<int, int64_t>, const interp::Event *> m;
    for (const interp::Event &e : t.events)
      if (e.kind == interp::EventKind::Access && e.stmt == st)
        m.emplace(std::make_pair(e.array, e.flat), &e);
    return m;
  };
  auto cells2 = byCell(tr2, sb);
  for (const interp::Event &e1 : tr1.events) {
    if (e1.kind != interp::EventKind::Access || e1.stmt != sa)
      continue;
    auto range = cells2.equal_range({e1.array, e1.flat});
    for (auto it = range.first; it != range.second; ++it) {
      const interp::Event &e2 = *it->second;
      if (shared && !sameBlk)
        continue;
      if (!sameInterval(e1, e2, sameBlk, sameWrp))
        continue;
      if (!e1.taint.empty() || !e2.taint.empty()) {
        why = "depends on " + (e1.taint.empty() ? e2.taint : e1.taint);
        continue;
      }
      return report(e1, e2, "");
    }
  }
  // Values read from memory are abstract in the replay above. Run the two
  // threads one after the other instead — the first to its end without
  // meeting a barrier, the second from the memory the first left — which
  // is a real schedule, so what they read is what a GPU could read.
  if (!why.empty() && !(shared && !sameBlk)) {
    // Returns the two conflicting events (of thread 1 and thread 2) and
    // which thread ran first, starting from initial memory `mem`.
    struct Joint {
      interp::Event e1, e2;
      int first = -1;
      std::set<std::pair<int, int64_t>> read; // shared/global cells read
    };
    auto joint = [&](const std::map<std::pair<int, int64_t>, interp::Value> &mem) {
      Joint j;
      for (int order = 0; order < 2 && j.first < 0; ++order) {
        const interp::ThreadId &first = order == 0 ? i1 : i2, &second = order == 0 ? i2 : i1;
        interp::Env ex = env;
        ex.memory = mem;
        ex.exactMemory = true;
        interp::Trace tf = interp::runThread(k_, ex, first);
        bool barrier = false;
        for (const interp::Event &e : tf.events)
          barrier |= e.kind == interp::EventKind::Barrier;
        if (barrier || !tf.completed)
          continue;
        for (const auto &[key, v] : tf.writes)
          ex.memory[key] = v;
        interp::Trace ts = interp::runThread(k_, ex, second);
        const interp::Trace &t1r = order == 0 ? tf : ts, &t2r = order == 0 ? ts : tf;
        for (const interp::Trace *t : {&tf, &ts})
          for (const interp::Event &e : t->events)
            if (e.kind == interp::EventKind::Access && (!e.isWrite || e.isAtomic) && e.array >= 0 &&
                k_.arrays[e.array].space != ir::Space::Local)
              j.read.insert({e.array, e.flat});
        auto joint2 = byCell(t2r, sb);
        for (const interp::Event &e1 : t1r.events) {
          if (e1.kind != interp::EventKind::Access || e1.stmt != sa || !e1.taint.empty())
            continue;
          auto range = joint2.equal_range({e1.array, e1.flat});
          for (auto it = range.first; it != range.second; ++it) {
            const interp::Event &e2 = *it->second;
            if (!e2.taint.empty())
              continue;
            const interp::Event &es = order == 0 ? e2 : e1;
            if (es.blockBarriers || es.warpBarriers || es.gridBarriers)
              continue; // the second thread passed a barrier the first never reached
            if (j.first < 0) {
              j.e1 = e1;
              j.e2 = e2;
              j.first = order;
            }
          }
        }
      }
      return j;
    };
    auto memText = [&](const std::map<std::pair<int, int64_t>, interp::Value> &mem) {
      std::string cells;
      for (auto &[key, v] : mem)
        if (k_.arrays[key.first].space != ir::Space::Local && cells.size() < 200)
          cells += (cells.empty() ? "" : ", ") + k_.arrays[key.first].name + "[" +
                   std::to_string(key.second) + "]=" +
                   (v.kind == interp::Value::Kind::Float ? std::to_string(v.f)
                                                         : smt::toString(v.i));
      return cells.empty() ? std::string("memory all zero") : "memory " + cells + " (other cells zero)";
    };
    Joint found = joint(env.memory);
    if (found.first >= 0) {
      // A race that needs particular memory contents (e.g. equal
      // indices in an index array) is input-dependent: reported with
      // its witness but as unknown. One that shows with other contents
      // too (all zero; the same cells scrambled) does not hinge on them.
      std::map<std::pair<int, int64_t>, interp::Value> zero, scrambled;
      uint64_t h = 0x9e3779b97f4a7c15ull;
      for (const auto &key : found.read) {
        h = h * 6364136223846793005ull + 1442695040888963407ull;
        interp::Value x;
        auto known = env.memory.find(key);
        if (known != env.memory.end())
          x = known->second;
        else if (k_.arrays[key.first].elem.isFloat())
          x.kind = interp::Value::Kind::Float;
        if (x.kind == interp::Value::Kind::Float)
          x.f = static_cast<double>(static_cast<int64_t>(h >> 40) % 1000) / 7.0;
        else
          x.i = static_cast<int64_t>(h >> 33) % 100000 - 50000;
        scrambled[key] = x;
      }
      bool robust = joint(zero).first >= 0 && joint(scrambled).first >= 0;
      const interp::ThreadId &first = found.first == 0 ? i1 : i2, &second = found.first == 0 ? i2 : i1;
      std::string how = "; " + threadText(first, env) + " runs to its end first, then " +
                        threadText(second, env) + " starts";
      if (robust) {
        std::vector<std::string> tried{memText(env.memory)};
        for (const std::string &t : {memText(zero), memText(scrambled)})
          if (std::find(tried.begin(), tried.end(), t) == tried.end())
            tried.push_back(t);
        std::string list;
        for (size_t n = 0; n < tried.size(); ++n)
          list += (n ? (n + 1 == tried.size() ? " and with " : ", with ") : "with ") + tried[n];
        return report(found.e1, found.e2,
                      how + "; it does not hinge on what memory holds (replayed " + list + ")");
      }
      why = "depends on the contents of memory: with " + memText(env.memory) + ", " +
            threadText(i1, env) + " and " + threadText(i2, env) + " both access " +
            k_.arrays[found.e1.array].name + "[" + std::to_string(found.e1.flat) + "]" + how;
    }
  }
  if (why.empty())
    why = "the threads did not reach conflicting accesses when run concretely" +
          (tr1.stopReason.empty() ? std::string() : " (" + tr1.stopReason + ")");
  return false;
}

void Checker::checkRaces() {
  std::map<int, std::vector<std::pair<size_t, size_t>>> pairs;
  for (size_t a = 0; a < m1_.accesses.size(); ++a)
    for (size_t b = 0; b < m2_.accesses.size(); ++b) {
      const AccessSite &x = m1_.accesses[a], &y = m2_.accesses[b];
      if (!x.write && !y.write)
        continue;
      if (x.atomic && y.atomic)
        continue;
      int arr = x.array >= 0 ? x.array : y.array;
      if (x.array != y.array && x.array >= 0 && y.array >= 0)
        continue;
      pairs[arr].push_back({a, b});
    }
  // Two accesses through pointers that resolve to no known array may still meet (loaded
  // pointers): nothing can be claimed about them.
  if (auto un = pairs.find(-2); un != pairs.end() && !un->second.empty()) {
    const AccessSite &x = m1_.accesses[un->second.front().first];
    Obligation o;
    o.kind = Kind::Race;
    o.name = "race.unresolved";
    o.loc = x.stmt->loc;
    o.status = Status::Unknown;
    o.reason = "accesses through pointers that could not be resolved to an array (e.g. at " +
               std::to_string(x.stmt->loc.line) + ":" + std::to_string(x.stmt->loc.col) + ") may conflict";
    rep_.obligations.push_back(o);
  }
  for (size_t arrId = 0; arrId < k_.arrays.size(); ++arrId) {
    const ir::Array &arr = k_.arrays[arrId];
    if (arr.space == ir::Space::Local || arr.space == ir::Space::Constant)
      continue;
    Obligation o;
    o.kind = Kind::Race;
    o.name = "race." + arr.name;
    o.loc = arr.loc;
    auto it = pairs.find(static_cast<int>(arrId));
    if (it == pairs.end()) {
      o.status = Status::Proven;
      rep_.obligations.push_back(o);
      continue;
    }
    bool shared = arr.space == ir::Space::Shared;
    std::vector<Candidate> cands;
    for (auto [a, b] : it->second) {
      const AccessSite &x = m1_.accesses[a], &y = m2_.accesses[b];
      if (!x.pointerKnown || !y.pointerKnown) {
        o.status = Status::Unknown;
        const ir::Stmt *u = !x.pointerKnown ? x.stmt : y.stmt;
        o.reason = "pointer at " + std::to_string(u->loc.line) + ":" + std::to_string(u->loc.col) +
                   " could not be resolved to one array";
        break;
      }
      Term sync = tc_.mkAnd({sameBlock(), tc_.eq(x.bc, y.bc), tc_.implies(sameWarp(), tc_.eq(x.wc, y.wc))});
      if (!shared) // other blocks: only grid barriers separate them
        sync = tc_.mkOr(tc_.mkAnd(tc_.mkNot(sameBlock()), tc_.eq(x.gc, y.gc)), sync);
      std::vector<Term> hints;
      delineariseNested(tc_, x.flat, y.flat, hints);
      recomposition(tc_, x.flat, hints);
      recomposition(tc_, y.flat, hints);
      // A WMMA access is the warp's (which lane makes it is not specified): against another
      // access, even the same lane's, it races unless a barrier comes between.
      bool collective = (x.stmt->warpCollective || y.stmt->warpCollective) && x.stmt != y.stmt;
      Term threads = collective ? tc_.mkOr(distinctThreads(), sameWarp()) : distinctThreads();
      Term c = tc_.mkAnd({x.pc, y.pc, tc_.eq(x.flat, y.flat), threads, sync, tc_.mkAnd(hints)});
      const ir::Stmt *sa = x.stmt, *sb = y.stmt;
      bool wa = x.write, wb = y.write, aa = x.atomic, ab = y.atomic;
      cands.push_back({c, [=, this](const smt::Assignment &m, Obligation &ob, std::string &why) {
                         return replayRace({sa, wa, aa}, {sb, wb, ab}, shared, m, ob, why);
                       }});
    }
    if (o.status == Status::Unknown && !o.reason.empty()) {
      rep_.obligations.push_back(o);
      continue;
    }
    decide(o, cands);
    rep_.obligations.push_back(o);
  }
}

} // namespace ksynth::check::checker_detail
