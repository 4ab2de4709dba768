#include "problems/physics/sdf/sdf_contacts.h"

#include <limits>
#include <random>

#include "problems/physics/sdf/frank_wolfe.h"

namespace ncp::physics {

std::vector<ContactPoint> SdfMeshContacts(const Sdf& sdf, const TriangleMesh& mesh,
                                          const Pose& mesh_to_sdf, double margin, int first,
                                          int count) {
  std::vector<ContactPoint> out;
  const int last = count < 0 ? static_cast<int>(mesh.triangles.size()) : first + count;
  for (int t = first; t < last; ++t) {
    const Eigen::Vector3i& tri = mesh.triangles[t];
    const Vec3 a = mesh_to_sdf * mesh.vertices[tri[0]], b = mesh_to_sdf * mesh.vertices[tri[1]],
               c = mesh_to_sdf * mesh.vertices[tri[2]];
    // Cheap rejection: a triangle whose vertices are all farther than margin + its size.
    const double size = std::max({(b - a).norm(), (c - b).norm(), (a - c).norm()});
    if (std::min({sdf.Eval(a, nullptr), sdf.Eval(b, nullptr), sdf.Eval(c, nullptr)}) >
        margin + size)
      continue;
    const SdfTriangleContact r = FrankWolfeTriangle(sdf, a, b, c);
    if (!(r.distance < margin) || !(r.normal.norm() > 0)) continue;
    ContactPoint p;
    p.position = r.point;
    p.normal = r.normal.normalized();
    p.gap = r.distance;
    out.push_back(p);
  }
  return out;
}

std::vector<ContactPoint> ClusterContacts(const std::vector<ContactPoint>& contacts, int k,
                                          std::uint64_t seed) {
  const int n = static_cast<int>(contacts.size());
  if (n <= k) return contacts;
  std::mt19937_64 rng(seed);
  // k-means++ seeding.
  std::vector<Vec3> centre{contacts[std::uniform_int_distribution<int>(0, n - 1)(rng)].position};
  std::vector<double> d2(n, std::numeric_limits<double>::max());
  while (static_cast<int>(centre.size()) < k) {
    double total = 0.0;
    for (int i = 0; i < n; ++i)
      total += d2[i] = std::min(d2[i], (contacts[i].position - centre.back()).squaredNorm());
    double pick = std::uniform_real_distribution<double>(0.0, total)(rng);
    int i = 0;
    for (; i + 1 < n && pick > d2[i]; ++i) pick -= d2[i];
    centre.push_back(contacts[i].position);
  }
  std::vector<int> label(n, 0);
  for (int round = 0; round < 30; ++round) {
    bool moved = false;
    for (int i = 0; i < n; ++i) {
      int best = 0;
      double bd = std::numeric_limits<double>::max();
      for (int c = 0; c < k; ++c)
        if (const double d = (contacts[i].position - centre[c]).squaredNorm(); d < bd)
          bd = d, best = c;
      moved |= best != label[i];
      label[i] = best;
    }
    std::vector<Vec3> sum(k, Vec3::Zero());
    std::vector<int> size(k, 0);
    for (int i = 0; i < n; ++i) sum[label[i]] += contacts[i].position, ++size[label[i]];
    for (int c = 0; c < k; ++c)
      if (size[c]) centre[c] = sum[c] / size[c];
    if (!moved && round > 0) break;
  }
  std::vector<int> deepest(k, -1);
  for (int i = 0; i < n; ++i)
    if (deepest[label[i]] < 0 || contacts[i].gap < contacts[deepest[label[i]]].gap)
      deepest[label[i]] = i;
  std::vector<ContactPoint> out;
  for (int c = 0; c < k; ++c)
    if (deepest[c] >= 0) out.push_back(contacts[deepest[c]]);
  return out;
}

}  // namespace ncp::physics
