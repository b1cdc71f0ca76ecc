// Go's %q (strconv.Quote) for a string: double quotes around it, with Go's
// escapes for quotes, backslashes, control characters, non-printable runes
// and invalid UTF-8 bytes. Error messages that embed user input use it so
// that they read exactly like upstream's.
#pragma once

#include <string>
#include <string_view>

namespace ksched {

std::string GoQuote(std::string_view s);

}  // namespace ksched
