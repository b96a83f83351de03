// Fuzz target: the MPI plugin's wire protocol (src/plugins/mpi/
// mpi_protocol.h), which decodes bytes from another process. The input's
// first byte picks the decoder (0: a whole control message, header and the
// payload its kind names; 1-12: one payload type), the rest is the message.
//
// Asserted: no input crashes or reads out of bounds (ASan, UBSan); a header
// that decodes has a known kind, this side's version and a payload size
// equal to the bytes that follow; a payload that decodes encodes back to
// the very same bytes (the decoders accept exactly what the encoders write,
// nothing shorter, longer or different).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "fuzz_check.h"
#include "mpi_protocol.h"

using omptarget::Expected;
using namespace omptarget::mpi;

namespace {

template <typename P>
void roundTrip(std::span<const std::byte> Bytes) {
  Expected<P> Decoded = P::decode(Bytes);
  if (!Decoded) return;
  Writer W;
  Decoded->encode(W);
  const std::vector<std::byte> Again = W.take();
  FUZZ_CHECK(Again.size() == Bytes.size());
  FUZZ_CHECK(std::equal(Again.begin(), Again.end(), Bytes.begin()));
}

void payload(int Which, std::span<const std::byte> Bytes) {
  switch (Which) {
    case 1: roundTrip<HelloRequest>(Bytes); break;
    case 2: roundTrip<HelloReply>(Bytes); break;
    case 3: roundTrip<AllocRequest>(Bytes); break;
    case 4: roundTrip<FreeRequest>(Bytes); break;
    case 5: roundTrip<CopyRequest>(Bytes); break;
    case 6: roundTrip<LaunchRequest>(Bytes); break;
    case 7: roundTrip<QueueRequest>(Bytes); break;
    case 8: roundTrip<PointerReply>(Bytes); break;
    case 9: roundTrip<StatusReply>(Bytes); break;
    case 10: roundTrip<LoadImageRequest>(Bytes); break;
    case 11: roundTrip<LoadImageReply>(Bytes); break;
    case 12: roundTrip<ExchangeRequest>(Bytes); break;
    case 13: roundTrip<EventRequest>(Bytes); break;
    default: break;
  }
}

// The payload type of each kind (0: none).
int payloadOfKind(MessageKind Kind) {
  switch (Kind) {
    case MessageKind::Hello: return 1;
    case MessageKind::HelloReply: return 2;
    case MessageKind::Alloc: return 3;
    case MessageKind::Free: return 4;
    case MessageKind::Submit:
    case MessageKind::Retrieve: return 5;
    case MessageKind::Launch: return 6;
    case MessageKind::Synchronize:
    case MessageKind::Query: return 7;
    case MessageKind::PointerReply: return 8;
    case MessageKind::StatusReply: return 9;
    case MessageKind::Shutdown: return 0;
    case MessageKind::LoadImage: return 10;
    case MessageKind::LoadImageReply: return 11;
    case MessageKind::Exchange: return 12;
    case MessageKind::RecordEvent:
    case MessageKind::WaitEvent:
    case MessageKind::SyncEvent:
    case MessageKind::DestroyEvent: return 13;
  }
  return 0;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  if (Size == 0) return 0;
  std::span<const std::byte> Bytes(reinterpret_cast<const std::byte *>(Data) + 1, Size - 1);
  const int Which = Data[0] % 14;
  if (Which != 0) {
    payload(Which, Bytes);
    return 0;
  }
  Expected<Header> H = decodeHeader(Bytes);
  if (!H) return 0;
  FUZZ_CHECK(H->Version == kProtocolVersion);
  FUZZ_CHECK(static_cast<uint16_t>(H->Kind) >= kFirstKind &&
             static_cast<uint16_t>(H->Kind) <= kLastKind);
  FUZZ_CHECK(H->PayloadBytes == Bytes.size() - kHeaderBytes);
  FUZZ_CHECK((H->DataTag == 0) == (H->DataBytes == 0));
  payload(payloadOfKind(H->Kind), payloadOf(Bytes));
  return 0;
}
