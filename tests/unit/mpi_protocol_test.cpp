// The MPI plugin's wire protocol (src/plugins/mpi/mpi_protocol.h): every
// message round-trips, and a malformed one (truncated, oversized counts and
// strings, wrong magic or version, an unknown kind, bytes left over) is
// refused with a line naming what is wrong, never decoded in part.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "mpi_protocol.h"

namespace {

using namespace omptarget::mpi;

template <typename P>
std::vector<std::byte> bytesOf(const P &Payload) {
  Writer W;
  Payload.encode(W);
  return W.take();
}

TEST(MpiProtocol, HeaderRoundTrip) {
  Header H;
  H.Kind = MessageKind::Submit;
  H.RequestId = 0x1122334455667788u;
  H.DataTag = 77;
  H.DataBytes = uint64_t{5} << 32;
  CopyRequest C;
  C.Device = 3;
  C.Pointer = 0xdeadbeef000u;
  C.Bytes = H.DataBytes;
  C.Queue = 9;
  C.DataTag = 0x7ffffff0u;
  std::vector<std::byte> M = encodeMessage(H, C);
  ASSERT_GE(M.size(), kHeaderBytes);
  auto D = decodeHeader(M);
  ASSERT_TRUE(D) << D.error().message();
  EXPECT_EQ(D->Kind, MessageKind::Submit);
  EXPECT_EQ(D->RequestId, H.RequestId);
  EXPECT_EQ(D->DataTag, 77u);
  EXPECT_EQ(D->DataBytes, H.DataBytes);
  EXPECT_EQ(D->PayloadBytes, M.size() - kHeaderBytes);
  auto P = CopyRequest::decode(payloadOf(M));
  ASSERT_TRUE(P) << P.error().message();
  EXPECT_EQ(P->Device, 3);
  EXPECT_EQ(P->Pointer, C.Pointer);
  EXPECT_EQ(P->Bytes, C.Bytes);
  EXPECT_EQ(P->Queue, 9u);
  EXPECT_EQ(P->DataTag, 0x7ffffff0u);
}

TEST(MpiProtocol, HeaderIsLittleEndianOnTheWire) {
  Header H;
  H.Kind = MessageKind::Shutdown;
  std::vector<std::byte> M = encodeHeader(H);
  ASSERT_EQ(M.size(), kHeaderBytes);
  EXPECT_EQ(std::memcmp(M.data(), "OMPM", 4), 0);
  EXPECT_EQ(static_cast<int>(M[4]), kProtocolVersion);
  EXPECT_EQ(static_cast<int>(M[5]), 0);
}

TEST(MpiProtocol, RefusesForeignAndMismatchedHeaders) {
  Header H;
  H.Kind = MessageKind::Shutdown;
  std::vector<std::byte> Good = encodeHeader(H);
  ASSERT_TRUE(decodeHeader(Good));

  auto Expect = [](std::vector<std::byte> M, const char *Part) {
    auto D = decodeHeader(M);
    ASSERT_FALSE(D);
    EXPECT_NE(D.error().message().find(Part), std::string::npos) << D.error().message();
  };
  Expect({Good.begin(), Good.begin() + 10}, "shorter than the 40-byte header");
  std::vector<std::byte> M = Good;
  M[0] = std::byte{0};
  Expect(M, "not an omptarget MPI message");
  M = Good;
  M[4] = std::byte{kProtocolVersion + 1};
  Expect(M, omptarget::formatString("protocol version %d, this side speaks version %d",
                                    kProtocolVersion + 1, kProtocolVersion)
                .c_str());
  M = Good;
  M[6] = std::byte{200};
  Expect(M, "unknown message kind 200");
  M = Good;
  M.push_back(std::byte{1});  // a payload byte the header does not announce
  Expect(M, "the header says 0 payload bytes, 1 arrived");
  Header Big = H;
  Big.PayloadBytes = kMaxPayloadBytes + 1;
  Expect(encodeHeader(Big), "payload (at most");
  Header Tagless = H;
  Tagless.DataBytes = 10;  // data without a tag to receive it on
  Expect(encodeHeader(Tagless), "data tag 0 with 10 data bytes");
}

TEST(MpiProtocol, HelloReplyRoundTrip) {
  HelloReply R;
  R.HostName = "node17";
  R.Devices = {{"x86_64", "host", 0}, {"cuda", "NVIDIA H100 80GB HBM3", 1}};
  auto D = HelloReply::decode(bytesOf(R));
  ASSERT_TRUE(D) << D.error().message();
  EXPECT_EQ(D->HostName, "node17");
  ASSERT_EQ(D->Devices.size(), 2u);
  EXPECT_EQ(D->Devices[1].Plugin, "cuda");
  EXPECT_EQ(D->Devices[1].Name, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(D->Devices[1].LocalId, 1);
}

TEST(MpiProtocol, HelloReplyWithADeviceCountItsBytesCannotHold) {
  Writer W;
  W.u16(kProtocolVersion);
  W.string("node");
  W.u32(1000);  // 1000 devices announced, none sent
  auto D = HelloReply::decode(W.take());
  ASSERT_FALSE(D);
  EXPECT_NE(D.error().message().find("device count: 1000 elements"), std::string::npos)
      << D.error().message();
}

TEST(MpiProtocol, StringLongerThanItsLimitOrItsMessage) {
  Writer W;
  W.u64(0);
  W.u32(kMaxStringBytes + 1);  // PointerReply's message, too long
  auto D = PointerReply::decode(W.take());
  ASSERT_FALSE(D);
  EXPECT_NE(D.error().message().find("field message: a string of 4097 bytes"), std::string::npos)
      << D.error().message();

  Writer Short;
  Short.u64(0);
  Short.u32(10);  // 10 bytes announced, 3 sent
  Short.u16(0x4141);
  Short.u16(0x41);
  std::vector<std::byte> Bytes = Short.take();
  Bytes.pop_back();
  auto E = PointerReply::decode(Bytes);
  ASSERT_FALSE(E);
  EXPECT_NE(E.error().message().find("3 left in the message"), std::string::npos)
      << E.error().message();
}

TEST(MpiProtocol, LaunchRoundTripAndArgumentLimit) {
  LaunchRequest L;
  L.Device = 1;
  L.Queue = 4;
  L.Entry = 0x7000;
  L.NumTeams[0] = 128;
  L.ThreadLimit[0] = 256;
  L.DynCGroupMem = 1024;
  L.KernelArgsVersion = 3;
  L.IsTeamRegion = 1;
  L.LoopTripCount = 1u << 20;
  L.Args = {0x1000, 42, 0x2000};
  L.Offsets = {0, 0, -16};
  auto D = LaunchRequest::decode(bytesOf(L));
  ASSERT_TRUE(D) << D.error().message();
  EXPECT_EQ(D->Args, L.Args);
  EXPECT_EQ(D->Offsets, L.Offsets);
  EXPECT_EQ(D->NumTeams[0], 128u);
  EXPECT_EQ(D->ThreadLimit[0], 256u);
  EXPECT_EQ(D->LoopTripCount, L.LoopTripCount);
  EXPECT_EQ(D->KernelArgsVersion, 3u);

  std::vector<std::byte> Bytes = bytesOf(L);
  // The argument count sits after 4+8+8+12+12+4+4+4+8 = 64 bytes.
  Bytes[64] = std::byte{0xff};
  Bytes[65] = std::byte{0xff};
  auto Bad = LaunchRequest::decode(Bytes);
  ASSERT_FALSE(Bad);
  EXPECT_NE(Bad.error().message().find("argument count: 65535 elements (at most 4096"),
            std::string::npos)
      << Bad.error().message();
}

TEST(MpiProtocol, TrailingBytesAreRefused) {
  std::vector<std::byte> Bytes = bytesOf(QueueRequest{2, 5});
  ASSERT_TRUE(QueueRequest::decode(Bytes));
  Bytes.push_back(std::byte{0});
  auto D = QueueRequest::decode(Bytes);
  ASSERT_FALSE(D);
  EXPECT_NE(D.error().message().find("1 bytes left over"), std::string::npos)
      << D.error().message();
}

TEST(MpiProtocol, StatusReplyCodes) {
  StatusReply S;
  S.Code = StatusReply::kFailed;
  S.Message = "cuMemAlloc: out of memory";
  auto D = StatusReply::decode(bytesOf(S));
  ASSERT_TRUE(D);
  EXPECT_EQ(D->Code, StatusReply::kFailed);
  EXPECT_EQ(D->Message, S.Message);
  S.Code = 7;
  auto Bad = StatusReply::decode(bytesOf(S));
  ASSERT_FALSE(Bad);
  EXPECT_NE(Bad.error().message().find("unknown status code 7"), std::string::npos);
}

// Every prefix of every valid payload is refused (a truncated message never
// decodes), and no prefix crashes the decoder.
TEST(MpiProtocol, EveryTruncationIsRefused) {
  HelloReply H;
  H.HostName = "n";
  H.Devices = {{"cuda", "gpu", 0}};
  LaunchRequest L;
  L.Args = {1, 2};
  L.Offsets = {0, 8};
  const std::vector<std::vector<std::byte>> Payloads =
      {bytesOf(HelloRequest{}), bytesOf(H),
       bytesOf(AllocRequest{}), bytesOf(FreeRequest{}),
       bytesOf(CopyRequest{}),  bytesOf(L),
       bytesOf(QueueRequest{}), bytesOf(PointerReply{}),
       bytesOf(StatusReply{}),  bytesOf(EventRequest{2, 3, 4})};
  for (size_t K = 0; K < Payloads.size(); ++K) {
    const std::vector<std::byte> &P = Payloads[K];
    for (size_t N = 0; N < P.size(); ++N) {
      std::span<const std::byte> Cut(P.data(), N);
      bool Decoded = false;
      switch (K) {
        case 0: Decoded = static_cast<bool>(HelloRequest::decode(Cut)); break;
        case 1: Decoded = static_cast<bool>(HelloReply::decode(Cut)); break;
        case 2: Decoded = static_cast<bool>(AllocRequest::decode(Cut)); break;
        case 3: Decoded = static_cast<bool>(FreeRequest::decode(Cut)); break;
        case 4: Decoded = static_cast<bool>(CopyRequest::decode(Cut)); break;
        case 5: Decoded = static_cast<bool>(LaunchRequest::decode(Cut)); break;
        case 6: Decoded = static_cast<bool>(QueueRequest::decode(Cut)); break;
        case 7: Decoded = static_cast<bool>(PointerReply::decode(Cut)); break;
        case 8: Decoded = static_cast<bool>(StatusReply::decode(Cut)); break;
        case 9: Decoded = static_cast<bool>(EventRequest::decode(Cut)); break;
      }
      EXPECT_FALSE(Decoded) << "payload " << K << " cut to " << N << " of " << P.size()
                            << " bytes decoded";
    }
  }
}

TEST(MpiProtocol, LoadImageRoundTripAndReplyTag) {
  LoadImageRequest Req;
  Req.Device = 2;
  Req.Entries.push_back(ImageEntry{"__omp_offloading_kernel", 0x401000, 0, 0, 0});
  Req.Entries.push_back(ImageEntry{"global_x", 0x404000, 8, 0, 0});
  Header H;
  H.Kind = MessageKind::LoadImage;
  H.ReplyTag = 40;
  H.DataTag = 40;
  H.DataBytes = 123456;
  std::vector<std::byte> M = encodeMessage(H, Req);
  auto D = decodeHeader(M);
  ASSERT_TRUE(D) << D.error().message();
  EXPECT_EQ(D->Kind, MessageKind::LoadImage);
  EXPECT_EQ(D->ReplyTag, 40u);
  auto P = LoadImageRequest::decode(payloadOf(M));
  ASSERT_TRUE(P) << P.error().message();
  ASSERT_EQ(P->Entries.size(), 2u);
  EXPECT_EQ(P->Entries[1].Name, "global_x");
  EXPECT_EQ(P->Entries[1].Size, 8u);

  LoadImageReply Reply;
  Reply.Image = 9;
  Reply.Entries = Req.Entries;
  auto R = LoadImageReply::decode(bytesOf(Reply));
  ASSERT_TRUE(R) << R.error().message();
  EXPECT_EQ(R->Entries[0].HostAddress, 0x401000u);

  // An entry count its bytes cannot hold, and a tag beyond the bound.
  std::vector<std::byte> Bad = bytesOf(Req);
  Bad[4] = std::byte{0xff};
  auto B = LoadImageRequest::decode(Bad);
  ASSERT_FALSE(B);
  EXPECT_NE(B.error().message().find("entry count"), std::string::npos) << B.error().message();
  H.ReplyTag = 0x80000000u;
  auto T = decodeHeader(encodeMessage(H, Req));
  ASSERT_FALSE(T);
  EXPECT_NE(T.error().message().find("above the largest tag"), std::string::npos);
}

}  // namespace
