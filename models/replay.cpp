#include "models/replay.h"

#include "models/transcript.h"
#include "models/wire.h"

#include <mutex>

namespace ksynth::models {

using nlohmann::json;

namespace {

struct Recorded {
  json conversation;
  int sample = 0;
  std::string model;
  Reply reply;
  int line = 0;
  bool used = false;
};

std::string quoteAround(const std::string &s, size_t at) {
  size_t from = at > 30 ? at - 30 : 0;
  std::string out = (from > 0 ? "..." : "") + s.substr(from, 60);
  if (from + 60 < s.size())
    out += "...";
  std::string esc;
  for (char c : out)
    esc += c == '\n' ? std::string("\\n") : std::string(1, c);
  return "'" + esc + "'";
}

// "<what> differs at character N: recorded '...' now '...'", or "" when equal.
std::string textDiff(const std::string &what, const std::string &rec, const std::string &now) {
  if (rec == now)
    return "";
  size_t i = 0;
  while (i < rec.size() && i < now.size() && rec[i] == now[i])
    ++i;
  return what + " differs at character " + std::to_string(i + 1) + ": recorded " +
         quoteAround(rec, i) + ", now " + quoteAround(now, i);
}

std::string conversationDiff(const json &rec, const json &now) {
  if (auto d = textDiff("the system prompt", rec.value("system", ""), now.value("system", ""));
      !d.empty())
    return d;
  const json &rt = rec.at("turns"), &nt = now.at("turns");
  for (size_t i = 0; i < rt.size() && i < nt.size(); ++i) {
    std::string role = rt[i].value("role", "");
    std::string what = "turn " + std::to_string(i + 1) + " (" + role + ")";
    if (role != nt[i].value("role", ""))
      return what + " has role " + nt[i].value("role", "") + " now";
    if (auto d = textDiff(what, rt[i].value("text", ""), nt[i].value("text", "")); !d.empty())
      return d;
  }
  if (rt.size() != nt.size())
    return "the recording has " + std::to_string(rt.size()) + " turns, the conversation " +
           std::to_string(nt.size());
  return "";
}

class ReplayClient : public Client {
public:
  ReplayClient(ClientOptions opts, std::vector<Recorded> recs)
      : opts_(std::move(opts)), recs_(std::move(recs)) {}

  std::string describe() const override {
    return "replay of " + opts_.model.replayPath + " (" + std::to_string(recs_.size()) +
           " exchanges)";
  }

  Reply send(const Conversation &conv, int sample) override {
    json now = toJson(conv);
    const std::string &model = opts_.model.model;
    Reply reply;
    const Recorded *hit = nullptr;
    {
      std::lock_guard<std::mutex> lock(mu_);
      for (auto &r : recs_) {
        if (!r.used && r.sample == sample && (model.empty() || r.model == model) &&
            r.conversation == now) {
          r.used = true;
          hit = &r;
          break;
        }
      }
      if (hit)
        reply = hit->reply;
      else
        reply.error = refusal(now, sample);
    }
    reply.replayed = true;
    if (opts_.transcript) {
      json rec = {{"type", "exchange"},
                  {"provider", "replay"},
                  {"replayed_from", opts_.model.replayPath},
                  {"model", hit ? hit->model : model},
                  {"sample", sample},
                  {"conversation", now},
                  {"reply", toJson(reply)}};
      if (hit)
        rec["replayed_line"] = hit->line;
      if (!opts_.transcript->append(std::move(rec)))
        reply.transcriptError = opts_.transcript->lastError();
    }
    return reply;
  }

private:
  // Why nothing matched; called with mu_ held.
  Error refusal(const json &now, int sample) const {
    Error e;
    const std::string &path = opts_.model.replayPath;
    const Recorded *next = nullptr;
    for (const auto &r : recs_)
      if (!r.used && r.sample == sample) {
        next = &r;
        break;
      }
    if (!next)
      for (const auto &r : recs_)
        if (!r.used) {
          next = &r;
          break;
        }
    if (!next) {
      e.kind = ErrorKind::ReplayExhausted;
      e.message = "replay: " + path + " has no exchange left (all " + std::to_string(recs_.size()) +
                  " used); the run asked for one more";
      return e;
    }
    e.kind = ErrorKind::ReplayDiverged;
    std::string why = conversationDiff(next->conversation, now);
    if (why.empty() && next->sample != sample)
      why = "the recording has no sample " + std::to_string(sample) + " of this conversation";
    if (why.empty() && !opts_.model.model.empty() && next->model != opts_.model.model)
      why = "model differs: recorded " + next->model + ", now " + opts_.model.model;
    e.message = "replay: the conversation diverges from the recording " + path +
                " (next unused exchange, line " + std::to_string(next->line) + "): " + why;
    return e;
  }

  ClientOptions opts_;
  std::mutex mu_;
  std::vector<Recorded> recs_;
};

} // namespace

std::unique_ptr<Client> makeReplayClient(const ClientOptions &options, Error &error) {
  error = Error{};
  error.kind = ErrorKind::Config;
  const std::string &path = options.model.replayPath;
  if (path.empty()) {
    error.message = "replay: no transcript to replay (set the replay path)";
    return nullptr;
  }
  TranscriptContents contents;
  std::string err;
  if (!readTranscript(path, contents, err)) {
    error.message = "replay: " + err;
    return nullptr;
  }
  std::vector<Recorded> recs;
  for (size_t i = 0; i < contents.records.size(); ++i) {
    const json &j = contents.records[i];
    if (j.value("type", "") != "exchange")
      continue;
    Recorded r;
    r.line = contents.lines[i];
    try {
      // Normalised through Conversation, so hand-written files may omit empty fields.
      const json &c = j.at("conversation");
      Conversation conv;
      conv.system = c.value("system", "");
      for (const json &t : c.at("turns")) {
        std::string role = t.at("role").get<std::string>();
        if (role != "user" && role != "assistant")
          throw json::other_error::create(501, "turn role '" + role + "'", &t);
        conv.turns.push_back(
            {role == "user" ? Role::User : Role::Assistant, t.at("text").get<std::string>()});
      }
      r.conversation = toJson(conv);
      r.sample = j.value("sample", 0);
      r.model = j.value("model", "");
      r.reply = replyFromJson(j.at("reply"));
    } catch (const json::exception &ex) {
      error.message = "replay: " + path + ":" + std::to_string(r.line) +
                      ": not a valid exchange record: " + ex.what();
      return nullptr;
    }
    recs.push_back(std::move(r));
  }
  if (recs.empty()) {
    error.message = "replay: " + path + " holds no exchanges";
    return nullptr;
  }
  error = Error{};
  return std::make_unique<ReplayClient>(options, std::move(recs));
}

} // namespace ksynth::models
