// Readers refuse a size the file cannot hold before allocating for it: a corrupt extent in an
// HDF5 header, an fclib nzmax, m or n far beyond the stored arrays. Each is a one-line ncp::Error.
#include <gtest/gtest.h>

#include <hdf5.h>

#include <algorithm>
#include <filesystem>
#include <limits>
#include <string>

#include "common/error.h"
#include "problems/io/fclib_io.h"
#include "problems/io/h5_util.h"
#include "problems/model/validate.h"
#include "tests/cli_support.h"

namespace ncp {
namespace {

namespace fs = std::filesystem;

// A chunked dataset of `n` doubles that is never written: a few hundred bytes on disk whatever n.
std::string FileWithDeclaredExtent(const fs::path& dir, hsize_t n) {
  const std::string path = (dir / ("extent" + std::to_string(n) + ".h5")).string();
  h5::SilenceErrors();
  h5::Handle file(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT));
  h5::Handle space(H5Screate_simple(1, &n, nullptr));
  h5::Handle plist(H5Pcreate(H5P_DATASET_CREATE));
  const hsize_t chunk = std::min<hsize_t>(n, 1024);  // a chunk may not exceed a fixed extent
  H5Pset_chunk(plist.id(), 1, &chunk);
  h5::Handle ds(
      H5Dcreate2(file.id(), "x", H5T_IEEE_F64LE, space.id(), H5P_DEFAULT, plist.id(), H5P_DEFAULT));
  EXPECT_TRUE(ds.valid());
  return path;
}

std::string ReadX(const std::string& path) {
  h5::Handle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  h5::Group root(h5::Handle(H5Gopen2(file.id(), "/", H5P_DEFAULT)), path, "/");
  try {
    root.ReadDoubles("x");
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(DeclaredSize, HugeExtentIsRefusedBeforeAllocation) {
  const fs::path dir = testing::FreshDir("declared_extent");
  // 1e12 doubles = 8 TB declared in a file of a few KB.
  const std::string msg = ReadX(FileWithDeclaredExtent(dir, 1000000000000ULL));
  EXPECT_NE(msg.find("declares 1000000000000 elements"), std::string::npos) << msg;
  EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
  // A small unwritten dataset is still read (fill values): the bound is not a ban.
  EXPECT_EQ(ReadX(FileWithDeclaredExtent(dir, 1000)), "");
}

// 72 doubles declared in chunks of 16M (128 MB): a chunk is inflated whole, so such a file (a few
// MB when written, gzip) would make the reader take the chunk's memory. Refused from the header,
// before any chunk is read; 72 doubles in one chunk of 1024 still read.
TEST(DeclaredSize, ChunkFarLargerThanTheDataIsRefused) {
  const fs::path dir = testing::FreshDir("declared_chunk");
  auto file_with_chunk = [&](hsize_t chunk) {
    const std::string path = (dir / ("chunk" + std::to_string(chunk) + ".h5")).string();
    h5::SilenceErrors();
    h5::Handle file(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT));
    const hsize_t n = 72, most = H5S_UNLIMITED;  // extendible: a chunk may exceed the extent
    h5::Handle space(H5Screate_simple(1, &n, &most));
    h5::Handle plist(H5Pcreate(H5P_DATASET_CREATE));
    H5Pset_chunk(plist.id(), 1, &chunk);
    H5Pset_deflate(plist.id(), 9);
    h5::Handle ds(H5Dcreate2(file.id(), "x", H5T_IEEE_F64LE, space.id(), H5P_DEFAULT, plist.id(),
                             H5P_DEFAULT));
    EXPECT_TRUE(ds.valid());
    return path;
  };
  const std::string msg = ReadX(file_with_chunk(hsize_t{1} << 24));
  EXPECT_NE(msg.find("compression bomb"), std::string::npos) << msg;
  EXPECT_NE(msg.find("1.34e+08 bytes for 576 bytes"), std::string::npos) << msg;
  EXPECT_EQ(ReadX(file_with_chunk(1024)), "");
}

// Rover4493 with one size field of W replaced, written to a fresh copy.
std::string LoadWithW(const fs::path& dir, const char* field, int value) {
  const fs::path copy = dir / "rover.hdf5";
  fs::copy_file(std::string(NCP_FCLIB_DIR) + "/Rover4493.hdf5", copy,
                fs::copy_options::overwrite_existing);
  fs::permissions(copy, fs::perms::owner_write, fs::perm_options::add);
  {
    h5::SilenceErrors();
    h5::Handle file(H5Fopen(copy.c_str(), H5F_ACC_RDWR, H5P_DEFAULT));
    h5::Handle ds(
        H5Dopen2(file.id(), (std::string("/fclib_local/W/") + field).c_str(), H5P_DEFAULT));
    EXPECT_GE(H5Dwrite(ds.id(), H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, &value), 0);
  }
  try {
    ReadFclib(copy.string());
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(DeclaredSize, FclibSizesBeyondTheStoredArraysAreRefused) {
  const fs::path dir = testing::FreshDir("declared_fclib");
  // libfclib would allocate 12 * nzmax bytes (26 GB) and end the process when that fails.
  std::string msg = LoadWithW(dir, "nzmax", 2147483647);
  EXPECT_NE(msg.find("nzmax = 2147483647"), std::string::npos) << msg;
  msg = LoadWithW(dir, "n", 2147483647);
  EXPECT_NE(msg.find("2147483648"), std::string::npos) << msg;  // p must have n + 1 entries
  msg = LoadWithW(dir, "m", 15);
  EXPECT_NE(msg.find("must be square"), std::string::npos) << msg;
  // An nzmax above the stored count, as exporters reserve (Box_Stacks: 744 for 485), loads.
  EXPECT_EQ(LoadWithW(dir, "nzmax", 200), "");
}

// A stored row index near INT_MAX: the row count saturates instead of overflowing, and
// validation names the field.
TEST(DeclaredSize, RowIndexNearIntMaxIsRefusedWithoutOverflow) {
  ContactProblem p;
  p.form = ProblemForm::kLocal;
  AddConstraint(p.constraints, ConstraintType::kContact, 0.5);
  p.constraints[0].row = std::numeric_limits<int>::max();
  EXPECT_EQ(p.num_rows(), std::numeric_limits<int>::max());
  const std::string err = Validate(p);
  EXPECT_NE(err.find("constraint[0].row = 2147483647: must be 0"), std::string::npos) << err;
}

}  // namespace
}  // namespace ncp
