#include "synth/fixture.h"

#include "models/transcript.h"
#include "models/wire.h"

#include <cstdlib>
#include <fstream>

#ifndef KSYNTH_FIXTURE_DIR
#define KSYNTH_FIXTURE_DIR "synth/fixtures"
#endif

namespace ksynth::synth {

std::string fixtureDir() {
  const char *d = std::getenv("KSYNTH_FIXTURE_DIR");
  return d && *d ? d : KSYNTH_FIXTURE_DIR;
}

using nlohmann::json;

bool readFixtureInfo(const std::string &path, FixtureInfo &info, std::string &error) {
  std::ifstream in(path);
  std::string first;
  if (!in || !std::getline(in, first)) {
    error = "cannot read '" + path + "'";
    return false;
  }
  try {
    json h = json::parse(first);
    if (h.value("type", "") == "header") {
      info.authored = h.value("authored", false);
      info.spec = h.value("spec", "");
      info.note = h.value("source", "");
    }
  } catch (const json::exception &e) {
    error = path + ":1: not a JSON line: " + e.what();
    return false;
  }
  return true;
}

std::unique_ptr<FixtureClient> FixtureClient::open(const std::string &path,
                                                   std::shared_ptr<models::Transcript> transcript,
                                                   std::string &error, models::Client *fallback,
                                                   bool okOnly) {
  models::TranscriptContents contents;
  if (!models::readTranscript(path, contents, error))
    return nullptr;
  auto c = std::unique_ptr<FixtureClient>(new FixtureClient());
  c->path_ = path;
  c->transcript_ = std::move(transcript);
  c->fallback_ = fallback;
  for (size_t i = 0; i < contents.records.size(); ++i) {
    const json &j = contents.records[i];
    if (j.value("type", "") != "exchange")
      continue;
    Rec r;
    r.line = contents.lines[i];
    try {
      r.conversation = j.at("conversation");
      r.sample = j.value("sample", 0);
      r.model = j.value("model", "");
      r.reply = models::replyFromJson(j.at("reply"));
      for (const json &t : r.conversation.at("turns"))
        (void)t.at("role").get<std::string>(), (void)t.at("text").get<std::string>();
    } catch (const json::exception &e) {
      error = path + ":" + std::to_string(r.line) + ": not a valid exchange record: " + e.what();
      return nullptr;
    }
    c->recs_.push_back(std::move(r));
  }
  if (okOnly) {
    // Resuming: a reply cut at the token limit was a candidate, and a failed request the run
    // went on past (another sample carried the round) shaped what followed: both are
    // replayed as they were. A failed request the run stopped at is asked again.
    std::vector<Rec> kept;
    for (size_t i = 0; i < c->recs_.size(); ++i) {
      const Rec &r = c->recs_[i];
      bool wentOn = false;
      for (size_t j = i + 1; j < c->recs_.size() && !wentOn; ++j)
        wentOn = c->recs_[j].conversation.at("turns").size() > r.conversation.at("turns").size();
      if (r.reply.ok() || r.reply.error.kind == models::ErrorKind::TokenLimit || wentOn)
        kept.push_back(r);
    }
    c->recs_ = std::move(kept);
  }
  if (c->recs_.empty() && !fallback) {
    error = path + " holds no exchanges";
    return nullptr;
  }
  return c;
}

std::string FixtureClient::describe() const {
  return "replay of the authored fixture " + path_ + " (" + std::to_string(recs_.size()) +
         " hand-written replies, matched by round)";
}

models::Reply FixtureClient::send(const models::Conversation &conversation, int sample) {
  json now = models::toJson(conversation);
  models::Reply reply;
  const Rec *hit = nullptr;
  bool differs = false;
  {
    std::lock_guard<std::mutex> lock(mu_);
    const json &nt = now.at("turns");
    // Why recording r cannot answer this request ("" if it can); `differs`: only the user
    // turns' wording differs (ksynth's own text may change between versions).
    auto mismatch = [&](const Rec &r, bool &wording) {
      const json &rt = r.conversation.at("turns");
      wording = false;
      for (size_t i = 0; i < rt.size(); ++i) {
        std::string role = rt[i].value("role", "");
        if (role != nt[i].value("role", ""))
          return "turn " + std::to_string(i + 1) + " is " + role + " in the recording, " + nt[i].value("role", "") +
                 " in the request";
        if (role == "assistant" && rt[i].value("text", "") != nt[i].value("text", ""))
          return "turn " + std::to_string(i + 1) + " (the model's reply) differs from the recording";
        if (role == "user" && rt[i].value("text", "") != nt[i].value("text", ""))
          wording = true;
      }
      return std::string();
    };
    // Of the unused recordings of this sample at this length, the first that matches exactly,
    // else the first that matches but for ksynth's wording; else the first, to say why not.
    Rec *cand = nullptr, *loose = nullptr, *first = nullptr;
    for (Rec &r : recs_) {
      if (r.used || r.sample != sample || r.conversation.at("turns").size() != nt.size())
        continue;
      bool wording = false;
      std::string w = mismatch(r, wording);
      if (!first)
        first = &r;
      if (w.empty() && !wording) {
        cand = &r;
        break;
      }
      if (w.empty() && !loose)
        loose = &r;
    }
    if (!cand)
      cand = loose ? loose : first;
    std::string why;
    if (!cand) {
      size_t rounds = 0;
      for (const Rec &r : recs_)
        rounds += r.sample == sample;
      why = "replay: the fixture " + path_ + " has no reply for round " + std::to_string((nt.size() + 1) / 2) +
            (sample ? " of sample " + std::to_string(sample + 1) + " (transcript \"sample\": " + std::to_string(sample) + ")" : "") + " (it holds " + std::to_string(rounds) +
            " round(s)); the run asked for one more";
    } else {
      why = mismatch(*cand, differs);
      if (!why.empty())
        why = "replay: round " + std::to_string((nt.size() + 1) / 2) + " does not follow the fixture " + path_ +
              " (line " + std::to_string(cand->line) + "): " + why;
    }
    if (why.empty()) {
      cand->used = true;
      hit = cand;
      reply = hit->reply;
      wordingDiffers_ += differs;
      ++answered_;
    } else if (!fallback_) {
      reply.error.kind = cand ? models::ErrorKind::ReplayDiverged : models::ErrorKind::ReplayExhausted;
      reply.error.message = why;
    }
  }
  if (!hit && fallback_)
    return fallback_->send(conversation, sample);
  reply.replayed = true;
  if (transcript_) {
    json rec = {{"type", "exchange"},      {"provider", "replay"}, {"replayed_from", path_},
                {"replay_match", "round"}, {"sample", sample},     {"conversation", now},
                {"reply", models::toJson(reply)}};
    if (hit) {
      rec["replayed_line"] = hit->line;
      rec["model"] = hit->model;
      rec["user_turns_differ"] = differs;
    }
    if (!transcript_->append(std::move(rec)))
      reply.transcriptError = transcript_->lastError();
  }
  return reply;
}

} // namespace ksynth::synth
