#include "util/stable_vector.h"

#include <gtest/gtest.h>

#include <string>

namespace ksched {
namespace stable_vector_test {

// Counts live instances, so a leak or a double destruction shows.
struct Tracked {
  static inline int live = 0;
  std::string value;
  explicit Tracked(std::string v) : value(std::move(v)) { ++live; }
  Tracked(Tracked&& o) noexcept : value(std::move(o.value)) { ++live; }
  ~Tracked() { --live; }
};

TEST(StableVector, ElementsNeverMoveAsItGrows) {
  Tracked::live = 0;
  StableVector<Tracked, 4> v;
  std::vector<const Tracked*> where;
  for (int i = 0; i < 37; ++i) {
    Tracked& t = v.emplace_back("pod-" + std::to_string(i));
    where.push_back(&t);
    EXPECT_EQ(&v.back(), &t);
  }
  ASSERT_EQ(v.size(), 37u);
  for (size_t i = 0; i < v.size(); ++i) {
    EXPECT_EQ(&v[i], where[i]) << i;
    EXPECT_EQ(v[i].value, "pod-" + std::to_string(i));
  }
  EXPECT_EQ(Tracked::live, 37);
}

TEST(StableVector, MoveHandsOverTheElementsAndClearDestroysThem) {
  Tracked::live = 0;
  {
    StableVector<Tracked, 3> a;
    for (int i = 0; i < 7; ++i) a.push_back(Tracked(std::to_string(i)));
    const Tracked* first = &a[0];
    StableVector<Tracked, 3> b(std::move(a));
    EXPECT_TRUE(a.empty());
    EXPECT_EQ(&b[0], first);
    EXPECT_EQ(b[6].value, "6");
    StableVector<Tracked, 3> c;
    c.emplace_back("gone");
    c = std::move(b);
    EXPECT_EQ(c.size(), 7u);
    EXPECT_EQ(Tracked::live, 7);
    c.clear();
    EXPECT_EQ(Tracked::live, 0);
    c.emplace_back("again");
    EXPECT_EQ(c[0].value, "again");
  }
  EXPECT_EQ(Tracked::live, 0);
}

}  // namespace stable_vector_test
}  // namespace ksched
