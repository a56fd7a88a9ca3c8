#include "synth/prompt.h"

#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>

namespace ksynth::synth {

namespace {

const std::vector<std::pair<std::string, std::string>> &rawTemplates() {
  static const std::vector<std::pair<std::string, std::string>> t = {
#include "synth_prompts.inc"
  };
  return t;
}

const std::string &raw(const std::string &name) {
  for (const auto &[n, text] : rawTemplates())
    if (n == name)
      return text;
  std::fprintf(stderr, "%s:%d: internal error: no prompt template '%s'\n", __FILE__, __LINE__, name.c_str());
  std::abort();
}

const char *cType(spec::ElemType t) {
  switch (t) {
  case spec::ElemType::F16: return "__half";
  case spec::ElemType::BF16: return "__nv_bfloat16";
  case spec::ElemType::F32: return "float";
  case spec::ElemType::F64: return "double";
  case spec::ElemType::I8: return "signed char";
  case spec::ElemType::I16: return "short";
  case spec::ElemType::I32: return "int";
  case spec::ElemType::I64: return "long long";
  case spec::ElemType::U8: return "unsigned char";
  case spec::ElemType::U16: return "unsigned short";
  case spec::ElemType::U32: return "unsigned int";
  case spec::ElemType::U64: return "unsigned long long";
  }
  return "float";
}

} // namespace

std::string promptTemplate(const std::string &name) {
  const std::string &text = raw(name);
  size_t pos = 0;
  while (text.compare(pos, 2, "# ") == 0) {
    size_t nl = text.find('\n', pos);
    pos = nl == std::string::npos ? text.size() : nl + 1;
  }
  return text.substr(pos);
}

std::string promptVersion() {
  const std::string &text = raw("system");
  const std::string tag = "# ksynth prompt ";
  if (text.compare(0, tag.size(), tag) != 0)
    return "unversioned";
  size_t end = text.find_first_of(":\n ", tag.size());
  return text.substr(tag.size(), end == std::string::npos ? std::string::npos : end - tag.size());
}

std::string fill(const std::string &tmpl, const std::map<std::string, std::string> &values, std::string *missing) {
  std::string out;
  size_t pos = 0;
  while (true) {
    size_t open = tmpl.find("{{", pos);
    if (open == std::string::npos) {
      out += tmpl.substr(pos);
      break;
    }
    size_t close = tmpl.find("}}", open + 2);
    if (close == std::string::npos) {
      out += tmpl.substr(pos);
      break;
    }
    out += tmpl.substr(pos, open - pos);
    std::string key = tmpl.substr(open + 2, close - open - 2);
    auto it = values.find(key);
    if (it != values.end()) {
      out += it->second;
    } else {
      out += tmpl.substr(open, close + 2 - open);
      if (missing)
        *missing += (missing->empty() ? "" : ", ") + key;
    }
    pos = close + 2;
  }
  return out;
}

std::string kernelSignature(const spec::Spec &s) {
  std::vector<std::string> params;
  for (const spec::Tensor &t : s.tensors)
    params.push_back(std::string(t.mode == spec::Mode::In ? "const " : "") + cType(t.type) + " *" + t.name);
  for (const spec::Scalar &x : s.scalars)
    params.push_back(std::string(cType(x.type)) + " " + x.name);
  for (const spec::Dim &d : s.dims)
    params.push_back("int " + d.name);
  std::string sig = "__global__ void " + s.name + "(";
  for (size_t i = 0; i < params.size(); ++i)
    sig += (i ? ", " : "") + params[i];
  return sig + ")";
}

std::string taskPrompt(const spec::Spec &s, const std::string &specFile, const std::string &specText) {
  std::string dims;
  for (size_t i = 0; i < s.dims.size(); ++i)
    dims += (i ? ", " : "") + ("`" + s.dims[i].name + "`");
  std::string dimsText = s.dims.empty() ? "the kernel has no size parameters."
                                        : dims + " (each at least 1, within the specification's assumptions).";
  std::string text = specText;
  while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
    text.pop_back();
  std::string explanation = spec::explain(s);
  while (!explanation.empty() && explanation.back() == '\n')
    explanation.pop_back();
  return fill(promptTemplate("task"), {{"spec_name", s.name},
                                       {"explanation", explanation},
                                       {"spec_file", specFile},
                                       {"spec_text", text},
                                       {"signature", kernelSignature(s) + ";"},
                                       {"dims_text", dimsText}});
}

} // namespace ksynth::synth
