// synth/ bench report: the summaries of one or more bench runs (bench_metrics.h; one per
// model, say) as a Markdown page and as one self-contained HTML page (inline CSS, SVG plots:
// pass@k per stage, repair curves, the correctness-illusion rate per run; no script, no
// file or font fetched). Every run's origin is stated on both: a replayed or authored
// transcript, or whatever note the run was given, is never shown as a live model's output.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace ksynth::synth::bench {

// A share as "12.5%"; `none` when it is not a number (not measured, nothing to count).
std::string percentText(const nlohmann::json &share, const std::string &none);

std::string markdownReport(const std::vector<nlohmann::json> &summaries);
std::string htmlReport(const std::vector<nlohmann::json> &summaries);

} // namespace ksynth::synth::bench
