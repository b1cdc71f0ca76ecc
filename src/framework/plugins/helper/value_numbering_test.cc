#include "framework/plugins/helper/value_numbering.h"

#include <gtest/gtest.h>

namespace ksched::framework::helper {
namespace value_numbering_test {

TEST(ValueNumbering, NumbersInOrderOfFirstAppearance) {
  ValueNumbering n;
  const StrId b = Intern("value-numbering-b"), a = Intern("value-numbering-a");
  EXPECT_EQ(n.Find(a), ValueNumbering::kNone);
  EXPECT_EQ(n.Number(b), 0u);
  EXPECT_EQ(n.Number(a), 1u);
  EXPECT_EQ(n.Number(b), 0u);
  EXPECT_EQ(n.Find(a), 1u);
  EXPECT_EQ(n.Find(Intern("value-numbering-never")), ValueNumbering::kNone);
  EXPECT_EQ(n.values(), (std::vector<StrId>{b, a}));
}

TEST(ValueNumbering, TheEmptyStringIsAValue) {
  ValueNumbering n;
  EXPECT_EQ(n.Number(kEmptyStr), 0u);
  EXPECT_EQ(n.Find(kEmptyStr), 0u);
  EXPECT_EQ(n.values().size(), 1u);
}

}  // namespace value_numbering_test
}  // namespace ksched::framework::helper
