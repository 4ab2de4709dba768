#include "problems/io/h5_util.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>

#include "common/error.h"
#include "common/file_kind.h"
#include "common/file_write.h"

namespace ncp::h5 {
namespace {

// Datasets at least this large are chunked and compressed; smaller ones stay contiguous, where
// chunk overhead would outweigh the saving.
constexpr hsize_t kCompressMinElements = 4096;
constexpr hsize_t kChunkElements = 65536;
// Bound on what a read may allocate: deflate rarely compresses numbers 64-fold, and small files
// get a fixed allowance.
constexpr double kMaxInflation = 64.0;
constexpr double kSlackBytes = 64e6;

const char* ClassName(H5T_class_t c) {
  switch (c) {
    case H5T_INTEGER:
      return "integer";
    case H5T_FLOAT:
      return "float";
    case H5T_STRING:
      return "string";
    case H5T_COMPOUND:
      return "compound";
    case H5T_ENUM:
      return "enum";
    case H5T_ARRAY:
      return "array";
    default:
      return "other";
  }
}

// Reads a string-typed dataset or attribute (variable or fixed length) into `out`.
template <typename ReadFn>
bool ReadStringsWith(hid_t file_type, hid_t space, std::size_t n, ReadFn read,
                     std::vector<std::string>* out) {
  out->clear();
  if (n == 0) return true;
  if (H5Tis_variable_str(file_type) > 0) {
    Handle mem(H5Tcopy(H5T_C_S1));
    H5Tset_size(mem.id(), H5T_VARIABLE);
    H5Tset_cset(mem.id(), H5Tget_cset(file_type));
    std::vector<char*> ptrs(n, nullptr);
    if (read(mem.id(), ptrs.data()) < 0) return false;
    for (char* p : ptrs) out->emplace_back(p ? p : "");
    H5Dvlen_reclaim(mem.id(), space, H5P_DEFAULT, ptrs.data());
    return true;
  }
  const std::size_t size = H5Tget_size(file_type);
  Handle mem(H5Tcopy(H5T_C_S1));
  H5Tset_size(mem.id(), size);
  H5Tset_strpad(mem.id(), H5T_STR_NULLPAD);
  H5Tset_cset(mem.id(), H5Tget_cset(file_type));  // HDF5 converts no ASCII <-> UTF-8
  std::vector<char> buf(n * size);
  if (read(mem.id(), buf.data()) < 0) return false;
  for (std::size_t i = 0; i < n; ++i) {
    const char* s = buf.data() + i * size;
    out->emplace_back(s, strnlen(s, size));
  }
  return true;
}

template <typename T>
std::vector<T> Narrow(const Group& g, const std::string& name, const std::vector<std::int64_t>& v,
                      const char* type_name) {
  std::vector<T> out(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (v[i] < std::numeric_limits<T>::min() || v[i] > std::numeric_limits<T>::max()) {
      g.Fail(name, fmt::format("value {} at index {} does not fit {}", v[i], i, type_name));
    }
    out[i] = static_cast<T>(v[i]);
  }
  return out;
}

}  // namespace

Handle& Handle::operator=(Handle&& o) noexcept {
  if (this != &o) {
    Reset();
    id_ = o.id_;
    o.id_ = H5I_INVALID_HID;
  }
  return *this;
}

bool Handle::Reset() {
  if (id_ < 0) return true;
  herr_t st = 0;
  switch (H5Iget_type(id_)) {
    case H5I_FILE:
      st = H5Fclose(id_);
      break;
    case H5I_GROUP:
      st = H5Gclose(id_);
      break;
    case H5I_DATASET:
      st = H5Dclose(id_);
      break;
    case H5I_DATASPACE:
      st = H5Sclose(id_);
      break;
    case H5I_DATATYPE:
      st = H5Tclose(id_);
      break;
    case H5I_ATTR:
      st = H5Aclose(id_);
      break;
    case H5I_GENPROP_LST:
      st = H5Pclose(id_);
      break;
    default:
      st = -1;
      break;
  }
  id_ = H5I_INVALID_HID;
  return st >= 0;
}

// A dataset compressed with a filter this HDF5 library lacks (h5py's lzf, a plug-in's) reads as
// a bare failure: named before the read, "" when every filter is there.
std::string MissingFilter(hid_t ds) {
  Handle dcpl(H5Dget_create_plist(ds));
  if (!dcpl.valid()) return "";
  const int n = H5Pget_nfilters(dcpl.id());
  for (int k = 0; k < n; ++k) {
    unsigned flags = 0, config = 0;
    std::size_t values = 0;
    char name[64] = {};
    const H5Z_filter_t id =
        H5Pget_filter2(dcpl.id(), k, &flags, &values, nullptr, sizeof name, name, &config);
    if (id < 0 || H5Zfilter_avail(id) > 0) continue;
    return fmt::format("compressed with HDF5 filter {}{}, which this HDF5 library does not have",
                       id, name[0] ? fmt::format(" ({})", name) : "");
  }
  return "";
}

// The size of the file `loc` is in [bytes], 0 where unknown.
hsize_t FileBytes(hid_t loc) {
  hsize_t file_bytes = 0;
  Handle file(H5Iget_file_id(loc));
  if (file.valid()) H5Fget_filesize(file.id(), &file_bytes);
  return file_bytes;
}

// What reads from a file of `file_bytes` may allocate: one dataset, and all of them together.
double ReadLimit(hsize_t file_bytes) {
  return kMaxInflation * static_cast<double>(file_bytes) + kSlackBytes;
}

// Elements of a dataset (1 for a scalar, 0 for a null dataspace), as its dataspace counts them.
std::uint64_t Points(hid_t ds) {
  Handle space(H5Dget_space(ds));
  const hssize_t n = H5Sget_simple_extent_npoints(space.id());
  return n > 0 ? static_cast<std::uint64_t>(n) : 0;
}

std::string ImplausibleSize(hid_t loc, double count, std::size_t element_bytes) {
  const double bytes = count * static_cast<double>(element_bytes);
  const hsize_t file_bytes = FileBytes(loc);
  const double limit = ReadLimit(file_bytes);
  if (bytes <= limit) {
    // A dataset's chunk is inflated whole whatever the extent: a few values stored as one
    // compressed chunk of gigabytes would take that memory. A chunk may exceed the data only up
    // to kSlackBytes: the same answer on any machine.
    if (H5Iget_type(loc) != H5I_DATASET) return "";
    Handle dcpl(H5Dget_create_plist(loc));
    if (!dcpl.valid() || H5Pget_layout(dcpl.id()) != H5D_CHUNKED) return "";
    hsize_t chunk[H5S_MAX_RANK] = {};
    const int rank = H5Pget_chunk(dcpl.id(), H5S_MAX_RANK, chunk);
    double chunk_bytes = static_cast<double>(element_bytes);
    for (int d = 0; d < rank; ++d) chunk_bytes *= static_cast<double>(chunk[d]);
    if (rank >= 0 && chunk_bytes <= std::max(bytes, kSlackBytes)) return "";
    return fmt::format(
        "is stored in chunks of {:.3g} bytes for {:.3g} bytes of data (more than "
        "the data and {:g} MB): a compression bomb or a corrupt header",
        chunk_bytes, bytes, kSlackBytes / 1e6);
  }
  return fmt::format(
      "declares {:.0f} elements ({:.3g} bytes), more than {:g} x the file's {} bytes + "
      "{:g} MB: a corrupt size",
      count, bytes, kMaxInflation, file_bytes, kSlackBytes / 1e6);
}

// Strings are written fixed-length (NUL-padded to the longest, UTF-8): variable-length ones
// live in HDF5's global heap, whose reader (H5HG_read) crashes or loops on a corrupt file.
// Files with variable-length strings still read (ReadStringsWith takes both).
Handle FixedStringType(std::size_t width) {
  Handle t(H5Tcopy(H5T_C_S1));
  H5Tset_size(t.id(), std::max<std::size_t>(width, 1));  // HDF5 has no zero-width string
  H5Tset_strpad(t.id(), H5T_STR_NULLPAD);
  H5Tset_cset(t.id(), H5T_CSET_UTF8);
  return t;
}

void SilenceErrors() { H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr); }

// ---------------------------------------------------------------------------------------------
// Group: links

std::string Group::PathOf(const std::string& name) const {
  if (name.empty()) return path_;
  return path_ == "/" ? "/" + name : path_ + "/" + name;
}

void Group::Fail(const std::string& name, const std::string& problem) const {
  throw Error(fmt::format("{}: {}: {}", file_, PathOf(name), problem));
}

bool Group::Has(const std::string& name) const {
  return H5Lexists(id(), name.c_str(), H5P_DEFAULT) > 0;
}

bool Group::HasGroup(const std::string& name) const {
  if (!Has(name)) return false;
  H5O_info_t info;
  if (H5Oget_info_by_name2(id(), name.c_str(), &info, H5O_INFO_BASIC, H5P_DEFAULT) < 0) {
    return false;
  }
  return info.type == H5O_TYPE_GROUP;
}

Group Group::Open(const std::string& name) const {
  if (!Has(name)) Fail(name, "missing group");
  Handle g(H5Gopen2(id(), name.c_str(), H5P_DEFAULT));
  if (!g.valid()) Fail(name, "not a group");
  return Group(std::move(g), file_, PathOf(name), read_);
}

Group Group::Create(const std::string& name) const {
  // No modification times in object headers: the same problems give the same bytes, so a
  // dataset's content hash (part of every job key) is equal wherever it was generated.
  Handle gcpl(H5Pcreate(H5P_GROUP_CREATE));
  H5Pset_obj_track_times(gcpl.id(), false);
  Handle g(H5Gcreate2(id(), name.c_str(), H5P_DEFAULT, gcpl.id(), H5P_DEFAULT));
  if (!g.valid()) Fail(name, "cannot create group");
  return Group(std::move(g), file_, PathOf(name), read_);
}

std::vector<std::string> Group::Children() const {
  H5G_info_t info;
  if (H5Gget_info(id(), &info) < 0) Fail("", "cannot list group");
  std::vector<std::string> names;
  names.reserve(info.nlinks);
  for (hsize_t i = 0; i < info.nlinks; ++i) {
    ssize_t len =
        H5Lget_name_by_idx(id(), ".", H5_INDEX_NAME, H5_ITER_INC, i, nullptr, 0, H5P_DEFAULT);
    if (len < 0) Fail("", "cannot list group");
    std::string s(static_cast<std::size_t>(len) + 1, '\0');
    H5Lget_name_by_idx(id(), ".", H5_INDEX_NAME, H5_ITER_INC, i, s.data(), s.size(), H5P_DEFAULT);
    s.resize(static_cast<std::size_t>(len));
    names.push_back(std::move(s));
  }
  return names;
}

// ---------------------------------------------------------------------------------------------
// Group: datasets

void Group::WriteNumeric(const std::string& name, hid_t file_type, hid_t mem_type, const void* data,
                         int rank, const hsize_t* dims) const {
  Handle space(H5Screate_simple(rank, dims, nullptr));
  if (!space.valid()) Fail(name, "cannot create dataspace");
  hsize_t total = 1;
  for (int r = 0; r < rank; ++r) total *= dims[r];

  Handle dcpl(H5Pcreate(H5P_DATASET_CREATE));
  H5Pset_obj_track_times(dcpl.id(), false);  // reproducible bytes (see Group::Create)
  if (total >= kCompressMinElements) {
    hsize_t chunk[2] = {dims[0], rank == 2 ? dims[1] : 1};
    if (rank == 1) {
      chunk[0] = std::min(dims[0], kChunkElements);
    } else {
      chunk[0] = std::clamp<hsize_t>(kChunkElements / std::max<hsize_t>(dims[1], 1), 1, dims[0]);
    }
    H5Pset_chunk(dcpl.id(), rank, chunk);
    if (H5Zfilter_avail(H5Z_FILTER_DEFLATE) > 0) {
      H5Pset_shuffle(dcpl.id());
      H5Pset_deflate(dcpl.id(), 4);
    }
  }
  Handle ds(
      H5Dcreate2(id(), name.c_str(), file_type, space.id(), H5P_DEFAULT, dcpl.id(), H5P_DEFAULT));
  if (!ds.valid()) Fail(name, "cannot create dataset");
  if (total > 0 && H5Dwrite(ds.id(), mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0) {
    Fail(name, "write failed");
  }
}

void Group::WriteDoubles(const std::string& name, std::span<const double> v) const {
  const hsize_t dims[1] = {v.size()};
  WriteNumeric(name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, v.data(), 1, dims);
}

void Group::WriteInts(const std::string& name, std::span<const std::int32_t> v) const {
  const hsize_t dims[1] = {v.size()};
  WriteNumeric(name, H5T_STD_I32LE, H5T_NATIVE_INT32, v.data(), 1, dims);
}

void Group::WriteInt64s(const std::string& name, std::span<const std::int64_t> v) const {
  const hsize_t dims[1] = {v.size()};
  WriteNumeric(name, H5T_STD_I64LE, H5T_NATIVE_INT64, v.data(), 1, dims);
}

void Group::WriteBytes(const std::string& name, std::span<const std::uint8_t> v) const {
  const hsize_t dims[1] = {v.size()};
  WriteNumeric(name, H5T_STD_U8LE, H5T_NATIVE_UINT8, v.data(), 1, dims);
}

void Group::WriteDoubles2D(const std::string& name, std::span<const double> v, std::int64_t rows,
                           std::int64_t cols) const {
  if (rows < 0 || cols < 0 || static_cast<std::size_t>(rows * cols) != v.size()) {
    Fail(name, fmt::format("wrong dims: {} values for {}×{}", v.size(), rows, cols));
  }
  const hsize_t dims[2] = {static_cast<hsize_t>(rows), static_cast<hsize_t>(cols)};
  WriteNumeric(name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, v.data(), 2, dims);
}

void Group::WriteStrings(const std::string& name, const std::vector<std::string>& v) const {
  std::size_t width = 0;
  for (const std::string& s : v) width = std::max(width, s.size());
  Handle type = FixedStringType(width);
  width = H5Tget_size(type.id());
  const hsize_t dims[1] = {v.size()};
  Handle space(H5Screate_simple(1, dims, nullptr));
  Handle dcpl(H5Pcreate(H5P_DATASET_CREATE));
  H5Pset_obj_track_times(dcpl.id(), false);  // reproducible bytes (see Group::Create)
  Handle ds(
      H5Dcreate2(id(), name.c_str(), type.id(), space.id(), H5P_DEFAULT, dcpl.id(), H5P_DEFAULT));
  if (!ds.valid()) Fail(name, "cannot create dataset");
  std::string buffer(v.size() * width, '\0');
  for (std::size_t i = 0; i < v.size(); ++i) v[i].copy(buffer.data() + i * width, width);
  if (!v.empty() &&
      H5Dwrite(ds.id(), type.id(), H5S_ALL, H5S_ALL, H5P_DEFAULT, buffer.data()) < 0) {
    Fail(name, "write failed");
  }
}

Handle Group::OpenDataset(const std::string& name, H5T_class_t cls, int rank,
                          std::vector<hsize_t>* dims) const {
  if (!Has(name)) Fail(name, "missing dataset");
  Handle ds(H5Dopen2(id(), name.c_str(), H5P_DEFAULT));
  if (!ds.valid()) Fail(name, "not a dataset");
  Handle type(H5Dget_type(ds.id()));
  const H5T_class_t got = H5Tget_class(type.id());
  if (got != cls) {
    Fail(name, fmt::format("wrong dtype: expected {}, got {}", ClassName(cls), ClassName(got)));
  }
  Handle space(H5Dget_space(ds.id()));
  const int r = H5Sget_simple_extent_ndims(space.id());
  if (rank >= 0 && r != rank) {
    Fail(name, fmt::format("wrong dims: expected {}-D, got {}-D", rank, r));
  }
  dims->assign(static_cast<std::size_t>(std::max(r, 0)), 0);
  H5Sget_simple_extent_dims(space.id(), dims->data(), nullptr);
  // A corrupt header can declare any extent; what a reader allocates for it (8 bytes a number or
  // a string pointer, the declared width for fixed strings) must be what the file could hold.
  const hssize_t points = H5Sget_simple_extent_npoints(space.id());
  if (points < 0) Fail(name, "unreadable extent");
  const std::string why = ImplausibleSize(ds.id(), static_cast<double>(points),
                                          std::max<std::size_t>(8, H5Tget_size(type.id())));
  if (!why.empty()) Fail(name, why);
  if (const std::string filter = MissingFilter(ds.id()); !filter.empty()) Fail(name, filter);
  return ds;
}

void Group::Charge(const std::string& name, hid_t ds, double bytes) const {
  *read_ += bytes;
  const hsize_t file_bytes = FileBytes(ds);
  if (*read_ > ReadLimit(file_bytes))
    Fail(name, fmt::format("with it the file's datasets hold {:.3g} bytes, more than {:g} x its {} "
                           "bytes + {:g} MB: a compression bomb or a corrupt header",
                           *read_, kMaxInflation, file_bytes, kSlackBytes / 1e6));
}

std::vector<double> Group::ReadDoublesOfRank(const std::string& name, int rank) const {
  std::vector<hsize_t> dims;
  Handle ds = OpenDataset(name, H5T_FLOAT, rank, &dims);
  const std::uint64_t points = Points(ds.id());
  Charge(name, ds.id(), 8.0 * static_cast<double>(points));
  std::vector<double> v(points);
  if (!v.empty() &&
      H5Dread(ds.id(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data()) < 0) {
    Fail(name, "read failed");
  }
  return v;
}

std::vector<double> Group::ReadDoubles(const std::string& name) const {
  return ReadDoublesOfRank(name, 1);
}

std::vector<std::int64_t> Group::ReadIntegers(const std::string& name) const {
  std::vector<hsize_t> dims;
  Handle ds = OpenDataset(name, H5T_INTEGER, 1, &dims);
  Charge(name, ds.id(), 8.0 * static_cast<double>(dims[0]));
  std::vector<std::int64_t> v(dims[0]);
  if (!v.empty() &&
      H5Dread(ds.id(), H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data()) < 0) {
    Fail(name, "read failed");
  }
  return v;
}

std::vector<std::int32_t> Group::ReadInts(const std::string& name) const {
  return Narrow<std::int32_t>(*this, name, ReadIntegers(name), "int32");
}

std::vector<double> Group::ReadDoublesFlat(const std::string& name) const {
  return ReadDoublesOfRank(name, -1);
}

std::int32_t Group::ReadOneInt(const std::string& name) const {
  std::vector<hsize_t> dims;
  Handle ds = OpenDataset(name, H5T_INTEGER, -1, &dims);
  if (const std::uint64_t points = Points(ds.id()); points != 1)
    Fail(name, fmt::format("wrong size: expected 1 value, got {}", points));
  std::vector<std::int64_t> v(1);
  if (H5Dread(ds.id(), H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data()) < 0) {
    Fail(name, "read failed");
  }
  return Narrow<std::int32_t>(*this, name, v, "int32").front();
}

std::vector<std::int64_t> Group::ReadInt64s(const std::string& name) const {
  return ReadIntegers(name);
}

std::vector<std::uint8_t> Group::ReadBytes(const std::string& name) const {
  return Narrow<std::uint8_t>(*this, name, ReadIntegers(name), "uint8");
}

std::vector<std::string> Group::ReadStrings(const std::string& name) const {
  std::vector<hsize_t> dims;
  Handle ds = OpenDataset(name, H5T_STRING, 1, &dims);
  Handle type(H5Dget_type(ds.id()));
  Handle space(H5Dget_space(ds.id()));
  std::vector<std::string> out;
  auto read = [&](hid_t mem, void* buf) {
    return H5Dread(ds.id(), mem, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf);
  };
  if (!ReadStringsWith(type.id(), space.id(), dims[0], read, &out)) Fail(name, "read failed");
  return out;
}

std::string Group::ReadString(const std::string& name) const {
  std::vector<hsize_t> dims;
  Handle ds = OpenDataset(name, H5T_STRING, -1, &dims);
  Handle type(H5Dget_type(ds.id()));
  Handle space(H5Dget_space(ds.id()));
  if (H5Sget_simple_extent_npoints(space.id()) != 1) {
    Fail(name, "wrong dims: expected a single string");
  }
  std::vector<std::string> out;
  auto read = [&](hid_t mem, void* buf) {
    return H5Dread(ds.id(), mem, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf);
  };
  if (!ReadStringsWith(type.id(), space.id(), 1, read, &out)) Fail(name, "read failed");
  return out.front();
}

std::vector<hsize_t> Group::Dims(const std::string& name, H5T_class_t cls) const {
  std::vector<hsize_t> dims;
  OpenDataset(name, cls, -1, &dims);
  return dims;
}

std::int64_t Group::Count(const std::string& name, H5T_class_t cls) const {
  std::vector<hsize_t> dims;
  return static_cast<std::int64_t>(Points(OpenDataset(name, cls, -1, &dims).id()));
}

std::vector<double> Group::ReadDoubles2D(const std::string& name, std::int64_t cols,
                                         std::int64_t* rows) const {
  std::vector<hsize_t> dims;
  Handle ds = OpenDataset(name, H5T_FLOAT, 2, &dims);
  if (static_cast<std::int64_t>(dims[1]) != cols) {
    Fail(name, fmt::format("wrong dims: expected N×{}, got {}×{}", cols, dims[0], dims[1]));
  }
  *rows = static_cast<std::int64_t>(dims[0]);
  Charge(name, ds.id(), 8.0 * static_cast<double>(dims[0]) * static_cast<double>(dims[1]));
  std::vector<double> v(dims[0] * dims[1]);
  if (!v.empty() &&
      H5Dread(ds.id(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data()) < 0) {
    Fail(name, "read failed");
  }
  return v;
}

// ---------------------------------------------------------------------------------------------
// Group: attributes

bool Group::HasAttr(const std::string& name) const { return H5Aexists(id(), name.c_str()) > 0; }

std::vector<std::string> Group::AttrNames() const {
  std::vector<std::string> names;
  auto collect = [](hid_t, const char* n, const H5A_info_t*, void* op) -> herr_t {
    static_cast<std::vector<std::string>*>(op)->emplace_back(n);
    return 0;
  };
  hsize_t idx = 0;
  if (H5Aiterate2(id(), H5_INDEX_NAME, H5_ITER_INC, &idx, collect, &names) < 0) {
    Fail("", "cannot list attributes");
  }
  return names;
}

Handle Group::OpenAttr(const std::string& name) const {
  if (!HasAttr(name)) Fail("", fmt::format("missing attribute '{}'", name));
  Handle a(H5Aopen(id(), name.c_str(), H5P_DEFAULT));
  if (!a.valid()) Fail("", fmt::format("cannot open attribute '{}'", name));
  Handle space(H5Aget_space(a.id()));
  if (H5Sget_simple_extent_npoints(space.id()) != 1) {
    Fail("", fmt::format("attribute '{}': expected a scalar", name));
  }
  return a;
}

void Group::WriteScalarAttr(const std::string& name, hid_t file_type, hid_t mem_type,
                            const void* value) const {
  if (HasAttr(name)) H5Adelete(id(), name.c_str());
  Handle space(H5Screate(H5S_SCALAR));
  Handle a(H5Acreate2(id(), name.c_str(), file_type, space.id(), H5P_DEFAULT, H5P_DEFAULT));
  if (!a.valid() || H5Awrite(a.id(), mem_type, value) < 0) {
    Fail("", fmt::format("cannot write attribute '{}'", name));
  }
}

void Group::SetString(const std::string& name, const std::string& value) const {
  Handle type = FixedStringType(value.size());
  std::string buffer = value;
  buffer.resize(H5Tget_size(type.id()), '\0');
  WriteScalarAttr(name, type.id(), type.id(), buffer.data());
}

void Group::SetDouble(const std::string& name, double value) const {
  WriteScalarAttr(name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &value);
}

void Group::SetInt(const std::string& name, std::int64_t value) const {
  WriteScalarAttr(name, H5T_STD_I64LE, H5T_NATIVE_INT64, &value);
}

void Group::SetUInt64(const std::string& name, std::uint64_t value) const {
  WriteScalarAttr(name, H5T_STD_U64LE, H5T_NATIVE_UINT64, &value);
}

bool Group::AttrIsString(const std::string& name) const {
  Handle a = OpenAttr(name);
  Handle type(H5Aget_type(a.id()));
  return H5Tget_class(type.id()) == H5T_STRING;
}

// An attribute read as one value must hold one: an array would be read past the buffer's end.
void Group::CheckOneValue(hid_t space, const std::string& name) const {
  const hssize_t points = H5Sget_simple_extent_npoints(space);
  if (points != 1)
    Fail("", fmt::format("attribute '{}': holds {} values: must be one", name, points));
}

std::string Group::GetString(const std::string& name) const {
  Handle a = OpenAttr(name);
  Handle type(H5Aget_type(a.id()));
  if (H5Tget_class(type.id()) != H5T_STRING) {
    Fail("", fmt::format("attribute '{}': wrong dtype: expected string, got {}", name,
                         ClassName(H5Tget_class(type.id()))));
  }
  if (const std::string why = ImplausibleSize(a.id(), 1, H5Tget_size(type.id())); !why.empty())
    Fail("", fmt::format("attribute '{}': {}", name, why));
  Handle space(H5Aget_space(a.id()));
  CheckOneValue(space.id(), name);
  std::vector<std::string> out;
  auto read = [&](hid_t mem, void* buf) { return H5Aread(a.id(), mem, buf); };
  if (!ReadStringsWith(type.id(), space.id(), 1, read, &out)) {
    Fail("", fmt::format("attribute '{}': read failed", name));
  }
  return out.front();
}

void Group::ReadScalarAttr(const std::string& name, hid_t mem_type, void* out,
                           bool allow_float) const {
  Handle a = OpenAttr(name);
  Handle type(H5Aget_type(a.id()));
  const H5T_class_t cls = H5Tget_class(type.id());
  if (cls != H5T_INTEGER && !(allow_float && cls == H5T_FLOAT)) {
    Fail("", fmt::format("attribute '{}': wrong dtype: expected {}, got {}", name,
                         allow_float ? "number" : "integer", ClassName(cls)));
  }
  Handle space(H5Aget_space(a.id()));
  CheckOneValue(space.id(), name);
  if (H5Aread(a.id(), mem_type, out) < 0) {
    Fail("", fmt::format("attribute '{}': read failed", name));
  }
}

double Group::GetDouble(const std::string& name) const {
  double v = 0.0;
  ReadScalarAttr(name, H5T_NATIVE_DOUBLE, &v, true);
  return v;
}

// Integers are read in the sign they were stored with: HDF5's conversion clamps what does not
// fit (a stored −1 read as unsigned is 0, 2⁶⁴ − 1 read as signed is 2⁶³ − 1) without a word.
bool Group::AttrUnsigned(const std::string& name) const {
  Handle a = OpenAttr(name);
  Handle type(H5Aget_type(a.id()));
  return H5Tget_class(type.id()) == H5T_INTEGER && H5Tget_sign(type.id()) == H5T_SGN_NONE;
}

std::int64_t Group::GetInt(const std::string& name) const {
  if (AttrUnsigned(name)) {
    const std::uint64_t u = GetUInt64(name);
    if (u > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
      Fail("", fmt::format("attribute '{}' = {}: must be at most 2^63 - 1", name, u));
    return static_cast<std::int64_t>(u);
  }
  std::int64_t v = 0;
  ReadScalarAttr(name, H5T_NATIVE_INT64, &v, false);
  return v;
}

std::uint64_t Group::GetUInt64(const std::string& name) const {
  std::uint64_t v = 0;
  if (AttrUnsigned(name)) {
    ReadScalarAttr(name, H5T_NATIVE_UINT64, &v, false);
    return v;
  }
  std::int64_t i = 0;
  ReadScalarAttr(name, H5T_NATIVE_INT64, &i, false);
  if (i < 0) Fail("", fmt::format("attribute '{}' = {}: must be >= 0", name, i));
  return static_cast<std::uint64_t>(i);
}

int Group::GetInt32(const std::string& name) const {
  const std::int64_t v = GetInt(name);
  if (v < std::numeric_limits<int>::min() || v > std::numeric_limits<int>::max())
    Fail("", fmt::format("attribute '{}' = {}: must be in [-2^31, 2^31 - 1]", name, v));
  return static_cast<int>(v);
}

// ---------------------------------------------------------------------------------------------
// File

File::File(Handle file, const std::string& path)
    : path_(path),
      file_(std::move(file)),
      root_(Handle(H5Gopen2(file_.id(), "/", H5P_DEFAULT)), path, "/") {
  if (root_.id() < 0) throw Error(fmt::format("{}: cannot open root group", path));
}

namespace {

// Closing the file also closes every object still open in it, so no handle outlives File.
Handle StrongCloseFapl() {
  Handle fapl(H5Pcreate(H5P_FILE_ACCESS));
  H5Pset_fclose_degree(fapl.id(), H5F_CLOSE_STRONG);
  return fapl;
}

herr_t FindNonHardLink(hid_t group, const char* name, const H5L_info_t* info, void* found) {
  auto& out = *static_cast<std::string*>(found);
  if (info->type == H5L_TYPE_HARD) return 0;
  std::string target;
  if (info->type == H5L_TYPE_SOFT || info->type == H5L_TYPE_EXTERNAL) {
    std::vector<char> buf(std::min<std::size_t>(info->u.val_size, 4096) + 1, '\0');
    if (H5Lget_val(group, name, buf.data(), buf.size(), H5P_DEFAULT) >= 0) {
      if (info->type == H5L_TYPE_SOFT) {
        target = fmt::format(" to '{}'", buf.data());
      } else {
        const char* file = nullptr;
        const char* object = nullptr;
        unsigned flags = 0;
        if (H5Lunpack_elink_val(buf.data(), buf.size(), &flags, &file, &object) >= 0)
          target = fmt::format(" to '{}:{}'", file ? file : "", object ? object : "");
      }
    }
  }
  out = fmt::format("/{}: {} link{}", name,
                    info->type == H5L_TYPE_SOFT       ? "a soft"
                    : info->type == H5L_TYPE_EXTERNAL ? "an external"
                                                      : "a user-defined",
                    target);
  return 1;  // stop at the first
}

}  // namespace

std::string HeldOpenForWriting(const std::string& path, unsigned flags) {
  // HDF5 refuses a file another program holds open for writing (its file lock) with the same
  // failure as a corrupt one: opened once more without the lock, and closed at once, it tells
  // the two apart.
  Handle unlocked = StrongCloseFapl();
  H5Pset_file_locking(unlocked.id(), false, true);
  if (!Handle(H5Fopen(path.c_str(), flags, unlocked.id())).valid()) return "";
  return "another program holds it open for writing (HDF5 file lock); close it there, or set "
         "HDF5_USE_FILE_LOCKING=FALSE to read it as it is";
}

std::string FirstNonHardLink(hid_t file) {
  std::string found;
  if (H5Lvisit(file, H5_INDEX_NAME, H5_ITER_INC, FindNonHardLink, &found) < 0 && found.empty())
    return "its links cannot be listed";
  return found;
}

hid_t CreateInMemory(const std::string& path, hid_t fcpl, Handle fapl) {
  RemoveEntryAt(path);
  H5Pset_fapl_core(fapl.id(), 64 << 10, /*backing_store=*/1);  // grown 64 KiB at a time
  return H5Fcreate(path.c_str(), H5F_ACC_EXCL, fcpl, fapl.id());
}

void CloseWritten(Handle& file, const std::string& path) {
  errno = 0;
  if (!file.Reset())
    throw Error(fmt::format("{}: write failed: {}; nothing written", path,
                            errno != 0 ? std::strerror(errno) : "disk full or I/O error"));
}

File File::Create(const std::string& path) {
  SilenceErrors();
  CreateParentFolders(path);
  Handle fcpl(H5Pcreate(H5P_FILE_CREATE));
  H5Pset_obj_track_times(fcpl.id(), false);  // the root group too (see Group::Create)
  errno = 0;
  Handle f(CreateInMemory(path, fcpl.id(), StrongCloseFapl()));
  if (!f.valid())
    throw Error(fmt::format("{}: cannot create HDF5 file{}", path,
                            errno != 0 ? std::string(": ") + std::strerror(errno) : ""));
  File file(std::move(f), path);
  file.in_memory_ = true;
  return file;
}

bool File::IsHdf5(const std::string& path) {
  SilenceErrors();
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return false;
  return H5Fis_hdf5(path.c_str()) > 0;
}

File File::Open(const std::string& path, unsigned flags) {
  SilenceErrors();
  RefuseNonRegularInput(path);
  if (std::FILE* probe = std::fopen(path.c_str(), "rb")) {
    std::fclose(probe);
  } else {
    throw Error(fmt::format("{}: cannot open: {}", path, std::strerror(errno)));
  }
  if (H5Fis_hdf5(path.c_str()) <= 0) throw Error(fmt::format("{}: not an HDF5 file", path));
  Handle fapl = StrongCloseFapl();
  Handle f(H5Fopen(path.c_str(), flags, fapl.id()));
  if (!f.valid()) {
    // HDF5 refuses a file another program holds open for writing (its file lock) with the
    // same failure as a corrupt one: opened once more without the lock, and closed at once,
    // it tells the two apart.
    if (const std::string held = HeldOpenForWriting(path, flags); !held.empty())
      throw Error(fmt::format("{}: cannot open: {}", path, held));
    throw Error(fmt::format("{}: cannot open: truncated or corrupt HDF5 file", path));
  }
  return File(std::move(f), path);
}

File File::OpenReadOnly(const std::string& path) { return Open(path, H5F_ACC_RDONLY); }

File File::OpenReadWrite(const std::string& path) { return Open(path, H5F_ACC_RDWR); }

void File::Close() {
  root_.Close();
  if (in_memory_) return CloseWritten(file_, path_);
  if (!file_.Reset()) throw Error(fmt::format("{}: closing the file failed", path_));
}

}  // namespace ncp::h5
