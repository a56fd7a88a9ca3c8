// Provider "replay": answers from a recorded JSONL transcript (transcript.h) instead of a
// server. A send() gets the first unused recorded exchange whose conversation, sample
// index (and model, when ModelConfig::model is set) are identical; the reply — text,
// usage, timings, ids and any recorded error — comes back exactly as recorded, marked
// `replayed`. A conversation that matches no remaining recording is refused with
// ReplayDiverged, naming the first difference from the next unused recording.
#pragma once

#include "models/client.h"

namespace ksynth::models {

std::unique_ptr<Client> makeReplayClient(const ClientOptions &options, Error &error);

} // namespace ksynth::models
