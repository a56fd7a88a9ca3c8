// Frontend: parsing (the clang invocation, the kernels of the file) and the public entry points.
#include "verify/frontend/frontend.h"
#include "verify/frontend/lowerer.h"
#include "util/files.h"
#include "util/sha256.h"

#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/Version.h>
#include <clang/Frontend/ASTUnit.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendActions.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/raw_ostream.h>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <optional>
#include <mutex>
#include <fstream>
#include <sstream>

namespace ksynth::frontend {

static const char *kPrelude =
#include "prelude_data.inc"
    ;

const char *preludeText() { return kPrelude; }

static const char *kPreludePath = "/ksynth-prelude/ksynth_cuda.h";

// ksynth's own headers (verify/frontend/prelude/include/ and hostlibs/), by virtual path.
static const std::pair<const char *, const char *> kHeaders[] = {
#include "prelude_headers.inc"
};

static CudaToolkit lookForToolkit(const std::string &cudaPath);

CudaToolkit findCudaToolkit(const std::string &cudaPath) {
  // Looked for once per process and --cuda-path (a synthesis loop parses many files).
  static std::mutex mu;
  static std::map<std::string, CudaToolkit> found;
  std::lock_guard<std::mutex> lock(mu);
  auto it = found.find(cudaPath);
  if (it == found.end())
    it = found.emplace(cudaPath, lookForToolkit(cudaPath)).first;
  return it->second;
}

static CudaToolkit lookForToolkit(const std::string &cudaPath) {
  CudaToolkit tk;
  if (cudaPath == "none")
    return tk;
  std::vector<std::string> candidates;
  if (!cudaPath.empty()) {
    candidates.push_back(cudaPath);
  } else {
    for (const char *var : {"CUDA_PATH", "CUDA_HOME"})
      if (const char *v = std::getenv(var); v && *v)
        candidates.push_back(v);
    if (const char *path = std::getenv("PATH")) {
      std::stringstream ss(path);
      for (std::string dir; std::getline(ss, dir, ':');) {
        std::error_code ec;
        std::filesystem::path nvcc = std::filesystem::path(dir.empty() ? "." : dir) / "nvcc";
        if (std::filesystem::is_regular_file(nvcc, ec)) {
          auto real = std::filesystem::canonical(nvcc, ec);
          if (!ec)
            candidates.push_back(real.parent_path().parent_path().string());
          break;
        }
      }
    }
    candidates.push_back("/usr/local/cuda");
  }
  for (const std::string &c : candidates) {
    std::error_code ec;
    std::filesystem::path inc = std::filesystem::path(c) / "include";
    std::string api;
    if (!util::readFile(inc / "cuda_runtime_api.h", api))
      continue;
    size_t p = api.find("#define CUDART_VERSION");
    if (p == std::string::npos)
      continue;
    long v = std::strtol(api.c_str() + p + 22, nullptr, 10);
    if (v <= 0)
      continue;
    auto canon = std::filesystem::canonical(inc, ec);
    tk.includeDir = ec ? inc.string() : canon.string();
    tk.version = static_cast<int>(v);
    return tk;
  }
  return tk;
}

// A header's kernels are checked only where the file launches them (parseSource).
bool detail::userCode(const SourceManager &sm, SourceLocation loc) {
  SourceLocation l = sm.getExpansionLoc(loc);
  if (sm.isInMainFile(l))
    return true;
  if (sm.isInSystemHeader(l))
    return false;
  PresumedLoc pl = sm.getPresumedLoc(l);
  if (pl.isInvalid())
    return false;
  std::string f = pl.getFilename();
  return f.rfind("/ksynth-", 0) != 0 && f != "<built-in>" && f != "<command line>";
}

namespace {

struct Collector {
  std::vector<const FunctionDecl *> kernels;
  void visit(const DeclContext *dc, SourceManager &sm) {
    for (const Decl *d : dc->decls()) {
      if (const auto *ns = dyn_cast<NamespaceDecl>(d)) {
        visit(ns, sm);
        continue;
      }
      if (const auto *ls = dyn_cast<LinkageSpecDecl>(d)) {
        visit(ls, sm);
        continue;
      }
      const auto *fd = dyn_cast<FunctionDecl>(d);
      if (const auto *ft = dyn_cast<FunctionTemplateDecl>(d)) {
        // A template kernel is checked once per instance the file makes: an explicit
        // instantiation, a use, or the launch line's kernel=NAME<ARGS> (see launchInstances()).
        if (!ft->getTemplatedDecl()->hasAttr<CUDAGlobalAttr>() || !detail::userCode(sm, ft->getLocation()))
          continue;
        bool any = false;
        for (const FunctionDecl *sp : ft->specializations())
          if (sp->hasBody() && sp->getBody()) {
            kernels.push_back(sp);
            any = true;
          }
        if (!any)
          uninstantiated.push_back(ft->getNameAsString());
        continue;
      }
      if (!fd || !fd->hasAttr<CUDAGlobalAttr>() || !fd->doesThisDeclarationHaveABody())
        continue;
      if (!detail::userCode(sm, fd->getLocation()))
        continue;
      kernels.push_back(fd);
    }
  }
  std::vector<std::string> uninstantiated; // template kernels the file never instantiates
};

// The template instances a launch line asks for: `// ksynth:launch kernel=NAME<ARGS> ...`.
// Each becomes a use of the instance appended to the code (after the last line, so line
// numbers do not move), which makes clang instantiate it.
std::vector<std::string> launchInstances(const std::string &code) {
  std::vector<std::string> out;
  std::istringstream in(code);
  std::string line;
  while (std::getline(in, line)) {
    size_t p = line.find("ksynth:launch");
    if (p == std::string::npos || line.find("//") > p)
      continue;
    size_t k = line.find("kernel=", p);
    if (k == std::string::npos)
      continue;
    size_t i = k + 7, lt = line.find('<', i);
    if (lt == std::string::npos || line.find_first_of(" \t", i) < lt)
      continue; // a plain name: nothing to instantiate
    int depth = 0;
    size_t j = lt;
    for (; j < line.size(); ++j) {
      if (line[j] == '<' || line[j] == '(')
        ++depth;
      else if ((line[j] == '>' || line[j] == ')') && --depth == 0)
        break;
    }
    if (j < line.size())
      out.push_back(line.substr(i, j + 1 - i));
  }
  return out;
}

// The first numeric literal longer than kMaxLiteralChars outside comments and strings (clang
// 19 itself crashes converting a float literal of 100,000 digits): its line, or 0.
unsigned longLiteralLine(const std::string &code) {
  unsigned line = 1;
  auto ident = [](char c) { return isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (size_t i = 0; i < code.size();) {
    char c = code[i];
    if (c == '\n') {
      ++line, ++i;
    } else if (c == '/' && i + 1 < code.size() && code[i + 1] == '/') {
      while (i < code.size() && code[i] != '\n')
        ++i;
    } else if (c == '/' && i + 1 < code.size() && code[i + 1] == '*') {
      for (i += 2; i < code.size() && !(code[i] == '*' && i + 1 < code.size() && code[i + 1] == '/'); ++i)
        line += code[i] == '\n';
      i += 2;
    } else if (c == '"' || c == '\'') {
      for (++i; i < code.size() && code[i] != c && code[i] != '\n'; ++i)
        if (code[i] == '\\')
          ++i;
      ++i;
    } else if (ident(c) && !isdigit(static_cast<unsigned char>(c))) {
      while (i < code.size() && ident(code[i]))
        ++i;
    } else if (isdigit(static_cast<unsigned char>(c)) || (c == '.' && i + 1 < code.size() && isdigit(static_cast<unsigned char>(code[i + 1])))) {
      size_t start = i;
      while (i < code.size() && (ident(code[i]) || code[i] == '.' || code[i] == '\'' ||
                                 ((code[i] == '+' || code[i] == '-') && strchr("eEpP", code[i - 1]))))
        ++i;
      if (i - start > kMaxLiteralChars)
        return line;
    } else {
      ++i;
    }
  }
  return 0;
}

// Where a function body nests statements and expressions deeper than kMaxNesting (the
// lowering, the interpreter and the symbolic executor recurse over that nesting). The
// bodies are walked with an explicit stack: a left-deep sum of 50,000 terms is found, not
// recursed into.
struct NestingScan : RecursiveASTVisitor<NestingScan> {
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool TraverseStmt(Stmt *, DataRecursionQueue * = nullptr) { return true; } // scan() walks bodies
  bool VisitFunctionDecl(FunctionDecl *fd) {
    if (fd->doesThisDeclarationHaveABody() && fd->getBody())
      scan(fd->getBody());
    return !where.isValid();
  }
  void scan(const Stmt *body) {
    std::vector<std::pair<const Stmt *, unsigned>> todo{{body, 1}};
    while (!todo.empty()) {
      auto [s, depth] = todo.back();
      todo.pop_back();
      if (depth > kMaxNesting) {
        where = s->getBeginLoc();
        return;
      }
      for (const Stmt *k : s->children())
        if (k)
          todo.push_back({k, depth + 1});
    }
  }
  SourceLocation where;
};

// The launches the host code makes: `k<<<grid, block>>>(...)`. A dimension is taken when it is
// an integer the host code computes from constants (hostInt: `(n + threads - 1) / threads` with
// `const int n = 1 << 20; int threads = 256;`), in a dim3 built on the spot or held in a
// variable initialised once and never changed (no assignment, ++/--, address taken or
// non-const reference to it in the function); otherwise it stays symbolic. So is the value
// every launch passes to an integer parameter.
class LaunchFinder : public RecursiveASTVisitor<LaunchFinder> {
public:
  LaunchFinder(ASTContext &ctx) : ctx_(ctx) {}
  std::map<const FunctionDecl *, HostLaunch> launches;
  // Launches in template functions and generic lambdas are read in their instances, where the
  // kernel (a template's instance too) and the dimensions are known.
  bool shouldVisitTemplateInstantiations() const { return true; }
  // A generic lambda's instances (`[&](auto c) { k<c.value><<<...>>>(...); }` called with
  // several constants) are not under the lambda expression: each is walked here.
  bool TraverseLambdaExpr(LambdaExpr *l, DataRecursionQueue *q = nullptr) {
    if (const FunctionTemplateDecl *ft = l->getDependentCallOperator())
      for (FunctionDecl *inst : ft->specializations())
        if (inst->doesThisDeclarationHaveABody())
          TraverseStmt(inst->getBody());
    return RecursiveASTVisitor::TraverseLambdaExpr(l, q);
  }

  bool TraverseFunctionDecl(FunctionDecl *fd) {
    const FunctionDecl *saved = fn_;
    fn_ = fd;
    bool r = RecursiveASTVisitor::TraverseFunctionDecl(fd);
    fn_ = saved;
    return r;
  }
  bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *e) {
    const FunctionDecl *k = e->getDirectCallee();
    const CallExpr *cfg = e->getConfig();
    if (!k || !cfg || cfg->getNumArgs() < 2)
      return true;
    std::vector<std::string> grid = dims(cfg->getArg(0)), block = dims(cfg->getArg(1));
    std::vector<std::string> args;
    for (unsigned i = 0; i < k->getNumParams(); ++i) {
      QualType pt = k->getParamDecl(i)->getType();
      std::optional<int64_t> v;
      if (i < e->getNumArgs() && pt->isIntegerType() && !pt->isBooleanType() && !pt->isEnumeralType())
        v = hostInt(e->getArg(i), 0);
      args.push_back(v ? std::to_string(*v) : "");
    }
    HostLaunch &hl = launches[k->getCanonicalDecl()];
    if (hl.count++ == 0) {
      hl.grid = grid;
      hl.block = block;
      hl.args = args;
      PresumedLoc pl = ctx_.getSourceManager().getPresumedLoc(ctx_.getSourceManager().getExpansionLoc(e->getBeginLoc()));
      hl.line = pl.isValid() ? pl.getLine() : 0;
    } else {
      for (int d = 0; d < 3; ++d) { // launches that differ leave the dimension symbolic
        if (hl.grid[d] != grid[d])
          hl.grid[d] = "";
        if (hl.block[d] != block[d])
          hl.block[d] = "";
      }
      for (size_t i = 0; i < args.size() && i < hl.args.size(); ++i)
        if (hl.args[i] != args[i])
          hl.args[i] = "";
    }
    return true;
  }

private:
  ASTContext &ctx_;
  const FunctionDecl *fn_ = nullptr;

  // A dim3 argument's three dimensions (through at most 8 variables: `dim3 b = b;` ends).
  std::vector<std::string> dims(const Expr *e, int depth = 0) {
    std::vector<std::string> out{"", "", ""};
    if (depth > 8)
      return out;
    e = e->IgnoreParenImpCasts();
    while (true) {
      if (const auto *m = dyn_cast<MaterializeTemporaryExpr>(e))
        e = m->getSubExpr()->IgnoreParenImpCasts();
      else if (const auto *b = dyn_cast<CXXBindTemporaryExpr>(e))
        e = b->getSubExpr()->IgnoreParenImpCasts();
      else if (const auto *f = dyn_cast<CXXFunctionalCastExpr>(e))
        e = f->getSubExpr()->IgnoreParenImpCasts();
      else
        break;
    }
    if (const auto *ce = dyn_cast<CXXConstructExpr>(e)) {
      if (ce->getNumArgs() == 1 && ce->getArg(0)->getType()->isRecordType()) // a copy
        return dims(ce->getArg(0), depth + 1);
      if (ce->getNumArgs() == 3 && ce->getArg(0)->getType()->isIntegerType()) {
        for (int d = 0; d < 3; ++d)
          out[d] = extent(ce->getArg(d), depth);
        return out;
      }
      return out;
    }
    if (const auto *dr = dyn_cast<DeclRefExpr>(e)) {
      const auto *vd = dyn_cast<VarDecl>(dr->getDecl());
      if (vd && vd->hasLocalStorage() && vd->getInit() && fn_ && fn_->getBody() && !changed(vd, fn_->getBody()))
        return dims(vd->getInit(), depth + 1);
      return out;
    }
    if (e->getType()->isIntegerType()) // a launch by integers: the other dimensions are 1
      return {extent(e, depth), "1", "1"};
    return out;
  }
  // One dimension: an integer the host code computes (hostInt) that is a valid extent (not
  // negative, within 32 bits); "" otherwise.
  std::string extent(const Expr *e, int depth) {
    if (isa<CXXDefaultArgExpr>(e))
      return "1";
    std::optional<int64_t> v = hostInt(e, depth);
    return v && *v >= 0 && *v <= 0xffffffffLL ? std::to_string(*v) : "";
  }
  // Whether v is a value of the integer type t.
  bool fits(__int128 v, QualType t) {
    if (!t->isIntegerType() || t->isBooleanType())
      return false;
    unsigned w = ctx_.getIntWidth(t);
    if (w == 0 || w > 64)
      return false;
    __int128 one = 1;
    return t->isSignedIntegerOrEnumerationType() ? v >= -(one << (w - 1)) && v < (one << (w - 1))
                                                 : v >= 0 && v < (one << w);
  }
  // An integer the host code computes: an integer constant expression, or +, -, *, /, %, casts
  // and parentheses over such and over integer variables holding one (initialised once, never
  // changed in the function: no assignment, ++/--, address taken or non-const reference),
  // through at most 8 variables; every intermediate value a value of its C type (a result that
  // would wrap or overflow, or a division by zero, gives none).
  std::optional<int64_t> hostInt(const Expr *e, int depth) {
    if (depth > 8 || !e->getType()->isIntegerType())
      return std::nullopt;
    Expr::EvalResult r;
    if (!e->isValueDependent() && e->EvaluateAsInt(r, ctx_) && r.Val.getInt().isRepresentableByInt64())
      return r.Val.getInt().getExtValue();
    e = e->IgnoreParens();
    auto checked = [&](std::optional<__int128> v) -> std::optional<int64_t> {
      if (!v || !fits(*v, e->getType()))
        return std::nullopt;
      return static_cast<int64_t>(*v);
    };
    if (const auto *ce = dyn_cast<CastExpr>(e)) {
      CastKind ck = ce->getCastKind();
      if (ck != CK_IntegralCast && ck != CK_LValueToRValue && ck != CK_NoOp)
        return std::nullopt;
      std::optional<int64_t> v = hostInt(ce->getSubExpr(), depth);
      return checked(v ? std::optional<__int128>(*v) : std::nullopt);
    }
    if (const auto *dr = dyn_cast<DeclRefExpr>(e)) {
      const auto *vd = dyn_cast<VarDecl>(dr->getDecl());
      if (!vd || !vd->hasLocalStorage() || !vd->getInit() || !fn_ || !fn_->getBody() || changed(vd, fn_->getBody()))
        return std::nullopt;
      std::optional<int64_t> v = hostInt(vd->getInit(), depth + 1);
      return checked(v ? std::optional<__int128>(*v) : std::nullopt);
    }
    if (const auto *bo = dyn_cast<BinaryOperator>(e)) {
      std::optional<int64_t> a = hostInt(bo->getLHS(), depth), b = hostInt(bo->getRHS(), depth);
      if (!a || !b)
        return std::nullopt;
      __int128 x = *a, y = *b;
      switch (bo->getOpcode()) {
      case BO_Add: return checked(x + y);
      case BO_Sub: return checked(x - y);
      case BO_Mul: return checked(x * y);
      case BO_Div: return y == 0 ? std::nullopt : checked(x / y);
      case BO_Rem: return y == 0 ? std::nullopt : checked(x % y);
      default: return std::nullopt;
      }
    }
    return std::nullopt;
  }
  static bool refersTo(const Expr *e, const VarDecl *vd) {
    e = e->IgnoreParenImpCasts();
    while (const auto *me = dyn_cast<MemberExpr>(e))
      e = me->getBase()->IgnoreParenImpCasts();
    const auto *dr = dyn_cast<DeclRefExpr>(e);
    return dr && dr->getDecl() == vd;
  }
  static bool changed(const VarDecl *vd, const Stmt *s) {
    if (!s)
      return false;
    if (const auto *bo = dyn_cast<BinaryOperator>(s); bo && bo->isAssignmentOp() && refersTo(bo->getLHS(), vd))
      return true;
    if (const auto *uo = dyn_cast<UnaryOperator>(s);
        uo && (uo->isIncrementDecrementOp() || uo->getOpcode() == UO_AddrOf) && refersTo(uo->getSubExpr(), vd))
      return true;
    if (const auto *oc = dyn_cast<CXXOperatorCallExpr>(s);
        oc && oc->getNumArgs() >= 1 && refersTo(oc->getArg(0), vd) &&
        (oc->isAssignmentOp() || oc->getOperator() == OO_PlusPlus || oc->getOperator() == OO_MinusMinus))
      return true;
    if (const auto *call = dyn_cast<CallExpr>(s); call && !isa<CUDAKernelCallExpr>(call)) {
      const FunctionDecl *f = call->getDirectCallee();
      for (unsigned i = 0; i < call->getNumArgs(); ++i) {
        if (!refersTo(call->getArg(i), vd))
          continue;
        if (!f)
          return true; // unknown callee
        if (i >= f->getNumParams())
          continue; // a variadic argument is a copy (`printf("%d", block.x)`); `&block` is caught above
        QualType pt = f->getParamDecl(i)->getType();
        if (pt->isReferenceType() && !pt.getNonReferenceType().isConstQualified())
          return true;
      }
    }
    for (const Stmt *c : s->children())
      if (changed(vd, c))
        return true;
    return false;
  }
};

// An #include of something that is not a regular file (/dev/zero, a directory, a FIFO):
// clang reads such a file as empty, which is no kernel's meaning. Its name, or empty.
std::string irregularInclude(const SourceManager &sm) {
  for (unsigned i = 0; i < sm.local_sloc_entry_size(); ++i) {
    const SrcMgr::SLocEntry &e = sm.getLocalSLocEntry(i);
    if (!e.isFile())
      continue;
    OptionalFileEntryRef f = e.getFile().getContentCache().OrigEntry;
    if (!f)
      continue;
    std::string name = f->getName().str();
    if (llvm::sys::fs::exists(name) && !llvm::sys::fs::is_regular_file(name))
      return name;
  }
  return "";
}

// The file the PCH is made from: the prelude included, nothing else. A parse that reads the
// PCH must have it too (clang looks for it).
const char *kPchMainPath = "/ksynth-prelude/ksynth_pch.cu";
const char *kPchMain = "#include \"/ksynth-prelude/ksynth_cuda.h\"\n";
constexpr size_t kPchKept = 4;

// On-disk files a PCH was made from (the host's C and C++ headers the prelude includes), one
// per line: size, modification time (ns), path. clang does not check system headers when it
// reads a PCH, so ksynth does: a PCH whose list no longer matches the disk is made again.
std::string inputsText(std::vector<std::string> paths) {
  std::sort(paths.begin(), paths.end()); // (clang's file table has no order)
  paths.erase(std::unique(paths.begin(), paths.end()), paths.end());
  std::string out;
  for (const std::string &p : paths) {
    llvm::sys::fs::file_status st;
    if (llvm::sys::fs::status(p, st) || !llvm::sys::fs::is_regular_file(st))
      continue; // a virtual file (the prelude, ksynth's headers): in the PCH's name already
    out += std::to_string(st.getSize()) + " " +
           std::to_string(std::chrono::duration_cast<std::chrono::nanoseconds>(
                              st.getLastModificationTime().time_since_epoch())
                              .count()) +
           " " + p + "\n";
  }
  return out;
}

// The paths of a list written by inputsText.
std::vector<std::string> inputsPaths(const std::string &text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    size_t a = line.find(' '), b = a == std::string::npos ? a : line.find(' ', a + 1);
    if (b != std::string::npos)
      out.push_back(line.substr(b + 1));
  }
  return out;
}

// The prelude precompiled (clang's PCH) for one set of clang arguments: parsing the 47 kB
// prelude was most of a small kernel's parse (0.12 of 0.15 s; with the PCH 0.05 s). Kept in
// $KSYNTH_CACHE_DIR, else $XDG_CACHE_HOME/ksynth, else ~/.cache/ksynth, named by a SHA-256 of
// clang's version, the prelude, ksynth's headers and the arguments, so a file there is only
// ever used with the exact inputs it was made from (clang checks its own version and the
// macros again when it reads it; the host headers it read are listed beside it, PCH.inputs,
// and checked by ksynth). Made on first use: written under a name of its own, then renamed,
// so a parallel run sees a whole file or none. KSYNTH_NO_PCH=1 turns it off. The
// path, or empty when there is none (no cache folder, it could not be made): the caller then
// includes the prelude as text, as it does when a parse with the PCH fails.
std::string preludePch(const std::vector<std::string> &args, const tooling::FileContentMappings &files) {
  if (const char *off = std::getenv("KSYNTH_NO_PCH"); off && *off && std::string(off) != "0")
    return "";
  std::string dir;
  if (const char *d = std::getenv("KSYNTH_CACHE_DIR"); d && *d)
    dir = d;
  else if (const char *x = std::getenv("XDG_CACHE_HOME"); x && *x)
    dir = std::string(x) + "/ksynth";
  else if (const char *h = std::getenv("HOME"); h && *h)
    dir = std::string(h) + "/.cache/ksynth";
  else
    return "";
  std::string named; // every input, each length first
  auto add = [&](const std::string &text) { named += std::to_string(text.size()) + ":" + text; };
  add(getClangFullVersion());
  for (const auto &[path, text] : files) {
    add(path);
    add(text);
  }
  for (const std::string &a : args)
    add(a);
  std::string hex = util::sha256Hex(named);
  std::string pch = dir + "/prelude-" + hex.substr(0, 32) + ".pch", list = pch + ".inputs";
  if (std::string known; llvm::sys::fs::is_regular_file(pch) && util::readFile(list, known) && !known.empty() &&
                         inputsText(inputsPaths(known)) == known)
    return pch;
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec)
    return "";
  std::string tmp = pch + "." + std::to_string(::getpid()) + ".tmp";
  // The PCH of a file that includes the prelude and nothing else, made with the parse's
  // arguments (`args` has no -include of the prelude: the caller adds it or the PCH).
  struct Make : GeneratePCHAction {
    std::string out;
    std::shared_ptr<std::vector<std::string>> inputs; // every file the parse read (outlives the action)
    bool BeginSourceFileAction(CompilerInstance &ci) override {
      ci.getFrontendOpts().OutputFile = out;
      return GeneratePCHAction::BeginSourceFileAction(ci);
    }
    void EndSourceFileAction() override {
      SourceManager &sm = getCompilerInstance().getSourceManager();
      for (auto it = sm.fileinfo_begin(); it != sm.fileinfo_end(); ++it)
        inputs->push_back(it->first.getName().str());
      GeneratePCHAction::EndSourceFileAction();
    }
  };
  auto make = std::make_unique<Make>();
  make->out = tmp;
  auto inputs = std::make_shared<std::vector<std::string>>();
  make->inputs = inputs;
  bool ok = tooling::runToolOnCodeWithArgs(std::move(make), kPchMain, args, kPchMainPath, "ksynth",
                                           std::make_shared<PCHContainerOperations>(), files);
  // The list first, then the PCH: a reader that finds the PCH finds its list (a list with no
  // PCH, or the PCH of another run with this list, is harmless: both are checked).
  std::string listed = ok ? inputsText(*inputs) : "";
  if (!ok || listed.empty() || !llvm::sys::fs::is_regular_file(tmp) || !util::writeFileAtomic(list, listed)) {
    std::filesystem::remove(tmp, ec);
    return "";
  }
  std::filesystem::rename(tmp, pch, ec);
  if (ec) {
    std::filesystem::remove(tmp, ec);
    return "";
  }
  // Those of other builds go: the newest kPchKept are kept (a build and toolkit each need one).
  std::vector<std::pair<std::filesystem::file_time_type, std::filesystem::path>> old;
  for (const auto &e : std::filesystem::directory_iterator(dir, ec)) {
    std::string name = e.path().filename().string();
    if (name.rfind("prelude-", 0) == 0 && e.path().extension() == ".pch" && e.path() != pch)
      old.emplace_back(e.last_write_time(ec), e.path());
  }
  std::sort(old.rbegin(), old.rend());
  for (size_t i = kPchKept - 1; i < old.size(); ++i) {
    std::filesystem::remove(old[i].second, ec);
    std::filesystem::remove(old[i].second.string() + ".inputs", ec);
  }
  return pch;
}

} // namespace

ParseResult parseSource(const std::string &code, const std::string &fileName, const Options &opts) {
  ParseResult res;
  if (unsigned line = longLiteralLine(code)) {
    res.clangOutput = fileName + ":" + std::to_string(line) + ": error: a numeric literal longer than " +
                      std::to_string(kMaxLiteralChars) + " characters (ksynth's limit)\n";
    return res;
  }
  CudaToolkit tk = findCudaToolkit(opts.cudaPath);
  // One clang run over the file: the toolkit's host-library headers before ksynth's own
  // declarations of them, or ksynth's alone.
  std::string source = code;
  std::vector<std::string> instances = launchInstances(code);
  size_t fromLine = instances.size();
  instances.insert(instances.end(), opts.instances.begin(), opts.instances.end());
  for (size_t i = 0; i < instances.size(); ++i)
    source += "\n[[maybe_unused]] static auto *const __ksynth_instance_" + std::to_string(i) + " = &" +
              instances[i] + ";";
  std::string pchUsed; // the PCH the last build read, if any
  auto build = [&](bool withToolkit, std::string &diagText, bool usePch) {
    std::vector<std::string> args = {
        "-x", "cuda", "--cuda-device-only", "-nocudainc", "-nocudalib", "--cuda-path=/nonexistent",
        "--cuda-gpu-arch=sm_80", "-std=c++17", "-resource-dir=/usr/lib/llvm-19/lib/clang/19",
        "-Wno-unknown-cuda-version", "-Wno-everything", "-ferror-limit=50",
        "-I/ksynth-prelude", "-D__KSYNTH__=1",
    };
    if (withToolkit)
      args.push_back("-DCUDART_VERSION=" + std::to_string(tk.version));
    for (const std::string &d : opts.defines)
      args.push_back("-D" + d);
    for (const std::string &u : opts.undefines)
      args.push_back("-U" + u);
    for (const std::string &i : opts.includeDirs)
      args.push_back("-I" + i);
    for (const std::string &i : opts.systemIncludeDirs)
      args.push_back("-isystem" + i);
    if (withToolkit)
      args.push_back("-idirafter" + tk.includeDir);
    args.push_back("-idirafter/ksynth-hostlibs");
    tooling::FileContentMappings files = {{kPreludePath, kPrelude}, {kPchMainPath, kPchMain}};
    for (const auto &[path, text] : kHeaders)
      files.emplace_back(path, text);
    // Only without the file's own -D/-U/-I options: one PCH per ksynth build and toolkit, not
    // one per option set (each is 3.6 MB).
    bool plain = opts.defines.empty() && opts.undefines.empty() && opts.includeDirs.empty() &&
                 opts.systemIncludeDirs.empty();
    pchUsed = usePch && plain ? preludePch(args, files) : "";
    if (pchUsed.empty())
      args.insert(args.end(), {"-include", kPreludePath});
    else
      args.insert(args.end(), {"-include-pch", pchUsed});
    llvm::raw_string_ostream diagStream(diagText);
    auto diagOpts = llvm::makeIntrusiveRefCnt<DiagnosticOptions>();
    TextDiagnosticPrinter printer(diagStream, diagOpts.get());
    std::unique_ptr<ASTUnit> unit = tooling::buildASTFromCodeWithArgs(
        source, args, fileName, "ksynth", std::make_shared<PCHContainerOperations>(),
        tooling::getClangStripDependencyFileAdjuster(), files, &printer);
    diagStream.flush();
    return unit;
  };
  std::string diagText;
  std::unique_ptr<ASTUnit> ast = build(!tk.includeDir.empty(), diagText, true);
  bool failed = !ast || ast->getDiagnostics().hasErrorOccurred();
  if (failed && !pchUsed.empty()) {
    // Read again with the prelude as text: the errors (and the AST, if it parses then) are
    // those of the file alone, never of a PCH that could not be read. A file that parses so
    // but not with the PCH proves the PCH bad (damaged, or another clang's): it is removed,
    // and the next parse makes it again.
    std::string bad = pchUsed;
    diagText.clear();
    ast = build(!tk.includeDir.empty(), diagText, false);
    failed = !ast || ast->getDiagnostics().hasErrorOccurred();
    if (!failed) {
      std::error_code ec;
      std::filesystem::remove(bad, ec);
      std::filesystem::remove(bad + ".inputs", ec);
    }
  }
  if (failed && !tk.includeDir.empty() && diagText.find(tk.includeDir + "/") != std::string::npos) {
    // A toolkit header that does not parse with ksynth's CUDA headers (another toolkit
    // version's): read the file again with ksynth's own declarations of the host libraries.
    std::string again;
    std::unique_ptr<ASTUnit> second = build(false, again, false);
    if (second && !second->getDiagnostics().hasErrorOccurred()) {
      ast = std::move(second);
      diagText = "";
      failed = false;
      res.headerNotes.push_back("the CUDA toolkit's headers in " + tk.includeDir +
                                " did not parse with ksynth's; read with ksynth's own declarations instead");
    } else {
      diagText = again;
    }
  } else if (!failed && !tk.includeDir.empty()) {
    res.toolkitInclude = tk.includeDir;
  }
  res.clangOutput = diagText;
  if (failed) {
    res.parsed = false;
    if (!instances.empty() && diagText.find("__ksynth_instance_") != std::string::npos) {
      std::string from = fromLine == 0              ? "--kernel asks for: "
                         : fromLine == instances.size() ? "its launch line's kernel= asks for: "
                                                        : "its launch line's kernel= and --kernel ask for: ";
      std::string list;
      for (const std::string &i : instances)
        list += (list.empty() ? "" : ", ") + i;
      res.clangOutput += "ksynth: note: the errors after the file's last line are in the template instances that " +
                         from + list + "\n";
    }
    return res;
  }
  ASTContext &ctx = ast->getASTContext();
  if (std::string dev = irregularInclude(ctx.getSourceManager()); !dev.empty()) {
    res.clangOutput += fileName + ": error: '" + dev + "' is included but is not a regular file\n";
    return res;
  }
  NestingScan nest;
  nest.TraverseDecl(ctx.getTranslationUnitDecl());
  if (nest.where.isValid()) {
    PresumedLoc pl = ctx.getSourceManager().getPresumedLoc(ctx.getSourceManager().getExpansionLoc(nest.where));
    res.clangOutput += (pl.isValid() ? std::string(pl.getFilename()) + ":" + std::to_string(pl.getLine()) + ":" +
                                           std::to_string(pl.getColumn())
                                     : fileName) +
                       ": error: statements and expressions nested more than " + std::to_string(kMaxNesting) +
                       " levels deep (ksynth's limit)\n";
    return res;
  }
  res.parsed = true;
  Collector col;
  col.visit(ctx.getTranslationUnitDecl(), ctx.getSourceManager());
  res.uninstantiated = col.uninstantiated;
  std::map<const FunctionDecl *, int64_t> fnIds; // one numbering of functions per file
  LaunchFinder launches(ctx);
  launches.TraverseDecl(ctx.getTranslationUnitDecl());
  // The file's own kernels first, then those of its project headers that its host code
  // launches (a header's other kernels belong to the files that launch them).
  std::vector<const FunctionDecl *> checked;
  for (int pass = 0; pass < 2; ++pass)
    for (const FunctionDecl *fd : col.kernels) {
      bool own = ctx.getSourceManager().isInMainFile(ctx.getSourceManager().getExpansionLoc(fd->getLocation()));
      if (pass == 0 ? own : !own && launches.launches.count(fd->getCanonicalDecl()))
        checked.push_back(fd);
    }
  for (const FunctionDecl *fd : checked) {
    auto hl = launches.launches.find(fd->getCanonicalDecl());
    res.hostLaunches.push_back(hl == launches.launches.end() ? HostLaunch{} : hl->second);
    ir::Kernel k;
    k.file = fileName;
    std::vector<Diagnostic> notes;
    std::map<const VarDecl *, int> globals;
    detail::Lowerer lw(ctx, k, notes, globals, fnIds);
    lw.lowerKernel(fd);
    res.kernels.push_back(std::move(k));
    res.notes.push_back(std::move(notes));
  }
  return res;
}

ParseResult parseFile(const std::string &path, const Options &opts) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    ParseResult r;
    r.clangOutput = "error: cannot read '" + path + "'\n";
    return r;
  }
  std::error_code ec;
  if (auto bytes = std::filesystem::file_size(path, ec); !ec && bytes > kMaxFileBytes) {
    ParseResult r;
    r.clangOutput = path + ": error: the file is " + std::to_string(bytes) + " bytes, larger than ksynth's limit of " +
                    std::to_string(kMaxFileBytes) + "\n";
    return r;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  return parseSource(ss.str(), path, opts);
}

} // namespace ksynth::frontend
