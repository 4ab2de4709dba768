#include "problems/scenarios/rigid/scene.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>

#include "common/registry.h"
#include "problems/scenarios/rigid/pouring.h"

namespace ncp {

using namespace physics;

Scene MakeLaikagoDrop(const std::map<std::string, double>& p, std::uint64_t seed);
Scene MakeSlidingCubes(const std::map<std::string, double>& p, std::uint64_t seed);
Scene MakeVerticalStacks(const std::map<std::string, double>& p, std::uint64_t seed);
Scene MakeBoxPush(const std::map<std::string, double>& p, std::uint64_t seed);
Scene MakeBoxSlip(const std::map<std::string, double>& p, std::uint64_t seed);
Scene MakeObliqueStacks(const std::map<std::string, double>& p, std::uint64_t seed);
Scene MakeCardHouses(const std::map<std::string, double>& p, std::uint64_t seed);
Scene MakeStir(const std::map<std::string, double>& p, std::uint64_t seed);
Scene MakeSoftMat(const std::map<std::string, double>& p, std::uint64_t seed);
Scene MakeSoftBall(const std::map<std::string, double>& p, std::uint64_t seed);
Scene MakeSoftGripper(const std::map<std::string, double>& p, std::uint64_t seed);
Scene MakeFemBeam(const std::map<std::string, double>& p, std::uint64_t seed);
Scene MakeCable(const std::map<std::string, double>& p, std::uint64_t seed);
Scene MakeBridge(const std::map<std::string, double>& p, std::uint64_t seed);
Scene MakeUmbrella(const std::map<std::string, double>& p, std::uint64_t seed);
Scene MakeKlann(const std::map<std::string, double>& p, std::uint64_t seed);
Scene MakeKlannFriction(const std::map<std::string, double>& p, std::uint64_t seed);
Scene MakeChain(const std::map<std::string, double>& p, std::uint64_t seed);
Scene MakeHagfish(const std::map<std::string, double>& p, std::uint64_t seed);
Scene MakeStarfish(const std::map<std::string, double>& p, std::uint64_t seed);
Scene MakeHand(const std::map<std::string, double>& p, std::uint64_t seed);

namespace {

// Shorthands for the specs below.
ParamSpec Whole(std::string name, double def, double min, double max, std::string help) {
  return WholeParam(std::move(name), def, min, max, std::move(help));
}
ParamSpec Count(std::string name, double def, std::string help) {  // counts of bodies, ...
  return WholeParam(std::move(name), def, 1, 1e6, std::move(help));
}
ParamSpec NonNeg(std::string name, double def, std::string help) {
  return NonNegativeParam(std::move(name), def, std::move(help));
}
ParamSpec Pos(std::string name, double def, std::string help) {
  return PositiveParam(std::move(name), def, std::move(help));
}
ParamSpec Mu(double def) { return NonNegativeParam("mu", def, "friction coefficient"); }
ParamSpec Poisson(std::string name, double def, std::string help) {  // ν in [0, 0.5)
  return RealParam(std::move(name), def, 0, 0.5, std::move(help), false, true);
}
// FEM resolution: ScaledCells rounds base × size; past 64 the meshes (~ size³ elements) would
// exhaust the memory.
ParamSpec FemSize(std::string help) { return RealParam("size", 1, 0, 64, std::move(help), true); }
ParamSpec ElementDamping() {
  return NonNeg("damping", 0.01, "element damping β of D = β Σ R K_e Rᵀ [s]");
}
ParamSpec GeometricDamping() {
  return Whole("geometric_damping", 0, 0, 1,
               "1: add the projected geometric stiffness to the damping (002 §II-A)");
}

// The material a FEM scene draws with its seed (DrawMaterial): Young's modulus, Poisson ratio and
// μ each from [min, max], and the density of `body`.
struct MaterialRanges {
  double youngs_min, youngs_max, poisson_min, poisson_max, mu_min, mu_max, density;
  const char* body;
};
// A FEM scene's parameters: `before`, the drawn material's, `after`, then the element and
// geometric damping.
std::vector<ParamSpec> FemParams(std::vector<ParamSpec> before, const MaterialRanges& m,
                                 const std::vector<ParamSpec>& after = {}) {
  for (const ParamSpec& p : std::vector<ParamSpec>{
           Pos("youngs_min", m.youngs_min,
               "Young's modulus drawn from [youngs_min, youngs_max] [Pa]"),
           Pos("youngs_max", m.youngs_max, "largest Young's modulus [Pa]"),
           Poisson("poisson_min", m.poisson_min,
                   "Poisson ratio drawn from [poisson_min, poisson_max]"),
           Poisson("poisson_max", m.poisson_max, "largest Poisson ratio"),
           NonNeg("mu_min", m.mu_min, "friction coefficient drawn from [mu_min, mu_max]"),
           NonNeg("mu_max", m.mu_max, "largest friction coefficient"),
           Pos("density", m.density, fmt::format("{} density [kg/m³]", m.body))})
    before.push_back(p);
  for (const ParamSpec& p : after) before.push_back(p);
  before.push_back(ElementDamping());
  before.push_back(GeometricDamping());
  return before;
}

}  // namespace

const std::vector<SceneEntry>& Scenes() {
  static const std::vector<SceneEntry> entries = {
      {.name = "laikago_drop",
       .description = "N Laikago quadrupeds (18 DOF each, PD-held stance) dropped in a staggered "
                      "pile (004 §VII-D2)",
       .params = {Count("robots", 8, "Laikago robots dropped"),
                  NonNeg("kp", 30, "PD stiffness holding the stance [N·m/rad]"),
                  NonNeg("kd", 1, "PD damping holding the stance [N·m·s/rad]"), Mu(0.8),
                  NonNeg("column_gap", 0.4, "distance between the pile's two columns [m]"),
                  NonNeg("margin", 0.015, "contact margin of the step [m]"),
                  NonNeg("clearance", 0.005,
                         "least initial gap of a robot to the floor and robots below [m]")},
       .default_steps = 480,
       .default_every = 24,
       .build = MakeLaikagoDrop},
      {.name = "sliding_cubes",
       .description = "cubes sliding on the floor with random velocities (001 §III-B1)",
       .params = {Count("cubes", 100, "cubes on the floor"), Pos("size", 0.1, "cube side [m]"),
                  Pos("mass", 1.0, "cube mass [kg]"), Mu(0.3),
                  NonNeg("speed", 2.0, "initial speeds uniform in [0, speed] [m/s]")},
       .default_steps = 240,
       .default_every = 24,
       .build = MakeSlidingCubes},
      {.name = "box_push",
       .description = "one box resting on the floor, pushed along +x by a constant force at its "
                      "centre (002 §V-B); dt 1 ms, no resting slop",
       .params = {Pos("size", 0.2, "box side [m]"), Pos("mass", 1.0, "box mass [kg]"), Mu(0.5),
                  NonNeg("force", 7.0, "push along +x [N] (slides when above mu·mass·g)"),
                  RealParam("dt", 1e-3, 0, 0.1, "time step [s]", true)},
       .default_steps = 1000,
       .default_every = 100,
       .build = MakeBoxPush},
      {.name = "box_slip",
       .description = "one box slipping on a floor with anisotropic (ellipsoidal) friction from an "
                      "initial velocity (002 §V-G, Fig. 14); dt 1 ms, no resting slop",
       .params = {Pos("size", 0.2, "box side [m]"), Pos("mass", 1.0, "box mass [kg]"),
                  Pos("mu_x", 0.2, "friction coefficient along the floor's x axis"),
                  Pos("mu_y", 0.5, "friction coefficient along the floor's y axis"),
                  Pos("speed", 2.0, "initial speed [m/s]"),
                  RealParam("angle_deg", 45, -180, 180, "initial heading from +x [deg]"),
                  RealParam("dt", 1e-3, 0, 0.1, "time step [s]", true)},
       .default_steps = 1000,
       .default_every = 100,
       .build = MakeBoxSlip},
      {.name = "vertical_stacks",
       .description =
           "stacks of a 100 kg box on a 1 kg box on a 10 g box, top box pitched (001 §III-B2)",
       // Beyond 90° a cube's pitch repeats.
       .params = {Count("stacks", 120, "stacks of three boxes"),
                  RealParam("pitch_deg", 3, 0, 90, "initial pitch of the top box [deg]"), Mu(0.5)},
       .default_steps = 240,
       .default_every = 24,
       .build = MakeVerticalStacks},
      {.name = "oblique_stacks",
       .description =
           "10 kg plates resting obliquely on columns of 50 g cubes, mu = 3 (001 §III-B2)",
       .params = {Count("units", 20, "plates, each on columns of 1, 2 and 3 cubes"), Mu(3.0)},
       .default_steps = 240,
       .default_every = 24,
       .build = MakeObliqueStacks},
      {.name = "card_houses",
       .description = "card houses of leaning and flat cards (001 §III-B3)",
       // A house of L levels has L (3 L + 1) / 2 cards: the bound keeps that below 1.5e6.
       .params = {Count("houses", 6, "card houses side by side"),
                  Whole("levels", 6, 1, 1000, "levels of each house"), Mu(0.7)},
       .default_steps = 240,
       .default_every = 24,
       .build = MakeCardHouses},
      {.name = "stir",
       .description = "spheres (r = 1 cm, 4 g) in a box stirred by an end effector (000 §IV-A1)",
       .params = {Count("spheres", 216, "spheres in the box"), Mu(0.4),
                  Pos("radius", 0.01, "sphere (and stirrer) radius [m]"),
                  Pos("mass", 0.004, "sphere mass [kg]")},
       .default_steps = 240,
       .default_every = 24,
       .build = MakeStir},
      // Deformable scenes (problems/scenarios/deformable), dt = 1/60 s.
      {.name = "soft_mat",
       .description =
           "co-rotational FEM mat (size 1: 1452 nodes, 4410 tets) folded by a two-finger gripper; "
           "E, nu, "
           "mu drawn from ranges (002 §V-C3); layers: cells through the thickness (0: 2 × size)",
       .params = FemParams(
           {FemSize("resolution: round(21 × size) cells per side"),
            Whole("layers", 0, 0, 64, "cells through the thickness (0: round(2 × size))")},
           {5e4, 2e5, 0.3, 0.45, 0.3, 0.7, 1000, "mat"}),
       .default_steps = 120,
       .default_every = 40,
       .build = MakeSoftMat},
      {.name = "soft_ball",
       .description = "co-rotational FEM ball (size 1: 1983 nodes, 7360 tets) grasped and lifted "
                      "by two rigid fingers on PD-driven prismatic joints (or on a prescribed "
                      "path); E, nu, mu drawn from ranges (002 §V-C4)",
       .params = FemParams({FemSize("resolution: round(14 × size) cells across the ball"),
                            Pos("radius", 0.05, "ball radius [m]")},
                           {5e4, 2e5, 0.3, 0.45, 0.5, 0.8, 1000, "ball"},
                           {RealParam("squeeze", 0.15, 0, 0.5,
                                      "fingers' closure as a share of the radius", true, true),
                            NonNeg("lift", 0.08, "height the fingers lift the ball by [m]"),
                            Whole("dynamic_fingers", 1, 0, 1,
                                  "1: fingers on prismatic joints driven toward the closing path "
                                  "(002's gripper); 0: moved on it kinematically"),
                            Pos("finger_mass", 0.1, "each finger's mass [kg] (dynamic fingers)"),
                            Pos("grip_stiffness", 5e4,
                                "the finger drive's k_p [N/m], critically damped (dynamic "
                                "fingers)")}),
       .default_steps = 120,
       .default_every = 40,
       .build = MakeSoftBall},
      {.name = "soft_gripper",
       .description = "two co-rotational FEM fingers (size 1: 4554 nodes, 17600 tets) on a driven "
                      "actuator grip a free rigid block off the floor; E, nu, mu drawn from ranges "
                      "(002 §V-C6)",
       .params =
           FemParams({FemSize("resolution: round(8, 10, 22 × size) cells per finger"),
                      Pos("finger_thickness", 0.02, "finger size across the grip (x) [m]"),
                      Pos("finger_width", 0.03, "finger width (y) [m]"),
                      Pos("finger_height", 0.06, "finger height (z) [m]"),
                      Pos("block", 0.04, "edge of the rigid cube [m]"),
                      Pos("block_mass", 0.05, "mass of the rigid cube [kg]")},
                     {5e4, 1.5e5, 0.45, 0.49, 0.6, 1.0, 1070, "silicone finger"},
                     {NonNeg("squeeze", 0.004, "each finger's travel past touching the block [m]"),
                      NonNeg("lift", 0.03, "height the actuator lifts the fingers by [m]")}),
       .default_steps = 120,
       .default_every = 40,
       .build = MakeSoftGripper,
       // admm-full refactors 13 668 DOF at every change of β (3 s a step here): cond steps it.
       .stepper = "cond",
       .stepper_iters = 500},
      {.name = "fem_beam",
       .description =
           "co-rotational FEM beam 0.05 x 0.05 x 0.5 m (size 1: 1675 nodes, 6336 tets) in 20 tied "
           "pieces, pushed along a table through a narrowing gap (000 §IV-A3)",
       .params = {FemSize("resolution: round(4 × size) cells across, round(66 × size) along"),
                  // Each piece takes at least one cell along the beam.
                  Whole("pieces", 20, 1, 1e4, "tied pieces (subsystems) along the beam"),
                  Pos("youngs", 1e7, "Young's modulus [Pa]"),
                  Poisson("poisson", 0.45, "Poisson ratio"),
                  Pos("density", 1000, "beam density [kg/m³]"), Mu(0.2),
                  RealParam("gap", 0.045, 0, 0.05,
                            "narrowest width of the funnel [m] (beam: 0.05 m)", true, true),
                  NonNeg("speed", 0.2, "speed of the driven back face [m/s]"), ElementDamping(),
                  GeometricDamping()},
       .default_steps = 72,
       .default_every = 18,
       .build = MakeFemBeam},
      {.name = "cable",
       .description =
           "Cosserat cable (rigid links, soft stretch/shear/bend/twist rows) wound around a post "
           "by a "
           "gripper; variant 2: 002 §V-C5 (320 links), 0: 000 §IV-A2 (640 links, 4 per subsystem); "
           "links, bodies_per_subsystem 0 = the variant's",
       .params =
           {Whole("variant", 2, 0, 2, "2: 002 §V-C5, 0: 000 §IV-A2 (1 is none)"),
            Whole("links", 0, 0, 1e5, "rigid links, at least 2 (0: the variant's)"),
            Whole("bodies_per_subsystem", 0, 0, 1e5, "links per subsystem (0: the variant's)"),
            Pos("length", 1.2, "cable length [m]"), Pos("radius", 0.004, "cable radius [m]"),
            Pos("density", 1100, "cable density [kg/m³]"),
            Pos("young", 1e5, "Young's modulus [Pa]"), Poisson("poisson", 0.49, "Poisson ratio"),
            NonNeg("damping", 0.001, "Rayleigh time τ of the joint rows, D = τ K [s]"), Mu(0.3),
            Pos("cylinder_radius", 0.04, "post radius [m]"),
            Pos("cylinder_height", 0.2, "post height [m]"),
            NonNeg("turns_per_s", 0.5, "gripper turns around the post per second [1/s]"),
            NonNeg("pitch", 0.012, "gripper rise per turn [m]"),
            Whole("hard_grip", 1, 0, 1,
                  "1: the gripper holds the first link by bilateral rows, 0: by a soft coupling "
                  "with the rod's stiffness"),
            Whole("nodal_contacts",
                  0, 0, 1, "1: contacts act on the links' centres (no lever arm)"),
            RealParam("dt", 0.01, 0, 1, "time step [s] (000 §IV: 10 ms; 002 gives none)", true)},
       .default_steps = 200,
       .default_every = 40,
       .build = MakeCable,
       .reference_iters = 60,
       .reference_solvers = {"nnewton"}},
      {.name = "pouring",
       .description =
           "spheres (r = 5 mm, 10 g/cm³) poured from a tilted SDF bottle into a cup (004 §VII-C)",
       .params = {Count("particles", 18, "spheres in the bottle (at most as many as fit)"),
                  Pos("radius", 0.005, "sphere radius [m]"),
                  Pos("density", 10000, "sphere density [kg/m³]"), Mu(0.4),
                  RealParam("tilt_deg", 150, 0, 180, "final tilt of the bottle [deg]"),
                  Pos("tilt_time", 0.75, "duration of the tilt [s]"),
                  NonNeg("settle", 0.25, "hold before the tilt [s]"),
                  NonNeg("cup_offset", 0.06, "cup's offset along x from the bottle's axis [m]"),
                  Pos("inertia_scale", 100, "particles' rotational inertia / a solid sphere's")},
       .default_steps = 360,
       .default_every = 40,
       .build = MakePouring},
      {.name = "bridge",
       .description =
           "cable-stayed fan bridge (003 §6, Table 2): a hinged deck pinned at both ends, one stay "
           "spring per deck piece to rigid (flexible = 0) or hinged, sprung towers (flexible = 1, "
           "deck weight × load); dofs = pieces (+ 2 tower_pieces); no contacts",
       .params = {Whole("pieces", 80, 4, 1e5, "deck pieces (dofs of the deck)"),
                  Whole("flexible", 0, 0, 1,
                        "0: rigid towers (the world), 1: hinged towers with joint springs"),
                  Whole("tower_pieces", 0, 0, 1e5, "pieces of each flexible tower (0: pieces / 4)"),
                  Pos("length", 100, "deck length [m]"), Pos("height", 10, "deck height [m]"),
                  Pos("tower_height", 30, "tower top above the deck [m]"),
                  RealParam("anchor_spread", 0, 0, 1,
                            "cables' anchors on a tower: the farthest at its top, the nearest "
                            "this fraction of tower_height lower (0: all at the top, a fan)"),
                  Pos("deck_width", 4, "deck width (inertia only) [m]"),
                  Pos("deck_density", 1000, "mass per metre of deck and towers [kg/m]"),
                  Pos("load", 5,
                      "deck weight factor with flexible towers (003: exaggerated weight)"),
                  Pos("cable_stiffness", 2e8,
                      "axial stiffness EA of a stay cable [N]; k = EA / length"),
                  NonNeg("cable_damping", 0.01, "Rayleigh time τ of a cable, D = τ k [s]"),
                  Pos("tower_EI", 4e8,
                      "bending stiffness of the flexible towers [N·m²]; joint springs k = EI / "
                      "piece length"),
                  NonNeg("tower_damping", 0.01, "Rayleigh time τ of the tower joints, D = τ k [s]"),
                  RealParam("dt", 0.01, 0, 1, "time step [s]", true)},
       .default_steps = 500,
       .default_every = 100,
       .build = MakeBridge,
       .reference_iters = 5,
       .reference_solvers = {"redmax"},
       .stepper = "redmax",
       .stepper_iters = 2},
      {.name = "umbrella",
       .description =
           "deployable umbrella (003 §6, Table 2): 8 ribs and 8 stretchers of universal joints, "
           "stretcher tips tied to rib middles by loop closures, canopy springs between ribs, "
           "runner "
           "on a prismatic joint; DOF = 48 stretcher_pieces + 1 with the default rib_pieces; no "
           "contacts",
       .params =
           {Whole("stretcher_pieces", 5, 1, 1e4, "universal-joint pieces per stretcher"),
            Whole("rib_pieces", 0, 0, 2e4, "pieces per rib, even (0: 2 × stretcher_pieces)"),
            Pos("rib_length", 0.5, "rib length [m]"),
            Pos("tube_height", 0.8, "tube tip height [m]"),
            RealParam("open_deg", 20, 0, 80, "ribs' angle below the horizontal [deg]"),
            RealParam("runner_drop", 0.2, 0, 10, "runner below the tip [m]", true),
            Pos("density", 0.1, "rib mass per metre (stretchers half) [kg/m]"),
            Pos("runner_mass", 0.05, "runner mass [kg]"),
            Pos("runner_stiffness", 200, "spring holding the runner on the tube [N/m]"),
            Pos("canopy_stiffness", 500,
                "canopy between two neighbouring ribs [N/m], shared by its rib_pieces springs"),
            NonNeg("spring_damping", 0.01, "Rayleigh time τ of the springs, D = τ k [s]"),
            NonNeg("rib_EI", 0.05,
                   "bending stiffness of ribs and stretchers [N·m²]; joint springs k = EI / piece "
                   "length"),
            NonNeg("rib_damping", 0.01,
                   "Rayleigh time τ of the rib and stretcher joints, D = τ k [s]"),
            RealParam("dt", 0.01, 0, 1, "time step [s]", true)},
       .default_steps = 100,
       .default_every = 20,
       .build = MakeUmbrella,
       .reference_iters = 5,
       .reference_solvers = {"redmax"},
       .stepper = "redmax",
       .stepper_iters = 2},
      // Feet on the floor: redmax cannot step it. local-newton solves every step to rounding in
      // 50 iterations (nnewton stalls near 1e-4 at some touchdowns).
      {.name = "klann",
       .description =
           "six-legged Klann walker (003 §6, Figs. 1d, 5c): one crank shaft, per leg 4 more "
           "revolute "
           "joints and 2 loop-closing pins (2 bilateral rows each), spherical feet on the floor; "
           "chassis sliding in x and z, walking on its feet (chassis = 1, DOF = 27) or fixed with "
           "the "
           "feet brushing the floor (0, DOF = 25); motor: PD servo (motor_kp > 0) or prescribed "
           "speed "
           "(motor_kp = 0) of the shaft",
       .params =
           {Pos("crank_radius", 0.07,
                "crank length [m]; the linkage scales with it (leg ≈ 6.4 × crank)"),
            RealParam("crank_speed", 1, -100, 100, "speed of the motor's target [rad/s]"),
            NonNeg(
                "motor_kp", 1000,
                "motor stiffness about the shaft [N·m/rad] (0: the speed prescribed, bilateral)"),
            NonNeg("motor_kd", 20, "motor damping [N·m·s/rad] (0 with motor_kp = 0)"),
            Pos("density", 2, "mass per metre of the bars [kg/m]"),
            Pos("foot_radius", 0.01, "radius of the spherical feet [m]"),
            NonNeg("clearance", 0,
                   "initial gap below the lowest foot (chassis = 0: below the lowest point of the "
                   "feet's path) [m]"),
            NonNeg("leg_spacing", 0.08, "distance between neighbouring legs along the shaft [m]"),
            Whole(
                "chassis", 1, 0, 1,
                "1: a body sliding in x and z (walks on its feet), 0: the world (hanging)"),
            Pos("chassis_mass", 10, "chassis mass with chassis = 1 [kg]"), Mu(0.8),
            RealParam("dt", 1.0 / 240, 0, 0.1, "time step [s]", true)},
       .default_steps = 240,
       .default_every = 24,
       .build = MakeKlann,
       .reference_iters = 200,
       .reference_solvers = {"local-newton", "nnewton"},
       .stepper = "local-newton",
       .stepper_iters = 50},
      // Joint-friction rows with loop closures: pgs and sp solve them; bisp refuses (its
      // external constraints, 003 §5.3, are not implemented).
      {.name = "klann_friction",
       .description =
           "the Klann walker hanging (shaft fixed, feet brushing the floor) in maximal "
           "coordinates with joint friction (003 §6, Fig. 5c): free links, every revolute joint "
           "and loop-closing pin held by 5 implicit contacts (joint-friction rows), the shaft "
           "turned at crank_speed by one bilateral row (the motor)",
       .params = {Pos("crank_radius", 0.07,
                      "crank length [m]; the linkage scales with it (leg ≈ 6.4 × crank)"),
                  RealParam("crank_speed", 1, -100, 100, "the motor's speed [rad/s]"),
                  Pos("density", 2, "mass per metre of the bars [kg/m]"),
                  Pos("foot_radius", 0.01, "radius of the spherical feet [m]"),
                  NonNeg("clearance", 0,
                         "gap between the floor and the lowest point of the feet's path [m]"),
                  NonNeg("leg_spacing", 0.08, "distance between neighbouring legs [m]"), Mu(0.8),
                  NonNeg("joint_mu", 0.2, "friction coefficient of every joint and pin"),
                  Pos("joint_radius", 0.005, "pin radius: the friction torque's lever arm [m]"),
                  Pos("joint_half_length", 0.005, "pin half-length along its axis [m]"),
                  RealParam("dt", 1.0 / 240, 0, 0.1, "time step [s]", true)},
       .default_steps = 240,
       .default_every = 24,
       .build = MakeKlannFriction,
       .reference_iters = 5000,
       .reference_solvers = {"pgs"},
       .stepper = "pgs",
       .stepper_iters = 200},
      // Joint-friction rows: pgs, sp and bisp solve them (every other solver refuses the type);
      // bisp steps the chain exactly in a few iterations (003 Alg. 3).
      {.name = "chain",
       .description =
           "chain of revolute joints with joint friction (003 §6, Fig. 5a/5b) in maximal "
           "coordinates: "
           "free links, each joint held by 5 implicit contacts (joint-friction rows); starts "
           "horizontal, axes tilt degrees from gravity, swings and stops by joint friction; no "
           "contacts",
       .params = {Whole("links", 10, 1, 200,
                        "links (and joints; joint 0 hinges link 0 to the world)"),
                  Pos("link_length", 0.1, "link length [m]"),
                  Pos("link_width", 0.01, "side of the links' square cross-section [m]"),
                  Pos("density", 1000, "link density [kg/m³]"),
                  Pos("radius", 0.025, "joint radius: the friction torque's lever arm [m]"),
                  Pos("half_length", 0.0125, "joint half-length along its axis [m]"), Mu(0.2),
                  RealParam("tilt", 45, 0, 90, "angle of the joint axes from gravity [deg]"),
                  RealParam("dt", 1.0 / 240, 0, 0.1, "time step [s]", true)},
       .default_steps = 480,
       .default_every = 48,
       .build = MakeChain,
       .reference_iters = 2000,
       .reference_solvers = {"bisp"},
       .stepper = "bisp",
       .stepper_iters = 100},
      // Frictionless self-contact rows and soft PD rows: every solver that takes unilateral rows
      // runs the frames; admm-full steps them.
      {.name = "hagfish",
       .description =
           "a slender body of 100 alternating Z-revolute and XY-universal joints (003 §6, Fig. "
           "3) that PD servos coil into a helix until the tail rests on the body; self-collision "
           "along the spline through its centerline by Newton's method, one frictionless "
           "unilateral row per contact; no gravity; DOF = 1.5 × joints",
       .params = {Whole("joints", 100, 2, 1000, "joints (and segments), alternating Z / XY"),
                  Pos("length", 0.45, "body length [m]"),
                  Pos("radius", 0.011, "body radius over the front 70% [m]"),
                  Pos("tail_radius", 0.005, "radius at the tail tip [m]"),
                  Pos("density", 1050, "body density [kg/m³]"),
                  RealParam("bend_limit", 25, 0, 180, "limit of the Z and Y joints [deg]", true),
                  RealParam("twist_limit", 10, 0, 180, "limit of the X joints [deg]", true),
                  NonNeg("turns", 1.25, "turns the Z servos coil the body into"),
                  RealParam("twist", 0.35, -10, 10, "the X servos' twist per joint [deg]"),
                  NonNeg("ramp", 1.0, "time over which the servos' targets grow [s]"),
                  NonNeg("kp", 0.5, "servo stiffness, every joint [N·m/rad]"),
                  NonNeg("kd", 0.05, "servo damping, every joint [N·m·s/rad]"),
                  Pos("margin", 0.002, "self-contact rows below this gap [m]"),
                  RealParam("dt", 1.0 / 240, 0, 0.1, "time step [s]", true)},
       .default_steps = 480,
       .default_every = 48,
       .build = MakeHagfish,
       .reference_iters = 5000,
       .reference_solvers = {"admm-full", "pgs"}},
      // Bilateral rows (fingertip paths, DIP/PIP couplings, the elbow) and the thumb's limits.
      {.name = "hand",
       .description =
           "a forearm and hand (003 §6, Fig. 2): the elbow prescribed (a bilateral row), DIP = "
           "dip_ratio × PIP on the four fingers (003's hyper-reduced coordinates: the DIP's dof "
           "eliminated, or one bilateral row each), every fingertip on a path by three "
           "bilateral rows, the two-joint thumb passive within its limits; no contacts",
       .params = {Pos("density", 1100, "density of the forearm, palm and fingers [kg/m³]"),
                  RealParam("elbow", 40, 0, 140,
                            "the elbow's swing [deg] (its limits: −10°, 150°)"),
                  NonNeg("frequency", 0.5, "the fingers' flexing frequency [Hz]"),
                  RealParam("lag", 0.15, 0, 1, "phase lag between neighbouring fingers [periods]"),
                  Whole("eliminate", 1, 0, 1,
                        "1: the DIPs' dofs eliminated (003's hyper-reduced coordinates); 0: "
                        "kept, each held by one bilateral row"),
                  RealParam("dip_ratio", 0.5, 0, 1,
                            "DIP angle per PIP angle (the DIP's limit, 80°, is the PIP's sweep)"),
                  RealParam("dt", 1.0 / 240, 0, 1.0 / 30,
                            "time step [s] (at 0.04 s and more the fingertip rows, linearized "
                            "over a step, throw the fingers into their joint limits and the "
                            "solve diverges)",
                            true)},
       .default_steps = 480,
       .default_every = 48,
       .build = MakeHand,
       .stepper = "canal",
       .stepper_iters = 50},
      // Bilateral rows (attachments, prescribed joints) and the flesh's floor contacts: canal
      // steps them to res004 ~1e-7 in a few AL loops (admm-full at 200 iterations leaves ~1e-2).
      {.name = "starfish",
       .description =
           "a 20-joint skeleton (a floating disc, 5 arms of 4 bones on revolute joints) two-way "
           "coupled to a coarse co-rotational FEM star (003 §6, Fig. 1c): flesh nodes attached "
           "to the bones by bilateral rows, the arms' two inner joints prescribed as a wave, "
           "the rest passive; the flesh on the floor with friction",
       .params = {Whole("cells", 15, 4, 400, "grid cells across the star (1 through it)"),
                  Pos("radius", 0.14, "centre to arm tip [m]"),
                  Pos("disc", 0.045, "radius of the central disc [m]"),
                  Pos("arm_width", 0.06, "arm width at the centre [m]"),
                  Pos("tip_width", 0.02, "arm width at the tip [m]"),
                  Pos("thickness", 0.025, "thickness of the body [m]"),
                  Pos("youngs", 3e5, "Young's modulus [Pa]"),
                  Poisson("poisson", 0.4, "Poisson ratio"),
                  Pos("density", 1100, "flesh density [kg/m³]"), ElementDamping(), Mu(0.6),
                  Pos("attach_radius", 0.016,
                      "flesh nodes within this of a bone's axis are "
                      "attached to it [m]"),
                  Pos("margin", 0.01,
                      "floor contact rows below this gap [m] (the arms "
                      "swing fast: a node may close several mm in a step)"),
                  RealParam("amplitude", 25, 0, 60, "amplitude of the prescribed joints [deg]"),
                  NonNeg("frequency", 1, "frequency of the prescribed wave [Hz]"),
                  NonNeg("ramp", 0.5, "time over which the wave's amplitude grows [s]"),
                  RealParam("dt", 1.0 / 60, 0, 0.1, "time step [s]", true)},
       .default_steps = 120,
       .default_every = 12,
       .build = MakeStarfish,
       .stepper = "canal",
       .stepper_iters = 50},
  };
  return entries;
}

const SceneEntry* FindScene(const std::string& name) { return FindOrNull(Scenes(), name); }

std::map<std::string, double> SceneParams(const SceneEntry& e, const ParamMap& given) {
  return ParseParams(e.name, e.params, given);
}

std::string AssetDir() {
  if (const char* env = std::getenv("NCPBENCH_ASSETS")) return env;
  return NCPBENCH_ASSET_DIR;
}

Scene NewScene(const std::map<std::string, double>& params, StepOptions opt) {
  Scene sc;
  sc.params = params;
  sc.system = std::make_unique<MultibodySystem>(opt);
  return sc;
}

Geom BoxGeom(const Vec3& half, double mu) {
  Geom g;
  g.shape.type = ShapeType::kBox;
  g.shape.half_extents = half;
  g.mu = mu;
  return g;
}

Geom SphereGeom(double radius, double mu) {
  Geom g;
  g.shape.type = ShapeType::kSphere;
  g.shape.radius = radius;
  g.mu = mu;
  return g;
}

Mat3 BoxInertia(double mass, const Vec3& h) {
  const Vec3 s = 4.0 * h.cwiseProduct(h);  // full side lengths squared
  return Vec3(mass / 12 * (s.y() + s.z()), mass / 12 * (s.x() + s.z()), mass / 12 * (s.x() + s.y()))
      .asDiagonal();
}

Eigen::VectorXd PoseToQ(const Pose& pose) {
  Eigen::VectorXd q(7);
  const Eigen::Quaterniond r(pose.linear());
  q << pose.translation(), r.w(), r.x(), r.y(), r.z();
  return q;
}

int AddBox(MultibodySystem& s, double mass, const Vec3& half, double mu, const Pose& pose,
           const Vec6& velocity) {
  auto m = std::make_shared<ArticulatedModel>(
      MakeFreeBody("box", mass, BoxInertia(mass, half), {BoxGeom(half, mu)}));
  return s.AddInstance(m, PoseToQ(pose), velocity);
}

int AddSphere(MultibodySystem& s, double mass, double radius, double mu, const Pose& pose,
              double inertia_scale) {
  const double I = 0.4 * mass * radius * radius * inertia_scale;
  auto m = std::make_shared<ArticulatedModel>(
      MakeFreeBody("sphere", mass, I * Mat3::Identity(), {SphereGeom(radius, mu)}));
  return s.AddInstance(m, PoseToQ(pose), Eigen::VectorXd::Zero(6));
}

void AddFloor(MultibodySystem& s, double mu, double incline) {
  Geom g;
  g.shape.type = ShapeType::kPlane;
  g.mu = mu;
  g.local = Pose(Eigen::AngleAxisd(incline, Vec3::UnitY()));
  s.AddWorldGeom(g);
}

}  // namespace ncp
