// synth/ replay of authored fixtures: transcripts shipped with ksynth whose replies a person
// wrote (their header says "authored": true), so that the whole loop runs offline. Their
// verdicts are never stored: the loop verifies every replayed candidate.
//
// Matching is by round structure, not by text, so that a change in the wording of ksynth's
// own prompts or counterexamples does not break the demo: a request gets the first unused
// recorded exchange of its sample with the same number of turns (round n sends 2n - 1),
// and must have the same roles and assistant turns identical to the recorded ones (the
// model's side of the conversation is what the fixture fixes). A request whose user turns
// differ in wording is answered and counted (wordingDiffers); any other mismatch is
// ReplayDiverged, and a request for a round the recording lacks ReplayExhausted.
// Transcripts that are recordings of real runs are replayed exactly (models/replay.h).
//
// `--resume DIR` uses the same matching over the run's own transcript, with the live
// client as `fallback`: recorded rounds are answered from the transcript (not sent again,
// not appended again), the first round it lacks goes to the live client.
#pragma once

#include "models/client.h"

#include <nlohmann/json.hpp>

#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace ksynth::synth {

struct FixtureInfo {
  bool authored = false;
  std::string spec; // the spec the fixture was written for ("" when the header names none)
  std::string note; // the header's description
};

// Reads the header of a transcript (first line). False and `error` set when unreadable.
bool readFixtureInfo(const std::string &path, FixtureInfo &info, std::string &error);

// Where the bundled authored transcripts live: $KSYNTH_FIXTURE_DIR, else synth/fixtures of
// the source tree this was built from.
std::string fixtureDir();

class FixtureClient : public models::Client {
public:
  // Null and `error` set when the file has no exchanges or cannot be read.
  // `transcript`: where replayed exchanges are recorded (null: nowhere). `fallback`: asked
  // whenever no recording matches (then nothing is refused). `okOnly`: skip recorded
  // exchanges that ended in an error.
  static std::unique_ptr<FixtureClient> open(const std::string &path,
                                             std::shared_ptr<models::Transcript> transcript,
                                             std::string &error, models::Client *fallback = nullptr,
                                             bool okOnly = false);
  models::Reply send(const models::Conversation &conversation, int sample = 0) override;
  std::string describe() const override;
  // Requests answered although their user turns differed in wording from the recording.
  int wordingDiffers() const { return wordingDiffers_; }
  // Requests answered from the recording.
  int answered() const { return answered_; }

private:
  struct Rec {
    nlohmann::json conversation;
    int sample = 0;
    int line = 0;
    std::string model;
    models::Reply reply;
    bool used = false;
  };
  std::string path_;
  std::vector<Rec> recs_;
  models::Client *fallback_ = nullptr;
  int answered_ = 0;
  std::shared_ptr<models::Transcript> transcript_;
  int wordingDiffers_ = 0;
  std::mutex mu_;
};

} // namespace ksynth::synth
