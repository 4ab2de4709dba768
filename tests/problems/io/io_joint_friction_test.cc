// Joint-friction constraints (type 4) at the file boundaries: a dataset round trip keeps them
// bitwise; the reader refuses type 5 in one line; fclib has no friction on bilateral rows, so the
// global export and the local form refuse them, naming the constraint.
#include <gtest/gtest.h>

#include <string>

#include "common/error.h"
#include "problems/io/dataset_hdf5.h"
#include "problems/io/fclib_io.h"
#include "problems/io/h5_util.h"
#include "problems/model/local_form.h"
#include "problems/model/validate.h"
#include "problems/scenarios/random/manufactured.h"
#include "tests/temp_dir_test_base.h"

namespace ncp {
namespace {

class JointFrictionIoTest : public testing::TempDirTest {
 protected:
  JointFrictionIoTest() : TempDirTest("ncpbench_io_joint_friction") {}
  static ContactProblem Tree() {
    JointFrictionTreeOptions o;
    o.bodies = 3;
    return ManufacturedJointFrictionTree(o, 81, "jf");
  }
};

TEST_F(JointFrictionIoTest, DatasetRoundTripKeepsTheType) {
  const ContactProblem p = Tree();
  const std::string path = Path("jf.h5");
  WriteDataset(path, {p});
  const std::vector<ContactProblem> back = ReadDataset(path);
  ASSERT_EQ(back.size(), 1u);
  ASSERT_EQ(back[0].num_constraints(), 15);
  for (int i = 0; i < 15; ++i) {
    EXPECT_EQ(back[0].constraints[i].type, ConstraintType::kJointFriction);
    EXPECT_EQ(back[0].constraints[i].row, 2 * i);
    EXPECT_EQ(back[0].constraints[i].mu, p.constraints[i].mu);
  }
  EXPECT_EQ(Validate(back[0]), "");
}

TEST_F(JointFrictionIoTest, ReaderRefusesTypeFive) {
  const std::string path = Path("jf5.h5");
  WriteDataset(path, {Tree()});
  {
    h5::File f = h5::File::OpenReadWrite(path);
    h5::Group g = f.root().Open("problems").Open("jf");
    ASSERT_GE(H5Ldelete(g.id(), "constraint_type", H5P_DEFAULT), 0);
    std::vector<std::uint8_t> types(15, 4);
    types[3] = 5;
    g.WriteBytes("constraint_type", types);
    f.Close();
  }
  try {
    ReadDataset(path);
    FAIL() << "type 5 was read";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("value 5 at index 3 is not a constraint type (0..4)"),
              std::string::npos)
        << e.what();
  }
}

TEST_F(JointFrictionIoTest, FclibExportAndLocalFormRefuseIt) {
  const ContactProblem p = Tree();
  try {
    WriteFclibGlobal(Path("jf.hdf5"), p);
    FAIL() << "exported";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("constraint 0 is joint-friction"), std::string::npos)
        << e.what();
  }
  try {
    MakeLocalForm(p);
    FAIL() << "converted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("joint-friction"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace ncp
