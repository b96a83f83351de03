// Device properties for people and scripts: the labels and units of
// support/device_properties.h, and omptarget-info's listings
// (tools/omptarget-info/listing.h): JSON escaping, integers as numbers, the
// peer matrix from each device's `peers`.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "device_properties.h"
#include "listing.h"

using namespace omptarget;

namespace {

info::DeviceProperties device(int Num, const char *Plugin, const char *Peers,
                              std::vector<std::pair<std::string, std::string>> More = {}) {
  info::DeviceProperties D;
  D.DeviceNum = Num;
  D.Props = {{"device_num", std::to_string(Num)}, {"plugin", Plugin}, {"peers", Peers}};
  for (auto &KV : More) D.Props.push_back(KV);
  return D;
}

TEST(DeviceProperties, LabelsComeFromTheTableOrTheKey) {
  EXPECT_EQ(props::propertyLabel("memory_total_bytes"), "Memory total");
  EXPECT_EQ(props::propertyLabel("max_teams"), "Max teams (grid x)");
  EXPECT_EQ(props::propertyLabel("some_new_key"), "Some new key");
  EXPECT_EQ(props::propertyLabel(""), "");
}

TEST(DeviceProperties, ValuesShowTheUnitTheKeyNames) {
  EXPECT_EQ(props::propertyDisplayValue("memory_total_bytes", "17179869184"),
            "17179869184 bytes (16.0 GiB)");
  EXPECT_EQ(props::propertyDisplayValue("cached_bytes", "512"), "512 bytes");
  EXPECT_EQ(props::propertyDisplayValue("memory_free_bytes", "unknown"), "unknown");
  EXPECT_EQ(props::propertyDisplayValue("clock_khz", "1980000"), "1980000 kHz (1980 MHz)");
  EXPECT_EQ(props::propertyDisplayValue("queue_delay_us", "50"), "50 us");
  EXPECT_EQ(props::propertyDisplayValue("peers", ""), "none");
  EXPECT_EQ(props::propertyDisplayValue("peers", "1,2"), "1, 2");
  EXPECT_EQ(props::propertyDisplayValue("name", "NVIDIA H200"), "NVIDIA H200");
}

TEST(DeviceProperties, LinesPutValuesInColumn35) {
  EXPECT_EQ(props::propertyLine("name", "x"), "    Name:                          x");
  std::string Long = props::propertyLine("pending_releases", "0");
  EXPECT_EQ(Long.find("0"), 35u) << Long;
  // A label too long for the column still gets a space before the value.
  std::string Longer = props::propertyLine("a_key_whose_label_is_longer_than_the_column", "v");
  EXPECT_NE(Longer.find(": v"), std::string::npos) << Longer;
}

TEST(DeviceProperties, DecimalIntegers) {
  for (const char *Yes : {"0", "7", "-3", "18446744073709551615", "132"})
    EXPECT_TRUE(props::isDecimalInteger(Yes)) << Yes;
  for (const char *No : {"", "-", "-0", "007", "1.5", "9.0", "1,2", "0x10", " 1", "1 ", "on",
                         "123456789012345678901"})
    EXPECT_FALSE(props::isDecimalInteger(No)) << No;
}

TEST(InfoListing, JsonStringsAreEscaped) {
  EXPECT_EQ(info::jsonString("plain"), "\"plain\"");
  EXPECT_EQ(info::jsonString("a\"b\\c"), "\"a\\\"b\\\\c\"");
  EXPECT_EQ(info::jsonString("tab\there\nnew\r\b\f"), "\"tab\\there\\nnew\\r\\b\\f\"");
  EXPECT_EQ(info::jsonString(std::string("\x01\x1f", 2)), "\"\\u0001\\u001f\"");
  EXPECT_EQ(info::jsonString(std::string("nul\0x", 5)), "\"nul\\u0000x\"");
  EXPECT_EQ(info::jsonString("caf\xc3\xa9"), "\"caf\xc3\xa9\"") << "UTF-8 as it is";
}

TEST(InfoListing, IntegersAreNumbersEverythingElseStrings) {
  EXPECT_EQ(info::jsonValue("132"), "132");
  EXPECT_EQ(info::jsonValue("-1"), "-1");
  EXPECT_EQ(info::jsonValue("9.0"), "\"9.0\"");
  EXPECT_EQ(info::jsonValue("1,2"), "\"1,2\"");
  EXPECT_EQ(info::jsonValue("007"), "\"007\"");
  EXPECT_EQ(info::jsonValue(""), "\"\"");
}

TEST(InfoListing, PeersParse) {
  EXPECT_EQ(info::parsePeers(""), std::vector<int>{});
  EXPECT_EQ(info::parsePeers("3"), std::vector<int>{3});
  EXPECT_EQ(info::parsePeers("1,2,10"), (std::vector<int>{1, 2, 10}));
  EXPECT_EQ(info::parsePeers("1,x,,-2,4"), (std::vector<int>{1, 4}));
}

TEST(InfoListing, PeerMatrixFollowsEachDevicesPeers) {
  std::vector<info::DeviceProperties> Devs = {device(0, "x86_64", "1"), device(1, "x86_64", "0"),
                                              device(2, "cuda", "")};
  std::vector<std::vector<int>> M = info::peerMatrix(Devs);
  EXPECT_EQ(M, (std::vector<std::vector<int>>{{-1, 1, 0}, {1, -1, 0}, {0, 0, -1}}));
}

TEST(InfoListing, JsonDocument) {
  std::vector<info::DeviceProperties> Devs = {device(0, "x86_64", "1",
                                                     {{"name", "CPU \"fast\""}, {"cpus", "16"}}),
                                              device(1, "x86_64", "0,2")};
  Devs[1].Described = false;
  EXPECT_EQ(info::jsonListing(Devs, false),
            "{\"offload_disabled\":false,\"devices\":[\n"
            "  {\"device_num\":0,\"plugin\":\"x86_64\",\"peers\":[1],\"name\":\"CPU "
            "\\\"fast\\\"\",\"cpus\":16},\n"
            "  {\"device_num\":1,\"plugin\":\"x86_64\",\"peers\":[0,2],\"error\":\"the device "
            "could not be described\"}\n"
            "],\"peer_access\":[[null,true],[true,null]]}\n");
  EXPECT_EQ(info::jsonListing({}, true),
            "{\"offload_disabled\":true,\"devices\":[],\"peer_access\":[]}\n");
}

TEST(InfoListing, HumanListingGroupsPerDeviceAndEndsWithTheMatrix) {
  std::vector<info::DeviceProperties> Devs = {device(0, "x86_64", "1",
                                                     {{"queue_mode", "synchronous"}}),
                                              device(1, "x86_64", "0"), device(2, "cuda", "")};
  std::string Out = info::humanListing(Devs);
  EXPECT_EQ(Out.find("omptarget-info: 3 devices (x86_64: 2, cuda: 1)\n"), 0u) << Out;
  EXPECT_NE(Out.find("\nDevice 0 (x86_64 plugin):\n    Device number:                 0\n"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find("    Queue mode:                    synchronous\n"), std::string::npos) << Out;
  EXPECT_NE(Out.find("\nDevice 2 (cuda plugin):\n"), std::string::npos) << Out;
  EXPECT_NE(Out.find("    Direct copies to devices:      none\n"), std::string::npos) << Out;
  EXPECT_NE(Out.find("Peer access (yes: the row's device copies to the column's device directly):\n"
                     "           0    1    2\n"
                     "      0    -  yes   no\n"
                     "      1  yes    -   no\n"
                     "      2   no   no    -\n"),
            std::string::npos)
      << Out;
  EXPECT_EQ(info::humanListing({}), "omptarget-info: 0 devices (no plugin found a device)\n");
}

}  // namespace
