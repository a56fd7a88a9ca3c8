// ksynth: NVTX ranges and marks, as declarations for parsing host code (used where the CUDA
// toolkit's own header is not found; see DESIGN.md, "Headers").
#pragma once
#include <stdint.h>
extern "C" {
typedef struct nvtxEventAttributes_v2 {
  uint16_t version, size;
  uint32_t category;
  int32_t colorType;
  uint32_t color;
  int32_t payloadType, reserved0;
  union { uint64_t ullValue; int64_t llValue; double dValue; uint32_t uiValue; int32_t iValue; float fValue; } payload;
  int32_t messageType;
  union { const char *ascii; const wchar_t *unicode; } message;
} nvtxEventAttributes_t;
typedef uint64_t nvtxRangeId_t;
int nvtxRangePushA(const char *message);
int nvtxRangePushEx(const nvtxEventAttributes_t *eventAttrib);
int nvtxRangePop(void);
nvtxRangeId_t nvtxRangeStartA(const char *message);
void nvtxRangeEnd(nvtxRangeId_t id);
void nvtxMarkA(const char *message);
void nvtxNameOsThreadA(uint32_t threadId, const char *name);
} // extern "C"
#define nvtxRangePush nvtxRangePushA
#define nvtxRangeStart nvtxRangeStartA
#define nvtxMark nvtxMarkA
