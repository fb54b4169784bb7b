// rmtemu's declaration of the Tofino Native Architecture (TNA), for Tofino 1. Written for
// rmtemu from TNA's documented interface; #include <tna.p4> resolves here. The parts:
//   tofino1_types.p4       widths, typedefs and constants a program names
//   tofino1_intrinsics.p4  the intrinsic metadata the hardware hands to and takes from a pipe
//   tofino1_externs.p4     the externs (registers, hashes, checksums, counters, meters, ...)
//   tofino1_arch.p4        the parser and control types, Pipeline and Switch
#ifndef RMTEMU_TNA_P4
#define RMTEMU_TNA_P4

#include <core.p4>
#include "tofino1_types.p4"
#include "tofino1_intrinsics.p4"
#include "tofino1_externs.p4"
#include "tofino1_arch.p4"

#endif
