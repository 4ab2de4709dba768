#include "common/registry.h"
#include "harness/reproduce/protocol.h"

namespace ncp {

Protocol MakeTable000_1();
Protocol MakeFig000_2();
Protocol MakeTable002_1();
Protocol MakeTable002_2();
Protocol MakeTable002_3();
Protocol MakeTable002_5();
Protocol MakeTable002_6();
Protocol MakeTable002_7();
Protocol MakeTable002_8();
Protocol MakeTable002_9();
Protocol MakeFig002_11();
Protocol MakeFig002_13();
Protocol MakeFig002_14();
Protocol MakeFig003_5c();
Protocol MakeFig003_3();
Protocol MakeFig003_1c();
Protocol MakeFig003_2();
Protocol MakeTable003_2();
Protocol MakeFig003_5();
Protocol MakeTable001_1();
Protocol MakeFig004_7();
Protocol MakeFig004_9();
Protocol MakeFig004_11();
Protocol MakeTable004_2();
Protocol MakeTable004_3();
Protocol MakeEngines();
#ifdef NCP_WITH_MUJOCO
Protocol MakeMujocoPeer();
#endif

namespace {
namespace protocols {

#ifndef NCP_WITH_MUJOCO
// A protocol that cannot run yet: listed with its setting and the capability it waits for (every
// paper experiment has its protocol; a peer's waits for its library).
Protocol Pending(const char* id, const char* title, const char* setting, const char* missing) {
  return {.id = id, .title = title, .setting = setting, .missing = missing};
}
#endif

}  // namespace protocols
}  // namespace

const std::vector<Protocol>& Protocols() {
  using namespace protocols;
  static const std::vector<Protocol> all = {
      MakeTable000_1(), MakeFig000_2(),   MakeTable001_1(), MakeTable002_1(), MakeTable002_2(),
      MakeTable002_3(), MakeTable002_5(), MakeTable002_6(), MakeTable002_7(), MakeTable002_8(),
      MakeTable002_9(), MakeFig002_11(),  MakeFig002_13(),  MakeFig002_14(),  MakeFig003_5c(),
      MakeFig003_3(),   MakeFig003_1c(),  MakeFig003_2(),   MakeTable003_2(), MakeFig003_5(),
      MakeFig004_7(),   MakeFig004_9(),   MakeFig004_11(),  MakeTable004_2(), MakeTable004_3(),
      MakeEngines(),
#ifdef NCP_WITH_MUJOCO
      MakeMujocoPeer(),
#else
      Pending(
          "mujoco-peer",
          "our simulate vs MuJoCo PGS/CG/Newton on the four rigid scenes: outcome metrics",
          "vertical_stacks, oblique_stacks, sliding_cubes, laikago_drop; 200 iterations per step",
          "MuJoCo (libmujoco-dev not found at configure time, or NCPBENCH_MUJOCO=OFF)"),
#endif
  };
  return all;
}

const Protocol& FindProtocol(const std::string& id) {
  return FindByName(Protocols(), id, "reproduce", {"all"});  // `reproduce all` runs every one
}

}  // namespace ncp
