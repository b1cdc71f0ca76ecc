// Replays the fuzz corpus and every input that once crashed a fuzz target
// (tests/fuzz/corpus/<target>/ and tests/fuzz/regressions/<target>/) through
// the same target functions the libFuzzer executables run (fuzz/targets.h),
// so that the regular and the ASan+UBSan builds check them on every run.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "fuzz/targets.h"

namespace fuzz_regression_test {

namespace fs = std::filesystem;

class FuzzInputs : public ::testing::TestWithParam<ksched::fuzz::Target> {};

size_t ReplayDir(const fs::path& dir, const ksched::fuzz::Target& target) {
  if (!fs::is_directory(dir)) return 0;
  size_t n = 0;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir)) {
    if (!entry.is_regular_file() || entry.path().filename().string().starts_with(".")) continue;
    std::ifstream in(entry.path(), std::ios::binary);
    std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    SCOPED_TRACE(entry.path().string());
    target.run(data);  // a failure aborts, naming the invariant
    ++n;
  }
  return n;
}

TEST_P(FuzzInputs, CorpusAndRegressions) {
  const ksched::fuzz::Target& target = GetParam();
  fs::path root = fs::path(KSCHED_SOURCE_DIR) / "tests" / "fuzz";
  size_t seeds = ReplayDir(root / "corpus" / target.name, target);
  ReplayDir(root / "regressions" / target.name, target);
  EXPECT_GT(seeds, 0u) << "no seed corpus for " << target.name;
}

INSTANTIATE_TEST_SUITE_P(AllTargets, FuzzInputs, ::testing::ValuesIn(ksched::fuzz::AllTargets()),
                         [](const ::testing::TestParamInfo<ksched::fuzz::Target>& info) {
                           return std::string(info.param.name);
                         });

TEST(FuzzTargets, EveryTargetHasAnEntryPoint) {
  fs::path dir = fs::path(KSCHED_SOURCE_DIR) / "fuzz";
  for (const ksched::fuzz::Target& t : ksched::fuzz::AllTargets()) {
    EXPECT_TRUE(fs::exists(dir / (std::string(t.name) + "_fuzz.cc"))) << t.name;
  }
}

}  // namespace fuzz_regression_test
