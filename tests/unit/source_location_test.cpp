// Source locations from clang's ident_t and map names (src/core/info.h):
// File is the base name LLVM 14 prints in messages, Path the whole path
// clang recorded (the profile's).
#include <gtest/gtest.h>

#include "info.h"

namespace omptarget::core::info {
namespace {

ident_t identFor(const char *Source) {
  ident_t Loc{};
  Loc.psource = Source;
  return Loc;
}

TEST(SourceLocationTest, FileIsTheBaseNameAndPathTheWholePath) {
  for (const char *Source : {";/tmp/loc/sub/dir/prog.c;main;6;1;;", ";sub/dir/prog.c;main;6;1;;",
                             ";prog.c;main;6;1;;"}) {
    ident_t Loc = identFor(Source);
    SourceLocation L = location(&Loc);
    EXPECT_TRUE(L.Known) << Source;
    EXPECT_EQ(L.File, "prog.c") << Source;
    EXPECT_EQ(";" + L.Path + ";main;6;1;;", Source);
    EXPECT_EQ(L.Function, "main");
    EXPECT_EQ(L.Line, 6);
    EXPECT_EQ(L.Column, 1);
  }
}

TEST(SourceLocationTest, UnknownWithoutDebugInfo) {
  ident_t Loc = identFor(";unknown;unknown;0;0;;");
  SourceLocation L = location(&Loc);
  EXPECT_FALSE(L.Known);
  EXPECT_EQ(L.File, "unknown");
  EXPECT_FALSE(location(nullptr).Known);
}

TEST(SourceLocationTest, DeclarationOfAMapName) {
  static char Text[] = ";x;/tmp/loc/sub/dir/prog.c;4;7;;";
  map_var_info_t Name = Text;
  EXPECT_EQ(varName(Name), "x");
  SourceLocation D = declaration(Name);
  EXPECT_EQ(D.File, "prog.c");
  EXPECT_EQ(D.Path, "/tmp/loc/sub/dir/prog.c");
  EXPECT_EQ(D.Line, 4);
  EXPECT_EQ(D.Column, 7);
  EXPECT_EQ(declaration(nullptr).File, "unknown");
}

}  // namespace
}  // namespace omptarget::core::info
